#pragma once
// fsim's profiler counters (FORMAT.md §5, spec.md §4).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nestor::vta {

struct Counters {
    std::uint64_t inpLoadNbytes = 0;
    std::uint64_t wgtLoadNbytes = 0;
    std::uint64_t accLoadNbytes = 0;
    std::uint64_t uopLoadNbytes = 0;
    std::uint64_t outStoreNbytes = 0;
    std::uint64_t gemmCounter = 0;  // uops of non-reset GEMMs
    std::uint64_t aluCounter = 0;   // uops of ALU instructions

    // (fsim key, value) in FORMAT.md order.
    std::vector<std::pair<std::string, std::uint64_t>> named() const;
    bool operator==(const Counters&) const = default;
};

} // namespace nestor::vta
