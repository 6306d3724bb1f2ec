#pragma once
// Beyond the paper: a hill climb on the integer designs, judged by Nestor's cost model.
//
// The paper's rounding looks only near each relaxed optimum (n nearest divisors per level), and
// the relaxed programs are posynomial bounds, not the cost model: the best integer design can
// lie a few factor moves away (a prime factor of a trip count moved to another level, or two
// adjacent outer loops swapped; or two factor moves at once, which can trade a factor between
// two dimensions at one level). From the best rounded candidates, every such neighbour that
// fits (capacities, PEs; in co-design R and S the smallest powers of two holding the tiles, P
// the PEs used, inside the area) is scored by evaluate(), the best improving one is taken, and
// the climb stops at a design no neighbour improves, or at the evaluation budget.
#include "solvers/thistle/ThistleOptimizer.h"
#include "solvers/thistle/ThistleProgram.h"

#include <vector>

namespace nestor::thistle {

struct PolishStats {
    int starts = 0;
    int evaluations = 0;   // designs scored by the cost model
    int improvements = 0;  // steps taken
};

// The neighbours of a design that pass the filters: each tiled dimension's prime factor moved
// from one of its four trip counts to another, and each pair of adjacent DRAM-level or
// SRAM-level loops swapped. Exposed for the tests.
struct PolishNeighbour {
    Permutation perm;
    std::vector<std::int64_t> trips;
};
std::vector<PolishNeighbour> polishNeighbours(const ThistleLayer& layer, const Permutation& perm, const std::vector<std::int64_t>& trips);
// Two factor moves at once (every pair of the moves above, applied in turn).
std::vector<PolishNeighbour> polishPairNeighbours(const ThistleLayer& layer, const Permutation& perm, const std::vector<std::int64_t>& trips);

// Climbs from each start (scored, valid candidates of `layer`) and returns the best design
// reached (the best start when nothing improves). `spec` is the optimizer's program spec
// (capacities, area budget, technology); `base` the architecture candidates are built from.
SolvedCandidate polishDesigns(const ThistleLayer& layer, const Architecture& base, const ProgramSpec& spec,
                              const OptimizeOptions& options, const std::vector<const SolvedCandidate*>& starts,
                              PolishStats* stats = nullptr);

} // namespace nestor::thistle
