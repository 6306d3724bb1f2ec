#include "sim/vta/Disassembler.h"

#include "sim/vta/Routing.h"

namespace nestor::vta {

namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }
std::string pair(std::uint32_t a, std::uint32_t b) { return "(" + num(a) + "," + num(b) + ")"; }

std::string memTypeText(std::uint32_t t)
{
    if (t <= 4) return memTypeName(static_cast<MemType>(t));
    if (t == 5) return "ACC_8BIT";
    return "MEM" + num(t);
}

std::string dependencies(const Instruction& insn)
{
    const Module m = moduleOf(insn);
    std::string s;
    auto add = [&](bool set, std::optional<TokenQueue> q, const char* verb, const char* flag) {
        if (!set) return;
        if (!s.empty()) s += ", ";
        s += q ? std::string(verb) + " " + tokenQueueArrow(*q) : std::string("unused ") + flag;
    };
    add(insn.popPrev, popPrevQueue(m), "pop", "pop_prev");
    add(insn.popNext, popNextQueue(m), "pop", "pop_next");
    add(insn.pushPrev, pushPrevQueue(m), "push", "push_prev");
    add(insn.pushNext, pushNextQueue(m), "push", "push_next");
    return s.empty() ? s : "  [" + s + "]";
}

} // namespace

std::string disassemble(const Instruction& insn)
{
    std::string s = opcodeName(insn.opcode);
    switch (insn.opcode) {
    case Opcode::Load:
    case Opcode::Store:
        s += " " + memTypeText(insn.memType) + " sram=" + num(insn.sramBase) + " dram_elem=" + num(insn.dramBase) +
             " y=" + num(insn.ySize) + " x=" + num(insn.xSize) + " stride=" + num(insn.xStride) +
             " pad(y0,y1,x0,x1)=(" + num(insn.yPad0) + "," + num(insn.yPad1) + "," + num(insn.xPad0) + "," +
             num(insn.xPad1) + ")";
        break;
    case Opcode::Gemm:
        if (insn.reset) s += " RESET";
        s += " uop[" + num(insn.uopBgn) + "," + num(insn.uopEnd) + ") iter=" + pair(insn.iterOut, insn.iterIn) +
             " dst_f=" + pair(insn.dstFactorOut, insn.dstFactorIn) + " src_f=" + pair(insn.srcFactorOut, insn.srcFactorIn) +
             " wgt_f=" + pair(insn.wgtFactorOut, insn.wgtFactorIn);
        break;
    case Opcode::Alu:
        s += " " + (insn.aluOp <= 4 ? std::string(aluOpName(static_cast<AluOp>(insn.aluOp))) : "OP" + num(insn.aluOp));
        if (insn.useImm) s += " imm=" + std::to_string(insn.imm);
        if (insn.reset) s += " reset";
        s += " uop[" + num(insn.uopBgn) + "," + num(insn.uopEnd) + ") iter=" + pair(insn.iterOut, insn.iterIn) +
             " dst_f=" + pair(insn.dstFactorOut, insn.dstFactorIn) + " src_f=" + pair(insn.srcFactorOut, insn.srcFactorIn);
        break;
    case Opcode::Finish: break;
    }
    return s + dependencies(insn);
}

std::string disassembleUop(const Uop& uop)
{
    return "uop dst=" + num(uop.dst) + " src=" + num(uop.src) + " wgt=" + num(uop.wgt);
}

} // namespace nestor::vta
