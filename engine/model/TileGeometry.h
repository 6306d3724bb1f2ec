#pragma once
// Dense boxes in tensor space and the delta sets between consecutive tiles, in a canonical
// form so that two deltas can be compared for exact set equality (multicast, link transfers).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace nestor::model {

constexpr int kMaxRanks = 8;
using Vec = std::array<std::int64_t, kMaxRanks>;

struct Box {
    Vec lo{};
    Vec ext{};  // 0 in any rank = empty box
    std::int64_t size(int n) const
    {
        std::int64_t s = 1;
        for (int r = 0; r < n; ++r) s *= ext[r];
        return s;
    }
    bool operator==(const Box& o) const { return lo == o.lo && ext == o.ext; }
};

inline Box shifted(Box b, const Vec& d, int n)
{
    for (int r = 0; r < n; ++r) b.lo[r] += d[r];
    return b;
}

inline Box intersect(const Box& a, const Box& b, int n)
{
    Box c;
    for (int r = 0; r < n; ++r) {
        const std::int64_t lo = std::max(a.lo[r], b.lo[r]);
        const std::int64_t hi = std::min(a.lo[r] + a.ext[r], b.lo[r] + b.ext[r]);
        c.lo[r] = lo;
        c.ext[r] = hi > lo ? hi - lo : 0;
    }
    return c;
}

// twice / 2 rounded half away from zero, as std::llround(twice / 2.0) (Timeloop's rounding of a
// centroid move), in integers: exact at any size, and llround showed in Ruby's profile.
constexpr std::int64_t halfRoundedAway(std::int64_t twice)
{
    return twice >= 0 ? (twice + 1) / 2 : -((1 - twice) / 2);
}

// Rounded difference of the centroids (Timeloop's translation between two tiles).
inline Vec translation(const Box& from, const Box& to, int n)
{
    Vec t{};
    for (int r = 0; r < n; ++r) t[r] = halfRoundedAway((2 * to.lo[r] + to.ext[r]) - (2 * from.lo[r] + from.ext[r]));
    return t;
}

// A delta: empty, a box, or a box minus a non-empty proper sub-box that leaves a non-box.
struct Delta {
    enum Kind : std::uint8_t { Empty, Whole, Difference } kind = Empty;
    Box outer;  // Whole/Difference
    Box hole;   // Difference: the part already held
    std::int64_t size = 0;

    bool operator==(const Delta& o) const
    {
        if (kind != o.kind || size != o.size) return false;
        if (kind == Empty) return true;
        if (kind == Whole) return outer == o.outer;
        return outer == o.outer && hole == o.hole;
    }
    // Whether this delta moved by d (in its first n ranks) is o, without building the moved one.
    bool equalsShiftedBy(const Vec& d, const Delta& o, int n) const
    {
        if (kind != o.kind || size != o.size) return false;
        if (kind == Empty) return true;
        auto same = [&](const Box& a, const Box& b) {
            for (int r = 0; r < kMaxRanks; ++r)  // (by rank: std::array's == calls memcmp, which showed in the profile)
                if (a.lo[r] + (r < n ? d[r] : 0) != b.lo[r] || a.ext[r] != b.ext[r]) return false;
            return true;
        };
        return same(outer, o.outer) && (kind == Whole || same(hole, o.hole));
    }
    Delta shiftedBy(const Vec& d, int n) const
    {
        Delta x = *this;
        if (kind != Empty) {
            x.outer = shifted(outer, d, n);
            if (kind == Difference) x.hole = shifted(hole, d, n);
        }
        return x;
    }
};

inline Delta wholeDelta(const Box& b, int n)
{
    Delta d;
    d.size = b.size(n);
    if (d.size > 0) {
        d.kind = Delta::Whole;
        d.outer = b;
    }
    return d;
}

// cur \ prev in canonical form.
inline Delta difference(const Box& cur, const Box& prev, int n)
{
    const Box in = intersect(cur, prev, n);
    const std::int64_t inSize = in.size(n);
    if (inSize == 0) return wholeDelta(cur, n);
    const std::int64_t curSize = cur.size(n);
    Delta d;
    d.size = curSize - inSize;
    if (d.size == 0) return d;
    // The remainder is a box when the overlap spans cur fully in all ranks but one and touches
    // one end there.
    int partial = -1, partialCount = 0;
    for (int r = 0; r < n; ++r)
        if (in.ext[r] != cur.ext[r]) {
            partial = r;
            ++partialCount;
        }
    if (partialCount == 1) {
        const int r = partial;
        const bool atLow = in.lo[r] == cur.lo[r];
        const bool atHigh = in.lo[r] + in.ext[r] == cur.lo[r] + cur.ext[r];
        if (atLow || atHigh) {
            Box b = cur;
            b.ext[r] = cur.ext[r] - in.ext[r];
            b.lo[r] = atLow ? in.lo[r] + in.ext[r] : cur.lo[r];
            d.kind = Delta::Whole;
            d.outer = b;
            return d;
        }
    }
    d.kind = Delta::Difference;
    d.outer = cur;
    d.hole = in;
    return d;
}

// Hashes of deltas linear in their corners, so that a shift moves them by a known amount:
// hashOf(d.shiftedBy(v)) == hashOf(d) + shiftHash(v) x shiftScale(d). Equal deltas hash alike.
inline constexpr std::array<std::uint64_t, kMaxRanks> kRankHashFactor{
    0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull, 0xd6e8feb86659fd93ull,
    0xff51afd7ed558ccdull, 0xc4ceb9fe1a85ec53ull, 0x94d049bb133111ebull, 0xbf58476d1ce4e5b9ull};
inline std::uint64_t shiftHash(const Vec& v, int n)
{
    std::uint64_t h = 0;
    for (int r = 0; r < n; ++r) h += static_cast<std::uint64_t>(v[r]) * kRankHashFactor[static_cast<std::size_t>(r)];
    return h;
}
inline std::uint64_t shiftScale(const Delta& d) { return d.kind == Delta::Difference ? 2 : d.kind == Delta::Whole ? 1 : 0; }
inline std::uint64_t hashOf(const Delta& d, int n)
{
    std::uint64_t h = static_cast<std::uint64_t>(d.size) * 0x2545f4914f6cdd1dull + d.kind;
    if (d.kind == Delta::Empty) return h;
    h += shiftHash(d.outer.lo, n);
    for (int r = 0; r < n; ++r) h += static_cast<std::uint64_t>(d.outer.ext[r]) * (kRankHashFactor[static_cast<std::size_t>(r)] >> 7) * 31;
    if (d.kind != Delta::Difference) return h;
    h += shiftHash(d.hole.lo, n);
    for (int r = 0; r < n; ++r) h += static_cast<std::uint64_t>(d.hole.ext[r]) * (kRankHashFactor[static_cast<std::size_t>(r)] >> 11) * 57;
    return h;
}

} // namespace nestor::model
