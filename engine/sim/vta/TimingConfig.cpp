#include "sim/vta/TimingConfig.h"

namespace nestor::vta {

int TimingConfig::fetchBatch() const
{
    const int n = maxBurstBeats * busBytes / 16;
    return n < 1 ? 1 : n;
}

Diagnostics TimingConfig::validate() const
{
    Diagnostics d;
    auto check = [&](const char* name, int v, int lo, int hi) {
        if (v < lo || v > hi)
            d.push_back({std::string("timing.") + name,
                         std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                         {}});
    };
    check("bus_bytes", busBytes, 1, 512);
    if (busBytes > 0 && (busBytes & (busBytes - 1)) != 0)
        d.push_back({"timing.bus_bytes", std::to_string(busBytes) + " is not a power of two", {}});
    check("max_burst_beats", maxBurstBeats, 1, 256);
    check("read_latency", readLatency, 0, 100000);
    check("gemm_ii", gemmII, 1, 64);
    check("alu_imm_ii", aluImmII, 1, 64);
    check("alu_vector_ii", aluVectorII, 1, 64);
    check("pipeline_cycles", pipelineCycles, 0, 1000);
    check("load_overhead", loadOverhead, 0, 1000);
    check("store_burst_overhead", storeBurstOverhead, 0, 1000);
    check("idle_gap", idleGap, 0, 1000);
    check("token_delay", tokenDelay, 0, 1000);
    check("queue_depth", queueDepth, 1, 1 << 20);
    return d;
}

} // namespace nestor::vta
