#pragma once
// Configuration sweeps over a network: GEMM shape (BATCH x BLOCK_IN x BLOCK_OUT), bus width,
// scratchpad sizes and GEMM initiation interval, each point a timing-only network run
// (runNetwork with functional = false: the cycles do not depend on the data) with an area
// estimate, and the area-vs-cycles Pareto front.
//
// Area model (first-order, documented in docs/vta-simulator.md): an int8 MAC with its share of
// the int32 adder tree costs kMacAreaUm2, an SRAM bit kSramBitAreaUm2 (cell and periphery), and
// a bus byte lane kBusByteAreaUm2 (AXI datapath and FIFOs); II 4 time-shares the MACs in four
// (the original VTA core), so its GEMM area is a quarter.
#include "common/Job.h"
#include "sim/vta/TimingConfig.h"
#include "sim/vta/VtaConfig.h"
#include "sim/vta/lowering/LayerSpec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nestor::vta {

inline constexpr double kMacAreaUm2 = 300.0;
inline constexpr double kSramBitAreaUm2 = 0.3;
inline constexpr double kBusByteAreaUm2 = 2000.0;

// Estimated area in mm^2 of a configuration (GEMM core, the five SRAMs, the bus datapath).
double areaMm2(const VtaConfig& config, const TimingConfig& timing);

struct SweepPoint {
    VtaConfig config;
    TimingConfig timing;
    double areaMm2 = 0.0;
    std::uint64_t cycles = 0;        // 0 when the network does not map (see error)
    std::uint64_t dramBytes = 0;
    std::optional<std::string> error;
    bool pareto = false;             // on the area-vs-cycles front
    std::string label() const;       // "1x16x16 bus64 sp1x ii1"
};

struct SweepSpace {
    std::vector<std::array<int, 3>> gemmShapes{{0, 3, 3}, {0, 4, 4}, {0, 5, 5}, {1, 4, 4}, {1, 3, 3}};  // log2 B, BI, BO
    std::vector<int> busBytes{8, 16};
    std::vector<int> scratchpadScaleLog2{-2, -1, 0};  // every SRAM quartered, halved, as is (larger ones overflow the 32-bit uop)
    std::vector<int> gemmII{1, 4};
};

// All points of the space (in order), Pareto flags set. Cancel through `job` keeps the points done.
std::vector<SweepPoint> runSweep(const std::vector<LayerSpec>& layers, const SweepSpace& space,
                                 const TimingConfig& base, JobContext* job);

// Marks the points no other point beats in both area and cycles.
void markPareto(std::vector<SweepPoint>& points);

} // namespace nestor::vta
