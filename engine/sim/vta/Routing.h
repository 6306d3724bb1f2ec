#pragma once
// Which module runs an instruction, and which token queue each dependency flag names on that
// module (spec.md §2.7, FORMAT.md §4).
#include "sim/vta/Instruction.h"

#include <optional>

namespace nestor::vta {

enum class Module : std::uint8_t { Load = 0, Compute = 1, Store = 2 };
inline constexpr int kModuleCount = 3;
const char* moduleName(Module m);  // "load", "compute", "store"

// The four dependency-token queues: LD->CMP, CMP->LD, CMP->ST, ST->CMP.
enum class TokenQueue : std::uint8_t { L2G = 0, G2L = 1, G2S = 2, S2G = 3 };
inline constexpr int kTokenQueueCount = 4;
const char* tokenQueueKey(TokenQueue q);    // "l2g", "g2l", "g2s", "s2g" (FORMAT.md §5)
const char* tokenQueueArrow(TokenQueue q);  // "LD->CMP", ...

// LOAD of INP or WGT: load. STORE: store. Everything else (LOAD UOP/ACC, GEMM, ALU, FINISH): compute.
Module moduleOf(const Instruction& insn);

// The queue a flag pops from / pushes to on module m; nullopt where the flag is unused
// (e.g. pop_prev on the load module, which has no previous stage).
std::optional<TokenQueue> popPrevQueue(Module m);
std::optional<TokenQueue> popNextQueue(Module m);
std::optional<TokenQueue> pushPrevQueue(Module m);
std::optional<TokenQueue> pushNextQueue(Module m);

} // namespace nestor::vta
