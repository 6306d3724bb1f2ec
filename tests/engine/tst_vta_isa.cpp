// The VTA ISA (engine/sim/vta/Instruction.h): FORMAT.md's worked example decodes to exactly the
// fields it lists, the default layout has the bit positions of spec.md §2 / FORMAT.md §4, a
// non-default configuration moves the fields as the bitfield rule says (hand-derived), and
// encode(decode(x)) == x for thousands of random valid instructions and uops (seeded).
#include "sim/vta/Disassembler.h"
#include "sim/vta/Instruction.h"

#include <QtTest>

#include <random>

using namespace nestor;
using namespace nestor::vta;

namespace {

InsnBits fromHex(const char* hex)
{
    std::uint8_t bytes[16];
    for (int i = 0; i < 16; ++i) bytes[i] = static_cast<std::uint8_t>(std::stoi(std::string(hex + 2 * i, 2), nullptr, 16));
    return InsnBits::fromBytes(bytes);
}

VtaConfig batch2Block8()
{
    VtaConfig c;
    c.logBatch = 1;
    c.logBlockIn = c.logBlockOut = 3;
    c.logUopBuffSize = 12;
    c.logInpBuffSize = 12;
    c.logWgtBuffSize = 14;
    c.logAccBuffSize = 13;
    return c;
}

int position(const IsaLayout& l, Opcode op, const std::string& name)
{
    for (const auto& [n, f] : l.fields(op))
        if (n == name) return f.lsb;
    return -1;
}

// Random 128-bit patterns with a valid opcode and every bit outside the opcode's fields zero.
InsnBits randomValid(const IsaLayout& layout, std::mt19937_64& rng)
{
    const Opcode ops[] = {Opcode::Load, Opcode::Store, Opcode::Gemm, Opcode::Finish, Opcode::Alu};
    const Opcode op = ops[rng() % 5];
    InsnBits b{{rng(), rng()}};
    InsnBits mask;
    for (const auto& [name, f] : layout.fields(op))
        mask.word[static_cast<std::size_t>(f.lsb / 64)] |= f.maxValue() << (f.lsb % 64);
    b.word[0] &= mask.word[0];
    b.word[1] &= mask.word[1];
    b.word[0] = (b.word[0] & ~std::uint64_t{7}) | static_cast<std::uint64_t>(op);
    return b;
}

} // namespace

class TestVtaIsa : public QObject {
    Q_OBJECT
private slots:
    void workedExampleDecodes()
    {
        // FORMAT.md §4, vectors/vis_c_matmul_loops.json instruction 4.
        const IsaLayout layout{VtaConfig{}};
        const InsnBits bits = fromHex("4a016000100004000208800000008000");
        QCOMPARE(bits.word[0], std::uint64_t{0x400100060014aULL});
        QCOMPARE(bits.word[1], std::uint64_t{0x80000000800802ULL});
        const Instruction i = layout.decode(bits, 4);
        QCOMPARE(i.opcode, Opcode::Gemm);
        QVERIFY(i.popPrev && !i.popNext && !i.pushPrev && i.pushNext);
        QVERIFY(!i.reset);
        QCOMPARE(i.uopBgn, 1u);
        QCOMPARE(i.uopEnd, 3u);
        QCOMPARE(i.iterOut, 2u);
        QCOMPARE(i.iterIn, 2u);
        QCOMPARE(i.dstFactorOut, 2u);
        QCOMPARE(i.dstFactorIn, 1u);
        QCOMPARE(i.srcFactorOut, 2u);
        QCOMPARE(i.srcFactorIn, 0u);
        QCOMPARE(i.wgtFactorOut, 0u);
        QCOMPARE(i.wgtFactorIn, 2u);
        QCOMPARE(layout.encode(i, 4), bits);
        QCOMPARE(disassemble(i),
                 std::string("GEMM uop[1,3) iter=(2,2) dst_f=(2,1) src_f=(2,0) wgt_f=(0,2)  [pop LD->CMP, push CMP->ST]"));

        const Uop u = layout.decodeUop(0x0280a028u);
        QCOMPARE(u.dst, 40u);
        QCOMPARE(u.src, 20u);
        QCOMPARE(u.wgt, 10u);
        QCOMPARE(layout.encodeUop(u), 0x0280a028u);
    }

    void otherExampleInstructions()
    {
        // Instructions of the example vectors with the asm lines recorded next to them.
        const IsaLayout layout{VtaConfig{}};
        const Instruction load = layout.decode(fromHex("c0280044000000000200020002000000"), 1);
        QCOMPARE(disassemble(load), std::string("LOAD WGT sram=10 dram_elem=17 y=2 x=2 stride=2 pad(y0,y1,x0,x1)=(0,0,0,0)  [push LD->CMP]"));
        const Instruction store = layout.decode(fromHex("29a20080050000000200020002000000"), 5);
        QCOMPARE(disassemble(store), std::string("STORE OUT sram=40 dram_elem=352 y=2 x=2 stride=2 pad(y0,y1,x0,x1)=(0,0,0,0)  [pop CMP->ST, push ST->CMP]"));
        const Instruction finish = layout.decode(fromHex("13000000000000000000000000000000"), 6);
        QCOMPARE(disassemble(finish), std::string("FINISH  [pop ST->CMP]"));
    }

    void defaultLayoutMatchesTheSpec()
    {
        const IsaLayout l{VtaConfig{}};
        QCOMPARE(position(l, Opcode::Load, "memory_type"), 7);
        QCOMPARE(position(l, Opcode::Load, "sram_base"), 10);
        QCOMPARE(position(l, Opcode::Load, "dram_base"), 26);
        QCOMPARE(position(l, Opcode::Load, "y_size"), 64);
        QCOMPARE(position(l, Opcode::Load, "x_size"), 80);
        QCOMPARE(position(l, Opcode::Load, "x_stride"), 96);
        QCOMPARE(position(l, Opcode::Load, "y_pad_0"), 112);
        QCOMPARE(position(l, Opcode::Load, "x_pad_1"), 124);
        QCOMPARE(position(l, Opcode::Gemm, "uop_bgn"), 8);
        QCOMPARE(position(l, Opcode::Gemm, "uop_end"), 21);
        QCOMPARE(position(l, Opcode::Gemm, "iter_out"), 35);
        QCOMPARE(position(l, Opcode::Gemm, "iter_in"), 49);
        QCOMPARE(position(l, Opcode::Gemm, "dst_factor_out"), 64);
        QCOMPARE(position(l, Opcode::Gemm, "src_factor_out"), 86);
        QCOMPARE(position(l, Opcode::Gemm, "wgt_factor_out"), 108);
        QCOMPARE(position(l, Opcode::Gemm, "wgt_factor_in"), 118);
        QCOMPARE(position(l, Opcode::Alu, "alu_opcode"), 108);
        QCOMPARE(position(l, Opcode::Alu, "use_imm"), 111);
        QCOMPARE(position(l, Opcode::Alu, "imm"), 112);
        QCOMPARE(l.uopSrcField().lsb, 11);
        QCOMPARE(l.uopWgtField().lsb, 22);
        QCOMPARE(l.uopWgtField().width, 10);
    }

    void nonDefaultLayoutFollowsTheBitfieldRule()
    {
        // Batch 2, block 8, depths uop 2^10, inp 2^8, wgt 2^8, acc 2^7 (hand-derived):
        // header 7 + reset 1 + uop_bgn 10 + uop_end 11 + iter 14 + 14 = bit 57; dst_factor_out
        // (7 bit) still fits in word 0 at [63:57]; dst_factor_in starts word 1.
        const IsaLayout l{batch2Block8()};
        QCOMPARE(position(l, Opcode::Gemm, "uop_end"), 18);
        QCOMPARE(position(l, Opcode::Gemm, "dst_factor_out"), 57);
        QCOMPARE(position(l, Opcode::Gemm, "dst_factor_in"), 64);
        QCOMPARE(position(l, Opcode::Gemm, "src_factor_out"), 71);
        QCOMPARE(position(l, Opcode::Gemm, "wgt_factor_out"), 87);
        QCOMPARE(position(l, Opcode::Alu, "alu_opcode"), 87);
        QCOMPARE(l.uopSrcField().lsb, 7);   // dst is 7 bit
        QCOMPARE(l.uopSrcField().width, 8); // max(acc 7, inp 8)
        QCOMPARE(l.uopWgtField().lsb, 15);
    }

    void randomRoundTrips_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("default") << 0;
        QTest::newRow("batch2_block8") << 1;
        QTest::newRow("block32_small_acc") << 2;
    }

    void randomRoundTrips()
    {
        QFETCH(int, which);
        VtaConfig c;
        if (which == 1) c = batch2Block8();
        if (which == 2) {
            c.logBlockIn = c.logBlockOut = 5;
            c.logAccBuffSize = 16;
            c.logWgtBuffSize = 19;
        }
        const IsaLayout layout(c);
        std::mt19937_64 rng(0x5eed + static_cast<unsigned>(which));
        for (int n = 0; n < 5000; ++n) {
            const InsnBits bits = randomValid(layout, rng);
            const Instruction insn = layout.decode(bits, static_cast<std::size_t>(n));
            QCOMPARE(layout.encode(insn), bits);
            QCOMPARE(layout.decode(layout.encode(insn), 0), insn);
        }
        const std::uint32_t uopMask = static_cast<std::uint32_t>(
            (std::uint64_t{1} << (layout.uopWgtField().lsb + layout.uopWgtField().width)) - 1);
        for (int n = 0; n < 5000; ++n) {
            const auto word = static_cast<std::uint32_t>(rng()) & uopMask;
            QCOMPARE(layout.encodeUop(layout.decodeUop(word)), word);
        }
    }

    void decodeAndEncodeErrorsNameTheField()
    {
        const IsaLayout layout{VtaConfig{}};
        InsnBits bad;
        bad.word[0] = 5;
        try {
            layout.decode(bad, 7);
            QFAIL("opcode 5 decoded");
        } catch (const NestorError& e) {
            QCOMPARE(e.diagnostics().front().field, std::string("insns[7].opcode"));
        }
        Instruction g;
        g.opcode = Opcode::Gemm;
        g.dstFactorOut = 2048;  // 11 bits
        try {
            layout.encode(g, 3);
            QFAIL("an 11-bit field took 2048");
        } catch (const NestorError& e) {
            QCOMPARE(e.diagnostics().front().field, std::string("insns[3].dst_factor_out"));
        }
        Instruction a;
        a.opcode = Opcode::Alu;
        a.imm = 40000;
        QVERIFY_THROWS_EXCEPTION(NestorError, layout.encode(a));
        QVERIFY_THROWS_EXCEPTION(NestorError, layout.encodeUop(Uop{2048, 0, 0}));
    }

    void validationNamesInstructionAndField()
    {
        const IsaLayout layout{VtaConfig{}};
        Instruction store;
        store.opcode = Opcode::Store;
        store.memType = static_cast<std::uint32_t>(MemType::Inp);
        store.xPad0 = 1;
        QVERIFY(layout.validate(store, 9).empty());  // x_size = 0: a no-op, only its flags matter
        store.xSize = 1;
        const Diagnostics d = layout.validate(store, 9);
        QCOMPARE(d.size(), std::size_t(2));
        QCOMPARE(d[0].field, std::string("insns[9].memory_type"));
        QVERIFY(d[0].message.find("STORE INP") != std::string::npos);  // the disassembly is quoted
        QCOMPARE(d[1].field, std::string("insns[9].y_pad_0"));

        Instruction alu;
        alu.opcode = Opcode::Alu;
        alu.aluOp = 6;
        alu.uopEnd = 8193;
        const Diagnostics e = layout.validate(alu, 2);
        QCOMPARE(e.size(), std::size_t(2));
        QCOMPARE(e[0].field, std::string("insns[2].uop_end"));
        QCOMPARE(e[1].field, std::string("insns[2].alu_opcode"));

        Instruction load;
        load.opcode = Opcode::Load;
        load.xSize = 1;
        load.memType = 5;
        QCOMPARE(layout.validate(load, 0).front().field, std::string("insns[0].memory_type"));
        load.memType = static_cast<std::uint32_t>(MemType::Out);
        QCOMPARE(layout.validate(load, 0).size(), std::size_t(1));
        load.memType = static_cast<std::uint32_t>(MemType::Acc);
        QVERIFY(layout.validate(load, 0).empty());
    }

    void configurationValidationNamesTheParameter()
    {
        VtaConfig c;
        c.logInpWidth = 2;
        const Diagnostics d = c.validate();
        QCOMPARE(d.size(), std::size_t(1));
        QCOMPARE(d[0].field, std::string("config.LOG_INP_WIDTH"));
        VtaConfig small;
        small.logWgtBuffSize = 7;  // smaller than one 256-byte weight element
        QCOMPARE(small.validate().front().field, std::string("config.LOG_WGT_BUFF_SIZE"));
        VtaConfig wide;
        wide.logAccBuffSize = 24;  // 2^18 acc elements: sram_base is 16 bit
        QCOMPARE(wide.validate().front().field, std::string("config.LOG_ACC_BUFF_SIZE"));
        QVERIFY_THROWS_EXCEPTION(NestorError, IsaLayout{wide});

        const VtaConfig def;
        QCOMPARE(def.elemBytes(MemType::Inp), std::int64_t{16});
        QCOMPARE(def.elemBytes(MemType::Wgt), std::int64_t{256});
        QCOMPARE(def.elemBytes(MemType::Acc), std::int64_t{64});
        QCOMPARE(def.elemBytes(MemType::Out), std::int64_t{16});
        QCOMPARE(def.depth(MemType::Uop), std::int64_t{8192});
        QCOMPARE(def.depth(MemType::Inp), std::int64_t{2048});
        QCOMPARE(def.depth(MemType::Wgt), std::int64_t{1024});
        QCOMPARE(def.depth(MemType::Acc), std::int64_t{2048});
        QCOMPARE(def.depth(MemType::Out), std::int64_t{2048});
        QCOMPARE(def.logOutBuffSize(), 15);
        QCOMPARE(def.summary(), std::string("1x16x16_i8w8a32_15_15_18_17"));
    }
};

QTEST_APPLESS_MAIN(TestVtaIsa)
#include "tst_vta_isa.moc"
