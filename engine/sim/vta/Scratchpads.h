#pragma once
// The on-chip buffers. Lanes are kept unpacked as int32 (sign-extended from their configured
// width) so that GEMM and ALU work on plain integers; LOAD and STORE convert to and from the
// packed little-endian DRAM layout. The OUT buffer is the hardware's 8-bit shadow of ACC,
// written by GEMM and ALU (spec.md §3.2); fsim has none and stores from ACC.
#include "sim/vta/Instruction.h"

#include <cstdint>
#include <vector>

namespace nestor::vta {

struct Scratchpads {
    explicit Scratchpads(const VtaConfig& config);

    std::vector<Uop> uop;
    std::vector<std::int32_t> inp;  // depth x (batch x block_in)
    std::vector<std::int32_t> wgt;  // depth x (block_out x block_in), row = output channel
    std::vector<std::int32_t> acc;  // depth x (batch x block_out)
    std::vector<std::int32_t> out;  // depth x (batch x block_out), values of the output width
};

// Two's-complement wrap of v to `bits` bits (8, 16 or 32), sign-extended.
inline std::int32_t wrapToBits(std::int64_t v, int bits)
{
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
    const std::uint64_t low = static_cast<std::uint64_t>(v) & mask;
    return static_cast<std::int32_t>(static_cast<std::int64_t>(low ^ sign) - static_cast<std::int64_t>(sign));
}

} // namespace nestor::vta
