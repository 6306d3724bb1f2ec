#include "model/DistinctWords.h"

#include "model/ExactBudget.h"

#include <algorithm>
#include <optional>
#include <string>

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


// The Minkowski sum by interval arithmetic, terms by increasing coefficient: it stays a union
// of few intervals when no term's step jumps over the intervals it shifts (a sliding window
// h = s*p + d*r with r's span >= s); nullopt when it would not (then values are counted one by one).
constexpr std::size_t kMaxSumIntervals = std::size_t{1} << 16;

std::optional<Intervals> sumByIntervals(const RankExpression& rank, const std::vector<Intervals>& positions)
{
    std::vector<const ProjectionTerm*> terms;
    for (const auto& t : rank) terms.push_back(&t);
    std::sort(terms.begin(), terms.end(), [](const auto* a, const auto* b) { return a->coef < b->coef; });
    Intervals values{{0, 1}};
    for (const ProjectionTerm* t : terms) {
        if (t->coef <= 0) return std::nullopt;
        Intervals next;
        for (const auto& [a, b] : values)
            for (const auto& [lo, hi] : positions[t->dim]) {
                if (hi - lo > 1 && t->coef > b - a) return std::nullopt;
                next.push_back({a + t->coef * lo, b + t->coef * (hi - 1)});
                if (next.size() > kMaxSumIntervals) return std::nullopt;
            }
        values = mergeIntervals(std::move(next));
    }
    return values;
}

// Counting values one by one takes a bitmap over the whole value range: bounded.
constexpr std::int64_t kMaxBitmapValues = std::int64_t{1} << 28;

} // namespace

Intervals mergeIntervals(Intervals v)
{
    mergeIntervalsInPlace(v);
    return v;
}

void mergeIntervalsInPlace(Intervals& v)
{
    std::sort(v.begin(), v.end());
    std::size_t n = 0;  // v[0, n) merged so far
    for (const auto& iv : v) {
        if (n > 0 && iv.first <= v[n - 1].second) v[n - 1].second = std::max(v[n - 1].second, iv.second);
        else v[n++] = iv;
    }
    v.resize(n);
}

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
    return mergeIntervals(std::move(v));
}

std::int64_t countRankValues(const RankExpression& rank, const std::vector<Intervals>& positions)
{
    if (rank.size() == 1) {
        std::int64_t n = 0;
        for (const auto& iv : positions[rank[0].dim]) n += iv.second - iv.first;
        return n;
    }
    for (const auto& t : rank)
        if (positions[t.dim].empty()) return 0;
    if (const auto sum = sumByIntervals(rank, positions)) {
        std::int64_t n = 0;
        for (const auto& iv : *sum) n += iv.second - iv.first;
        return n;
    }
    std::int64_t maxValue = 0;
    for (const auto& t : rank) maxValue += t.coef * (positions[t.dim].back().second - 1);
    if (maxValue >= kMaxBitmapValues)
        throw ExactBudgetExceeded("exact evaluation exceeds " + std::to_string(kMaxBitmapValues) +
                                  " values in one rank's distinct-word count");
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
