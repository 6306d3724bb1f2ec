#include "sim/vta/Dram.h"

#include "sim/vta/ExecutionFault.h"

namespace nestor::vta {

Dram::Dram(std::uint64_t start, std::uint64_t end) : start_(start), bytes_(end > start ? end - start : 0, 0) {}

bool Dram::contains(std::uint64_t addr, std::uint64_t n) const
{
    return addr >= start_ && addr - start_ <= bytes_.size() && n <= bytes_.size() - (addr - start_);
}

void Dram::check(std::uint64_t addr, std::uint64_t n, const std::string& what) const
{
    if (!contains(addr, n))
        throw ExecutionFault(what + " bytes [" + std::to_string(addr) + ", " + std::to_string(addr + n) +
                             "), outside DRAM [" + std::to_string(start_) + ", " + std::to_string(end()) + ")");
}

const std::uint8_t* Dram::read(std::uint64_t addr, std::uint64_t n, const std::string& what) const
{
    check(addr, n, what);
    return bytes_.data() + (addr - start_);
}

std::uint8_t* Dram::write(std::uint64_t addr, std::uint64_t n, const std::string& what)
{
    check(addr, n, what);
    return bytes_.data() + (addr - start_);
}

} // namespace nestor::vta
