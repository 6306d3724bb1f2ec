#pragma once
// Pieces the closed-form stage analyses share about tiles and the reuse rule: the translation
// classes of a list of moves, the words of a box, the overlap of two tiles, Timeloop's
// translation between tiles of different shapes.
#include "model/TileGeometry.h"

#include <algorithm>
#include <array>
#include <bit>
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
    // v, not in the table yet (IndexedTranslationTable::findOrAdd looks first): a new
    // translation is a new reuse state, but a zero move keeps the state.
    int add(const Vec& v, int nRanks, bool legacy)
    {
        const int t = count++;
        vec[t] = v;
        bool z = true;
        for (int r = 0; r < nRanks; ++r) z = z && v[r] == 0;
        zero[t] = z;
        stateOf[t] = (z && !legacy) ? 0 : states++;
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

// A translation table found by hashing the moves, for tables that live across analyses (the
// index's stamps start zeroed with the object): a linear find showed in Ruby's profile, where a
// stage registers a few hundred carries.
template <int kMaxTranslations>
struct IndexedTranslationTable : TranslationTable<kMaxTranslations> {
    using Base = TranslationTable<kMaxTranslations>;
    void clear()
    {
        Base::clear();
        if (++run_ == 0) {  // stamps wrapped
            stamps_.fill(0);
            run_ = 1;
        }
    }
    int find(const Vec& v, int nRanks) const
    {
        const std::size_t i = probe(v, nRanks);
        return stamps_[i] == run_ ? ids_[i] : -1;
    }
    // The class of v, added when new: {class, added}; {-1, false} when new and the table is full.
    std::pair<int, bool> findOrAdd(const Vec& v, int nRanks, bool legacy)
    {
        const std::size_t i = probe(v, nRanks);
        if (stamps_[i] == run_) return {ids_[i], false};
        if (this->count == kMaxTranslations) return {-1, false};
        const int t = Base::add(v, nRanks, legacy);
        stamps_[i] = run_;
        ids_[i] = static_cast<std::int16_t>(t);
        return {t, true};
    }

private:
    static constexpr std::size_t kSlots = std::bit_ceil(static_cast<std::size_t>(4 * kMaxTranslations));  // at most a quarter full
    static constexpr std::size_t kMask = kSlots - 1;
    static std::size_t slotOf(const Vec& v, int nRanks)
    {
        std::uint64_t h = 0x9e3779b97f4a7c15ull;
        for (int r = 0; r < nRanks; ++r) h = (h ^ static_cast<std::uint64_t>(v[r])) * 0xff51afd7ed558ccdull;
        return static_cast<std::size_t>(h ^ (h >> 29)) & kMask;
    }
    // The slot holding v, or the empty slot (stamped by another run) where it belongs.
    std::size_t probe(const Vec& v, int nRanks) const
    {
        for (std::size_t i = slotOf(v, nRanks);; i = (i + 1) & kMask) {
            if (stamps_[i] != run_) return i;
            const int t = ids_[i];
            bool same = true;
            for (int r = 0; r < nRanks && same; ++r) same = this->vec[t][r] == v[r];
            if (same) return i;
        }
    }
    std::array<std::uint32_t, kSlots> stamps_{};
    std::array<std::int16_t, kSlots> ids_{};
    std::uint32_t run_ = 1;
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
    for (int r = 0; r < nRanks; ++r) t[r] = halfRoundedAway(2 * d[r] + cur[r] - prev[r]);
    return t;
}

} // namespace nestor::model
