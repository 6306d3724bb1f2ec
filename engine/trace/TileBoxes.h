#pragma once
// Tiles as dense boxes in a tensor's rank coordinates, and the deltas between them: Timeloop's
// translation (rounded centre difference), set differences of boxes, and a canonical form of a
// delta so that equal point sets compare equal (multicast groups, link matches). Internal.
#include "workload/Workload.h"

#include <array>
#include <cstdint>
#include <vector>

namespace nestor::trace::detail {

using i64 = std::int64_t;

// Fixed capacity, no allocation: boxes are made millions of times per second while stepping.
constexpr int kMaxRanks = 8;
constexpr int kMaxDims = 16;
using Ranks = std::array<i64, kMaxRanks>;

struct Box {
    int n = 0;                  // ranks
    Ranks lo{}, ext{};          // per rank; unused entries stay 0
    i64 size() const;
    bool operator==(const Box&) const = default;
    auto operator<=>(const Box&) const = default;
};

// The box of tensor t covered by dimension ranges [base, base + ext).
Box tensorBox(const Workload& w, int t, const i64* base, const i64* ext);
// Intersection; empty (size 0, ext 0 in some rank) when disjoint.
Box intersect(const Box& a, const Box& b);
// Rounded centre difference per rank (Timeloop's translation).
Ranks translation(const Box& from, const Box& to);
bool isZero(const Ranks& v);

// The words a child receives at a move: all of `tile`, or `tile` minus `old`.
struct Delta {
    i64 words = 0;
    Box tile;
    bool whole = true;
    Box inter;   // tile ∩ old when !whole
    // Canonical key of the point set: (bounding box, box removed from it or empty).
    Box keyA, keyB;
    bool operator==(const Delta& o) const { return words == o.words && keyA == o.keyA && keyB == o.keyB; }
};

Delta wholeDelta(const Box& tile);
Delta diffDelta(const Box& tile, const Box& old);

} // namespace nestor::trace::detail
