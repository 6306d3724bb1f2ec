#pragma once
// The reuse memory of one class of children during the walk (Timeloop's per-child "last tile,
// last translation", plus the last delta for link transfers), kept relative to the base of the
// most recent step so that equal situations compare equal wherever they occur.
#include "common/SmallVector.h"
#include "model/TileGeometry.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nestor::model::walker {

struct ClassState {
    bool hasPrev = false;
    bool hasTrans = false;
    bool hasPrevDelta = false;
    Box prev;
    Vec trans{};
    Delta prevDelta;

    bool operator==(const ClassState& o) const
    {
        if (hasPrev != o.hasPrev || hasTrans != o.hasTrans || hasPrevDelta != o.hasPrevDelta) return false;
        if (hasPrev && !(prev == o.prev)) return false;
        if (hasTrans && trans != o.trans) return false;
        if (hasPrevDelta && !(prevDelta == o.prevDelta)) return false;
        return true;
    }
};
// Most stages have one or two classes of children: keep their states inline.
using State = SmallVector<ClassState, 2>;

inline void mix(std::size_t& h, std::uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

inline void hashBox(std::size_t& h, const Box& b, int n)
{
    for (int r = 0; r < n; ++r) {
        mix(h, static_cast<std::uint64_t>(b.lo[r]));
        mix(h, static_cast<std::uint64_t>(b.ext[r]));
    }
}

inline std::size_t hashState(const State& s, int n)
{
    std::size_t h = s.size();
    for (const auto& c : s) {
        mix(h, (c.hasPrev ? 1u : 0u) | (c.hasTrans ? 2u : 0u) | (c.hasPrevDelta ? 4u : 0u));
        if (c.hasPrev) hashBox(h, c.prev, n);
        if (c.hasTrans)
            for (int r = 0; r < n; ++r) mix(h, static_cast<std::uint64_t>(c.trans[r]));
        if (c.hasPrevDelta) {
            mix(h, c.prevDelta.kind);
            hashBox(h, c.prevDelta.outer, n);
        }
    }
    return h;
}


inline void shiftState(State& s, const Vec& by, int n)
{
    for (auto& c : s) {
        if (c.hasPrev) c.prev = shifted(c.prev, by, n);
        if (c.hasPrevDelta) c.prevDelta = c.prevDelta.shiftedBy(by, n);
    }
}

inline Vec negate(Vec v)
{
    for (auto& x : v) x = -x;
    return v;
}

inline Vec scaled(const Vec& v, std::int64_t k)
{
    Vec r{};
    for (int i = 0; i < kMaxRanks; ++i) r[i] = v[i] * k;
    return r;
}

inline Vec plus(const Vec& a, const Vec& b)
{
    Vec r{};
    for (int i = 0; i < kMaxRanks; ++i) r[i] = a[i] + b[i];
    return r;
}

inline Vec minus(const Vec& a, const Vec& b)
{
    Vec r{};
    for (int i = 0; i < kMaxRanks; ++i) r[i] = a[i] - b[i];
    return r;
}

} // namespace nestor::model::walker
