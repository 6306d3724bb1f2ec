#pragma once
// Whole-network runs on the VTA simulator: every layer lowered (Lowering.h), executed by the
// functional simulator (its output feeds the next layers) and by the timing model, with the
// per-layer figures a GUI or the CLI shows: cycles, per-module activity traces with layer
// boundaries on one global time axis, bytes moved per buffer, and roofline points.
#include "common/Job.h"
#include "sim/vta/ActivityTrace.h"
#include "sim/vta/Counters.h"
#include "sim/vta/TimingConfig.h"
#include "sim/vta/VtaConfig.h"
#include "sim/vta/lowering/LayerSpec.h"
#include "sim/vta/lowering/Tiling.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nestor::vta {

// A layer on the roofline of its configuration: x = ops per DRAM byte, y = ops per cycle.
// One op is one int8 multiply-accumulate (ALU layers: one lane operation).
struct RooflinePoint {
    double opsPerByte = 0.0;
    double opsPerCycle = 0.0;
    double computeRoof = 0.0;   // batch x block_in x block_out / gemmII (ALU layers: lanes / aluII)
    double bytesPerCycle = 0.0; // the bandwidth diagonal: y = bytesPerCycle x opsPerByte
    // min(computeRoof, bytesPerCycle x opsPerByte): the attainable ops/cycle at this intensity.
    double attainable() const;
};

struct LayerRun {
    std::string name;
    LayerKind kind = LayerKind::Conv;
    Tiling tiling;                     // what the TPS search chose (ALU layers: row tiles only)
    std::uint64_t firstCycle = 0;      // layer boundary on the network's time axis
    std::uint64_t cycles = 0;          // this layer alone (its FINISH)
    std::uint64_t ops = 0;             // useful MACs (or ALU lane operations)
    Counters counters;                 // bytes loaded per buffer (inp, wgt, acc, uop) and stored
    std::uint64_t instructions = 0;
    std::uint64_t dramBytes() const;   // loaded + stored
    std::array<double, kTraceLanes> utilization{};  // busy share of load, compute, store, fetch
    RooflinePoint roofline;
    ActivityTrace trace;               // cycles relative to firstCycle (empty unless keepTraces)
    bool outputMatchesReference = false;  // only set when RunNetworkOptions::checkReference
};

struct NetworkRun {
    std::vector<LayerRun> layers;
    std::uint64_t totalCycles = 0;
    std::uint64_t totalOps = 0;
    Counters totalCounters;
    bool cancelled = false;
    std::optional<std::string> error;  // the first layer that failed, and why (functional or timing)
};

struct RunNetworkOptions {
    bool functional = true;       // execute the data (bit-exact); false = timing only (a sweep)
    bool keepTraces = true;       // keep every layer's ActivityTrace (memory: about 100 B per interval)
    bool checkReference = false;  // compare each layer's output bytes with reference/ReferenceOps
    std::uint64_t seed = 1;       // random int8 network input and weights
};

// All layers' traces on the network's time axis (each interval shifted by its layer's
// firstCycle; insnIndex stays the index within that layer's program). Empty unless the run
// kept its traces.
ActivityTrace networkTrace(const NetworkRun& run);

RooflinePoint rooflinePoint(const LayerSpec& layer, std::uint64_t ops, std::uint64_t dramBytes, std::uint64_t cycles,
                            const VtaConfig& config, const TimingConfig& timing);

// Runs the layers in order. Progress ("layer 3 of 21: conv2_1a") and cancel through `job`
// (may be null). A layer the configuration cannot hold (no tiling fits) or a failed run stops
// the network with `error` naming the layer.
NetworkRun runNetwork(const std::vector<LayerSpec>& layers, const VtaConfig& config, const TimingConfig& timing,
                      JobContext* job, const RunNetworkOptions& options = {});

} // namespace nestor::vta
