#pragma once
// The VTA hardware configuration: the LOG_* parameters of vta_config.json (spec.md §1.1) and
// everything derived from them: element sizes, buffer depths and the ISA field widths.
#include "common/Error.h"

#include <cstdint>
#include <string>

namespace nestor::vta {

class JsonValue;

// Memory types of LOAD/STORE (spec.md §2.2). ACC_8BIT (5) is fsim-only and not modelled.
enum class MemType : std::uint8_t { Uop = 0, Wgt = 1, Inp = 2, Acc = 3, Out = 4 };
inline constexpr int kMemTypeCount = 5;
const char* memTypeName(MemType t);

struct VtaConfig {
    // Parameters (vta_config.json names). LOG_BLOCK of the apache config sets both BLOCK_IN and
    // BLOCK_OUT; the Intel fork splits it, so both are kept.
    int logInpWidth = 3;
    int logWgtWidth = 3;
    int logAccWidth = 5;
    int logBatch = 0;
    int logBlockIn = 4;
    int logBlockOut = 4;
    int logUopBuffSize = 15;
    int logInpBuffSize = 15;
    int logWgtBuffSize = 18;
    int logAccBuffSize = 17;

    // Derived (spec.md §1.1: the output width is the input width; OUT mirrors ACC in depth).
    int logOutWidth() const { return logInpWidth; }
    int logOutBuffSize() const { return logAccBuffSize + logOutWidth() - logAccWidth; }
    int batch() const { return 1 << logBatch; }
    int blockIn() const { return 1 << logBlockIn; }
    int blockOut() const { return 1 << logBlockOut; }
    int inpBits() const { return 1 << logInpWidth; }
    int wgtBits() const { return 1 << logWgtWidth; }
    int accBits() const { return 1 << logAccWidth; }
    int outBits() const { return 1 << logOutWidth(); }

    // Lanes per element: INP batch x block_in, WGT block_out x block_in, ACC/OUT batch x block_out.
    int lanes(MemType t) const;
    // Bytes per element of each memory type (the unit of sram_base and dram_base).
    int log2ElemBytes(MemType t) const;
    std::int64_t elemBytes(MemType t) const { return std::int64_t{1} << log2ElemBytes(t); }
    // Buffer depth in elements (log2): buffer bytes / element bytes. OUT has the depth of ACC.
    int logDepth(MemType t) const;
    std::int64_t depth(MemType t) const { return std::int64_t{1} << logDepth(t); }

    // Problems with the parameters, each naming the parameter (empty = valid). Data widths must
    // be whole bytes of at most 32 bits, since lanes are byte-addressed in DRAM.
    Diagnostics validate() const;

    // "1x16x16_i8w8a32_15_15_18_17"-style summary for reports.
    std::string summary() const;

    bool operator==(const VtaConfig&) const = default;
};

// Reads a `config` object of the vector format (FORMAT.md §2) or a vta_config.json. LOG_BLOCK
// or LOG_BLOCK_IN/LOG_BLOCK_OUT; the derived keys LOG_OUT_WIDTH and LOG_OUT_BUFF_SIZE, when
// present, must equal their derived values. Unknown LOG_* keys are errors; other keys (TARGET,
// HW_VER) are ignored. Throws a located NestorError naming the key.
VtaConfig readVtaConfig(const JsonValue& object, const std::string& field);

// The parameters that differ, e.g. "LOG_BATCH 1 (simulated: 0), LOG_BLOCK_IN 3 (simulated: 4)".
std::string configDifferences(const VtaConfig& got, const VtaConfig& simulated);

} // namespace nestor::vta
