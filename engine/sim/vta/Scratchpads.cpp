#include "sim/vta/Scratchpads.h"

namespace nestor::vta {

namespace {
std::size_t cells(const VtaConfig& c, MemType t)
{
    return static_cast<std::size_t>(c.depth(t)) * static_cast<std::size_t>(c.lanes(t));
}
} // namespace

Scratchpads::Scratchpads(const VtaConfig& c)
    : uop(static_cast<std::size_t>(c.depth(MemType::Uop))),
      inp(cells(c, MemType::Inp), 0),
      wgt(cells(c, MemType::Wgt), 0),
      acc(cells(c, MemType::Acc), 0),
      out(cells(c, MemType::Out), 0)
{
}

} // namespace nestor::vta
