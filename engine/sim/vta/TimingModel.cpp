#include "sim/vta/TimingModel.h"

#include "sim/vta/Disassembler.h"

#include <algorithm>
#include <queue>

namespace nestor::vta {

namespace {

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// The shared read channel: in-order, one beat per cycle, back-to-back requests stream without
// a gap, and the first-beat latency is paid only when the channel had gone idle (§5.7).
struct ReadChannel {
    std::uint64_t freeAt = 0;
    std::uint64_t latency = 0;
    std::uint64_t beats = 0;
    // Returns the cycle of the first data beat and one past the last.
    std::pair<std::uint64_t, std::uint64_t> request(std::uint64_t t, std::uint64_t n)
    {
        const std::uint64_t first = freeAt <= t ? t + latency : freeAt;
        freeAt = first + n;
        beats += n;
        return {first, freeAt};
    }
};

enum class EventKind : std::uint8_t { Complete = 0, TokenArrive = 1, Fetch = 2, Try = 3 };

struct Event {
    std::uint64_t time;
    EventKind kind;
    int who;  // module (Complete, Try) or token queue (TokenArrive)
    std::uint64_t seq;
    // Earliest time first; at one time completions and tokens before starts, and starts in
    // the VME read priority order: fetch, then compute (uop), then load (§5.7).
    bool operator>(const Event& o) const
    {
        if (time != o.time) return time > o.time;
        if (kind != o.kind) return kind > o.kind;
        if (kind == EventKind::Try && who != o.who) return tryRank(who) > tryRank(o.who);
        return seq > o.seq;
    }
    static int tryRank(int m) { return m == static_cast<int>(Module::Compute) ? 0 : m == static_cast<int>(Module::Load) ? 1 : 2; }
};

Module consumerOf(TokenQueue q)
{
    switch (q) {
    case TokenQueue::L2G:
    case TokenQueue::S2G: return Module::Compute;
    case TokenQueue::G2L: return Module::Load;
    case TokenQueue::G2S: return Module::Store;
    }
    return Module::Compute;
}

class Simulation {
public:
    Simulation(const Program& p, const VtaConfig& c, const TimingConfig& t) : p_(p), c_(c), t_(t)
    {
        read_.latency = static_cast<std::uint64_t>(t.readLatency);
        result_.insns.resize(p.insns.size());
        for (std::size_t i = 0; i < p.insns.size(); ++i) moduleOfInsn_.push_back(moduleOf(p.insns[i]));
    }

    TimingResult run()
    {
        schedule(0, EventKind::Fetch, 0);
        while (!events_.empty() && !finished_) {
            const Event e = events_.top();
            events_.pop();
            switch (e.kind) {
            case EventKind::Complete: complete(e.time, static_cast<Module>(e.who)); break;
            case EventKind::TokenArrive: tokenArrives(e.time, static_cast<TokenQueue>(e.who)); break;
            case EventKind::Fetch: fetch(e.time); break;
            case EventKind::Try: tryStart(e.time, static_cast<Module>(e.who)); break;
            }
        }
        if (!finished_) result_.error = stuckReport();
        result_.readBeats = read_.beats;
        result_.trace.totalCycles = result_.cycles;
        return result_;
    }

private:
    struct ModuleState {
        std::vector<std::size_t> dispatched;  // program indices in queue order
        std::size_t next = 0;                 // next to start, index into dispatched
        std::size_t completed = 0;
        bool running = false;
        std::size_t runningInsn = 0;
        std::uint64_t freeAt = 0;
        std::optional<std::uint64_t> waitingSince;  // stalled on a token since
    };

    ModuleState& mod(Module m) { return modules_[static_cast<std::size_t>(m)]; }

    void schedule(std::uint64_t time, EventKind kind, int who) { events_.push(Event{time, kind, who, seq_++}); }

    // Fetch: read a batch of instructions, then drain one per cycle into the module queues; a
    // full queue stalls the drain until its module completes an instruction (§5.2).
    void fetch(std::uint64_t t)
    {
        if (fetchBlocked_) return;
        if (fetchNext_ >= p_.insns.size()) return;
        if (drainLeft_ == 0) {
            const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(t_.fetchBatch()), p_.insns.size() - fetchNext_);
            const std::uint64_t beats = ceilDiv(16 * n, static_cast<std::uint64_t>(t_.busBytes));
            const auto [first, done] = read_.request(t, beats);
            result_.trace.add(kFetchLane, t, first, Activity::StallMemory, fetchNext_, p_.insns[fetchNext_].opcode);
            result_.trace.add(kFetchLane, first, done, Activity::Busy, fetchNext_, p_.insns[fetchNext_].opcode);
            drainLeft_ = n;
            schedule(done, EventKind::Fetch, 0);
            return;
        }
        const std::size_t i = fetchNext_;
        const Module m = moduleOfInsn_[i];
        ModuleState& s = mod(m);
        if (s.dispatched.size() - s.completed >= static_cast<std::size_t>(t_.queueDepth)) {
            fetchBlocked_ = true;  // complete() of module m wakes the fetch unit
            blockedOn_ = m;
            fetchBlockedSince_ = t;
            return;
        }
        s.dispatched.push_back(i);
        result_.insns[i].dispatch = t;
        result_.trace.add(kFetchLane, t, t + 1, Activity::Busy, i, p_.insns[i].opcode);
        schedule(t, EventKind::Try, static_cast<int>(m));
        ++fetchNext_;
        --drainLeft_;
        schedule(t + 1, EventKind::Fetch, 0);
    }

    std::optional<TokenQueue> missing(const Instruction& insn, Module m) const
    {
        auto lacks = [&](std::optional<TokenQueue> q) { return q && tokens_[static_cast<std::size_t>(*q)] == 0; };
        if (insn.popPrev && lacks(popPrevQueue(m))) return popPrevQueue(m);
        if (insn.popNext && lacks(popNextQueue(m))) return popNextQueue(m);
        return std::nullopt;
    }

    void tryStart(std::uint64_t t, Module m)
    {
        ModuleState& s = mod(m);
        if (s.running || s.next >= s.dispatched.size()) return;
        if (t < s.freeAt) {
            schedule(s.freeAt, EventKind::Try, static_cast<int>(m));
            return;
        }
        const std::size_t index = s.dispatched[s.next];
        const Instruction& insn = p_.insns[index];
        if (missing(insn, m)) {
            if (!s.waitingSince) s.waitingSince = t;
            return;  // the token's arrival tries again
        }
        if (s.waitingSince) {
            result_.trace.add(static_cast<int>(m), *s.waitingSince, t, Activity::StallToken, index, insn.opcode);
            s.waitingSince.reset();
        }
        auto take = [&](std::optional<TokenQueue> q) {
            if (q) --tokens_[static_cast<std::size_t>(*q)];
        };
        if (insn.popPrev) take(popPrevQueue(m));
        if (insn.popNext) take(popNextQueue(m));
        const std::uint64_t end = execute(t, m, index);
        result_.insns[index].start = t;
        result_.insns[index].end = end;
        s.running = true;
        s.runningInsn = index;
        ++s.next;
        schedule(end, EventKind::Complete, static_cast<int>(m));
    }

    // Occupancy of one instruction started at t; records its trace. Returns its end.
    std::uint64_t execute(std::uint64_t t, Module m, std::size_t index)
    {
        const Instruction& insn = p_.insns[index];
        const int lane = static_cast<int>(m);
        std::uint64_t end = t + 1;
        if ((insn.isLoad() || insn.isStore()) && insn.xSize == 0) {
            end = t + 1;  // Idle -> Sync -> Idle (§5.1)
        } else if (insn.isLoad()) {
            return load(t, lane, index);
        } else if (insn.isStore()) {
            end = t + store(insn);
        } else if (insn.opcode == Opcode::Gemm) {
            end = t + insn.loopCount() * static_cast<std::uint64_t>(t_.gemmII) + static_cast<std::uint64_t>(t_.pipelineCycles);
        } else if (insn.opcode == Opcode::Alu) {
            const int ii = insn.useImm ? t_.aluImmII : t_.aluVectorII;
            end = t + insn.loopCount() * static_cast<std::uint64_t>(ii) + static_cast<std::uint64_t>(t_.pipelineCycles);
        } else {  // FINISH: done in its first execute cycle (§3.5)
            end = t + 1;
        }
        result_.trace.add(lane, t, end, Activity::Busy, index, insn.opcode);
        return end;
    }

    // LOAD: one cycle per leading pad row before the first command, then the rows' beats on
    // the shared read channel; pad elements are written one per cycle in cycles without
    // data (§5.5).
    std::uint64_t load(std::uint64_t t, int lane, std::size_t index)
    {
        const Instruction& insn = p_.insns[index];
        const MemType type = insn.mem();
        const auto elemBytes = static_cast<std::uint64_t>(c_.elemBytes(type));
        const auto bus = static_cast<std::uint64_t>(t_.busBytes);
        std::uint64_t beats = 0;
        for (std::uint64_t y = 0; y < insn.ySize; ++y) {
            const std::uint64_t start = (std::uint64_t{insn.dramBase} + y * insn.xStride) * elemBytes;
            const std::uint64_t bytes = std::uint64_t{insn.xSize} * elemBytes;
            beats += ceilDiv(start % bus + bytes, bus);  // a misaligned row start costs its partial beat
        }
        const std::uint64_t total = (std::uint64_t{insn.yPad0} + insn.ySize + insn.yPad1) *
                                    (std::uint64_t{insn.xPad0} + insn.xSize + insn.xPad1);
        const std::uint64_t padElems = total - std::uint64_t{insn.xSize} * insn.ySize;
        const std::uint64_t issue = t + 1 + insn.yPad0;
        const auto [first, done] = read_.request(issue, beats);
        const std::uint64_t end = std::max(done, issue + padElems + beats) + static_cast<std::uint64_t>(t_.loadOverhead);
        result_.trace.add(lane, t, issue, Activity::Busy, index, insn.opcode);
        result_.trace.add(lane, issue, first, Activity::StallMemory, index, insn.opcode);
        result_.trace.add(lane, first, end, Activity::Busy, index, insn.opcode);
        return end;
    }

    // STORE: a start cycle, then per burst its beats, one bubble after every element but the
    // last of the burst when an element takes several beats, and the per-burst handshake.
    // Bursts hold at most maxBurstBeats beats and do not cross a burst-sized boundary (§5.6).
    std::uint64_t store(const Instruction& insn)
    {
        const auto elemBytes = static_cast<std::uint64_t>(c_.elemBytes(MemType::Out));
        const auto bus = static_cast<std::uint64_t>(t_.busBytes);
        const std::uint64_t burstBytes = static_cast<std::uint64_t>(t_.maxBurstBeats) * bus;
        const std::uint64_t beatsPerElem = ceilDiv(elemBytes, bus);
        std::uint64_t cycles = 1;
        for (std::uint64_t y = 0; y < insn.ySize; ++y) {
            std::uint64_t addr = (std::uint64_t{insn.dramBase} + y * insn.xStride) * elemBytes;
            const std::uint64_t rowEnd = addr + std::uint64_t{insn.xSize} * elemBytes;
            while (addr < rowEnd) {
                const std::uint64_t chunkEnd = std::min(rowEnd, (addr / burstBytes + 1) * burstBytes);
                const std::uint64_t beats = ceilDiv(chunkEnd - addr, bus);
                const std::uint64_t elems = ceilDiv(chunkEnd - addr, elemBytes);
                cycles += beats + (beatsPerElem > 1 ? elems - 1 : 0) + static_cast<std::uint64_t>(t_.storeBurstOverhead);
                result_.writeBeats += beats;
                addr = chunkEnd;
            }
        }
        return cycles;
    }

    void complete(std::uint64_t t, Module m)
    {
        ModuleState& s = mod(m);
        const std::size_t index = s.runningInsn;
        const Instruction& insn = p_.insns[index];
        s.running = false;
        ++s.completed;
        s.freeAt = t + static_cast<std::uint64_t>(t_.idleGap);
        const std::uint64_t visible = t + static_cast<std::uint64_t>(t_.tokenDelay);
        if (insn.pushPrev)
            if (const auto q = pushPrevQueue(m)) schedule(visible, EventKind::TokenArrive, static_cast<int>(*q));
        if (insn.pushNext)
            if (const auto q = pushNextQueue(m)) schedule(visible, EventKind::TokenArrive, static_cast<int>(*q));
        if (insn.opcode == Opcode::Finish) {
            finished_ = true;
            result_.cycles = t;
            return;
        }
        if (fetchBlocked_ && blockedOn_ == m) {
            fetchBlocked_ = false;
            result_.trace.add(kFetchLane, fetchBlockedSince_, t, Activity::StallQueue, fetchNext_, p_.insns[fetchNext_].opcode);
            schedule(t, EventKind::Fetch, 0);
        }
        schedule(s.freeAt, EventKind::Try, static_cast<int>(m));
    }

    void tokenArrives(std::uint64_t t, TokenQueue q)
    {
        ++tokens_[static_cast<std::size_t>(q)];
        schedule(t, EventKind::Try, static_cast<int>(consumerOf(q)));
    }

    std::string stuckReport()
    {
        std::string s = "the timing model stopped before FINISH:";
        for (int i = 0; i < kModuleCount; ++i) {
            const auto m = static_cast<Module>(i);
            ModuleState& st = mod(m);
            s += "\n  " + std::string(moduleName(m)) + ": ";
            if (st.next < st.dispatched.size())
                s += "waits at instruction " + std::to_string(st.dispatched[st.next]) + " [" +
                     disassemble(p_.insns[st.dispatched[st.next]]) + "]";
            else
                s += "nothing queued";
        }
        return s;
    }

    const Program& p_;
    const VtaConfig& c_;
    const TimingConfig& t_;
    std::vector<Module> moduleOfInsn_;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
    std::uint64_t seq_ = 0;
    ReadChannel read_;
    std::array<ModuleState, kModuleCount> modules_{};
    std::array<std::uint64_t, kTokenQueueCount> tokens_{};
    std::size_t fetchNext_ = 0;
    std::size_t drainLeft_ = 0;
    bool fetchBlocked_ = false;
    Module blockedOn_ = Module::Compute;
    std::uint64_t fetchBlockedSince_ = 0;
    bool finished_ = false;
    TimingResult result_;
};

} // namespace

TimingResult simulateTiming(const Program& program, const VtaConfig& config, const TimingConfig& timing)
{
    const Diagnostics problems = timing.validate();
    if (!problems.empty()) throw NestorError(problems);
    return Simulation(program, config, timing).run();
}

} // namespace nestor::vta
