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
    int polishStarts = 4;             // best distinct rounded designs the cost-model hill climb starts from (0: the paper's rounding alone; Polish.h)
    int polishEvaluations = 20000;    // cost-model evaluations the climb may spend per layer
    int polishKicks = 100;             // random jumps from the best design, each climbed again (iterated local search)
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

enum class DesignOrigin {
    Rounding,                // the paper's rounding of a relaxed program
    Climb,                   // the hill climb from the rounded designs (Polish.h)
    SingleArchitectureClimb, // the design the single-architecture pass found, climbed on (NetworkCodesign.h)
};
const char* designOriginName(DesignOrigin origin);  // "rounding", "climb", "single-architecture climb"

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
    int polishEvaluations = 0;       // designs the hill climb scored (Polish.h)
    int polishSteps = 0;             // improving steps it took
    DesignOrigin origin = DesignOrigin::Rounding;  // where the best design came from
    SolvedCandidate best;
    std::vector<SolvedCandidate> candidates;  // every valid re-scored candidate, in scoring order (best among them)
    double seconds = 0.0;
};

// Decides between two model-scored designs: the objective first, the other figure breaks ties.
bool betterFigures(double energyA_pJ, double cyclesA, double energyB_pJ, double cyclesB, Objective objective);
bool betterEvaluation(const Evaluation& a, const Evaluation& b, Objective objective);

// An integer design scored by the cost model: the architecture (`base`, or in co-design `base`
// with the design's R, S and PE count), the mapping of `perm` (whose nest is `nest`) at
// `design.trips`, evaluate(). The candidate's eval says whether the model accepts it.
SolvedCandidate scoreDesign(const ThistleLayer& layer, const Architecture& base, bool codesign, const Permutation& perm,
                            const TileNest& nest, const RoundedCandidate& design);

// The hill climb of Polish.h from `start` (a valid design of the layer `r` optimized, on any
// architecture within the options' limits); `r.best` takes the result when it is better. With
// the climb off (polishStarts 0) the start itself is taken when it is better.
void climbFrom(LayerOptimization& r, const Workload& w, const Architecture& base, const OptimizeOptions& options,
               const SolvedCandidate& start, DesignOrigin origin);

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
