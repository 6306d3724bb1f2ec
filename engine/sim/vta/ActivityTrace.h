#pragma once
// Per-module activity of a timed run: intervals of busy / stalled-on-token /
// stalled-on-memory (and, for fetch, stalled-on-full-queue) time (anything else is idle), each naming its instruction, and the
// utilization figures derived from them.
#include "sim/vta/Routing.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace nestor::vta {

// StallQueue: the fetch unit waits for room in a full command queue.
enum class Activity : std::uint8_t { Busy, StallToken, StallMemory, StallQueue };
const char* activityName(Activity a);

struct ActivityInterval {
    std::uint64_t begin = 0;  // first cycle
    std::uint64_t end = 0;    // one past the last cycle
    Activity activity = Activity::Busy;
    std::size_t insnIndex = 0;  // program index of the instruction (for fetch: the first of the batch)
    Opcode opcode = Opcode::Finish;
};

// Fetch is the fourth lane of the trace, after load, compute and store.
inline constexpr int kTraceLanes = kModuleCount + 1;
inline constexpr int kFetchLane = kModuleCount;
const char* laneName(int lane);  // "load", "compute", "store", "fetch"

struct ActivityTrace {
    std::array<std::vector<ActivityInterval>, kTraceLanes> lanes;
    std::uint64_t totalCycles = 0;

    void add(int lane, std::uint64_t begin, std::uint64_t end, Activity a, std::size_t insn, Opcode op);
    // Cycles of the lane spent in activity a.
    std::uint64_t cycles(int lane, Activity a) const;
    // busy / totalCycles (0 when the run took no cycles).
    double utilization(int lane) const;
};

} // namespace nestor::vta
