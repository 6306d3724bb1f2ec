#include "mapping/MappingLoopEdits.h"

#include "common/Error.h"

#include <string>

namespace nestor {

namespace {

std::vector<Loop>& listAt(Mapping& m, int level, LoopKind kind)
{
    if (level < 0 || std::size_t(level) >= m.levels.size())
        throw NestorError("mapping.levels", "mapping '" + m.name + "' has no level " + std::to_string(level));
    return m.levels[std::size_t(level)].loops(kind);
}

void checkIndex(const Mapping& m, const std::vector<Loop>& list, int level, int index)
{
    if (index < 0 || std::size_t(index) >= list.size())
        throw NestorError("mapping.levels[" + std::to_string(level) + "]",
                          "mapping '" + m.name + "' has no loop " + std::to_string(index) + " there");
}

} // namespace

std::vector<Loop*> loopsOfDimension(Mapping& m, int dim)
{
    std::vector<Loop*> out;
    for (LevelMapping& lm : m.levels)
        for (std::vector<Loop>* list : {&lm.temporal, &lm.spatialX, &lm.spatialY})
            for (Loop& l : *list)
                if (l.dim == dim) out.push_back(&l);
    return out;
}

bool absorbIntoOutermost(Mapping& m, int dim, std::int64_t size, const Loop* edited)
{
    std::vector<Loop*> loops = loopsOfDimension(m, dim);
    if (loops.empty() || loops.front() == edited) return false;
    std::vector<Loop> inner;
    std::int64_t innerProduct = 1;
    for (std::size_t i = 1; i < loops.size(); ++i) {
        inner.push_back(*loops[i]);
        innerProduct *= loops[i]->bound;
    }
    const std::int64_t innerCover = coveredSize(inner);
    if (innerProduct <= 0 || size < innerCover || (size - innerCover) % innerProduct != 0) return false;
    const std::int64_t r = 1 + (size - innerCover) / innerProduct;
    loops.front()->bound = r;
    loops.front()->residual = r;
    return true;
}

void relocateLoop(Mapping& m, int level, LoopKind kind, int index, int toLevel, LoopKind toKind, int toIndex)
{
    std::vector<Loop>& from = listAt(m, level, kind);
    checkIndex(m, from, level, index);
    std::vector<Loop>& to = listAt(m, toLevel, toKind);
    // `to` may be `from`: its size after the erase is what toIndex counts in.
    const std::size_t sizeAfter = &to == &from ? to.size() - 1 : to.size();
    if (toIndex < -1 || (toIndex >= 0 && std::size_t(toIndex) > sizeAfter))
        throw NestorError("mapping.levels[" + std::to_string(toLevel) + "]",
                          "mapping '" + m.name + "' has no loop position " + std::to_string(toIndex) + " there");
    const Loop loop = from[std::size_t(index)];
    from.erase(from.begin() + index);
    to.insert(toIndex < 0 ? to.end() : to.begin() + toIndex, loop);
}

void appendLoop(Mapping& m, int level, LoopKind kind, int dim)
{
    listAt(m, level, kind).push_back(makeLoop(dim, 1));
}

void eraseLoop(Mapping& m, int level, LoopKind kind, int index, std::int64_t dimSize)
{
    std::vector<Loop>& list = listAt(m, level, kind);
    checkIndex(m, list, level, index);
    const int dim = list[std::size_t(index)].dim;
    list.erase(list.begin() + index);
    absorbIntoOutermost(m, dim, dimSize);
}

std::vector<int> repairFactors(Mapping& m, const Workload& w)
{
    std::vector<int> changed;
    for (int d = 0; d < w.numDims(); ++d) {
        const std::int64_t size = w.bounds[std::size_t(d)];
        std::vector<Loop*> loops = loopsOfDimension(m, d);
        std::vector<Loop> asIs;
        for (const Loop* l : loops) asIs.push_back(*l);
        if (coveredSize(asIs) == size) continue;  // no loop at all covers a size of 1
        changed.push_back(d);
        if (loops.empty()) {
            if (m.levels.empty()) continue;
            m.levels.front().temporal.push_back(makeLoop(d, size));
            continue;
        }
        if (absorbIntoOutermost(m, d, size)) continue;
        for (std::size_t i = 1; i < loops.size(); ++i) *loops[i] = makeLoop(d, 1);
        *loops.front() = makeLoop(d, size);
    }
    return changed;
}

} // namespace nestor
