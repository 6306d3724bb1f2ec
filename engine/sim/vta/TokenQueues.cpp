#include "sim/vta/TokenQueues.h"

namespace nestor::vta {

void TokenQueues::push(TokenQueue q)
{
    ++count_[index(q)];
    ++pushes_[index(q)];
}

void TokenQueues::pop(TokenQueue q) { --count_[index(q)]; }

std::optional<TokenQueue> TokenQueues::missingToken(const Instruction& insn, Module m) const
{
    // Flags that name no queue on this module are ignored, as the hardware has no wire for them.
    if (insn.popPrev)
        if (const auto q = popPrevQueue(m); q && available(*q) == 0) return q;
    if (insn.popNext)
        if (const auto q = popNextQueue(m); q && available(*q) == 0) return q;
    return std::nullopt;
}

void TokenQueues::popFor(const Instruction& insn, Module m)
{
    if (insn.popPrev)
        if (const auto q = popPrevQueue(m)) pop(*q);
    if (insn.popNext)
        if (const auto q = popNextQueue(m)) pop(*q);
}

void TokenQueues::pushFor(const Instruction& insn, Module m)
{
    if (insn.pushPrev)
        if (const auto q = pushPrevQueue(m)) push(*q);
    if (insn.pushNext)
        if (const auto q = pushNextQueue(m)) push(*q);
}

} // namespace nestor::vta
