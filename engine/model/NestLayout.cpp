#include "model/NestLayout.h"

#include <algorithm>

namespace nestor::model {

NestLayout buildNestLayout(const Workload& w, const Mapping& m)
{
    NestLayout n;
    buildNestLayout(w, m, n);
    return n;
}

void buildNestLayout(const Workload& w, const Mapping& m, NestLayout& n)
{
    n.loops.clear();
    n.levelBegin.clear();
    n.spatialBegin.clear();
    n.imperfectDims = 0;
    n.numLevels = static_cast<int>(m.levels.size());
    for (int i = 0; i < n.numLevels; ++i) {
        const auto& lm = m.levels[i];
        n.levelBegin.push_back(static_cast<int>(n.loops.size()));
        auto add = [&](const std::vector<Loop>& v, LoopKind k) {
            for (const auto& l : v) {
                if (l.bound == 1) continue;  // unit loops change nothing
                n.loops.push_back(NestLoop{l.dim, l.bound, l.residual, 1, i, k});
                if (l.isImperfect()) n.imperfectDims |= 1u << l.dim;
            }
        };
        add(lm.temporal, LoopKind::Temporal);
        n.spatialBegin.push_back(static_cast<int>(n.loops.size()));
        add(lm.spatialY, LoopKind::SpatialY);
        add(lm.spatialX, LoopKind::SpatialX);
    }
    n.levelBegin.push_back(static_cast<int>(n.loops.size()));
    thread_local std::vector<std::int64_t> inner;
    inner.assign(static_cast<std::size_t>(w.numDims()), 1);
    for (auto it = n.loops.rbegin(); it != n.loops.rend(); ++it) {
        it->stride = inner[it->dim];
        inner[it->dim] *= it->bound;
    }
}

void NestLayout::innerExtents(int from, int dims, std::int64_t* full, std::int64_t* last) const
{
    std::fill_n(full, dims, 1);
    std::fill_n(last, dims, 1);
    for (int p = from; p < static_cast<int>(loops.size()); ++p) {
        const auto& l = loops[p];
        full[l.dim] += (l.bound - 1) * l.stride;
        last[l.dim] += (l.residual - 1) * l.stride;
    }
}

std::int64_t NestLayout::innerExtent(int from, int d, bool lastGlobal) const
{
    std::int64_t e = 1;
    for (int p = from; p < static_cast<int>(loops.size()); ++p) {
        const auto& l = loops[p];
        if (l.dim != d) continue;
        e += ((lastGlobal ? l.residual : l.bound) - 1) * l.stride;
    }
    return e;
}

} // namespace nestor::model
