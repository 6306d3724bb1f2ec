#pragma once
// Thistle end to end for one layer: pruned permutations -> one geometric program each (Eq. 3
// or Eq. 5) solved with Ipopt -> the best relaxed programs rounded to integers -> every
// surviving candidate turned into a Nestor Architecture + Mapping and re-scored by evaluate(),
// which decides. The solver's own estimate is kept beside the model's figures.
//
// The architecture must have the paper's shape (ThistleLayer.h): storage levels
// [backing store (DRAM), one SRAM, one register file per PE] and the MACs, one per register
// file, keeping every tensor everywhere.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "solvers/thistle/Rounding.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace nestor::thistle {

struct OptimizeOptions {
    Objective objective = Objective::Energy;
    bool codesign = false;            // Eq. 5: R, S and the PE count free under area_um2
    double area_um2 = 0.0;
    int topPermutations = 32;         // relaxed programs rounded, best first
    int candidatesPerPermutation = 8; // rounded candidates re-scored by the cost model, best solver estimate first (and ties)
    int threads = 2;                  // rounding and scoring of the programs (Ipopt solves one program at a time)
    RoundingOptions rounding;
    GpSolverOptions gp;
    std::function<void(const std::string&)> progress;  // one line per step (may be empty)
    const std::atomic<bool>* cancel = nullptr;
};

struct SolvedCandidate {
    Permutation perm;
    std::vector<std::int64_t> trips;
    Architecture arch;
    Mapping mapping;
    Evaluation eval;                 // Nestor's cost model: the figures that decide
    double solverEnergy_pJ = 0.0;    // Thistle's estimate (exact integer Algorithm 1 counts)
    double solverCycles = 0.0;
    double relaxedObjective = 0.0;   // the continuous program's optimum (pJ/MAC or cycles)
    std::int64_t registers = 0, sramWords = 0, pes = 0;
    double area_um2 = 0.0;
};

struct LayerOptimization {
    std::string layer;
    bool ok = false;
    bool cancelled = false;
    std::string error;               // why there is no result (names the cause)
    long long permutationsBefore = 0;
    int permutations = 0;            // after pruning
    int programsSolved = 0;
    long long solverIterations = 0;  // Ipopt iterations over every program
    int candidatesEvaluated = 0;
    SolvedCandidate best;
    std::vector<SolvedCandidate> candidates;  // every valid re-scored candidate, in scoring order (best among them)
    double seconds = 0.0;
};

// The smallest tiles of a layer (every tiled trip count 1 below DRAM, filters whole): the
// registers per PE and SRAM words any architecture needs to run it at all.
struct MinimumTiles {
    double registers = 0, sramWords = 0;
};
MinimumTiles minimumTiles(const Workload& w);

// The shape check; throws NestorError naming the architecture field that does not fit.
void checkThistleArchitecture(const Architecture& a);

// `arch` has its energies applied already (applyEnergyModel). Co-design rebuilds the
// architecture with the "thistle-45nm" energy model for each candidate's R, S and PE count.
LayerOptimization optimizeLayer(const Workload& w, const Architecture& arch, const OptimizeOptions& options);

// The architecture of a co-design candidate: `base` with R registers per PE, S SRAM words and
// P PEs (one register file and one MAC each, on a 1 x P mesh), energies from thistle-45nm.
Architecture codesignArchitecture(const Architecture& base, std::int64_t registers, std::int64_t sramWords, std::int64_t pes);

} // namespace nestor::thistle
