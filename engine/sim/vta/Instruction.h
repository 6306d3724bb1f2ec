#pragma once
// VTA instructions and micro-ops: the decoded form, and exact decode/encode of the 128-bit
// instruction and the 32-bit micro-op for any configuration (spec.md §2). Field widths that
// depend on the configuration (uop_bgn/uop_end, the loop factors, the uop indices) come from
// the buffer depths; the positions follow GCC's bitfield rule that a field never straddles a
// 64-bit word (spec.md §2 intro), computed by IsaLayout.
#include "sim/vta/VtaConfig.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace nestor::vta {

enum class Opcode : std::uint8_t { Load = 0, Store = 1, Gemm = 2, Finish = 3, Alu = 4 };
// MUL (4) is fsim-only (spec.md §3.4); Chisel and HLS do not decode it.
enum class AluOp : std::uint8_t { Min = 0, Max = 1, Add = 2, Shr = 3, Mul = 4 };

const char* opcodeName(Opcode op);
const char* aluOpName(AluOp op);

// The 128-bit instruction as two little-endian 64-bit words: word[0] holds bits [63:0].
struct InsnBits {
    std::array<std::uint64_t, 2> word{0, 0};
    bool operator==(const InsnBits&) const = default;
    // From/to the 16 bytes in memory order (FORMAT.md §4: byte 0 first).
    static InsnBits fromBytes(const std::uint8_t* bytes);
    void toBytes(std::uint8_t* bytes) const;
};

// One decoded instruction; the fields of every format, of which the opcode says which apply.
// Raw field values are kept unsigned as encoded except imm, which is sign-extended.
struct Instruction {
    Opcode opcode = Opcode::Finish;
    bool popPrev = false, popNext = false, pushPrev = false, pushNext = false;
    // LOAD / STORE
    std::uint32_t memType = 0;  // raw 3-bit field; valid values are MemType
    std::uint32_t sramBase = 0, dramBase = 0;
    std::uint32_t ySize = 0, xSize = 0, xStride = 0;
    std::uint32_t yPad0 = 0, yPad1 = 0, xPad0 = 0, xPad1 = 0;
    // GEMM / ALU
    bool reset = false;
    std::uint32_t uopBgn = 0, uopEnd = 0, iterOut = 0, iterIn = 0;
    std::uint32_t dstFactorOut = 0, dstFactorIn = 0, srcFactorOut = 0, srcFactorIn = 0;
    std::uint32_t wgtFactorOut = 0, wgtFactorIn = 0;  // GEMM only
    std::uint32_t aluOp = 0;                           // ALU only, raw 3-bit field
    bool useImm = false;
    std::int32_t imm = 0;  // sign-extended 16-bit immediate

    bool isLoad() const { return opcode == Opcode::Load; }
    bool isStore() const { return opcode == Opcode::Store; }
    bool isMemory() const { return isLoad() || isStore(); }
    bool isLoop() const { return opcode == Opcode::Gemm || opcode == Opcode::Alu; }
    MemType mem() const { return static_cast<MemType>(memType); }
    // GEMM/ALU: uops executed, iter_out x iter_in x (uop_end - uop_bgn), 0 when end <= begin.
    std::uint64_t loopCount() const;
    bool operator==(const Instruction&) const = default;
};

struct Uop {
    std::uint32_t dst = 0, src = 0, wgt = 0;
    bool operator==(const Uop&) const = default;
};

// Bit position and width of one field.
struct BitField {
    int lsb = 0;
    int width = 0;
    std::uint64_t maxValue() const { return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1; }
};

// The ISA layout of a configuration. Construct once per configuration (it is cheap).
class IsaLayout {
public:
    explicit IsaLayout(const VtaConfig& config);

    const VtaConfig& config() const { return config_; }

    // Decodes any 128-bit pattern whose opcode is one of the five; unused bits are ignored, as
    // the hardware ignores them. Throws NestorError naming "insns[index].opcode" otherwise.
    Instruction decode(const InsnBits& bits, std::size_t index) const;
    // Encodes; throws NestorError naming "insns[index].<field>" when a value does not fit its field.
    InsnBits encode(const Instruction& insn, std::size_t index = 0) const;

    Uop decodeUop(std::uint32_t word) const;
    std::uint32_t encodeUop(const Uop& uop) const;  // throws when a field does not fit

    // Semantic checks of a decoded instruction against this configuration: memory types a
    // module accepts, STORE padding, ALU opcodes, uop ranges (spec.md §2, §3). Each problem names
    // "insns[index].<field>" and quotes the disassembly.
    Diagnostics validate(const Instruction& insn, std::size_t index) const;

    // Field widths (for tests, the disassembler and the generators).
    const BitField& uopBgnField() const { return gemm_[1]; }
    const BitField& uopEndField() const { return gemm_[2]; }
    BitField uopDstField() const { return uopDst_; }
    BitField uopSrcField() const { return uopSrc_; }
    BitField uopWgtField() const { return uopWgt_; }
    // Named fields of each format in encoding order, for tests and documentation.
    std::vector<std::pair<std::string, BitField>> fields(Opcode op) const;

private:
    VtaConfig config_;
    std::array<BitField, 5> header_{};  // opcode, pop_prev, pop_next, push_prev, push_next
    std::array<BitField, 10> memory_{}; // memory_type .. x_pad_1
    std::array<BitField, 11> gemm_{};   // reset .. wgt_factor_in
    std::array<BitField, 12> alu_{};    // reset .. imm
    BitField uopDst_, uopSrc_, uopWgt_;
};

} // namespace nestor::vta
