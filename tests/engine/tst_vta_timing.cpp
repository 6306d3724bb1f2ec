// The VTA cycle model (engine/sim/vta/TimingModel.h) on tiny programs whose cycle counts are
// derived by hand from the rules in docs/vta-simulator.md (default TimingConfig: 64-bit bus,
// 16-beat bursts so 8 instructions per fetch, read latency 20, GEMM II 1, pipeline 6, load
// overhead 3, idle gap 1, token delay 1). No wall-clock assertions.
#include "sim/vta/TimingModel.h"

#include <QtTest>

using namespace nestor;
using namespace nestor::vta;

namespace {

Instruction mem(Opcode op, MemType t, std::uint32_t dram, std::uint32_t x)
{
    Instruction i;
    i.opcode = op;
    i.memType = static_cast<std::uint32_t>(t);
    i.dramBase = dram;
    i.ySize = 1;
    i.xSize = x;
    i.xStride = x;
    return i;
}

Instruction gemm(std::uint32_t iterOut, std::uint32_t iterIn)
{
    Instruction i;
    i.opcode = Opcode::Gemm;
    i.uopBgn = 0;
    i.uopEnd = 1;
    i.iterOut = iterOut;
    i.iterIn = iterIn;
    return i;
}

Instruction finish()
{
    Instruction i;
    i.opcode = Opcode::Finish;
    return i;
}

TimingResult simulate(const std::vector<Instruction>& insns, const TimingConfig& t = {})
{
    const VtaConfig c;
    Diagnostics problems;
    const Program p = buildProgram(insns, IsaLayout(c), problems);
    if (!problems.empty()) throw NestorError(problems);
    return simulateTiming(p, c, t);
}

} // namespace

class TestVtaTiming : public QObject {
    Q_OBJECT
private slots:
    void uopLoadGemmFinish()
    {
        // Fetch: 3 instructions = 48 B = 6 beats, issued at 0 on an idle channel: first beat 20,
        // done 26; dispatch one per cycle: 26, 27, 28.
        // LOAD UOP (1 uop, 4 B at an 8-byte aligned address = 1 beat) starts 26, issues at 27;
        // the channel went idle at 26, so latency again: beat at 47, done 48; end 48 + 3 = 51.
        // GEMM (N = 1) starts after the idle cycle at 52, ends 52 + 1 + 6 = 59.
        // FINISH starts 60, ends 61 = the cycle count.
        const TimingResult r = simulate({mem(Opcode::Load, MemType::Uop, 1024, 1), gemm(1, 1), finish()});
        QVERIFY(!r.error);
        QCOMPARE(r.insns[0].dispatch, std::uint64_t{26});
        QCOMPARE(r.insns[1].dispatch, std::uint64_t{27});
        QCOMPARE(r.insns[0].start, std::uint64_t{26});
        QCOMPARE(r.insns[0].end, std::uint64_t{51});
        QCOMPARE(r.insns[1].start, std::uint64_t{52});
        QCOMPARE(r.insns[1].end, std::uint64_t{59});
        QCOMPARE(r.cycles, std::uint64_t{61});
        const int compute = static_cast<int>(Module::Compute);
        QCOMPARE(r.trace.cycles(compute, Activity::StallMemory), std::uint64_t{20});  // [27, 47)
        QCOMPARE(r.trace.cycles(compute, Activity::Busy), std::uint64_t{1 + 4 + 7 + 1});
        QCOMPARE(r.readBeats, std::uint64_t{6 + 1});
    }

    void tokenWaitIsAStall()
    {
        // LOAD INP x=2 (32 B = 4 beats) on the load module pushes LD->CMP; the GEMM pops it.
        // Fetch as above: dispatch 26 (load), 27 (compute), 28 (finish).
        // LOAD starts 26, issues 27, beats 47..51, end 54; the token is usable at 55.
        // GEMM waits from 27 to 55 (28 cycles stalled on the token), ends 55 + 7 = 62;
        // FINISH 63..64.
        Instruction load = mem(Opcode::Load, MemType::Inp, 256, 2);
        load.pushNext = true;
        Instruction g = gemm(1, 1);
        g.popPrev = true;
        const TimingResult r = simulate({load, g, finish()});
        QVERIFY(!r.error);
        QCOMPARE(r.insns[0].end, std::uint64_t{54});
        QCOMPARE(r.insns[1].start, std::uint64_t{55});
        QCOMPARE(r.cycles, std::uint64_t{64});
        QCOMPARE(r.trace.cycles(static_cast<int>(Module::Compute), Activity::StallToken), std::uint64_t{28});
        QCOMPARE(r.trace.cycles(static_cast<int>(Module::Load), Activity::Busy), std::uint64_t{1 + 7});
    }

    void busyChannelStreamsWithoutLatency()
    {
        // The load module's LOAD INP (4 beats) takes the channel at 27 (beats 47..51); the
        // compute module's LOAD UOP issues at 28 while the channel is busy, so its beat follows
        // at 51 with no new latency: done 52, end 55.
        const TimingResult r = simulate({mem(Opcode::Load, MemType::Inp, 256, 2), mem(Opcode::Load, MemType::Uop, 1024, 1), finish()});
        QVERIFY(!r.error);
        QCOMPARE(r.insns[0].end, std::uint64_t{54});
        QCOMPARE(r.insns[1].start, std::uint64_t{27});
        QCOMPARE(r.insns[1].end, std::uint64_t{55});
        // FINISH (dispatched 28) waits for compute: 56..57.
        QCOMPARE(r.cycles, std::uint64_t{57});
    }

    void gemmInitiationInterval()
    {
        // N = 100 uops: II 4 costs exactly 3 x 100 more cycles than II 1.
        const std::vector<Instruction> p = {gemm(10, 10), finish()};
        TimingConfig pipelined, original;
        original.gemmII = 4;
        const TimingResult a = simulate(p, pipelined);
        const TimingResult b = simulate(p, original);
        QCOMPARE(b.cycles - a.cycles, std::uint64_t{300});
        // 2 instructions = 4 beats: dispatch 24, 25; GEMM 24..24+100+6=130; FINISH 131..132.
        QCOMPARE(a.cycles, std::uint64_t{132});
    }

    void aluInitiationIntervals()
    {
        // 2 instructions: dispatch 24. ALU with an immediate, N = 10: 24 + 10 + 6 = 40, FINISH
        // 41..42. Vector-vector (II 2): 24 + 20 + 6 = 50, FINISH 51..52.
        Instruction alu;
        alu.opcode = Opcode::Alu;
        alu.aluOp = static_cast<std::uint32_t>(AluOp::Add);
        alu.uopEnd = 1;
        alu.iterOut = 2;
        alu.iterIn = 5;
        alu.useImm = true;
        QCOMPARE(simulate({alu, finish()}).cycles, std::uint64_t{42});
        alu.useImm = false;
        QCOMPARE(simulate({alu, finish()}).cycles, std::uint64_t{52});
    }

    void paddingBeyondTheLatencyCosts()
    {
        // LOAD ACC of 1 element with 15 pad rows/columns on every side: 31 x 31 = 961 elements,
        // 960 of them padding. Starts 24, 15 pad-row cycles, issue at 40; 8 beats at 60..68;
        // but the SRAM takes one element per cycle: 40 + 960 + 8 = 1008, + 3 = 1011.
        Instruction load = mem(Opcode::Load, MemType::Acc, 64, 1);
        load.yPad0 = load.yPad1 = load.xPad0 = load.xPad1 = 15;
        const TimingResult r = simulate({load, finish()});
        QCOMPARE(r.insns[0].end, std::uint64_t{1011});
        QCOMPARE(r.cycles, std::uint64_t{1013});
        QCOMPARE(r.trace.cycles(static_cast<int>(Module::Compute), Activity::StallMemory), std::uint64_t{20});
    }

    void eventDrivenOverHugeGemms()
    {
        // 2^14 x 2^14 uops: one event, not 2.7e8 cycle steps.
        const TimingResult r = simulate({gemm(16383, 16383), finish()});
        QCOMPARE(r.cycles, std::uint64_t{24} + 16383ull * 16383ull + 6 + 1 + 1);
    }

    void storeBursts()
    {
        // STORE of 10 OUT elements (160 B) at byte 4096 (128-byte aligned): bursts of 8 and 2
        // elements (16 and 4 beats). Cycles: 1 + (16 + 7 + 6) + (4 + 1 + 6) = 41.
        Instruction s = mem(Opcode::Store, MemType::Out, 256, 10);
        const TimingResult r = simulate({s, finish()});
        QCOMPARE(r.insns[0].end - r.insns[0].start, std::uint64_t{41});
        QCOMPARE(r.writeBeats, std::uint64_t{20});
    }

    void noOpsTakeOneCycleAndAGap()
    {
        // x_size = 0 on compute: 1 busy cycle + the idle gap (Idle -> Sync -> Idle).
        const TimingResult r = simulate({mem(Opcode::Load, MemType::Uop, 0, 0), mem(Opcode::Load, MemType::Uop, 0, 0), finish()});
        QCOMPARE(r.insns[0].end - r.insns[0].start, std::uint64_t{1});
        QCOMPARE(r.insns[1].start, r.insns[0].end + 1);
    }

    void fullQueueStallsFetch()
    {
        // Queue depth 1: fetch dispatches GEMM 0 at 26 (runs 26..42), then waits for room
        // from 27 to 42; GEMM 1 dispatched at 42 starts 43 (idle gap), ends 59; FINISH waits
        // 43..59, is dispatched at 59, starts 60, ends 61.
        TimingConfig t;
        t.queueDepth = 1;
        const TimingResult r = simulate({gemm(2, 5), gemm(2, 5), finish()}, t);
        QCOMPARE(r.insns[1].dispatch, std::uint64_t{42});
        QCOMPARE(r.insns[1].start, std::uint64_t{43});
        QCOMPARE(r.insns[2].dispatch, std::uint64_t{59});
        QCOMPARE(r.cycles, std::uint64_t{61});
        QCOMPARE(r.trace.cycles(kFetchLane, Activity::StallQueue), std::uint64_t{15 + 16});
    }

    void configurationIsValidated()
    {
        TimingConfig t;
        t.busBytes = 12;
        QCOMPARE(t.validate().front().field, std::string("timing.bus_bytes"));
        QVERIFY_THROWS_EXCEPTION(NestorError, simulate({finish()}, t));
    }
};

QTEST_APPLESS_MAIN(TestVtaTiming)
#include "tst_vta_timing.moc"
