#pragma once
// Parameters of the cycle model (docs/vta-simulator.md; spec.md §1.2 lists the knobs, §5 the
// tsim figures the defaults come from).
#include "common/Error.h"

#include <cstdint>

namespace nestor::vta {

struct TimingConfig {
    int busBytes = 8;            // AXI data width: 8 = 64 bit (Pynq/DE10 tsim shell), 16/32/64 for wider buses
    int maxBurstBeats = 16;      // lenBits = 4 in the tsim shell (§1.1)
    int readLatency = 20;        // first-beat latency when the memory was idle: dpiDelay 16 + pipeline (§5.7)
    int gemmII = 1;              // uops per cycle of GEMM: 1 pipelined (PR #30), 4 the original core
    int aluImmII = 1;            // ALU with an immediate (§5.4)
    int aluVectorII = 2;         // ALU vector-vector: one read port, src and dst reads alternate (§5.4)
    int pipelineCycles = 6;      // GEMM/ALU issue-to-done latency beyond N x II (§5.3: done at c0+N+6)
    int loadOverhead = 3;        // LOAD: cycles after the last beat until done (§5.5)
    int storeBurstOverhead = 6;  // STORE: write command, AW handshake and B response per burst (§5.6)
    int idleGap = 1;             // a module spends one idle cycle between instructions (§5.1)
    int tokenDelay = 1;          // a pushed token is usable this many cycles after the producer's done (§5.1)
    int queueDepth = 512;        // command queue per module (§5.1)
    // Instructions per fetch burst: maxBurstBeats x busBytes / 16 (8 with the defaults, §5.2).
    int fetchBatch() const;

    Diagnostics validate() const;  // each problem names the field
};

} // namespace nestor::vta
