#pragma once
// The paper's programs for one layer and one permutation: Eq. 3 (dataflow only: tile sizes
// free, architecture fixed) and Eq. 5 (co-design: also registers per PE R, SRAM words S and
// PE count P free, eps_R = sigma_R * R, eps_S = sigma_S * sqrt(S), area budget), with the energy
// objective (a sum over components) or the delay objective (a max over components, as an
// epigraph variable T >= every component's cycles).
//
// The counts are the Algorithm 1 expressions of Algorithm1.h for the hierarchy of
// ThistleLayer.h, combined as Nestor's cost model charges them (per word; block size 1):
//  MAC:   macs x e_MAC
//  RF:    e_R x (4 macs [2 operand reads, 1 update, 1 read of the partial sum]
//                + sum_t fills_RF(t) + drains of Out to the SRAM)
//  SRAM:  e_S x (sum_t reads/updates for the PEs + reads of Out sent back to the PEs
//                + sum_t fills from DRAM + reads of Out drained to DRAM)
//  DRAM:  e_D x (sum_t reads for the SRAM + updates of Out)
// The paper's factor 2 on Out is the pair (fill, drain) at each boundary. The first-read
// elision of the cost model (partial sums that start at zero) is not modelled: an upper bound.
#include "solvers/thistle/GpSolver.h"
#include "solvers/thistle/ThistleLayer.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nestor::thistle {

enum class Objective { Energy, Delay };

// Table III (45 nm) of the paper; see arch/EnergyModels.h for the reading of sigma_S.
struct Technology {
    double sigmaR_pJ = 0.0, sigmaS_pJ = 0.0, dram_pJ = 0.0, mac_pJ = 0.0;
    double areaRegister_um2 = 0.0, areaSramWord_um2 = 0.0, areaMac_um2 = 0.0;
    static Technology thistle45nm();
};

// Words per cycle; nullopt = unbounded (no delay component).
struct Bandwidths {
    std::optional<double> dramRead, dramWrite, sramRead, sramWrite, rfRead, rfWrite;
};

struct ProgramSpec {
    Objective objective = Objective::Energy;
    bool codesign = false;
    // Fixed architecture (Eq. 3): capacities and per-word energies.
    double registers = 0, sramWords = 0, pes = 0;
    double eR_pJ = 0, eS_pJ = 0, eD_pJ = 0, eMac_pJ = 0;
    // Co-design (Eq. 5).
    double area_um2 = 0;
    Technology tech;
    Bandwidths bw;
};

// Exact integer counts of one candidate (Algorithm 1 at integer trip counts).
struct ThistleCounts {
    double macs = 0;
    double peUsed = 0;
    double rfFootprint = 0, sramFootprint = 0;          // words per RF instance / in the SRAM
    double rfAccesses = 0, sramReads = 0, sramWrites = 0, dramReads = 0, dramWrites = 0;
    double rfReadsPerPe = 0, rfWritesPerPe = 0;
    double energy_pJ(double eR, double eS, double eD, double eMac) const;
    double cycles(const Bandwidths& bw) const;
};

ThistleCounts exactCounts(const ThistleLayer& layer, const TileNest& nest, const std::vector<std::int64_t>& trips);

// exactCounts for many trip vectors of one nest (the rounding's candidates): the expressions
// depend on the trips only through which loops have more than one iteration, so they are built
// once per such pattern and only evaluated per candidate.
class ExactCounter {
public:
    ExactCounter(const ThistleLayer& layer, const TileNest& nest);
    ThistleCounts operator()(const std::vector<std::int64_t>& trips);
    // Only macs, peUsed and the two footprints (what the rounding's filters look at).
    ThistleCounts tiles(const std::vector<std::int64_t>& trips) const;

private:
    struct Volumes {
        std::vector<TileExpr> rf, sram;  // per tensor, into one RF / the SRAM
    };
    const ThistleLayer& layer_;
    const TileNest nest_;
    int output_ = -1;
    std::vector<TileExpr> rfFootprint_, sramFootprint_;  // per tensor
    std::vector<int> allPe_;                              // the spatial loops above the registers
    std::vector<std::vector<int>> rfParentSpatial_, sramParentSpatial_;
    std::map<std::vector<bool>, Volumes> volumes_;        // by the loops that move
};

// Variables of the program (global ids): the layer's nest variables, then R, S, P, T.
struct ThistleProgram {
    GpProblem gp;
    std::vector<int> yOfVar;       // global id -> y index, -1 when fixed
    std::vector<double> fixedValue;
    int varR = 0, varS = 0, varP = 0, varT = 0;
    // x (all global ids) from a GP solution.
    std::vector<double> valuesAt(const std::vector<double>& y) const;
};

ThistleProgram buildProgram(const ThistleLayer& layer, const Permutation& perm, const ProgramSpec& spec);

} // namespace nestor::thistle
