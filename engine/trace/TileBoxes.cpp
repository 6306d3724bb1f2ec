#include "trace/TileBoxes.h"

#include <cmath>

namespace nestor::trace::detail {

i64 Box::size() const
{
    i64 s = 1;
    for (int r = 0; r < n; ++r) s *= ext[r];
    return s;
}

Box tensorBox(const Workload& w, int t, const i64* base, const i64* ext)
{
    const auto& ranks = w.tensors[t].ranks;
    Box b;
    b.n = static_cast<int>(ranks.size());
    for (int r = 0; r < b.n; ++r) b.ext[r] = 1;
    for (std::size_t r = 0; r < ranks.size(); ++r)
        for (const auto& term : ranks[r]) {
            b.lo[r] += term.coef * base[term.dim];
            b.ext[r] += term.coef * (ext[term.dim] - 1);
        }
    return b;
}

Box intersect(const Box& a, const Box& b)
{
    Box o;
    o.n = a.n;
    for (int r = 0; r < a.n; ++r) {
        const i64 lo = std::max(a.lo[r], b.lo[r]);
        const i64 hi = std::min(a.lo[r] + a.ext[r], b.lo[r] + b.ext[r]);
        o.lo[r] = lo;
        o.ext[r] = hi > lo ? hi - lo : 0;
    }
    return o;
}

Ranks translation(const Box& from, const Box& to)
{
    Ranks tr{};
    for (int r = 0; r < to.n; ++r) {
        const double cNew = static_cast<double>(to.lo[r]) + static_cast<double>(to.ext[r] - 1) / 2.0;
        const double cOld = static_cast<double>(from.lo[r]) + static_cast<double>(from.ext[r] - 1) / 2.0;
        tr[r] = static_cast<i64>(std::round(cNew - cOld));
    }
    return tr;
}

bool isZero(const Ranks& v)
{
    for (i64 x : v)
        if (x != 0) return false;
    return true;
}

Delta wholeDelta(const Box& tile)
{
    Delta d;
    d.tile = tile;
    d.whole = true;
    d.words = tile.size();
    d.keyA = tile;
    return d;
}

Delta diffDelta(const Box& tile, const Box& old)
{
    Delta d;
    d.tile = tile;
    d.whole = false;
    d.inter = intersect(tile, old);
    const i64 in = d.inter.size();
    d.words = tile.size() - in;
    if (in == 0) {
        d.keyA = tile;
        return d;
    }
    if (d.words == 0) return d;  // empty
    // tile minus a box is a box when the box spans the tile in every rank but one and touches
    // one end of it there: then the key is that box alone.
    const int R = tile.n;
    int cut = -1;
    bool box = true;
    for (int r = 0; r < R && box; ++r) {
        if (d.inter.lo[r] == tile.lo[r] && d.inter.ext[r] == tile.ext[r]) continue;
        if (cut >= 0) box = false;
        cut = static_cast<int>(r);
    }
    if (box && cut >= 0) {
        const int r = cut;
        Box k = tile;
        if (d.inter.lo[r] == tile.lo[r]) {
            k.lo[r] = tile.lo[r] + d.inter.ext[r];
            k.ext[r] = tile.ext[r] - d.inter.ext[r];
            d.keyA = k;
            return d;
        }
        if (d.inter.lo[r] + d.inter.ext[r] == tile.lo[r] + tile.ext[r]) {
            k.ext[r] = tile.ext[r] - d.inter.ext[r];
            d.keyA = k;
            return d;
        }
    }
    d.keyA = tile;
    d.keyB = d.inter;
    return d;
}

} // namespace nestor::trace::detail
