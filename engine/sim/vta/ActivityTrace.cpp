#include "sim/vta/ActivityTrace.h"

namespace nestor::vta {

const char* activityName(Activity a)
{
    switch (a) {
    case Activity::Busy: return "busy";
    case Activity::StallToken: return "stalled on token";
    case Activity::StallMemory: return "stalled on memory";
    case Activity::StallQueue: return "stalled on a full queue";
    }
    return "?";
}

const char* laneName(int lane)
{
    return lane == kFetchLane ? "fetch" : moduleName(static_cast<Module>(lane));
}

void ActivityTrace::add(int lane, std::uint64_t begin, std::uint64_t end, Activity a, std::size_t insn, Opcode op)
{
    if (end <= begin) return;
    lanes[static_cast<std::size_t>(lane)].push_back(ActivityInterval{begin, end, a, insn, op});
}

std::uint64_t ActivityTrace::cycles(int lane, Activity a) const
{
    std::uint64_t n = 0;
    for (const ActivityInterval& i : lanes[static_cast<std::size_t>(lane)])
        if (i.activity == a) n += i.end - i.begin;
    return n;
}

double ActivityTrace::utilization(int lane) const
{
    return totalCycles == 0 ? 0.0 : static_cast<double>(cycles(lane, Activity::Busy)) / static_cast<double>(totalCycles);
}

} // namespace nestor::vta
