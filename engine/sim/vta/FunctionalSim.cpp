#include "sim/vta/FunctionalSim.h"

#include "sim/vta/Disassembler.h"
#include "sim/vta/ExecutionFault.h"

namespace nestor::vta {

namespace {

Module producerOf(TokenQueue q)
{
    switch (q) {
    case TokenQueue::L2G: return Module::Load;
    case TokenQueue::S2G: return Module::Store;
    case TokenQueue::G2L:
    case TokenQueue::G2S: return Module::Compute;
    }
    return Module::Compute;
}

std::string insnText(const Program& p, std::size_t index)
{
    return "instruction " + std::to_string(index) + " [" + disassemble(p.insns[index]) + "]";
}

class Scheduler {
public:
    Scheduler(const Program& p, const IsaLayout& layout, MachineState& state, const RunOptions& o)
        : program_(p), state_(state), executor_(layout, o.fidelity), budget_(o.uopBudget)
    {
    }

    RunResult run()
    {
        while (!result_.failure && !finished_) stepTowardsFinish();
        if (!result_.failure) checkAfterFinish();
        result_.counters = state_.counters;
        for (int q = 0; q < kTokenQueueCount; ++q) {
            result_.tokenPushes[static_cast<std::size_t>(q)] = tokens_.pushes(static_cast<TokenQueue>(q));
            result_.tokensLeft[static_cast<std::size_t>(q)] = tokens_.available(static_cast<TokenQueue>(q));
            if (!result_.failure && result_.tokensLeft[static_cast<std::size_t>(q)] > 0)
                result_.warnings.push_back(std::to_string(result_.tokensLeft[static_cast<std::size_t>(q)]) + " token(s) left unpopped on " +
                                           tokenQueueArrow(static_cast<TokenQueue>(q)) + " at the end (fsim carries them into the next run)");
        }
        return result_;
    }

private:
    const std::vector<std::size_t>& queue(Module m) const { return program_.moduleInsns[static_cast<int>(m)]; }
    std::size_t& cursor(Module m) { return cursor_[static_cast<std::size_t>(m)]; }
    std::optional<std::size_t> head(Module m)
    {
        const std::size_t c = cursor(m);
        return c < queue(m).size() ? std::optional<std::size_t>(queue(m)[c]) : std::nullopt;
    }

    // Executes one instruction: compute's next one if it can start, else (recursively) the
    // module that pushes the token compute is missing.
    void stepTowardsFinish()
    {
        std::vector<std::pair<Module, TokenQueue>> waits;  // the chain of waiting modules
        Module target = Module::Compute;
        for (;;) {
            const auto index = head(target);
            if (!index) return deadlockExhausted(waits, target);
            const Instruction& insn = program_.insns[*index];
            const auto missing = tokens_.missingToken(insn, target);
            if (!missing) {
                execute(target, *index);
                if (!result_.failure && insn.opcode == Opcode::Finish) finished_ = true;
                return;
            }
            waits.emplace_back(target, *missing);
            const Module producer = producerOf(*missing);
            for (const auto& [m, q] : waits)
                if (m == producer) return deadlockCycle(waits);
            target = producer;
        }
    }

    void execute(Module m, std::size_t index)
    {
        const Instruction& insn = program_.insns[index];
        tokens_.popFor(insn, m);
        try {
            executor_.execute(insn, state_, budget_);
        } catch (const ExecutionFault& e) {
            const std::string what = e.what();
            RunFailure f;
            f.kind = what.rfind("step budget", 0) == 0 ? RunFailure::Kind::StepBudget : RunFailure::Kind::OutOfRange;
            f.module = m;
            f.insnIndex = index;
            f.disassembly = disassemble(insn);
            f.message = std::string(moduleName(m)) + " module, " + insnText(program_, index) + ": " + what;
            result_.failure = f;
            return;
        }
        tokens_.pushFor(insn, m);
        ++cursor(m);
        ++result_.instructionsExecuted;
    }

    std::string waitLine(Module m, TokenQueue q)
    {
        return std::string(moduleName(m)) + " waits at " + insnText(program_, *head(m)) + " for a token on " +
               tokenQueueArrow(q) + " (" + std::to_string(tokens_.available(q)) + " available)";
    }

    std::string executedAll(Module m) const
    {
        const std::size_t n = queue(m).size();
        return std::string(moduleName(m)) +
               (n == 0 ? " has no instructions" : " has executed all its " + std::to_string(n) + " instruction(s)");
    }

    // The modules outside the waiting chain, for context.
    std::string othersLine(const std::vector<std::pair<Module, TokenQueue>>& waits, std::optional<Module> alsoIn)
    {
        std::string s;
        for (int i = 0; i < kModuleCount; ++i) {
            const auto m = static_cast<Module>(i);
            bool inChain = alsoIn && *alsoIn == m;
            for (const auto& w : waits) inChain = inChain || w.first == m;
            if (inChain) continue;
            s += "\n  ";
            const auto h = head(m);
            s += h ? std::string(moduleName(m)) + " would run " + insnText(program_, *h) + " next, which cannot push what is missing"
                   : executedAll(m);
        }
        return s;
    }

    void fillDeadlock(const std::vector<std::pair<Module, TokenQueue>>& waits, std::string message)
    {
        RunFailure f;
        f.kind = RunFailure::Kind::Deadlock;
        f.module = waits.front().first;
        f.insnIndex = head(waits.front().first);
        f.disassembly = disassemble(program_.insns[*f.insnIndex]);
        f.message = std::move(message);
        result_.failure = f;
    }

    void deadlockCycle(const std::vector<std::pair<Module, TokenQueue>>& waits)
    {
        std::string s = "deadlock before FINISH: the modules wait for each other's tokens";
        for (const auto& [m, q] : waits) s += "\n  " + waitLine(m, q);
        s += othersLine(waits, std::nullopt);
        fillDeadlock(waits, s);
    }

    void deadlockExhausted(const std::vector<std::pair<Module, TokenQueue>>& waits, Module exhausted)
    {
        if (waits.empty()) {  // compute ran dry: a program that bypassed buildProgram's checks
            RunFailure f;
            f.kind = RunFailure::Kind::InvalidProgram;
            f.module = Module::Compute;
            f.message = "the compute module executed all its instructions without reaching FINISH";
            result_.failure = f;
            return;
        }
        std::string s = "deadlock before FINISH: a token is awaited that no remaining instruction pushes";
        for (const auto& [m, q] : waits) s += "\n  " + waitLine(m, q);
        s += "\n  " + executedAll(exhausted) + ", so the queue stays empty forever";
        s += othersLine(waits, exhausted);
        fillDeadlock(waits, s);
    }

    // After FINISH only load and store can still move (compute is done, so no token reaches
    // them any more); anything that can start would run after FINISH.
    void checkAfterFinish()
    {
        for (const Module m : {Module::Load, Module::Store}) {
            const auto h = head(m);
            if (!h) continue;
            const Instruction& insn = program_.insns[*h];
            const auto missing = tokens_.missingToken(insn, m);
            if (!missing) {
                RunFailure f;
                f.kind = RunFailure::Kind::AfterFinish;
                f.module = m;
                f.insnIndex = *h;
                f.disassembly = disassemble(insn);
                f.message = std::string(moduleName(m)) + " module, " + insnText(program_, *h) +
                            ": runs after FINISH (no token orders it before FINISH); fsim never terminates then "
                            "(FORMAT.md section 7)";
                result_.failure = f;
                return;
            }
            result_.warnings.push_back(std::to_string(queue(m).size() - cursor(m)) + " " + moduleName(m) +
                                       " instruction(s) never executed; the first, " + insnText(program_, *h) +
                                       ", waits for " + tokenQueueArrow(*missing) + " after FINISH");
        }
    }

    const Program& program_;
    MachineState& state_;
    Executor executor_;
    std::uint64_t budget_;
    TokenQueues tokens_;
    std::array<std::size_t, kModuleCount> cursor_{};
    bool finished_ = false;
    RunResult result_;
};

} // namespace

const char* RunFailure::kindName(Kind k)
{
    switch (k) {
    case Kind::InvalidProgram: return "invalid program";
    case Kind::Deadlock: return "deadlock";
    case Kind::OutOfRange: return "out of range";
    case Kind::AfterFinish: return "instruction after FINISH";
    case Kind::StepBudget: return "step budget exhausted";
    }
    return "?";
}

std::string describeFailure(const RunFailure& f)
{
    return std::string(RunFailure::kindName(f.kind)) + ": " + f.message;
}

RunResult runFunctional(const Program& program, const IsaLayout& layout, MachineState& state, const RunOptions& options)
{
    return Scheduler(program, layout, state, options).run();
}

RunResult runInstructions(const std::vector<Instruction>& insns, const IsaLayout& layout, MachineState& state,
                          const RunOptions& options)
{
    Diagnostics problems;
    const Program program = buildProgram(insns, layout, problems);
    if (!problems.empty()) {
        RunResult r;
        RunFailure f;
        f.kind = RunFailure::Kind::InvalidProgram;
        f.message = NestorError(problems).what();
        r.failure = f;
        return r;
    }
    return runFunctional(program, layout, state, options);
}

} // namespace nestor::vta
