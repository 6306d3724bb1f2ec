#include "sim/vta/Routing.h"

namespace nestor::vta {

const char* moduleName(Module m)
{
    switch (m) {
    case Module::Load: return "load";
    case Module::Compute: return "compute";
    case Module::Store: return "store";
    }
    return "?";
}

const char* tokenQueueKey(TokenQueue q)
{
    switch (q) {
    case TokenQueue::L2G: return "l2g";
    case TokenQueue::G2L: return "g2l";
    case TokenQueue::G2S: return "g2s";
    case TokenQueue::S2G: return "s2g";
    }
    return "?";
}

const char* tokenQueueArrow(TokenQueue q)
{
    switch (q) {
    case TokenQueue::L2G: return "LD->CMP";
    case TokenQueue::G2L: return "CMP->LD";
    case TokenQueue::G2S: return "CMP->ST";
    case TokenQueue::S2G: return "ST->CMP";
    }
    return "?";
}

Module moduleOf(const Instruction& insn)
{
    if (insn.isStore()) return Module::Store;
    if (insn.isLoad() && (insn.mem() == MemType::Inp || insn.mem() == MemType::Wgt)) return Module::Load;
    return Module::Compute;
}

// "prev" is the stage before (load <- compute <- store), "next" the stage after.
std::optional<TokenQueue> popPrevQueue(Module m)
{
    if (m == Module::Compute) return TokenQueue::L2G;
    if (m == Module::Store) return TokenQueue::G2S;
    return std::nullopt;
}

std::optional<TokenQueue> popNextQueue(Module m)
{
    if (m == Module::Load) return TokenQueue::G2L;
    if (m == Module::Compute) return TokenQueue::S2G;
    return std::nullopt;
}

std::optional<TokenQueue> pushPrevQueue(Module m)
{
    if (m == Module::Compute) return TokenQueue::G2L;
    if (m == Module::Store) return TokenQueue::S2G;
    return std::nullopt;
}

std::optional<TokenQueue> pushNextQueue(Module m)
{
    if (m == Module::Load) return TokenQueue::L2G;
    if (m == Module::Compute) return TokenQueue::G2S;
    return std::nullopt;
}

} // namespace nestor::vta
