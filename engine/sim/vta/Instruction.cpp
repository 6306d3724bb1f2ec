#include "sim/vta/Instruction.h"

#include "sim/vta/Disassembler.h"

#include <initializer_list>

namespace nestor::vta {

namespace {

// Fixed widths of the ISA (spec.md §2: hw_spec.h constants).
constexpr int kOpcodeBits = 3;
constexpr int kMemTypeBits = 3;
constexpr int kSramBits = 16;
constexpr int kDramBits = 32;
constexpr int kSizeBits = 16;
constexpr int kStrideBits = 16;
constexpr int kPadBits = 4;
constexpr int kIterBits = 14;
constexpr int kAluOpBits = 3;
constexpr int kImmBits = 16;

// Places fields one after another from bit `pos`; a field that would cross a 64-bit word
// starts at the next word (the GCC bitfield rule for uint64_t members).
template <std::size_t N>
std::array<BitField, N> place(int pos, std::initializer_list<int> widths, int unit)
{
    std::array<BitField, N> out{};
    std::size_t i = 0;
    for (const int w : widths) {
        if (pos % unit + w > unit) pos = (pos / unit + 1) * unit;
        out[i++] = BitField{pos, w};
        pos += w;
    }
    return out;
}

std::uint64_t get(const InsnBits& b, const BitField& f)
{
    return (b.word[static_cast<std::size_t>(f.lsb / 64)] >> (f.lsb % 64)) & f.maxValue();
}

void put(InsnBits& b, const BitField& f, std::uint64_t v)
{
    b.word[static_cast<std::size_t>(f.lsb / 64)] |= (v & f.maxValue()) << (f.lsb % 64);
}

std::string fieldPath(std::size_t index, const std::string& field)
{
    return "insns[" + std::to_string(index) + "]." + field;
}

const char* const kHeaderNames[] = {"opcode", "pop_prev_dep", "pop_next_dep", "push_prev_dep", "push_next_dep"};
const char* const kMemoryNames[] = {"memory_type", "sram_base", "dram_base", "y_size",  "x_size",
                                    "x_stride",    "y_pad_0",   "y_pad_1",   "x_pad_0", "x_pad_1"};
const char* const kGemmNames[] = {"reset_reg",      "uop_bgn",        "uop_end",       "iter_out",
                                  "iter_in",        "dst_factor_out", "dst_factor_in", "src_factor_out",
                                  "src_factor_in",  "wgt_factor_out", "wgt_factor_in"};
const char* const kAluNames[] = {"reset_reg",      "uop_bgn",       "uop_end",    "iter_out",
                                 "iter_in",        "dst_factor_out", "dst_factor_in", "src_factor_out",
                                 "src_factor_in",  "alu_opcode",    "use_imm",    "imm"};

} // namespace

const char* opcodeName(Opcode op)
{
    switch (op) {
    case Opcode::Load: return "LOAD";
    case Opcode::Store: return "STORE";
    case Opcode::Gemm: return "GEMM";
    case Opcode::Finish: return "FINISH";
    case Opcode::Alu: return "ALU";
    }
    return "?";
}

const char* aluOpName(AluOp op)
{
    switch (op) {
    case AluOp::Min: return "MIN";
    case AluOp::Max: return "MAX";
    case AluOp::Add: return "ADD";
    case AluOp::Shr: return "SHR";
    case AluOp::Mul: return "MUL";
    }
    return "?";
}

InsnBits InsnBits::fromBytes(const std::uint8_t* bytes)
{
    InsnBits b;
    for (int i = 0; i < 16; ++i)
        b.word[static_cast<std::size_t>(i / 8)] |= std::uint64_t{bytes[i]} << (8 * (i % 8));
    return b;
}

void InsnBits::toBytes(std::uint8_t* bytes) const
{
    for (int i = 0; i < 16; ++i) bytes[i] = static_cast<std::uint8_t>(word[static_cast<std::size_t>(i / 8)] >> (8 * (i % 8)));
}

std::uint64_t Instruction::loopCount() const
{
    if (uopEnd <= uopBgn) return 0;
    return std::uint64_t{iterOut} * iterIn * (uopEnd - uopBgn);
}

IsaLayout::IsaLayout(const VtaConfig& config) : config_(config)
{
    const Diagnostics problems = config.validate();
    if (!problems.empty()) throw NestorError(problems);
    const int uopDepth = config.logDepth(MemType::Uop);
    const int accDepth = config.logDepth(MemType::Acc);
    const int inpDepth = config.logDepth(MemType::Inp);
    const int wgtDepth = config.logDepth(MemType::Wgt);
    header_ = place<5>(0, {kOpcodeBits, 1, 1, 1, 1}, 64);
    const int body = kOpcodeBits + 4;
    memory_ = place<10>(body, {kMemTypeBits, kSramBits, kDramBits, kSizeBits, kSizeBits, kStrideBits, kPadBits,
                               kPadBits, kPadBits, kPadBits},
                        64);
    gemm_ = place<11>(body, {1, uopDepth, uopDepth + 1, kIterBits, kIterBits, accDepth, accDepth, inpDepth, inpDepth,
                             wgtDepth, wgtDepth},
                      64);
    alu_ = place<12>(body, {1, uopDepth, uopDepth + 1, kIterBits, kIterBits, accDepth, accDepth, inpDepth, inpDepth,
                            kAluOpBits, 1, kImmBits},
                     64);
    for (const auto* layout : {memory_.data() + memory_.size() - 1, gemm_.data() + gemm_.size() - 1,
                               alu_.data() + alu_.size() - 1})
        if (layout->lsb + layout->width > 128)
            throw NestorError("config", "the instruction fields need more than 128 bits with " + config.summary());
    // spec.md §2.6: the uop source index is wide enough for both the inp (GEMM) and acc (ALU) buffers.
    const int srcBits = accDepth > inpDepth ? accDepth : inpDepth;
    const auto uop = place<3>(0, {accDepth, srcBits, wgtDepth}, 32);
    uopDst_ = uop[0];
    uopSrc_ = uop[1];
    uopWgt_ = uop[2];
    if (uopWgt_.lsb + uopWgt_.width > 32)
        throw NestorError("config", "a micro-op needs more than 32 bits with " + config.summary());
}

Instruction IsaLayout::decode(const InsnBits& b, std::size_t index) const
{
    Instruction insn;
    const std::uint64_t op = get(b, header_[0]);
    if (op > 4)
        throw NestorError(fieldPath(index, "opcode"),
                          "unknown opcode " + std::to_string(op) + " (LOAD 0, STORE 1, GEMM 2, FINISH 3, ALU 4)");
    insn.opcode = static_cast<Opcode>(op);
    insn.popPrev = get(b, header_[1]) != 0;
    insn.popNext = get(b, header_[2]) != 0;
    insn.pushPrev = get(b, header_[3]) != 0;
    insn.pushNext = get(b, header_[4]) != 0;
    auto u32 = [&](const BitField& f) { return static_cast<std::uint32_t>(get(b, f)); };
    switch (insn.opcode) {
    case Opcode::Load:
    case Opcode::Store:
        insn.memType = u32(memory_[0]);
        insn.sramBase = u32(memory_[1]);
        insn.dramBase = u32(memory_[2]);
        insn.ySize = u32(memory_[3]);
        insn.xSize = u32(memory_[4]);
        insn.xStride = u32(memory_[5]);
        insn.yPad0 = u32(memory_[6]);
        insn.yPad1 = u32(memory_[7]);
        insn.xPad0 = u32(memory_[8]);
        insn.xPad1 = u32(memory_[9]);
        break;
    case Opcode::Gemm:
    case Opcode::Alu: {
        const auto& f = insn.opcode == Opcode::Gemm ? gemm_.data() : alu_.data();
        insn.reset = get(b, f[0]) != 0;
        insn.uopBgn = u32(f[1]);
        insn.uopEnd = u32(f[2]);
        insn.iterOut = u32(f[3]);
        insn.iterIn = u32(f[4]);
        insn.dstFactorOut = u32(f[5]);
        insn.dstFactorIn = u32(f[6]);
        insn.srcFactorOut = u32(f[7]);
        insn.srcFactorIn = u32(f[8]);
        if (insn.opcode == Opcode::Gemm) {
            insn.wgtFactorOut = u32(f[9]);
            insn.wgtFactorIn = u32(f[10]);
        } else {
            insn.aluOp = u32(f[9]);
            insn.useImm = get(b, f[10]) != 0;
            const std::uint32_t raw = u32(f[11]);
            insn.imm = static_cast<std::int32_t>(raw ^ 0x8000u) - 0x8000;  // sign-extend 16 bits
        }
        break;
    }
    case Opcode::Finish: break;
    }
    return insn;
}

InsnBits IsaLayout::encode(const Instruction& insn, std::size_t index) const
{
    InsnBits b;
    auto set = [&](const BitField& f, std::uint64_t v, const char* name) {
        if (v > f.maxValue())
            throw NestorError(fieldPath(index, name), std::to_string(v) + " does not fit in " + std::to_string(f.width) +
                                                          " bits (at most " + std::to_string(f.maxValue()) + ")");
        put(b, f, v);
    };
    set(header_[0], static_cast<std::uint64_t>(insn.opcode), kHeaderNames[0]);
    set(header_[1], insn.popPrev, kHeaderNames[1]);
    set(header_[2], insn.popNext, kHeaderNames[2]);
    set(header_[3], insn.pushPrev, kHeaderNames[3]);
    set(header_[4], insn.pushNext, kHeaderNames[4]);
    switch (insn.opcode) {
    case Opcode::Load:
    case Opcode::Store: {
        const std::uint32_t v[] = {insn.memType, insn.sramBase, insn.dramBase, insn.ySize, insn.xSize,
                                   insn.xStride, insn.yPad0,    insn.yPad1,    insn.xPad0, insn.xPad1};
        for (std::size_t i = 0; i < memory_.size(); ++i) set(memory_[i], v[i], kMemoryNames[i]);
        break;
    }
    case Opcode::Gemm: {
        const std::uint32_t v[] = {insn.reset,        insn.uopBgn,       insn.uopEnd,       insn.iterOut,
                                   insn.iterIn,       insn.dstFactorOut, insn.dstFactorIn,  insn.srcFactorOut,
                                   insn.srcFactorIn,  insn.wgtFactorOut, insn.wgtFactorIn};
        for (std::size_t i = 0; i < gemm_.size(); ++i) set(gemm_[i], v[i], kGemmNames[i]);
        break;
    }
    case Opcode::Alu: {
        const std::uint32_t v[] = {insn.reset,       insn.uopBgn,       insn.uopEnd,      insn.iterOut,
                                   insn.iterIn,      insn.dstFactorOut, insn.dstFactorIn, insn.srcFactorOut,
                                   insn.srcFactorIn, insn.aluOp,        insn.useImm};
        for (std::size_t i = 0; i < alu_.size() - 1; ++i) set(alu_[i], v[i], kAluNames[i]);
        if (insn.imm < -32768 || insn.imm > 32767)
            throw NestorError(fieldPath(index, "imm"), std::to_string(insn.imm) + " is not a 16-bit signed value");
        put(b, alu_.back(), static_cast<std::uint64_t>(static_cast<std::uint32_t>(insn.imm) & 0xffffu));
        break;
    }
    case Opcode::Finish: break;
    }
    return b;
}

Uop IsaLayout::decodeUop(std::uint32_t word) const
{
    auto field = [&](const BitField& f) { return static_cast<std::uint32_t>((word >> f.lsb) & f.maxValue()); };
    return Uop{field(uopDst_), field(uopSrc_), field(uopWgt_)};
}

std::uint32_t IsaLayout::encodeUop(const Uop& uop) const
{
    std::uint32_t word = 0;
    auto set = [&](const BitField& f, std::uint32_t v, const char* name) {
        if (v > f.maxValue())
            throw NestorError(std::string("uop.") + name,
                              std::to_string(v) + " does not fit in " + std::to_string(f.width) + " bits");
        word |= v << f.lsb;
    };
    set(uopDst_, uop.dst, "dst");
    set(uopSrc_, uop.src, "src");
    set(uopWgt_, uop.wgt, "wgt");
    return word;
}

Diagnostics IsaLayout::validate(const Instruction& insn, std::size_t index) const
{
    Diagnostics d;
    auto problem = [&](const char* field, const std::string& message) {
        d.push_back({fieldPath(index, field), message + " [" + disassemble(insn) + "]", {}});
    };
    if (insn.isMemory() && insn.xSize == 0) {
        // A no-op that only carries dependency flags (spec.md §3.1): nothing else is read.
    } else if (insn.isMemory()) {
        const std::uint32_t t = insn.memType;
        if (t == 5) {
            problem("memory_type", "ACC_8BIT (5) is an fsim-only memory type that this simulator does not model");
        } else if (t > 5) {
            problem("memory_type", "unknown memory type " + std::to_string(t) + " (UOP 0, WGT 1, INP 2, ACC 3, OUT 4)");
        } else if (insn.isLoad() && insn.mem() == MemType::Out) {
            problem("memory_type", "LOAD into the OUT buffer: no module loads OUT (it is written by GEMM and ALU)");
        } else if (insn.isStore() && insn.mem() != MemType::Out) {
            problem("memory_type", std::string("STORE from ") + memTypeName(insn.mem()) + ": only OUT is stored");
        }
        if (insn.isStore() && (insn.yPad0 || insn.yPad1 || insn.xPad0 || insn.xPad1))
            problem("y_pad_0", "STORE has no padding: the pad fields must be 0");
    } else if (insn.isLoop()) {
        if (insn.uopEnd > config_.depth(MemType::Uop))
            problem("uop_end", std::to_string(insn.uopEnd) + " is past the uop buffer (depth " +
                                   std::to_string(config_.depth(MemType::Uop)) + ")");
        if (insn.opcode == Opcode::Alu && insn.aluOp > 4)
            problem("alu_opcode", "unknown ALU opcode " + std::to_string(insn.aluOp) + " (MIN 0, MAX 1, ADD 2, SHR 3, MUL 4)");
    }
    return d;
}

std::vector<std::pair<std::string, BitField>> IsaLayout::fields(Opcode op) const
{
    std::vector<std::pair<std::string, BitField>> out;
    for (std::size_t i = 0; i < header_.size(); ++i) out.emplace_back(kHeaderNames[i], header_[i]);
    switch (op) {
    case Opcode::Load:
    case Opcode::Store:
        for (std::size_t i = 0; i < memory_.size(); ++i) out.emplace_back(kMemoryNames[i], memory_[i]);
        break;
    case Opcode::Gemm:
        for (std::size_t i = 0; i < gemm_.size(); ++i) out.emplace_back(kGemmNames[i], gemm_[i]);
        break;
    case Opcode::Alu:
        for (std::size_t i = 0; i < alu_.size(); ++i) out.emplace_back(kAluNames[i], alu_[i]);
        break;
    case Opcode::Finish: break;
    }
    return out;
}

} // namespace nestor::vta
