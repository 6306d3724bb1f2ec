#include "mapspace/DimensionFactorizer.h"

#include <algorithm>
#include <cmath>

namespace nestor {

DimensionFactorizer::DimensionFactorizer(std::int64_t size, std::vector<FactorSlotSpec> slots)
    : size_(std::max<std::int64_t>(size, 1)), slots_(std::move(slots))
{
    for (std::int64_t d = 1; d * d <= size_; ++d)
        if (size_ % d == 0) {
            divisors_.push_back(d);
            if (d * d != size_) divisors_.push_back(size_ / d);
        }
    std::sort(divisors_.begin(), divisors_.end());
    multiples_.resize(divisors_.size());
    for (std::size_t i = 0; i < divisors_.size(); ++i)
        for (std::size_t j = i; j < divisors_.size(); ++j)
            if (divisors_[j] % divisors_[i] == 0) multiples_[i].push_back(divisors_[j]);
    perfectAfter_.assign(slots_.size(), 1);
    for (int s = numSlots() - 2; s >= 0; --s) perfectAfter_[s] = perfectAfter_[s + 1] && !slots_[s + 1].imperfect;
}

void DimensionFactorizer::range(int s, const std::vector<std::int64_t>& u, std::int64_t& lo, std::int64_t& hi) const
{
    const FactorSlotSpec& sp = slots_[s];
    if (sp.spatialIndex >= 0) {
        lo = hi = u[sp.spatialIndex];
    } else {
        lo = std::max<std::int64_t>(sp.lo, 1);
        hi = std::min(sp.hi, size_);
    }
}

DimensionFactorizer::Table DimensionFactorizer::table(const std::vector<std::int64_t>& u) const
{
    const std::int64_t D = size_;
    const int S = numSlots();
    Table t;
    t.prefix.assign(S + 1, std::vector<long double>(D + 1, 0.0L));
    {
        auto& last = t.prefix[S];
        for (std::int64_t n = 1; n <= D; ++n) last[n] = last[n - 1] + (n == D ? 1.0L : 0.0L);
    }
    for (int s = S - 1; s >= 0; --s) {
        const auto& nx = t.prefix[s + 1];
        auto B = [&](std::int64_t n) { return nx[n] - nx[n - 1]; };
        auto& cur = t.prefix[s];
        std::int64_t lo, hi;
        range(s, u, lo, hi);
        for (std::int64_t N = 1; N <= D; ++N) {
            long double b = 0.0L;
            if (lo <= hi) {
                if (N == 1) {
                    const std::int64_t top = std::min(hi, D);
                    if (lo <= top) b = nx[top] - nx[lo - 1];
                } else if (!slots_[s].imperfect && perfectAfter_[s]) {
                    if (const auto* counts = completingCounts(N))
                        for (std::int64_t n : *counts) {
                            if (n / N < lo) continue;
                            if (n / N > hi) break;
                            b += B(n);
                        }
                } else if (!slots_[s].imperfect) {
                    for (std::int64_t P = lo; P <= hi && N * P <= D; ++P) b += B(N * P);
                } else {
                    const std::int64_t pmax = std::min(hi, (D - 1) / (N - 1));
                    for (std::int64_t P = lo; P <= pmax; ++P) b += nx[std::min(N * P, D)] - nx[(N - 1) * P];
                }
            }
            cur[N] = cur[N - 1] + b;
        }
    }
    return t;
}

void DimensionFactorizer::decode(const Table& t, const std::vector<std::int64_t>& u, long double x, LoopFactor* out,
                                 int stride) const
{
    const std::int64_t D = size_;
    std::int64_t N = 1;
    for (int s = 0; s < numSlots(); ++s) {
        const auto& nx = t.prefix[s + 1];
        auto B = [&](std::int64_t n) { return nx[n] - nx[n - 1]; };
        std::int64_t lo, hi;
        range(s, u, lo, hi);
        std::int64_t bestP = -1, bestR = -1, bestN = -1;  // last candidate with weight (rounding fallback)
        bool chosen = false;
        auto take = [&](std::int64_t P, std::int64_t R, std::int64_t n2, long double w) {
            if (w <= 0.0L) return false;
            bestP = P, bestR = R, bestN = n2;
            if (x < w) return chosen = true;
            x -= w;
            return false;
        };
        const std::vector<std::int64_t>* counts = perfectAfter_[s] && (N == 1 || !slots_[s].imperfect) ? completingCounts(N) : nullptr;
        if (counts) {
            // Only the candidates with a non-zero weight, in the same order: the same result.
            for (std::int64_t n : *counts) {
                const std::int64_t P = n / N;
                if (P < lo) continue;
                if (P > hi) break;
                if (take(P, P, n, B(n))) break;
            }
        } else if (N == 1) {
            for (std::int64_t P = lo; P <= std::min(hi, D); ++P)
                if (take(P, P, P, B(P))) break;
        } else if (!slots_[s].imperfect) {
            for (std::int64_t P = lo; P <= hi && N * P <= D; ++P)
                if (take(P, P, N * P, B(N * P))) break;
        } else {
            const std::int64_t pmax = std::min(hi, (D - 1) / (N - 1));
            for (std::int64_t P = lo; P <= pmax && !chosen; ++P) {
                const std::int64_t top = std::min(N * P, D), base = (N - 1) * P;
                const long double w = nx[top] - nx[base];
                if (w <= 0.0L) continue;
                if (x >= w) {
                    x -= w;
                    bestP = P, bestR = top - base, bestN = top;
                    while (bestR > 0 && B(base + bestR) <= 0.0L) --bestR, --bestN;
                    continue;
                }
                for (std::int64_t R = 1; R <= top - base; ++R)
                    if (take(P, R, base + R, B(base + R))) break;
                if (!chosen) break;  // rounding: keep the last candidate
            }
        }
        if (bestP < 0) bestP = bestR = 1, bestN = N;  // unreachable for a positive count
        out[s * stride] = LoopFactor{bestP, bestR};
        N = bestN;
    }
}

const std::vector<std::int64_t>* DimensionFactorizer::completingCounts(std::int64_t N) const
{
    const auto it = std::lower_bound(divisors_.begin(), divisors_.end(), N);
    if (it == divisors_.end() || *it != N) return nullptr;
    return &multiples_[static_cast<std::size_t>(it - divisors_.begin())];
}

long double uniformIndex(std::mt19937_64& rng, long double n)
{
    if (n <= 1.0L) return 0.0L;
    if (n < 9.2e18L) {
        std::uniform_int_distribution<std::uint64_t> dist(0, static_cast<std::uint64_t>(n) - 1);
        return static_cast<long double>(dist(rng));
    }
    std::uniform_real_distribution<double> dist(0.0, 1.0);
    return std::min(n * static_cast<long double>(dist(rng)), std::nextafter(n, 0.0L));
}

} // namespace nestor
