#include "sim/vta/Executor.h"

#include "sim/vta/ExecutionFault.h"

#include <algorithm>

namespace nestor::vta {

namespace {

// A signed lane of `bytes` bytes (1, 2 or 4) at p, little-endian.
std::int32_t readLane(const std::uint8_t* p, int bytes)
{
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint32_t{p[i]} << (8 * i);
    return wrapToBits(static_cast<std::int64_t>(v), 8 * bytes);
}

void writeLane(std::uint8_t* p, int bytes, std::int32_t value)
{
    const auto v = static_cast<std::uint32_t>(value);
    for (int i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

int laneBits(const VtaConfig& c, MemType t)
{
    switch (t) {
    case MemType::Inp: return c.inpBits();
    case MemType::Wgt: return c.wgtBits();
    case MemType::Acc: return c.accBits();
    case MemType::Out: return c.outBits();
    case MemType::Uop: return 32;
    }
    return 32;
}

std::string range(std::uint64_t first, std::uint64_t end)
{
    return "[" + std::to_string(first) + ", " + std::to_string(end) + ")";
}

// fsim's SHR: B >= 0 shifts right arithmetically, B < 0 shifts left by -B (spec.md §3.4).
// Amounts of 32 or more are undefined in C; fsim runs on x86, whose 32-bit shifts use the
// amount modulo 32, and that is what is modelled (the vectors keep |B| < 32).
std::int64_t shiftRight(std::int64_t a, std::int64_t b, int accBits)
{
    if (b >= 0) {
        const std::int64_t s = b >= 32 ? (b & 31) : b;
        return a >> s;
    }
    std::int64_t s = -b;
    if (s >= 32) s &= 31;
    return wrapToBits(static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << s), accBits);
}

} // namespace

void Executor::execute(const Instruction& insn, MachineState& state, std::uint64_t& uopBudget) const
{
    if (insn.isLoop()) {
        const std::uint64_t n = insn.loopCount();
        if (n > uopBudget)
            throw ExecutionFault("step budget exhausted: this instruction would execute " + std::to_string(n) +
                                 " uops and " + std::to_string(uopBudget) + " remain of the run's budget");
        uopBudget -= n;
    }
    switch (insn.opcode) {
    case Opcode::Load: load(insn, state); break;
    case Opcode::Store: store(insn, state); break;
    case Opcode::Gemm: gemm(insn, state); break;
    case Opcode::Alu: alu(insn, state); break;
    case Opcode::Finish: break;
    }
}

void Executor::load(const Instruction& insn, MachineState& state) const
{
    if (insn.xSize == 0) return;  // a no-op that only carries dependency flags (spec.md §3.1)
    const MemType t = insn.mem();
    const std::uint64_t xTotal = std::uint64_t{insn.xPad0} + insn.xSize + insn.xPad1;
    const std::uint64_t yTotal = std::uint64_t{insn.yPad0} + insn.ySize + insn.yPad1;
    const std::uint64_t first = insn.sramBase;
    const std::uint64_t end = first + xTotal * yTotal;
    const auto depth = static_cast<std::uint64_t>(config_.depth(t));
    if (end > depth)
        throw ExecutionFault(std::string("LOAD ") + memTypeName(t) + " writes elements " + range(first, end) +
                             " (padding included) past the end of the " + memTypeName(t) + " buffer (depth " +
                             std::to_string(depth) + ")");
    const std::uint64_t elemBytes = static_cast<std::uint64_t>(config_.elemBytes(t));
    const int lanes = config_.lanes(t);
    const int laneBytes = laneBits(config_, t) / 8;

    Counters& c = state.counters;
    const std::uint64_t nbytes = std::uint64_t{insn.xSize} * insn.ySize * elemBytes;
    switch (t) {
    case MemType::Inp: c.inpLoadNbytes += nbytes; break;
    case MemType::Wgt: c.wgtLoadNbytes += nbytes; break;
    case MemType::Acc: c.accLoadNbytes += nbytes; break;
    case MemType::Uop: c.uopLoadNbytes += nbytes; break;
    case MemType::Out: break;  // rejected by validation
    }

    std::vector<std::int32_t>* lanesOf = nullptr;
    if (t == MemType::Inp) lanesOf = &state.sram.inp;
    else if (t == MemType::Wgt) lanesOf = &state.sram.wgt;
    else if (t == MemType::Acc) lanesOf = &state.sram.acc;
    else if (t != MemType::Uop) throw ExecutionFault("LOAD into the OUT buffer is not an instruction (validate the program first)");

    auto fillPad = [&](std::uint64_t index, std::uint64_t count) {
        if (t == MemType::Uop) {
            std::fill_n(state.sram.uop.begin() + static_cast<std::ptrdiff_t>(index), count, Uop{});
        } else {
            std::fill_n(lanesOf->begin() + static_cast<std::ptrdiff_t>(index * static_cast<std::uint64_t>(lanes)),
                        count * static_cast<std::uint64_t>(lanes), 0);
        }
    };

    for (std::uint64_t y = 0; y < yTotal; ++y) {
        const std::uint64_t rowIndex = first + y * xTotal;
        if (y < insn.yPad0 || y >= insn.yPad0 + insn.ySize) {
            fillPad(rowIndex, xTotal);
            continue;
        }
        fillPad(rowIndex, insn.xPad0);
        fillPad(rowIndex + insn.xPad0 + insn.xSize, insn.xPad1);
        const std::uint64_t dramElem = std::uint64_t{insn.dramBase} + (y - insn.yPad0) * insn.xStride;
        const std::uint8_t* src =
            state.dram.read(dramElem * elemBytes, insn.xSize * elemBytes,
                            std::string("LOAD ") + memTypeName(t) + " row " + std::to_string(y - insn.yPad0) + " reads");
        const std::uint64_t dataIndex = rowIndex + insn.xPad0;
        for (std::uint64_t x = 0; x < insn.xSize; ++x) {
            const std::uint8_t* e = src + x * elemBytes;
            if (t == MemType::Uop) {
                const auto word = static_cast<std::uint32_t>(readLane(e, 4));
                state.sram.uop[dataIndex + x] = layout_.decodeUop(word);
                continue;
            }
            std::int32_t* dst = lanesOf->data() + (dataIndex + x) * static_cast<std::uint64_t>(lanes);
            for (int l = 0; l < lanes; ++l) dst[l] = readLane(e + l * laneBytes, laneBytes);
        }
    }
}

void Executor::store(const Instruction& insn, MachineState& state) const
{
    if (insn.xSize == 0) return;
    const std::uint64_t first = insn.sramBase;
    const std::uint64_t end = first + std::uint64_t{insn.xSize} * insn.ySize;
    const auto depth = static_cast<std::uint64_t>(config_.depth(MemType::Out));
    if (end > depth)
        throw ExecutionFault("STORE reads OUT elements " + range(first, end) + " past the end of the buffer (depth " +
                             std::to_string(depth) + ")");
    const std::uint64_t elemBytes = static_cast<std::uint64_t>(config_.elemBytes(MemType::Out));
    const int lanes = config_.lanes(MemType::Out);
    const int outBits = config_.outBits();
    const int laneBytes = outBits / 8;
    const std::vector<std::int32_t>& source = fidelity_ == Fidelity::Fsim ? state.sram.acc : state.sram.out;
    state.counters.outStoreNbytes += std::uint64_t{insn.xSize} * insn.ySize * elemBytes;
    for (std::uint64_t y = 0; y < insn.ySize; ++y) {
        const std::uint64_t dramElem = std::uint64_t{insn.dramBase} + y * insn.xStride;
        std::uint8_t* dst = state.dram.write(dramElem * elemBytes, insn.xSize * elemBytes,
                                             "STORE row " + std::to_string(y) + " writes");
        for (std::uint64_t x = 0; x < insn.xSize; ++x) {
            const std::int32_t* lane = source.data() + (first + y * insn.xSize + x) * static_cast<std::uint64_t>(lanes);
            for (int l = 0; l < lanes; ++l)
                writeLane(dst + x * elemBytes + static_cast<std::uint64_t>(l * laneBytes), laneBytes,
                          wrapToBits(lane[l], outBits));  // truncation, no saturation (spec.md §3.2)
        }
    }
}

void Executor::gemm(const Instruction& insn, MachineState& state) const
{
    if (insn.uopEnd <= insn.uopBgn) return;
    const auto accDepth = static_cast<std::uint64_t>(config_.depth(MemType::Acc));
    const auto inpDepth = static_cast<std::uint64_t>(config_.depth(MemType::Inp));
    const auto wgtDepth = static_cast<std::uint64_t>(config_.depth(MemType::Wgt));
    const int batch = config_.batch();
    const int blockIn = config_.blockIn();
    const int blockOut = config_.blockOut();
    const int accBits = config_.accBits();
    const int outBits = config_.outBits();
    const bool narrow = config_.inpBits() == 8 && config_.wgtBits() == 8 && accBits == 32 && blockIn <= 256;
    Scratchpads& s = state.sram;
    for (std::uint64_t io = 0; io < insn.iterOut; ++io) {
        for (std::uint64_t ii = 0; ii < insn.iterIn; ++ii) {
            for (std::uint32_t u = insn.uopBgn; u < insn.uopEnd; ++u) {
                const Uop& op = s.uop[u];
                const std::uint64_t a = op.dst + io * insn.dstFactorOut + ii * insn.dstFactorIn;
                auto where = [&] {
                    return " (uop " + std::to_string(u) + ", iteration (" + std::to_string(io) + "," +
                           std::to_string(ii) + "))";
                };
                if (a >= accDepth)
                    throw ExecutionFault("GEMM acc index " + std::to_string(a) + " is past the ACC buffer (depth " +
                                         std::to_string(accDepth) + ")" + where());
                std::int32_t* acc = s.acc.data() + a * static_cast<std::uint64_t>(batch * blockOut);
                if (insn.reset) {
                    // Chisel leaves OUT alone on a reset GEMM (spec.md §3.3).
                    std::fill_n(acc, batch * blockOut, 0);
                    continue;
                }
                const std::uint64_t x = op.src + io * insn.srcFactorOut + ii * insn.srcFactorIn;
                const std::uint64_t w = op.wgt + io * insn.wgtFactorOut + ii * insn.wgtFactorIn;
                if (x >= inpDepth)
                    throw ExecutionFault("GEMM inp index " + std::to_string(x) + " is past the INP buffer (depth " +
                                         std::to_string(inpDepth) + ")" + where());
                if (w >= wgtDepth)
                    throw ExecutionFault("GEMM wgt index " + std::to_string(w) + " is past the WGT buffer (depth " +
                                         std::to_string(wgtDepth) + ")" + where());
                const std::int32_t* inp = s.inp.data() + x * static_cast<std::uint64_t>(batch * blockIn);
                const std::int32_t* wgt = s.wgt.data() + w * static_cast<std::uint64_t>(blockOut * blockIn);
                std::int32_t* out = s.out.data() + a * static_cast<std::uint64_t>(batch * blockOut);
                if (narrow) {
                    // 8-bit operands, 32-bit accumulator (the default): a dot product of at most
                    // 256 int8 x int8 products fits int32 exactly, and int32 loops vectorize.
                    for (int b = 0; b < batch; ++b) {
                        const std::int32_t* in = inp + b * blockIn;
                        for (int o = 0; o < blockOut; ++o) {
                            const std::int32_t* row = wgt + o * blockIn;
                            std::int32_t sum = 0;
                            for (int k = 0; k < blockIn; ++k) sum += in[k] * row[k];
                            const int lane = b * blockOut + o;
                            acc[lane] = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[lane]) +
                                                                  static_cast<std::uint32_t>(sum));
                            out[lane] = wrapToBits(acc[lane], outBits);
                        }
                    }
                    continue;
                }
                for (int b = 0; b < batch; ++b) {
                    for (int o = 0; o < blockOut; ++o) {
                        // Products summed with wrap-around (unsigned arithmetic: no signed overflow).
                        std::uint64_t sum = 0;
                        const std::int32_t* in = inp + b * blockIn;
                        const std::int32_t* row = wgt + o * blockIn;
                        for (int k = 0; k < blockIn; ++k)
                            sum += static_cast<std::uint64_t>(std::int64_t{in[k]} * std::int64_t{row[k]});
                        const int lane = b * blockOut + o;
                        const std::uint64_t total = static_cast<std::uint64_t>(std::int64_t{acc[lane]}) + sum;
                        acc[lane] = wrapToBits(static_cast<std::int64_t>(total), accBits);
                        out[lane] = wrapToBits(acc[lane], outBits);
                    }
                }
            }
        }
    }
    state.counters.gemmCounter += insn.reset ? 0 : insn.loopCount();
}

void Executor::alu(const Instruction& insn, MachineState& state) const
{
    state.counters.aluCounter += insn.loopCount();
    if (insn.uopEnd <= insn.uopBgn) return;
    const auto accDepth = static_cast<std::uint64_t>(config_.depth(MemType::Acc));
    const int lanes = config_.lanes(MemType::Acc);
    const int accBits = config_.accBits();
    const int outBits = config_.outBits();
    const auto op = static_cast<AluOp>(insn.aluOp);
    // fsim takes the immediate op's first operand from acc[dst], Chisel from acc[src] (spec.md §3.4).
    const bool srcIsFirstOperand = insn.useImm && fidelity_ == Fidelity::Hardware;
    const bool readsSrc = !insn.useImm || srcIsFirstOperand;
    Scratchpads& s = state.sram;
    for (std::uint64_t io = 0; io < insn.iterOut; ++io) {
        for (std::uint64_t ii = 0; ii < insn.iterIn; ++ii) {
            for (std::uint32_t u = insn.uopBgn; u < insn.uopEnd; ++u) {
                const Uop& uop = s.uop[u];
                const std::uint64_t d = uop.dst + io * insn.dstFactorOut + ii * insn.dstFactorIn;
                const std::uint64_t src = uop.src + io * insn.srcFactorOut + ii * insn.srcFactorIn;
                auto where = [&] {
                    return " (uop " + std::to_string(u) + ", iteration (" + std::to_string(io) + "," +
                           std::to_string(ii) + "))";
                };
                if (d >= accDepth)
                    throw ExecutionFault("ALU dst index " + std::to_string(d) + " is past the ACC buffer (depth " +
                                         std::to_string(accDepth) + ")" + where());
                if (readsSrc && src >= accDepth)
                    throw ExecutionFault("ALU src index " + std::to_string(src) + " is past the ACC buffer (depth " +
                                         std::to_string(accDepth) + ")" + where());
                std::int32_t* dst = s.acc.data() + d * static_cast<std::uint64_t>(lanes);
                const std::int32_t* other = readsSrc ? s.acc.data() + src * static_cast<std::uint64_t>(lanes) : nullptr;
                std::int32_t* out = s.out.data() + d * static_cast<std::uint64_t>(lanes);
                for (int l = 0; l < lanes; ++l) {
                    const std::int64_t a = srcIsFirstOperand ? other[l] : dst[l];
                    const std::int64_t b = insn.useImm ? std::int64_t{insn.imm} : std::int64_t{other[l]};
                    std::int64_t r = 0;
                    switch (op) {
                    case AluOp::Min: r = a < b ? a : b; break;
                    case AluOp::Max: r = a > b ? a : b; break;
                    case AluOp::Add: r = a + b; break;
                    case AluOp::Shr: r = shiftRight(a, b, accBits); break;
                    case AluOp::Mul: r = static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b)); break;
                    }
                    dst[l] = wrapToBits(r, accBits);
                    out[l] = wrapToBits(dst[l], outBits);
                }
            }
        }
    }
}

} // namespace nestor::vta
