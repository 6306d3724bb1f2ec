#pragma once
// Counting, decoding and sampling the factorizations of ONE dimension across the loop slots
// of a mapspace (outermost slot first), following the Ruby recursion
//   L_n = L_{n+1} P_n + R_n - 1   (base L = 0 above the outermost slot, L = D - 1 at the end)
// with N = L + 1 tiles: a perfect slot maps N -> N*P, an imperfect one N -> (N-1)*P + R with
// 1 <= R <= P. While N == 1 (no outer loop has iterated more than once) a remainder would be
// indistinguishable from a smaller bound, so the slot is canonical there: R = P.
//
// Spatial slot bounds are given (the caller couples them across dimensions); counts are
// backward dynamic programs with prefix sums, O(slots * D log D) per spatial tuple. Counts are
// long double: exact below 2^64.
#include <cstdint>
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
    // prefix[s][N] = sum_{k <= N} (completions from slot s with N tiles so far)
    struct Table {
        std::vector<std::vector<long double>> prefix;
        long double count() const { return prefix[0][1] - prefix[0][0]; }
    };

    DimensionFactorizer() = default;
    DimensionFactorizer(std::int64_t size, std::vector<FactorSlotSpec> slots);

    std::int64_t size() const { return size_; }
    int numSlots() const { return static_cast<int>(slots_.size()); }
    Table table(const std::vector<std::int64_t>& spatialTuple) const;
    // Writes (bound, residual) of every slot to out[slot * stride] for index x in [0, count).
    void decode(const Table& t, const std::vector<std::int64_t>& spatialTuple, long double x, LoopFactor* out,
                int stride) const;

private:
    void range(int s, const std::vector<std::int64_t>& u, std::int64_t& lo, std::int64_t& hi) const;
    // When every slot after the current one is perfect, only tile counts dividing the size can
    // complete: those that are multiples of N (ascending), or null when N itself does not divide it.
    const std::vector<std::int64_t>* completingCounts(std::int64_t N) const;
    std::int64_t size_ = 1;
    std::vector<FactorSlotSpec> slots_;
    std::vector<std::int64_t> divisors_;  // of size_, ascending
    std::vector<std::vector<std::int64_t>> multiples_;  // [i]: the divisors that divisors_[i] divides
    std::vector<char> perfectAfter_;      // every slot after s is perfect: tile counts divide size_
};

// Uniform index in [0, n): an integer draw when n < 2^63, a real draw otherwise.
long double uniformIndex(std::mt19937_64& rng, long double n);

} // namespace nestor
