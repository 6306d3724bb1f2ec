#pragma once
// Pieces the closed-form stage analyses share about tiles and the reuse rule: the translation
// classes of a list of moves, the words of a box, the overlap of two tiles, Timeloop's
// translation between tiles of different shapes.
#include "model/TileGeometry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

namespace nestor::model {

// Translation classes of the reuse rule over a list of translation vectors.
template <int kMaxTranslations>
struct TranslationTable {
    int count = 0;
    std::array<Vec, kMaxTranslations> vec;
    std::array<int, kMaxTranslations> stateOf;  // 0 = a zero move that keeps the remembered one
    std::array<bool, kMaxTranslations> zero;
    int states = 1;

    void clear()
    {
        count = 0;
        states = 1;
    }
    int find(const Vec& v, int nRanks) const
    {
        for (int t = 0; t < count; ++t) {
            bool same = true;
            for (int r = 0; r < nRanks && same; ++r) same = vec[t][r] == v[r];
            if (same) return t;
        }
        return -1;
    }
    int add(const Vec& v, int nRanks, bool legacy)
    {
        const int t = count++;
        vec[t] = v;
        bool z = true;
        for (int r = 0; r < nRanks; ++r) z = z && v[r] == 0;
        zero[t] = z;
        int same = -1;
        for (int u = 0; u < t && same < 0; ++u)
            if (vec[u] == v) same = u;
        stateOf[t] = (z && !legacy) ? 0 : (same >= 0 ? stateOf[same] : states++);
        return t;
    }
    // The reuse rule on a move of class m from reuse state s delivering `words` (`whole`: the
    // full tile): the next state and the words moved. A move in the remembered translation (or
    // from no memory) delivers only the new words; another move the whole tile.
    std::pair<int, std::int64_t> reuse(int s, int m, std::int64_t words, std::int64_t whole, bool legacy) const
    {
        if (zero[m] && !legacy) return {s, words};
        if (s == 0 || s == stateOf[m]) return {stateOf[m], words};
        return {0, whole};
    }
};

inline std::int64_t boxWords(const Vec& ext, int nRanks)
{
    std::int64_t n = 1;
    for (int r = 0; r < nRanks; ++r) n *= ext[r];
    return n;
}

// Words of a tile of extents `cur` at base displacement d that a tile of extents `prev` at
// displacement 0 already held.
inline std::int64_t overlapWords(const Vec& prev, const Vec& cur, const Vec& d, int nRanks)
{
    std::int64_t n = 1;
    for (int r = 0; r < nRanks; ++r) n *= std::max<std::int64_t>(0, std::min(prev[r], d[r] + cur[r]) - std::max<std::int64_t>(0, d[r]));
    return n;
}

// Timeloop's translation between the two tiles: the rounded move of their centroids.
inline Vec centroidMove(const Vec& prev, const Vec& cur, const Vec& d, int nRanks)
{
    Vec t{};
    for (int r = 0; r < nRanks; ++r)
        t[r] = static_cast<std::int64_t>(std::llround(static_cast<double>(2 * d[r] + cur[r] - prev[r]) / 2.0));
    return t;
}

} // namespace nestor::model
