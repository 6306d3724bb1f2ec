#pragma once
// Executes one instruction on the machine state, bit-exact with fsim (spec.md §3):
// LOAD with 2-D strides and zero padding, STORE narrowing each lane by truncation, GEMM and
// ALU over their uop loops with two's-complement wrap. Indices outside a scratchpad or DRAM
// throw ExecutionFault (fsim CHECK-fails there; the hardware would wrap).
#include "sim/vta/Counters.h"
#include "sim/vta/Dram.h"
#include "sim/vta/Instruction.h"
#include "sim/vta/Scratchpads.h"

namespace nestor::vta {

// Where the behaviours of fsim and the hardware differ (spec.md §3.2, §3.4 [DIFF]).
enum class Fidelity {
    Fsim,      // STORE reads ACC; an ALU immediate op uses acc[dst] (the vectors' reference)
    Hardware,  // STORE reads the OUT buffer written by GEMM/ALU; an ALU immediate op uses acc[src] (Chisel)
};

struct MachineState {
    explicit MachineState(const VtaConfig& config, Dram dram) : dram(std::move(dram)), sram(config) {}
    Dram dram;
    Scratchpads sram;
    Counters counters;
};

class Executor {
public:
    Executor(const IsaLayout& layout, Fidelity fidelity) : layout_(layout), config_(layout.config()), fidelity_(fidelity) {}

    // Executes a LOAD, STORE, GEMM or ALU (FINISH does nothing). `uopBudget` is decremented by
    // the uops a GEMM/ALU executes; exceeding it throws before any work is done.
    void execute(const Instruction& insn, MachineState& state, std::uint64_t& uopBudget) const;

private:
    void load(const Instruction& insn, MachineState& state) const;
    void store(const Instruction& insn, MachineState& state) const;
    void gemm(const Instruction& insn, MachineState& state) const;
    void alu(const Instruction& insn, MachineState& state) const;

    const IsaLayout& layout_;
    const VtaConfig& config_;
    Fidelity fidelity_;
};

} // namespace nestor::vta
