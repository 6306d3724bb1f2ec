// Mapspace::exceedsCapacity: the capacity check of evaluate() (fillCapacities in
// engine/model/Model.cpp), made on a point's factors without building its mapping or nest.
// Slots lie outermost first in the nest's own order (per level: temporal, spatial Y, spatial
// X), so a loop's stride is the product of its dimension's bounds in the slots after it.
#include "mapspace/Mapspace.h"

#include <array>

namespace nestor {

bool Mapspace::exceedsCapacity(const MapspacePoint& p) const
{
    const int L = a_.numLevels();
    const int D = w_.numDims();
    const int S = numSlots();
    if (L > 64 || D > 32) return false;  // beyond the model's own tables: evaluate() decides
    // Per dimension, innermost slot first: the extents of the loops at and below each level,
    // full and with every loop at its residual iteration (stride = product of inner bounds).
    std::array<std::int64_t, 32> full, residual, stride;
    full.fill(1), residual.fill(1), stride.fill(1);
    // A dimension spans its full extent below level i when one of its loops above i runs more
    // than one residual trip; else every loop of it above is at its last iteration.
    std::array<std::array<bool, 32>, 64> reachable;
    std::array<bool, 32> seen{};
    for (int i = 0, s = 0; i < L; ++i) {
        reachable[i] = seen;
        for (; s < S && slots_[s].level == i; ++s)
            for (int d = 0; d < D; ++d)
                if (p.factors[static_cast<std::size_t>(s) * D + d].residual > 1) seen[d] = true;
    }
    std::array<std::int64_t, 32> ext;
    int s = S - 1;
    for (int i = L - 1; i >= 0; --i) {
        for (; s >= 0 && slots_[s].level == i; --s)
            for (int d = 0; d < D; ++d) {
                const LoopFactor& f = p.factors[static_cast<std::size_t>(s) * D + d];
                if (f.bound == 1) continue;
                full[d] += (f.bound - 1) * stride[d];
                residual[d] += (f.residual - 1) * stride[d];
                stride[d] *= f.bound;
            }
        const auto capacity = a_.levels[i].effectiveSizeWords();
        if (!capacity) continue;
        for (int d = 0; d < D; ++d) ext[d] = reachable[i][d] ? full[d] : residual[d];
        std::int64_t used = 0;
        for (int t = 0; t < w_.numTensors(); ++t) {
            if (!keeps(p, i, t)) continue;
            std::int64_t words = 1;
            for (const auto& rank : w_.tensors[t].ranks) words *= rankExtent(rank, ext.data());
            used += words;
        }
        if (used > *capacity) return true;
    }
    return false;
}

bool Mapspace::keeps(const MapspacePoint& p, int level, int tensor) const
{
    for (std::size_t i = 0; i < freeKeeps_.size(); ++i)
        if (freeKeeps_[i].first == level && freeKeeps_[i].second == tensor) return ((p.keepBits >> i) & 1u) == 0;
    const int fixed = fixedKeep_[level][tensor];
    return fixed < 0 || fixed == 1;
}

} // namespace nestor
