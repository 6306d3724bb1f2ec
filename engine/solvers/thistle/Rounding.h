#pragma once
// The paper's integer rounding (Section IV): capacities to the nearest powers of two, tile
// sizes to the nearest divisors level by level (SRAM tile of the bound, per-PE tile of the
// SRAM tile, register tile of the per-PE tile), then the cross product filtered on
// divisibility (by construction), capacity, area and utilization. The cross product is walked
// nearest first (sum over dimensions of the log distances of the three tiles to the relaxed
// ones), so a cap on the combinations drops the farthest, not an arbitrary corner.
#include "solvers/thistle/ThistleProgram.h"

#include <cstdint>
#include <vector>

namespace nestor::thistle {

struct RoundingOptions {
    int divisorsPerLevel = 3;       // the paper's n ("typically 2 or 3")
    int powersOfTwo = 2;            // the paper's N
    double minUtilization = 0.5;    // PEs used >= this x the relaxed solution's PEs used
    std::size_t maxCombinations = 2048;  // nearest first
};

struct RoundedCandidate {
    std::vector<std::int64_t> trips;  // per nest variable
    std::int64_t registers = 0, sramWords = 0, pes = 0;
    ThistleCounts counts;
    double solverEnergy_pJ = 0.0;     // the solver's own (exact integer) estimate
    double solverCycles = 0.0;
    double area_um2 = 0.0;
};

struct RoundingStats {
    std::size_t combinations = 0, rejectedCapacity = 0, rejectedArea = 0, rejectedUtilization = 0;
};

// The co-design area of R registers per PE, S SRAM words and `pes` PEs (Eq. 5's constraint).
double designArea_um2(const Technology& t, std::int64_t registers, std::int64_t sramWords, double pes);
// The solver's energy estimate of an integer design: the spec's per-word energies, or in
// co-design eps_R = sigma_R R and eps_S = sigma_S sqrt(S).
double solverEnergy_pJ(const ProgramSpec& spec, const ThistleCounts& counts, std::int64_t registers, std::int64_t sramWords);

// Every divisor of n, ascending.
std::vector<std::int64_t> divisorsOf(std::int64_t n);

// The `count` divisors of n (powers of two) nearest to `target` in log distance.
std::vector<std::int64_t> nearestDivisors(std::int64_t n, double target, int count);
std::vector<std::int64_t> nearestPowersOfTwo(double target, int count);

// Every surviving integer candidate around the relaxed solution x (all global ids of prog).
std::vector<RoundedCandidate> roundSolution(const ThistleLayer& layer, const Permutation& perm, const ProgramSpec& spec,
                                            const ThistleProgram& prog, const std::vector<double>& x,
                                            const RoundingOptions& options, RoundingStats* stats = nullptr);

} // namespace nestor::thistle
