#include "mapspace/DimensionFactorizer.h"

#include "mapspace/Divisors.h"
#include "mapspace/ExactCount.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace nestor {

namespace {

// Imperfect slots with at most this many bound candidates are decoded by a plain scan; wider
// ones by one sweep over the states (a scan over the bounds would be O(D) for N = 2).
constexpr std::int64_t kLinearScanBounds = 64;

} // namespace

long double DimensionFactorizer::Table::upTo(int s, std::int64_t n) const
{
    const std::size_t i = firstAbove(s, n);
    return i == 0 ? 0.0L : prefix[s][i - 1];
}

std::size_t DimensionFactorizer::Table::firstAbove(int s, std::int64_t n) const
{
    const auto& st = states[s];
    return static_cast<std::size_t>(std::upper_bound(st.begin(), st.end(), n) - st.begin());
}

std::size_t DimensionFactorizer::Table::bytes() const
{
    std::size_t b = 0;
    for (std::size_t s = 0; s < states.size(); ++s)
        b += states[s].capacity() * sizeof(std::int64_t) + prefix[s].capacity() * sizeof(long double);
    for (const auto& e : exactPrefix) b += e.capacity() * sizeof(std::uint64_t);
    b += runsAt.capacity() * sizeof(std::uint32_t) + slotAt.capacity() * sizeof(SlotAt) + runs.capacity() * sizeof(BoundRun);
    return b;
}

DimensionFactorizer::DimensionFactorizer(std::int64_t size, std::vector<FactorSlotSpec> slots)
    : size_(std::max<std::int64_t>(size, 1)), slots_(std::move(slots))
{
    for (int s = 0; s < numSlots(); ++s)
        if (slots_[s].spatialIndex >= 0) tupleFreeFrom_ = s + 1;
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

DimensionFactorizer::Table DimensionFactorizer::table(const std::vector<std::int64_t>& u, MapspaceBuildGuard* guard,
                                                      const Table* sameSuffix) const
{
    const std::int64_t D = size_;
    const int S = numSlots();
    Table t;
    t.states.resize(S + 1);
    t.prefix.resize(S + 1);
    t.states[S] = {D};
    t.prefix[S] = {1.0L};
    std::unordered_map<std::int64_t, long double> acc;  // N >= 2 -> completions from slot s
    std::vector<std::pair<std::int64_t, long double>> sorted;
    for (int s = S - 1; s >= 0; --s) {
        if (sameSuffix && s >= tupleFreeFrom_) {
            t.states[s] = sameSuffix->states[s];
            t.prefix[s] = sameSuffix->prefix[s];
            continue;
        }
        const std::vector<std::int64_t>& next = t.states[s + 1];
        std::int64_t lo, hi;
        range(s, u, lo, hi);
        acc.clear();
        long double fromOne = 0.0L;  // N == 1 is canonical: P = n, for the states n in [lo, hi]
        if (lo <= hi) {
            fromOne = t.upTo(s + 1, hi) - t.upTo(s + 1, lo - 1);
            for (std::size_t i = 0; i < next.size(); ++i) {
                const std::int64_t n = next[i];
                const std::int64_t pTop = std::min(hi, n - 1);  // N >= 2 needs P < n
                if (lo > pTop) continue;
                const long double w = t.weight(s + 1, i);
                if (!slots_[s].imperfect) {
                    // N -> N * P: N = n / P for the divisors P of n in [lo, pTop]
                    if (lo == pTop) {
                        if (n % lo == 0) acc[n / lo] += w;
                        if (guard) guard->step();
                        continue;
                    }
                    const std::vector<std::int64_t> divs = divisorsOf(n);
                    if (guard) guard->step(static_cast<std::int64_t>(divs.size()) + 16);
                    for (auto it = std::lower_bound(divs.begin(), divs.end(), lo); it != divs.end() && *it <= pTop; ++it)
                        acc[n / *it] += w;
                } else {
                    // N -> n for every P with ceil(n / P) == N: blocks of P with one quotient
                    for (std::int64_t P = lo; P <= pTop;) {
                        const std::int64_t q = (n - 1) / P;  // N - 1 >= 1
                        const std::int64_t end = std::min(pTop, (n - 1) / q);
                        acc[q + 1] += w * static_cast<long double>(end - P + 1);
                        P = end + 1;
                        if (guard) guard->step();
                    }
                }
            }
        }
        sorted.assign(acc.begin(), acc.end());
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        auto& st = t.states[s];
        auto& pre = t.prefix[s];
        st.reserve(sorted.size() + 1);
        pre.reserve(sorted.size() + 1);
        long double sum = 0.0L;
        if (fromOne > 0.0L) {
            st.push_back(1);
            pre.push_back(sum += fromOne);
        }
        for (const auto& [n, w] : sorted) {
            st.push_back(n);
            pre.push_back(sum += w);
        }
        if (guard) guard->step(static_cast<std::int64_t>(sorted.size()));
    }
    // long double holds every integer below 2^64 exactly: the sums convert without rounding.
    bool exact = true;
    for (const auto& row : t.prefix) exact = exact && (row.empty() || row.back() < kExactCountLimit);
    if (exact) {
        t.exactPrefix.resize(t.prefix.size());
        for (std::size_t s = 0; s < t.prefix.size(); ++s)
            for (const long double v : t.prefix[s]) t.exactPrefix[s].push_back(static_cast<std::uint64_t>(v));
    }
    return t;
}

bool DimensionFactorizer::indexBounds(Table& t, const std::vector<std::int64_t>& u, const Table* sameSuffix, std::size_t maxRunsPerCount,
                                      std::size_t maxRuns) const
{
    dropBoundIndex(t);
    if (t.exactPrefix.empty()) return false;
    const std::int64_t D = size_;
    const int S = numSlots();
    std::size_t counts = 0;
    for (int s = 0; s < S; ++s) counts += t.states[s].size() + 1;
    // (entries count runs in 31 bits)
    if (maxRunsPerCount >= kScannedCount || counts * std::min(maxRunsPerCount, maxRuns) >= kScannedCount) return false;
    std::size_t looked = 0;  // bounds looked at (maxRuns bounds the work too)
    auto overBudget = [&] {
        if (t.runs.size() <= maxRuns && looked <= maxRuns) return false;
        dropBoundIndex(t);
        return true;
    };
    t.slotAt.reserve(static_cast<std::size_t>(S));
    t.runsAt.reserve(counts);
    for (int s = 0; s < S; ++s) {
        t.slotAt.push_back({static_cast<std::uint32_t>(t.runsAt.size()), static_cast<std::uint32_t>(t.runs.size())});
        if (sameSuffix && s >= tupleFreeFrom_ && !sameSuffix->runsAt.empty()) {  // the same rows, the same runs
            const Table::SlotAt from = sameSuffix->slotAt[static_cast<std::size_t>(s)];
            const std::size_t entries = t.states[s].size() + 1;  // (its counts and its end)
            const auto first = sameSuffix->runsAt.begin() + from.entries;
            t.runsAt.insert(t.runsAt.end(), first, first + static_cast<std::ptrdiff_t>(entries));
            const auto runs = sameSuffix->runs.begin() + from.runs;
            t.runs.insert(t.runs.end(), runs, runs + t.runsAt.back());  // (an end entry is never marked)
            continue;
        }
        const std::vector<std::int64_t>& next = t.states[s + 1];
        const std::vector<std::uint64_t>& prefix = t.exactPrefix[s + 1];
        auto before = [&](std::size_t i) { return i == 0 ? std::uint64_t{0} : prefix[i - 1]; };
        std::int64_t lo, hi;
        range(s, u, lo, hi);
        const std::size_t slotRuns = t.runs.size();
        for (const std::int64_t N : t.states[s]) {
            const std::size_t begin = t.runs.size();
            t.runsAt.push_back(static_cast<std::uint32_t>(begin - slotRuns));
            if (lo > hi) continue;
            std::uint64_t sum = 0;
            auto add = [&](std::int64_t P, std::size_t from, std::size_t to) {
                const std::uint64_t w = before(to) - before(from);
                if (w == 0) return;  // (decoding skips zero weights)
                t.runs.push_back({P, sum += w, static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to)});
            };
            // More than maxRunsPerCount candidates (bounds, or states a perfect slot checks): scanned.
            bool scanned = false;
            if (N == 1) {  // canonical, P = R = n: the states in [lo, hi], found on the sums alone
                add(0, t.firstAbove(s + 1, lo - 1), t.firstAbove(s + 1, hi));
            } else if (!slots_[s].imperfect) {
                const std::int64_t top = std::min(hi, D / N);
                std::size_t i = t.firstAbove(s + 1, N * lo - 1), checked = 0;
                for (; lo <= top && i < next.size() && next[i] <= N * top && !scanned; ++i, ++checked) {
                    if (next[i] % N == 0) add(next[i] / N, i, i + 1);
                    scanned = checked >= maxRunsPerCount;
                }
                looked += checked;
            } else {  // bound P takes the states in ((N-1) P, min(N P, D)]
                const std::int64_t pmax = std::min(hi, (D - 1) / (N - 1));
                scanned = pmax - lo >= static_cast<std::int64_t>(maxRunsPerCount);
                if (!scanned && pmax >= lo) looked += static_cast<std::size_t>(pmax - lo + 1);
                if (overBudget()) return false;  // (before the bounds are stepped: the work stays within the budget)
                // (both ends rise with P; searched, not stepped: a window can hold most states)
                auto above = [&](std::size_t from, std::int64_t n) {
                    return static_cast<std::size_t>(std::upper_bound(next.begin() + static_cast<std::ptrdiff_t>(from), next.end(), n) - next.begin());
                };
                std::size_t from = 0, to = 0;
                for (std::int64_t P = lo; P <= pmax && !scanned; ++P) {
                    from = above(from, (N - 1) * P);
                    to = above(std::max(from, to), std::min(N * P, D));
                    add(P, from, to);
                }
            }
            if (scanned) {
                t.runs.resize(begin);
                t.runsAt.back() |= kScannedCount;
            }
            if (overBudget()) return false;
        }
        t.runsAt.push_back(static_cast<std::uint32_t>(t.runs.size() - slotRuns));
    }
    t.runs.shrink_to_fit();
    return true;
}

void DimensionFactorizer::dropBoundIndex(Table& t)
{
    t.runsAt = {};
    t.slotAt = {};
    t.runs = {};
}

void DimensionFactorizer::decodeIndexed(const Table& t, const std::vector<std::int64_t>& u, std::uint64_t x, LoopFactor* out,
                                        int stride) const
{
    std::int64_t N = 1;
    std::size_t at = 0;  // N's index in t.states[s] (a positive count starts from N = 1, the first)
    for (int s = 0; s < numSlots(); ++s) {
        const std::vector<std::uint64_t>& prefix = t.exactPrefix[s + 1];
        const std::vector<std::int64_t>& next = t.states[s + 1];
        const Table::SlotAt slot = t.slotAt[static_cast<std::size_t>(s)];
        const std::uint32_t* runsAt = t.runsAt.data() + slot.entries + at;
        const std::uint32_t begin = runsAt[0];
        if (begin & kScannedCount) {
            const SlotPick pick = decodeSlot(t, t.exactPrefix, u, s, N, x);
            out[s * stride] = LoopFactor{pick.bound, pick.residual};
            N = pick.next;
            at = static_cast<std::size_t>(std::lower_bound(next.begin(), next.end(), N) - next.begin());
            continue;
        }
        const auto runs = t.runs.begin() + slot.runs;
        const auto first = runs + begin, last = runs + (runsAt[1] & ~kScannedCount);
        if (first == last) {  // unreachable for a positive count
            out[s * stride] = LoopFactor{1, 1};
            continue;
        }
        // The bound: the first run whose weights so far pass x; then its state by the sums.
        auto run = std::upper_bound(first, last, x, [](std::uint64_t v, const Table::BoundRun& r) { return v < r.upTo; });
        if (run == last) --run;  // (x is below the weight of N: unreachable)
        x -= run == first ? 0 : (run - 1)->upTo;
        const std::uint64_t base = run->from == 0 ? 0 : prefix[run->from - 1];
        auto i = static_cast<std::size_t>(std::upper_bound(prefix.begin() + run->from, prefix.begin() + run->to, x + base) - prefix.begin());
        if (i >= run->to) i = run->to - 1;
        x = x + base - (i == 0 ? 0 : prefix[i - 1]);
        const std::int64_t n = next[i];
        const std::int64_t P = run->bound == 0 ? n : run->bound;  // (0: the canonical N = 1 run)
        out[s * stride] = LoopFactor{P, n - (N - 1) * P};
        N = n;
        at = i;
    }
}

void DimensionFactorizer::decode(const Table& t, const std::vector<std::int64_t>& u, long double x, LoopFactor* out,
                                 int stride) const
{
    if (!t.exactPrefix.empty() && x >= 0.0L)  // x < count() < 2^63: an integer it holds exactly
        decode(t, u, static_cast<std::uint64_t>(x), out, stride);
    else
        decodeWith<long double>(t, t.prefix, u, x, out, stride);
}

void DimensionFactorizer::decode(const Table& t, const std::vector<std::int64_t>& u, std::uint64_t x, LoopFactor* out,
                                 int stride) const
{
    if (!t.runsAt.empty())
        decodeIndexed(t, u, x, out, stride);
    else if (!t.exactPrefix.empty())
        decodeWith<std::uint64_t>(t, t.exactPrefix, u, x, out, stride);
    else
        decodeWith<long double>(t, t.prefix, u, static_cast<long double>(x), out, stride);
}

template <class Count>
void DimensionFactorizer::decodeWith(const Table& t, const std::vector<std::vector<Count>>& prefix, const std::vector<std::int64_t>& u,
                                     Count x, LoopFactor* out, int stride) const
{
    std::int64_t N = 1;
    for (int s = 0; s < numSlots(); ++s) {
        const SlotPick pick = decodeSlot(t, prefix, u, s, N, x);
        out[s * stride] = LoopFactor{pick.bound, pick.residual};
        N = pick.next;
    }
}

template <class Count>
DimensionFactorizer::SlotPick DimensionFactorizer::decodeSlot(const Table& t, const std::vector<std::vector<Count>>& prefix,
                                                              const std::vector<std::int64_t>& u, int s, std::int64_t N, Count& x) const
{
    const Count zero{0};
    auto weight = [&](int slot, std::size_t i) { return prefix[slot][i] - (i ? prefix[slot][i - 1] : zero); };
    const std::int64_t D = size_;
    {
        const int ns = s + 1;
        const std::vector<std::int64_t>& next = t.states[ns];
        std::int64_t lo, hi;
        range(s, u, lo, hi);
        std::int64_t bestP = -1, bestR = -1, bestN = -1;  // last candidate with weight (rounding fallback)
        bool chosen = false;
        // Candidates in the order of increasing P, then R; zero weights are skipped, so the
        // index maps to the same factors as a scan over every P and R would.
        auto take = [&](std::int64_t P, std::int64_t R, std::int64_t n2, Count w) {
            if (w <= zero) return false;
            bestP = P, bestR = R, bestN = n2;
            if (x < w) return chosen = true;
            x -= w;
            return false;
        };
        // The states in ((N-1) P, N P], R ascending.
        auto takeRemainders = [&](std::int64_t P) {
            const std::int64_t base = (N - 1) * P, top = std::min(N * P, D);
            for (std::size_t i = t.firstAbove(ns, base); i < next.size() && next[i] <= top && !chosen; ++i)
                take(P, next[i] - base, next[i], weight(ns, i));
        };
        if (lo > hi) {
            // no candidate: unreachable for a positive count
        } else if (N == 1) {
            for (std::size_t i = t.firstAbove(ns, lo - 1); i < next.size() && next[i] <= hi; ++i)
                if (take(next[i], next[i], next[i], weight(ns, i))) break;
        } else if (!slots_[s].imperfect) {
            const std::int64_t top = std::min(hi, D / N);
            if (lo <= top)
                for (std::size_t i = t.firstAbove(ns, N * lo - 1); i < next.size() && next[i] <= N * top; ++i)
                    if (next[i] % N == 0 && take(next[i] / N, next[i] / N, next[i], weight(ns, i))) break;
        } else {
            const std::int64_t pmax = std::min(hi, (D - 1) / (N - 1));
            if (lo <= pmax && pmax - lo < kLinearScanBounds) {
                // Bound P takes the states in ((N-1) P, min(N P, D)]: both ends rise with P, so two
                // cursors follow them (a search per end and bound showed in random sampling).
                std::size_t from = t.firstAbove(ns, (N - 1) * lo), to = t.firstAbove(ns, std::min(N * lo, D));
                auto before = [&](std::size_t i) { return i == 0 ? zero : prefix[ns][i - 1]; };
                for (std::int64_t P = lo; P <= pmax && !chosen; ++P) {
                    while (from < next.size() && next[from] <= (N - 1) * P) ++from;
                    while (to < next.size() && next[to] <= std::min(N * P, D)) ++to;
                    const Count w = before(to) - before(from);
                    if (w <= zero) continue;
                    if (x >= w) {
                        x -= w;
                        const std::size_t last = to - 1;
                        bestP = P, bestR = next[last] - (N - 1) * P, bestN = next[last];
                        continue;
                    }
                    takeRemainders(P);
                    if (!chosen) break;  // rounding: keep the last candidate
                }
            } else if (lo <= pmax) {
                // W(P), the weight of the bounds lo..P, is piecewise linear: state n adds its
                // weight for each P in [a_n, b_n] (those with ceil(n / P) == N). Sweeping the
                // a's and b's, both ascending in n, finds the P where x falls in one pass.
                const std::size_t first = t.firstAbove(ns, (N - 1) * lo), last = t.firstAbove(ns, std::min(N * pmax, D));
                auto from = [&](std::size_t i) { return std::max(lo, (next[i] + N - 1) / N); };
                auto to = [&](std::size_t i) { return std::min(pmax, (next[i] - 1) / (N - 1)); };
                std::size_t ia = first, ib = first;
                auto skipEmpty = [&](std::size_t& i) {
                    while (i < last && from(i) > to(i)) ++i;
                };
                skipEmpty(ia);
                skipEmpty(ib);
                Count slope = zero, below = zero;  // below = W(cur - 1)
                std::int64_t cur = lo, pick = -1, lastBound = -1;
                while (ia < last || ib < last) {
                    const std::int64_t event = ia < last ? std::min(from(ia), to(ib) + 1) : to(ib) + 1;
                    if (slope > zero && event > cur) {
                        const Count span = slope * static_cast<Count>(event - cur);
                        if (below + span > x) {
                            std::int64_t k = static_cast<std::int64_t>(floorQuotient(x - below, slope));
                            k = std::clamp<std::int64_t>(k, 0, event - cur - 1);
                            while (k > 0 && below + slope * static_cast<Count>(k) > x) --k;
                            while (k + 1 < event - cur && below + slope * static_cast<Count>(k + 1) <= x) ++k;
                            pick = cur + k;
                            x -= below + slope * static_cast<Count>(k);
                            break;
                        }
                        below += span;
                        lastBound = event - 1;
                    }
                    cur = event;
                    for (; ia < last && from(ia) == cur; skipEmpty(++ia)) slope += weight(ns, ia);
                    for (; ib < last && to(ib) + 1 == cur; skipEmpty(++ib)) slope -= weight(ns, ib);
                }
                if (pick < 0 && lastBound >= lo) pick = lastBound;  // rounding beyond 2^64: the last bound
                if (pick >= 0) takeRemainders(pick);
            }
        }
        if (bestP < 0) bestP = bestR = 1, bestN = N;  // unreachable for a positive count
        return {bestP, bestR, bestN};
    }
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
