#pragma once
// Behavioural run of a whole program: the load, compute and store modules each execute their
// command queue in order, synchronised only by the four token queues (spec.md §2.7, §4).
//
// The scheduler is demand-driven from FINISH: compute runs while it can; when its next
// instruction lacks a token, the module that pushes that token runs one instruction, and so
// on. FINISH therefore executes as early as the tokens allow, and any load or store not
// ordered before it by tokens is still queued afterwards. fsim spins forever when anything
// executes after FINISH (FORMAT.md §7), so that is reported, as are deadlocks (a cycle of
// modules waiting for each other's tokens, or a wait for a token no remaining instruction
// pushes), out-of-range indices and an exhausted step budget. The run always terminates.
#include "sim/vta/Executor.h"
#include "sim/vta/Program.h"
#include "sim/vta/TokenQueues.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace nestor::vta {

struct RunOptions {
    Fidelity fidelity = Fidelity::Fsim;
    // Final guard against runaway programs: GEMM/ALU uops in all (each is up to
    // batch x block_in x block_out MACs; about a minute of work). ResNet-18 needs about 10^7.
    std::uint64_t uopBudget = std::uint64_t{1} << 28;
};

struct RunFailure {
    enum class Kind { InvalidProgram, Deadlock, OutOfRange, AfterFinish, StepBudget };
    Kind kind = Kind::InvalidProgram;
    std::optional<Module> module;
    std::optional<std::size_t> insnIndex;
    std::string disassembly;
    std::string message;  // complete, multi-line when several modules are involved
    static const char* kindName(Kind k);
};

struct RunResult {
    std::optional<RunFailure> failure;  // empty = FINISH completed and nothing ran after it
    Counters counters;
    std::array<std::uint64_t, kTokenQueueCount> tokenPushes{};
    std::array<std::uint64_t, kTokenQueueCount> tokensLeft{};
    std::vector<std::string> warnings;  // e.g. unpopped tokens, never-executed instructions
    std::uint64_t instructionsExecuted = 0;
    bool ok() const { return !failure; }
};

// Runs `program` on `state` (DRAM and SRAM as given; the SRAMs normally start zeroed). The
// program must come from buildProgram without problems.
RunResult runFunctional(const Program& program, const IsaLayout& layout, MachineState& state,
                        const RunOptions& options = {});

// Decodes, checks and runs in one call; decode/validation problems become an InvalidProgram failure.
RunResult runInstructions(const std::vector<Instruction>& insns, const IsaLayout& layout, MachineState& state,
                          const RunOptions& options = {});

std::string describeFailure(const RunFailure& f);

} // namespace nestor::vta
