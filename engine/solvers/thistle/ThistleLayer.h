#pragma once
// The Thistle view of one layer on a three-level hierarchy (DRAM -> shared SRAM -> PE array
// of register files -> MACs), as in the paper's Fig. 1 and Section III:
//  * tiled dimensions (bound > 1, not filters): four trip counts each, outermost first: the
//    DRAM-level loop over SRAM tiles, the SRAM-level temporal loop over register tiles, the
//    spatial loop across PEs, and the register-level loop;
//  * filter dimensions (dimensions the output does not use that share a rank with another
//    dimension: R and S of a convolution) stay whole in the register tile (the paper's first
//    pruning rule: small odd sizes, not worth splitting);
//  * a permutation = the orders of the DRAM-level and SRAM-level loops (the register level's
//    order and the spatial order change no count).
// In Nestor terms: storage levels [DRAM, SRAM, RF]; the DRAM level holds the DRAM loops, the
// SRAM level its temporal loops and the PE loops on X, the RF level the register loops.
#include "solvers/thistle/Algorithm1.h"
#include "workload/Workload.h"

#include <string>
#include <vector>

namespace nestor::thistle {

inline constexpr int kDramLevel = 0, kSramLevel = 1, kRegisterLevel = 2;

struct ThistleLayer {
    Workload w;
    std::vector<int> tiled;   // dimensions with free trip counts
    std::vector<int> whole;   // dimensions kept whole in the register tile (filters, or bound 1)
    // Per dimension (index = dimension; -1 when the dimension has no such loop).
    std::vector<int> varDram, varSram, varPe, varReg;
    int numNestVars = 0;
    std::vector<double> fixedTrips;  // per nest variable: > 0 for a fixed trip count (whole dims)
};

ThistleLayer makeThistleLayer(const Workload& w);

struct Permutation {
    std::vector<int> dram;  // tiled dimensions, outermost first
    std::vector<int> sram;
    std::string text(const Workload& w) const;  // e.g. "DRAM[C M P Q] SRAM[M C Q P]" (outer to inner)
};

TileNest buildNest(const ThistleLayer& layer, const Permutation& perm);

// Every pair of orders, then the paper's pruning: two permutations whose symbolic volumes and
// footprints (Algorithm 1, every tensor and level) are identical give the same program, so one
// is kept (this is the paper's "once CanHoist is false for every tensor the order of the outer
// loops does not matter", applied exactly); and when the layer is symmetric in P and Q (same
// bounds, strides, dilations, filter sizes), a permutation and its P<->Q mirror are one.
std::vector<Permutation> prunedPermutations(const ThistleLayer& layer, long long* before = nullptr);

} // namespace nestor::thistle
