#pragma once
// The four dependency-token queues (spec.md §2.7). Tokens carry no data, so a queue is a
// count; pushes are totalled per queue for the vector comparison (FORMAT.md §5).
#include "sim/vta/Routing.h"

#include <array>
#include <cstdint>
#include <optional>

namespace nestor::vta {

class TokenQueues {
public:
    std::uint64_t available(TokenQueue q) const { return count_[index(q)]; }
    std::uint64_t pushes(TokenQueue q) const { return pushes_[index(q)]; }
    void push(TokenQueue q);
    void pop(TokenQueue q);  // precondition: available(q) > 0

    // The first queue an instruction on module m needs a token from and that is empty;
    // nullopt when it may start. Pops are taken before execution (spec.md §2.7).
    std::optional<TokenQueue> missingToken(const Instruction& insn, Module m) const;
    void popFor(const Instruction& insn, Module m);   // takes every token the instruction pops
    void pushFor(const Instruction& insn, Module m);  // after it completes

private:
    static std::size_t index(TokenQueue q) { return static_cast<std::size_t>(q); }
    std::array<std::uint64_t, kTokenQueueCount> count_{};
    std::array<std::uint64_t, kTokenQueueCount> pushes_{};
};

} // namespace nestor::vta
