#pragma once
// The cycle model: fetch, load, compute and store as concurrent modules with command queues,
// synchronised by the dependency tokens, sharing one DRAM read channel (bus width, burst
// length, first-beat latency paid when the memory was idle) and with GEMM/ALU initiation
// intervals as parameters. Event-driven: time jumps from event to event (a GEMM of 10^8 uops
// costs one event), never a loop over cycles. The rules and where they come from in spec.md
// §5 are in docs/vta-simulator.md.
//
// Timing does not change results for the programs the functional run accepts (no races), so
// it needs only the instruction stream; run the functional simulator first to validate it.
#include "sim/vta/ActivityTrace.h"
#include "sim/vta/Program.h"
#include "sim/vta/TimingConfig.h"

#include <optional>
#include <string>
#include <vector>

namespace nestor::vta {

struct InsnTiming {
    std::uint64_t dispatch = 0;  // cycle the fetch unit put it into its module's queue
    std::uint64_t start = 0;     // cycle it started (tokens popped)
    std::uint64_t end = 0;       // one past its last busy cycle (tokens pushed then)
};

struct TimingResult {
    std::uint64_t cycles = 0;  // launch to the end of FINISH (tsim's ecnt0, §5.8)
    ActivityTrace trace;
    std::vector<InsnTiming> insns;  // by program index
    std::uint64_t readBeats = 0;    // bus beats on the read channel (fetch and loads)
    std::uint64_t writeBeats = 0;   // bus beats written by stores
    std::optional<std::string> error;  // a program the model cannot finish (a deadlock)
};

TimingResult simulateTiming(const Program& program, const VtaConfig& config, const TimingConfig& timing);

} // namespace nestor::vta
