#pragma once
// Counting, decoding and sampling the factorizations of ONE dimension across the loop slots
// of a mapspace (outermost slot first), following the Ruby recursion
//   L_n = L_{n+1} P_n + R_n - 1   (base L = 0 above the outermost slot, L = D - 1 at the end)
// with N = L + 1 tiles: a perfect slot maps N -> N*P, an imperfect one N -> (N-1)*P + R with
// 1 <= R <= P. While N == 1 (no outer loop has iterated more than once) a remainder would be
// indistinguishable from a smaller bound, so the slot is canonical there: R = P.
//
// Spatial slot bounds are given (the caller couples them across dimensions). Counts are a
// backward dynamic program over the tile counts that can still complete the dimension: the
// divisors of D for perfect slots, and for imperfect ones the quotients ceil(n / P) of those
// (N -> n exactly when ceil(n / P) == N), which take O(sqrt n) distinct values. Tables are
// sized by those states, never by D: D = 2^31 - 1 costs a handful of entries. Counts are long
// double: exact below 2^64.
#include "mapspace/MapspaceBuild.h"

#include <cstdint>
#include <cstddef>
#include <random>
#include <vector>

namespace nestor {

struct LoopFactor {
    std::int64_t bound = 1;
    std::int64_t residual = 1;
};

struct FactorSlotSpec {
    bool imperfect = false;     // remainders allowed in this slot
    int spatialIndex = -1;      // >= 0: bound taken from the spatial tuple
    std::int64_t lo = 1;        // bound range for temporal slots
    std::int64_t hi = 1;
};

class DimensionFactorizer {
public:
    // Per slot s (0..slots) the tile counts N from which slots s.. complete the dimension
    // (ascending; states[slots] = {D}) and running sums of their completion counts.
    struct Table {
        std::vector<std::vector<std::int64_t>> states;
        std::vector<std::vector<long double>> prefix;  // prefix[s][i] = sum_{j <= i} completions(states[s][j])
        // The same sums as integers, when every one is below 2^63 (empty otherwise): decoding
        // then runs in integer arithmetic, exact and several times faster than in long double.
        std::vector<std::vector<std::uint64_t>> exactPrefix;
        // Per slot s and tile count N = states[s][i], its bound candidates P with a weight, in
        // the order decoding scans them (N = 1: one run of bound 0 over the states P = R = n may
        // reach). Built by indexBounds() on exactPrefix (empty where it was not built): an index
        // then finds its bound and residual by two binary searches instead of a scan over the
        // bounds. A count N with more than kMaxRunsPerCount candidates has kScannedCount set in
        // its entry and no runs: it is scanned.
        struct BoundRun {
            std::int64_t bound = 0;
            std::uint64_t upTo = 0;     // the weights of N's runs before it and its own
            std::uint32_t from = 0, to = 0;  // its states: states[s + 1][from, to)
        };
        // Where slot s's entries start in runsAt and its runs in runs. Its entries: per count,
        // the first of its runs, then the end of the slot's runs, counted from the slot's first
        // run (so a slot copied from another table keeps its entries as they are).
        struct SlotAt {
            std::uint32_t entries = 0, runs = 0;
        };
        std::vector<SlotAt> slotAt;
        std::vector<std::uint32_t> runsAt;
        std::vector<BoundRun> runs;
        long double count() const { return upTo(0, 1); }
        long double weight(int s, std::size_t i) const { return prefix[s][i] - (i ? prefix[s][i - 1] : 0.0L); }
        long double upTo(int s, std::int64_t n) const;  // sum of the completions of the states <= n
        std::size_t firstAbove(int s, std::int64_t n) const;  // index of the first state > n
        std::size_t bytes() const;
    };

    DimensionFactorizer() = default;
    DimensionFactorizer(std::int64_t size, std::vector<FactorSlotSpec> slots);

    std::int64_t size() const { return size_; }
    int numSlots() const { return static_cast<int>(slots_.size()); }
    // `guard` (optional) counts the work and polls the cancel flag. The slots inside the
    // innermost spatial one do not depend on the tuple: with `sameSuffix` (a table of another
    // tuple) their rows are copied from it, not recomputed.
    Table table(const std::vector<std::int64_t>& spatialTuple, MapspaceBuildGuard* guard = nullptr,
                const Table* sameSuffix = nullptr) const;
    // Builds t's bound index (Table::runs) when t decodes in integers; false (and no index)
    // otherwise. At most maxRunsPerCount runs per tile count (by default kMaxRunsPerCount: the
    // index stays within a small multiple of the table's own size), and false (no index) past
    // maxRuns runs in all, or as many bounds looked at.
    static constexpr std::size_t kMaxRunsPerCount = 64;
    static constexpr std::uint32_t kScannedCount = std::uint32_t{1} << 31;
    // `sameSuffix`: an indexed table of another tuple, whose runs of the slots no spatial bound
    // changes are copied (indexed with the same maxRunsPerCount).
    bool indexBounds(Table& t, const std::vector<std::int64_t>& spatialTuple, const Table* sameSuffix = nullptr,
                     std::size_t maxRunsPerCount = kMaxRunsPerCount, std::size_t maxRuns = SIZE_MAX) const;
    static void dropBoundIndex(Table& t);
    // Writes (bound, residual) of every slot to out[slot * stride] for index x in [0, count).
    void decode(const Table& t, const std::vector<std::int64_t>& spatialTuple, long double x, LoopFactor* out,
                int stride) const;
    // Same, for an index held as an integer (in integer arithmetic where the table allows).
    void decode(const Table& t, const std::vector<std::int64_t>& spatialTuple, std::uint64_t x, LoopFactor* out,
                int stride) const;

private:
    // decode() in the arithmetic of Count (std::uint64_t on exactPrefix, long double on prefix).
    template <class Count>
    void decodeWith(const Table& t, const std::vector<std::vector<Count>>& prefix, const std::vector<std::int64_t>& spatialTuple,
                    Count x, LoopFactor* out, int stride) const;
    // decode() through the bound index.
    void decodeIndexed(const Table& t, const std::vector<std::int64_t>& spatialTuple, std::uint64_t x, LoopFactor* out,
                       int stride) const;
    // One slot of decodeWith from N tiles: its bound, residual and the tiles after it (x: the
    // index left, reduced to the one within the pick).
    struct SlotPick {
        std::int64_t bound = 1, residual = 1, next = 1;
    };
    template <class Count>
    SlotPick decodeSlot(const Table& t, const std::vector<std::vector<Count>>& prefix, const std::vector<std::int64_t>& spatialTuple,
                        int s, std::int64_t N, Count& x) const;
    void range(int s, const std::vector<std::int64_t>& u, std::int64_t& lo, std::int64_t& hi) const;
    std::int64_t size_ = 1;
    std::vector<FactorSlotSpec> slots_;
    int tupleFreeFrom_ = 0;  // slots from here on have no spatial bound
};

// Uniform index in [0, n): an integer draw when n < 2^63, a real draw otherwise.
long double uniformIndex(std::mt19937_64& rng, long double n);

} // namespace nestor
