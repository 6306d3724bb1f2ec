#include "model/ChildPlacement.h"

#include "model/HashedIds.h"
#include "model/SpatialCategory.h"

#include <algorithm>

namespace nestor::model {

void ChildPlacement::build(const StageFrame& f, bool withOffsets)
{
    const NestLayout& nest = *f.nest;
    const int nChildLoops = f.boundary - f.leafPos;
    // Per fanout loop and index: its category's place, times the weight of the loop's digit.
    thread_local std::vector<std::vector<int>> digit;
    digit.resize(static_cast<std::size_t>(nChildLoops));
    int weight = 1;
    for (int q = nChildLoops; q-- > 0;) {
        const NestLoop& l = nest.loops[static_cast<std::size_t>(f.leafPos + q)];
        std::vector<int>& d = digit[static_cast<std::size_t>(q)];
        d.assign(static_cast<std::size_t>(l.bound), 0);
        if (!l.spatial()) continue;  // (enumerateKinds skips it too)
        const bool imperfect = nest.dimImperfect(l.dim);
        const walker::Categories cats = walker::categoriesOf(l, imperfect);
        for (std::int64_t i = 0; i < l.bound; ++i) {
            const walker::Cat c = imperfect ? walker::categorize(i, l.bound, l.residual) : walker::Cat::Any;
            int place = 0;
            while (cats[static_cast<std::size_t>(place)].first != c) ++place;
            d[static_cast<std::size_t>(i)] = place * weight;
        }
        weight *= static_cast<int>(cats.size());
    }
    kindOf.resize(static_cast<std::size_t>(f.children));
    placed.clear();
    thread_local HashedIds offsetIds;
    thread_local std::vector<Vec> offsets;  // per offset number, the offset
    offsetIds.clear();
    offsets.clear();
    f.forEachChild([&](std::int64_t c, const Vec& off, std::int64_t, std::int64_t, const auto& idx) {
        int kind = 0;
        for (int q = 0; q < nChildLoops; ++q) kind += digit[static_cast<std::size_t>(q)][static_cast<std::size_t>(idx[q])];
        kindOf[static_cast<std::size_t>(c)] = kind;
        if (!withOffsets) return;
        const std::uint64_t h = shiftHash(off, f.nRanks);
        int at = offsetIds.find(h, [&](int id) { return offsets[static_cast<std::size_t>(id)] == off; });
        if (at < 0) {
            at = static_cast<int>(offsets.size());
            offsets.push_back(off);
            offsetIds.add(h);
        }
        placed.push_back({at, kind});
    });
    std::sort(placed.begin(), placed.end());
    placed.erase(std::unique(placed.begin(), placed.end()), placed.end());
}

} // namespace nestor::model
