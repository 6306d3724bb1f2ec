#include "mapping/MappingLevelEdits.h"

#include "common/Error.h"

#include <algorithm>
#include <string>
#include <utility>

namespace nestor {

namespace {

void checkIndex(const Mapping& m, int index, std::size_t limit)
{
    if (index < 0 || std::size_t(index) >= limit)
        throw NestorError("mapping.levels", "mapping '" + m.name + "' has no level " + std::to_string(index));
}

} // namespace

void insertPassThroughLevel(Mapping& m, int index, int numTensors)
{
    checkIndex(m, index, m.levels.size() + 1);
    LevelMapping passThrough;
    passThrough.keep.assign(std::size_t(std::max(numTensors, 0)), false);
    m.levels.insert(m.levels.begin() + index, std::move(passThrough));
}

void removeLevelKeepingLoops(Mapping& m, int index)
{
    checkIndex(m, index, m.levels.size());
    LevelMapping gone = std::move(m.levels[std::size_t(index)]);
    m.levels.erase(m.levels.begin() + index);
    if (m.levels.empty()) return;
    const bool toParent = index > 0;
    LevelMapping& heir = m.levels[std::size_t(toParent ? index - 1 : 0)];
    for (LoopKind kind : {LoopKind::Temporal, LoopKind::SpatialX, LoopKind::SpatialY}) {
        std::vector<Loop>& into = heir.loops(kind);
        std::vector<Loop>& from = gone.loops(kind);
        into.insert(toParent ? into.end() : into.begin(), from.begin(), from.end());
    }
}

void swapLevels(Mapping& m, int a, int b)
{
    checkIndex(m, a, m.levels.size());
    checkIndex(m, b, m.levels.size());
    std::swap(m.levels[std::size_t(a)], m.levels[std::size_t(b)]);
}

} // namespace nestor
