#pragma once
// DRAM as one flat little-endian byte array covering [start, end) (FORMAT.md §3). Accesses
// outside that range are execution faults naming the byte range, never undefined behaviour.
#include <cstdint>
#include <string>
#include <vector>

namespace nestor::vta {

class Dram {
public:
    Dram() = default;
    Dram(std::uint64_t start, std::uint64_t end);  // zero-filled

    std::uint64_t start() const { return start_; }
    std::uint64_t end() const { return start_ + bytes_.size(); }

    bool contains(std::uint64_t addr, std::uint64_t n) const;
    // Pointers to n bytes at addr; throw ExecutionFault naming `what` when out of range.
    const std::uint8_t* read(std::uint64_t addr, std::uint64_t n, const std::string& what) const;
    std::uint8_t* write(std::uint64_t addr, std::uint64_t n, const std::string& what);

private:
    void check(std::uint64_t addr, std::uint64_t n, const std::string& what) const;
    std::uint64_t start_ = 0;
    std::vector<std::uint8_t> bytes_;
};

} // namespace nestor::vta
