// Behavioural execution of the VTA simulator (engine/sim/vta/Executor.h, FunctionalSim.h) on
// tiny programs whose results are derived by hand from spec.md §3: int8 truncation on STORE,
// SHR right/left with wrap, ADD wrap, GEMM sums and int32 wrap, padding that overwrites,
// x_size = 0 no-ops, the fsim/hardware differences, and the scheduler's reports.
#include "sim/vta/FunctionalSim.h"

#include <QtTest>

#include <climits>
#include <cstring>

using namespace nestor;
using namespace nestor::vta;

namespace {

constexpr std::uint64_t kStart = 0x1000;
const VtaConfig kConfig{};

// DRAM layout of the tests: uops at 0x1000, acc data at 0x1400, inp at 0x2000, wgt at 0x2400,
// out at 0x3000 (all in elements of their type below).
constexpr std::uint32_t kUopElem = 0x1000 / 4, kAccElem = 0x1400 / 64, kInpElem = 0x2000 / 16, kWgtElem = 0x2400 / 256,
                        kOutElem = 0x3000 / 16;

struct Bench {
    IsaLayout layout{kConfig};
    MachineState state{kConfig, Dram(kStart, 0x4000)};
    std::vector<Instruction> insns;

    void putUops(const std::vector<Uop>& uops)
    {
        for (std::size_t i = 0; i < uops.size(); ++i) {
            const std::uint32_t w = layout.encodeUop(uops[i]);
            std::memcpy(state.dram.write(0x1000 + 4 * i, 4, "test"), &w, 4);
        }
    }
    void putAcc(std::size_t elem, const std::vector<std::int32_t>& lanes)
    {
        std::memcpy(state.dram.write(0x1400 + 64 * elem, 4 * lanes.size(), "test"), lanes.data(), 4 * lanes.size());
    }
    void fill(std::uint64_t addr, std::size_t n, std::uint8_t v) { std::memset(state.dram.write(addr, n, "test"), v, n); }

    static Instruction mem(Opcode op, MemType t, std::uint32_t sram, std::uint32_t dram, std::uint32_t y, std::uint32_t x)
    {
        Instruction i;
        i.opcode = op;
        i.memType = static_cast<std::uint32_t>(t);
        i.sramBase = sram;
        i.dramBase = dram;
        i.ySize = y;
        i.xSize = x;
        i.xStride = x;
        return i;
    }
    static Instruction alu(AluOp op, std::uint32_t uBgn, std::uint32_t uEnd, std::optional<std::int32_t> imm)
    {
        Instruction i;
        i.opcode = Opcode::Alu;
        i.aluOp = static_cast<std::uint32_t>(op);
        i.uopBgn = uBgn;
        i.uopEnd = uEnd;
        i.iterOut = i.iterIn = 1;
        i.useImm = imm.has_value();
        i.imm = imm.value_or(0);
        return i;
    }
    static Instruction gemm(bool reset, std::uint32_t uBgn, std::uint32_t uEnd)
    {
        Instruction i;
        i.opcode = Opcode::Gemm;
        i.reset = reset;
        i.uopBgn = uBgn;
        i.uopEnd = uEnd;
        i.iterOut = i.iterIn = 1;
        return i;
    }
    // Appends STORE (pop CMP->ST, push ST->CMP) after marking the last compute instruction to
    // push CMP->ST, then FINISH (pop ST->CMP).
    void storeAndFinish(std::uint32_t sram, std::uint32_t n)
    {
        insns.back().pushNext = true;
        Instruction s = mem(Opcode::Store, MemType::Out, sram, kOutElem, 1, n);
        s.popPrev = s.pushPrev = true;
        insns.push_back(s);
        Instruction f;
        f.opcode = Opcode::Finish;
        f.popNext = true;
        insns.push_back(f);
    }
    RunResult run(Fidelity fidelity = Fidelity::Fsim, std::uint64_t budget = std::uint64_t{1} << 32)
    {
        RunOptions o;
        o.fidelity = fidelity;
        o.uopBudget = budget;
        return runInstructions(insns, layout, state, o);
    }
    std::int32_t acc(std::size_t elem, int lane) const { return state.sram.acc[elem * 16 + static_cast<std::size_t>(lane)]; }
    std::uint8_t out(std::size_t byte) { return *state.dram.read(0x3000 + byte, 1, "test"); }
};

} // namespace

class TestVtaExec : public QObject {
    Q_OBJECT
private slots:
    void storeTruncatesToInt8()
    {
        // spec.md §3.2, confirmed with fsim: 300 -> 44, -200 -> 56, 128 -> -128, 0x12345678 -> 0x78.
        Bench b;
        b.putUops({{0, 0, 0}});
        b.putAcc(0, {300, -200, 128, 0x12345678, -1, 255, -129, 0, 0, 0, 0, 0, 0, 0, 0, 7});
        b.insns = {Bench::mem(Opcode::Load, MemType::Uop, 0, kUopElem, 1, 1),
                   Bench::mem(Opcode::Load, MemType::Acc, 0, kAccElem, 1, 1), Bench::alu(AluOp::Shr, 0, 1, 0)};
        b.storeAndFinish(0, 1);
        const RunResult r = b.run();
        QVERIFY2(r.ok(), r.failure ? r.failure->message.c_str() : "");
        const std::uint8_t expected[] = {44, 56, 0x80, 0x78, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0, 7};
        for (int i = 0; i < 16; ++i) QCOMPARE(b.out(static_cast<std::size_t>(i)), expected[i]);
        QCOMPARE(r.counters.accLoadNbytes, std::uint64_t{64});
        QCOMPARE(r.counters.uopLoadNbytes, std::uint64_t{4});
        QCOMPARE(r.counters.outStoreNbytes, std::uint64_t{16});
        QCOMPARE(r.counters.aluCounter, std::uint64_t{1});
        QCOMPARE(r.tokenPushes[static_cast<std::size_t>(TokenQueue::G2S)], std::uint64_t{1});
        QCOMPARE(r.tokenPushes[static_cast<std::size_t>(TokenQueue::S2G)], std::uint64_t{1});
    }

    void aluOpsShiftAndWrap()
    {
        Bench b;
        // uop k: dst = src = k, so each instruction works on its own element.
        b.putUops({{0, 0, 0}, {1, 1, 0}, {2, 2, 0}, {3, 3, 0}, {4, 4, 0}, {5, 5, 0}, {6, 6, 0}, {7, 7, 0}});
        const std::vector<std::int32_t> a = {-17, -3, 0x40000001, INT_MAX, INT_MIN, 5, 0, 1};
        for (std::size_t e = 0; e < 7; ++e) b.putAcc(e, a);
        b.insns = {Bench::mem(Opcode::Load, MemType::Uop, 0, kUopElem, 1, 8),
                   Bench::mem(Opcode::Load, MemType::Acc, 0, kAccElem, 1, 8),
                   Bench::alu(AluOp::Shr, 0, 1, 3), Bench::alu(AluOp::Shr, 1, 2, -2), Bench::alu(AluOp::Add, 2, 3, 1),
                   Bench::alu(AluOp::Min, 3, 4, -5), Bench::alu(AluOp::Max, 4, 5, -5)};
        Instruction vecShr = Bench::alu(AluOp::Shr, 5, 6, std::nullopt);
        b.insns.push_back(vecShr);  // uop 5: dst 5, src 5 -> acc[5] >> acc[5] lane-wise
        Instruction vecAdd = Bench::alu(AluOp::Add, 6, 7, std::nullopt);
        b.insns.push_back(vecAdd);  // acc[6] + acc[6]
        b.storeAndFinish(0, 1);
        const RunResult r = b.run();
        QVERIFY2(r.ok(), r.failure ? r.failure->message.c_str() : "");
        // SHR 3 (arithmetic): -17 -> -3, -3 -> -1, 0x40000001 -> 0x08000000, INT_MAX -> 0x0fffffff, INT_MIN -> -0x10000000.
        QCOMPARE(b.acc(0, 0), -3);
        QCOMPARE(b.acc(0, 1), -1);
        QCOMPARE(b.acc(0, 2), 0x08000000);
        QCOMPARE(b.acc(0, 3), 0x0fffffff);
        QCOMPARE(b.acc(0, 4), -0x10000000);
        // SHR -2 = left shift by 2 with wrap: -17 -> -68, 0x40000001 -> 4, INT_MAX -> -4, INT_MIN -> 0.
        QCOMPARE(b.acc(1, 0), -68);
        QCOMPARE(b.acc(1, 2), 4);
        QCOMPARE(b.acc(1, 3), -4);
        QCOMPARE(b.acc(1, 4), 0);
        // ADD 1: INT_MAX wraps to INT_MIN.
        QCOMPARE(b.acc(2, 3), INT_MIN);
        QCOMPARE(b.acc(2, 0), -16);
        // MIN -5 / MAX -5, signed.
        QCOMPARE(b.acc(3, 0), -17);
        QCOMPARE(b.acc(3, 5), -5);
        QCOMPARE(b.acc(3, 4), INT_MIN);
        QCOMPARE(b.acc(4, 0), -5);
        QCOMPARE(b.acc(4, 3), INT_MAX);
        QCOMPARE(b.acc(4, 4), -5);
        // Vector SHR of x by itself: 5 >> 5 = 0, 1 >> 1 = 0, -17 >> -17 = -17 << 17.
        QCOMPARE(b.acc(5, 5), 0);
        QCOMPARE(b.acc(5, 0), -17 * (1 << 17));
        // Vector ADD of x with itself: INT_MAX + INT_MAX wraps to -2.
        QCOMPARE(b.acc(6, 3), -2);
        QCOMPARE(b.acc(6, 4), 0);  // INT_MIN + INT_MIN wraps to 0
        QCOMPARE(r.counters.aluCounter, std::uint64_t{7});
    }

    void gemmSumsAndWraps()
    {
        Bench b;
        // uop 0: acc 0 <- inp 0 x wgt 0; uop 1: acc 1 <- inp 0 x wgt 0.
        b.putUops({{0, 0, 0}, {1, 0, 0}});
        b.fill(0x2000, 16, 127);   // inp lanes all 127
        b.fill(0x2400, 256, 0x80); // wgt lanes all -128
        std::vector<std::int32_t> bias(16, INT_MIN + 100);
        b.putAcc(1, bias);
        b.insns = {Bench::mem(Opcode::Load, MemType::Uop, 0, kUopElem, 1, 2),
                   Bench::mem(Opcode::Load, MemType::Acc, 0, kAccElem, 1, 2),
                   Bench::mem(Opcode::Load, MemType::Inp, 0, kInpElem, 1, 1),
                   Bench::mem(Opcode::Load, MemType::Wgt, 0, kWgtElem, 1, 1)};
        b.insns.back().pushNext = true;
        Instruction reset = Bench::gemm(true, 0, 1);
        reset.popPrev = true;
        b.insns.push_back(reset);
        Instruction g = Bench::gemm(false, 0, 2);
        g.iterOut = 2;  // twice over both uops; factors 0: accumulate twice
        b.insns.push_back(g);
        b.storeAndFinish(0, 2);
        const RunResult r = b.run();
        QVERIFY2(r.ok(), r.failure ? r.failure->message.c_str() : "");
        // acc 0: reset, then twice 16 x 127 x -128 = -260096 each.
        QCOMPARE(b.acc(0, 0), -520192);
        QCOMPARE(b.acc(0, 15), -520192);
        // acc 1: INT_MIN + 100 - 520192 wraps to 2^31 + 100 - 520192 = 2146963556.
        QCOMPARE(b.acc(1, 7), 2146963556);
        QCOMPARE(r.counters.gemmCounter, std::uint64_t{4});  // the reset GEMM is not counted
        QCOMPARE(r.tokenPushes[static_cast<std::size_t>(TokenQueue::L2G)], std::uint64_t{1});
        // OUT (truncated acc): -520192 = 0xfff80f00 -> 0x00.
        QCOMPARE(b.out(0), std::uint8_t{0x00});
        QCOMPARE(b.out(16), std::uint8_t{2146963556 & 0xff});
    }

    void paddingOverwritesWithZeros()
    {
        Bench b;
        b.fill(0x2000, 16 * 9, 0x11);
        b.fill(0x2000 + 16 * 9, 16, 0x22);
        b.putUops({{0, 0, 0}});
        b.insns = {Bench::mem(Opcode::Load, MemType::Inp, 5, kInpElem, 1, 9)};
        Instruction padded = Bench::mem(Opcode::Load, MemType::Inp, 5, kInpElem + 9, 1, 1);
        padded.yPad0 = padded.yPad1 = padded.xPad0 = padded.xPad1 = 1;  // 3 x 3 with the data in the middle
        padded.pushNext = true;
        b.insns.push_back(padded);
        Instruction f;
        f.opcode = Opcode::Finish;
        f.popPrev = true;
        b.insns.push_back(f);
        const RunResult r = b.run();
        QVERIFY2(r.ok(), r.failure ? r.failure->message.c_str() : "");
        for (int e = 0; e < 9; ++e)
            for (int l = 0; l < 16; ++l)
                QCOMPARE(b.state.sram.inp[static_cast<std::size_t>((5 + e) * 16 + l)], e == 4 ? 0x22 : 0);
        QCOMPARE(r.counters.inpLoadNbytes, std::uint64_t{16 * 9 + 16});  // padding is not counted
    }

    void xSizeZeroDoesNothing()
    {
        Bench b;
        b.putUops({{0, 0, 0}});
        b.putAcc(0, {9, 8, 7});
        Instruction noop = Bench::mem(Opcode::Load, MemType::Acc, 0, kAccElem, 4, 0);
        noop.yPad0 = noop.xPad1 = 3;
        b.insns = {Bench::mem(Opcode::Load, MemType::Uop, 0, kUopElem, 1, 1),
                   Bench::mem(Opcode::Load, MemType::Acc, 0, kAccElem, 1, 1), noop, Bench::alu(AluOp::Add, 0, 1, 0)};
        b.storeAndFinish(0, 1);
        const RunResult r = b.run();
        QVERIFY(r.ok());
        QCOMPARE(b.acc(0, 0), 9);
        QCOMPARE(r.counters.accLoadNbytes, std::uint64_t{64});
    }

    void fsimAndHardwareDiffer()
    {
        // spec.md §3.4: ADD imm 1 with dst 0, src 1: fsim uses acc[dst], Chisel acc[src].
        for (const Fidelity f : {Fidelity::Fsim, Fidelity::Hardware}) {
            Bench b;
            b.putUops({{0, 1, 0}});
            b.putAcc(0, {10});
            b.putAcc(1, {20});
            b.insns = {Bench::mem(Opcode::Load, MemType::Uop, 0, kUopElem, 1, 1),
                       Bench::mem(Opcode::Load, MemType::Acc, 0, kAccElem, 1, 2), Bench::alu(AluOp::Add, 0, 1, 1)};
            b.storeAndFinish(0, 1);
            QVERIFY(b.run(f).ok());
            QCOMPARE(b.acc(0, 0), f == Fidelity::Fsim ? 11 : 21);
        }
        // spec.md §3.2: a STORE straight after LOAD ACC reads ACC in fsim, the (unwritten) OUT buffer in hardware.
        for (const Fidelity f : {Fidelity::Fsim, Fidelity::Hardware}) {
            Bench b;
            b.putAcc(0, {300});
            b.insns = {Bench::mem(Opcode::Load, MemType::Acc, 0, kAccElem, 1, 1)};
            b.storeAndFinish(0, 1);
            QVERIFY(b.run(f).ok());
            QCOMPARE(b.out(0), f == Fidelity::Fsim ? std::uint8_t{44} : std::uint8_t{0});
        }
    }

    void wideLanesUseTheGenericPath()
    {
        // 16-bit inputs and weights, BLOCK 2, BATCH 1: INP element 4 B, WGT 8 B, ACC 8 B, OUT 4 B.
        VtaConfig c;
        c.logInpWidth = c.logWgtWidth = 4;
        c.logBlockIn = c.logBlockOut = 1;
        c.logUopBuffSize = c.logInpBuffSize = c.logWgtBuffSize = c.logAccBuffSize = 10;
        const IsaLayout layout(c);
        Dram dram(kStart, 0x2000);
        auto put16 = [&](std::uint64_t addr, std::vector<std::int16_t> v) { std::memcpy(dram.write(addr, 2 * v.size(), "t"), v.data(), 2 * v.size()); };
        auto put32 = [&](std::uint64_t addr, std::vector<std::int32_t> v) { std::memcpy(dram.write(addr, 4 * v.size(), "t"), v.data(), 4 * v.size()); };
        const std::uint32_t uop = layout.encodeUop({1, 1, 1});
        std::memcpy(dram.write(0x1004, 4, "t"), &uop, 4);           // uop 1: acc 1 <- inp 1 x wgt 1
        put16(0x1100, {300, -2, 32767, 32767});                      // inp 0, inp 1
        put16(0x1200, {1000, 3, -7, 5, 32767, 32767, 1, 0});         // wgt 0 (rows o=0,1), wgt 1
        put32(0x1300, {0, 0, 200000, 0});                            // acc 0, acc 1
        MachineState state(c, std::move(dram));
        auto mem = [](Opcode op, MemType t, std::uint32_t dramElem, std::uint32_t x) {
            Instruction i;
            i.opcode = op;
            i.memType = static_cast<std::uint32_t>(t);
            i.dramBase = dramElem;
            i.ySize = 1;
            i.xSize = i.xStride = x;
            return i;
        };
        Instruction g0 = Bench::gemm(false, 0, 1);  // uop 0 = {0,0,0} (zeroed buffer): acc 0 <- inp 0 x wgt 0
        g0.popPrev = true;
        Instruction loadWgt = mem(Opcode::Load, MemType::Wgt, 0x1200 / 8, 2);
        loadWgt.pushNext = true;
        Instruction g1 = Bench::gemm(false, 1, 2);
        g1.pushNext = true;
        Instruction st = mem(Opcode::Store, MemType::Out, 0x1400 / 4, 2);
        st.popPrev = st.pushPrev = true;
        Instruction f;
        f.opcode = Opcode::Finish;
        f.popNext = true;
        const std::vector<Instruction> insns = {mem(Opcode::Load, MemType::Uop, 0x1000 / 4, 2),
                                                mem(Opcode::Load, MemType::Inp, 0x1100 / 4, 2),
                                                loadWgt, mem(Opcode::Load, MemType::Acc, 0x1300 / 8, 2), g0, g1, st, f};
        const RunResult r = runInstructions(insns, layout, state);
        QVERIFY2(r.ok(), r.failure ? r.failure->message.c_str() : "");
        // acc 0: 300*1000 + -2*3 = 299994 and 300*-7 + -2*5 = -2110.
        QCOMPARE(state.sram.acc[0], 299994);
        QCOMPARE(state.sram.acc[1], -2110);
        // acc 1, lane 0: 200000 + 2 * 32767^2 = 2147552578 wraps to -2147414718; lane 1: 32767.
        QCOMPARE(state.sram.acc[2], -2147414718);
        QCOMPARE(state.sram.acc[3], 32767);
        // STORE truncates to the 16-bit output width: 299994 = 0x493da -> 0x93da.
        const std::uint8_t* out = state.dram.read(0x1400, 8, "t");
        QCOMPARE(out[0], std::uint8_t{0xda});
        QCOMPARE(out[1], std::uint8_t{0x93});
        QCOMPARE(r.counters.wgtLoadNbytes, std::uint64_t{16});
        QCOMPARE(r.counters.outStoreNbytes, std::uint64_t{8});
    }

    void deadlockIsReportedWithModuleAndInstruction()
    {
        Bench b;
        Instruction load = Bench::mem(Opcode::Load, MemType::Inp, 0, kInpElem, 1, 1);
        load.popNext = load.pushNext = true;  // waits for CMP->LD first
        Instruction g = Bench::gemm(true, 0, 0);
        g.popPrev = g.pushPrev = true;  // waits for LD->CMP first
        Instruction f;
        f.opcode = Opcode::Finish;
        b.insns = {load, g, f};
        const RunResult r = b.run();
        QVERIFY(!r.ok());
        QCOMPARE(r.failure->kind, RunFailure::Kind::Deadlock);
        QCOMPARE(*r.failure->module, Module::Compute);
        QCOMPARE(*r.failure->insnIndex, std::size_t{1});
        QVERIFY(r.failure->message.find("load waits at instruction 0") != std::string::npos);
        QVERIFY(r.failure->message.find("for a token on CMP->LD") != std::string::npos);
    }

    void programErrorsStopTheRun()
    {
        {
            Bench b;  // no FINISH
            b.insns = {Bench::mem(Opcode::Load, MemType::Inp, 0, kInpElem, 1, 1)};
            const RunResult r = b.run();
            QCOMPARE(r.failure->kind, RunFailure::Kind::InvalidProgram);
            QVERIFY(r.failure->message.find("no FINISH") != std::string::npos);
        }
        {
            Bench b;  // a LOAD not ordered before FINISH
            Instruction f;
            f.opcode = Opcode::Finish;
            b.insns = {f, Bench::mem(Opcode::Load, MemType::Inp, 0, kInpElem, 1, 1)};
            const RunResult r = b.run();
            QCOMPARE(r.failure->kind, RunFailure::Kind::AfterFinish);
            QCOMPARE(*r.failure->module, Module::Load);
            QCOMPARE(*r.failure->insnIndex, std::size_t{1});
        }
        {
            Bench b;  // a LOAD that can never run after FINISH: a warning, not an error
            Instruction f;
            f.opcode = Opcode::Finish;
            Instruction load = Bench::mem(Opcode::Load, MemType::Inp, 0, kInpElem, 1, 1);
            load.popNext = true;
            b.insns = {f, load};
            const RunResult r = b.run();
            QVERIFY(r.ok());
            QCOMPARE(r.warnings.size(), std::size_t(1));
        }
        {
            Bench b;  // GEMM inp index past the buffer
            b.putUops({{0, 2047, 0}});
            Instruction g = Bench::gemm(false, 0, 1);
            g.iterIn = 2;
            g.srcFactorIn = 1;
            Instruction f;
            f.opcode = Opcode::Finish;
            b.insns = {Bench::mem(Opcode::Load, MemType::Uop, 0, kUopElem, 1, 1), g, f};
            const RunResult r = b.run();
            QCOMPARE(r.failure->kind, RunFailure::Kind::OutOfRange);
            QCOMPARE(*r.failure->insnIndex, std::size_t{1});
            QVERIFY(r.failure->message.find("inp index 2048") != std::string::npos);
        }
        {
            Bench b;  // the step budget is a final guard
            b.putUops({{0, 0, 0}});
            Instruction g = Bench::gemm(false, 0, 1);
            g.iterOut = g.iterIn = 100;
            Instruction f;
            f.opcode = Opcode::Finish;
            b.insns = {Bench::mem(Opcode::Load, MemType::Uop, 0, kUopElem, 1, 1), g, f};
            const RunResult r = b.run(Fidelity::Fsim, 5000);
            QCOMPARE(r.failure->kind, RunFailure::Kind::StepBudget);
            QVERIFY(b.run(Fidelity::Fsim, 10000).ok());
        }
    }
};

QTEST_APPLESS_MAIN(TestVtaExec)
#include "tst_vta_exec.moc"
