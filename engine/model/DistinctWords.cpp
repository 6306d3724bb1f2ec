#include "model/DistinctWords.h"

#include <algorithm>

namespace nestor::model {
namespace {

using Bits = std::vector<std::uint64_t>;

void orShifted(Bits& dst, const Bits& src, std::int64_t shift)
{
    const std::size_t words = static_cast<std::size_t>(shift / 64), bits = static_cast<std::size_t>(shift % 64);
    for (std::size_t i = 0; i < src.size(); ++i) {
        if (!src[i]) continue;
        const std::size_t j = i + words;
        if (j < dst.size()) dst[j] |= src[i] << bits;
        if (bits && j + 1 < dst.size()) dst[j + 1] |= src[i] >> (64 - bits);
    }
}

Intervals merge(Intervals v)
{
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto& iv : v) {
        if (!out.empty() && iv.first <= out.back().second) out.back().second = std::max(out.back().second, iv.second);
        else out.push_back(iv);
    }
    return out;
}

} // namespace

Intervals intervalsOf(const std::vector<std::uint8_t>& covered)
{
    Intervals out;
    for (std::size_t x = 0; x < covered.size(); ++x) {
        if (!covered[x]) continue;
        const auto p = static_cast<std::int64_t>(x);
        if (!out.empty() && out.back().second == p) out.back().second = p + 1;
        else out.push_back({p, p + 1});
    }
    return out;
}

Intervals replicate(const Intervals& base, std::int64_t stride, std::int64_t trips)
{
    if (trips <= 1) return base;
    if (base.size() == 1 && base[0].first == 0 && base[0].second == stride) return {{0, stride * trips}};
    Intervals v;
    v.reserve(base.size() * static_cast<std::size_t>(trips));
    for (std::int64_t i = 0; i < trips; ++i)
        for (const auto& iv : base) v.push_back({iv.first + i * stride, iv.second + i * stride});
    return merge(std::move(v));
}

std::int64_t countRankValues(const RankExpression& rank, const std::vector<Intervals>& positions)
{
    if (rank.size() == 1) {
        std::int64_t n = 0;
        for (const auto& iv : positions[rank[0].dim]) n += iv.second - iv.first;
        return n;
    }
    std::int64_t maxValue = 0;
    for (const auto& t : rank)
        if (!positions[t.dim].empty()) maxValue += t.coef * (positions[t.dim].back().second - 1);
    const std::size_t words = static_cast<std::size_t>(maxValue / 64 + 1);
    Bits values(words, 0);
    values[0] = 1;
    for (const auto& t : rank) {
        Bits next(words, 0);
        for (const auto& [lo, hi] : positions[t.dim]) {
            // OR of values shifted by coef*x for x in [lo, hi), by doubling the run length.
            Bits run(words, 0);
            orShifted(run, values, t.coef * lo);
            std::int64_t have = 1;
            const std::int64_t len = hi - lo;
            while (have < len) {
                const std::int64_t add = std::min(have, len - have);
                Bits copy = run;
                orShifted(run, copy, t.coef * add);
                have += add;
            }
            for (std::size_t i = 0; i < words; ++i) next[i] |= run[i];
        }
        values.swap(next);
    }
    std::int64_t n = 0;
    for (auto w : values) n += __builtin_popcountll(w);
    return n;
}

} // namespace nestor::model
