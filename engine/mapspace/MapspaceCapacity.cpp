// Mapspace::exceedsCapacity: the capacity check of evaluate() (fillCapacities in
// engine/model/Model.cpp), made on a point's factors without building its mapping or nest; and
// the bound randomCandidate gives up by, with the order it decodes the dimensions in.
// Slots lie outermost first in the nest's own order (per level: temporal, spatial Y, spatial
// X), so a loop's stride is the product of its dimension's bounds in the slots after it.
#include "mapspace/Mapspace.h"

#include <algorithm>
#include <array>
#include <random>

namespace nestor {

void Mapspace::extentsOfDimension(const MapspacePoint& p, int d, std::array<std::int64_t, 64>& ext) const
{
    const int L = a_.numLevels(), D = w_.numDims(), S = numSlots();
    const LoopFactor* f = p.factors.data() + d;  // slot s's factor of the dimension at f[s * D]
    // The dimension spans its full extent below level i when one of its loops above i runs more
    // than one residual trip, i.e. below the level of the outermost such loop; else every loop of
    // it above is at its last iteration.
    int fullBelow = L;
    for (int s = 0; s < S; ++s)
        if (f[static_cast<std::size_t>(s) * D].residual > 1) {
            fullBelow = slots_[static_cast<std::size_t>(s)].level;
            break;
        }
    // Innermost slot first: the extents of its loops at and below each level, full and with every
    // loop at its residual iteration (stride = product of the inner bounds).
    std::int64_t full = 1, residual = 1, stride = 1;
    for (int i = L - 1; i >= 0; --i) {
        for (int s = levelSlots_[static_cast<std::size_t>(i) + 1] - 1; s >= levelSlots_[static_cast<std::size_t>(i)]; --s) {
            const LoopFactor& x = f[static_cast<std::size_t>(s) * D];
            if (x.bound == 1) continue;
            full += (x.bound - 1) * stride;
            residual += (x.residual - 1) * stride;
            stride *= x.bound;
        }
        ext[i] = i > fullBelow ? full : residual;
    }
}

bool Mapspace::exceedsCapacity(const MapspacePoint& p) const
{
    if (capacityLevels_.empty()) return false;  // nothing to outgrow (or beyond the model's tables: evaluate() decides)
    const int D = w_.numDims();
    std::array<std::array<std::int64_t, 32>, 64> extAt;  // [level][dimension]
    std::array<std::int64_t, 64> column;
    for (int d = 0; d < D; ++d) {
        extentsOfDimension(p, d, column);
        for (const CapacityLevel& level : capacityLevels_) extAt[level.level][d] = column[level.level];
    }
    for (const CapacityLevel& level : capacityLevels_) {
        const std::int64_t* ext = extAt[level.level].data();
        auto words = [&](int t) {
            std::int64_t n = 1;
            for (const auto& rank : w_.tensors[t].ranks) n *= rankExtent(rank, ext);
            return n;
        };
        std::int64_t used = 0;
        for (int t : level.tensors) used += words(t);
        for (const auto& [t, bit] : level.freeTensors)
            if (((p.keepBits >> bit) & 1u) == 0) used += words(t);  // as toMapping() keeps it
        if (used > level.words) return true;
    }
    return false;
}

// The levels a point's tiles can outgrow, with the tensors each keeps whatever the keep choices
// and those it keeps by choice (their keep bits). randomCandidate's bound counts only the
// former and only grows as dimensions come in where every rank's coefficients are positive;
// otherwise there is no bound (randomCandidate decodes every candidate whole).
void Mapspace::buildCapacityLevels()
{
    capacityLevels_.clear();
    termsOfDim_.assign(static_cast<std::size_t>(w_.numDims()), {});
    maxRanks_ = 0;
    boundable_ = false;
    const int L = a_.numLevels(), D = w_.numDims(), T = w_.numTensors();
    if (L > 64 || D > 32) return;  // beyond exceedsCapacity's tables
    std::vector<std::vector<int>> freeBit(L, std::vector<int>(T, -1));
    for (std::size_t b = 0; b < freeKeeps_.size(); ++b) freeBit[freeKeeps_[b].first][freeKeeps_[b].second] = static_cast<int>(b);
    for (int i = L - 1; i >= 0; --i) {  // innermost first
        const auto words = a_.levels[i].effectiveSizeWords();
        if (!words) continue;
        CapacityLevel level;
        level.level = i;
        level.words = *words;
        for (int t = 0; t < T; ++t) {
            if (freeBit[i][t] >= 0) level.freeTensors.emplace_back(t, freeBit[i][t]);
            else if (fixedKeep_[i][t] == 1) level.tensors.push_back(t);
        }
        if (level.tensors.empty() && level.freeTensors.empty()) continue;  // keeps nothing: nothing to outgrow
        boundable_ = boundable_ || !level.tensors.empty();
        capacityLevels_.push_back(std::move(level));
    }
    for (int t = 0; t < T; ++t) {
        const auto& ranks = w_.tensors[t].ranks;
        maxRanks_ = std::max(maxRanks_, static_cast<int>(ranks.size()));
        for (std::size_t r = 0; r < ranks.size(); ++r)
            for (const auto& term : ranks[r]) {
                if (term.coef < 0) boundable_ = false;
                termsOfDim_[term.dim].push_back({t, static_cast<int>(r), term.coef});
            }
    }
}

bool Mapspace::outgrowsCapacity(const MapspacePoint& p, int d, std::vector<std::int64_t>& rankSums) const
{
    const int T = w_.numTensors();
    std::array<std::int64_t, 64> ext;
    extentsOfDimension(p, d, ext);
    for (std::size_t c = 0; c < capacityLevels_.size(); ++c) {
        const CapacityLevel& level = capacityLevels_[c];
        const std::int64_t grown = ext[level.level] - 1;
        if (grown == 0 || level.tensors.empty()) continue;  // as it was, or nothing kept whatever the choices
        std::int64_t* sums = rankSums.data() + c * static_cast<std::size_t>(T * maxRanks_);
        for (const DimensionTerm& term : termsOfDim_[d]) sums[term.tensor * maxRanks_ + term.rank] += term.coef * grown;
        std::int64_t used = 0;
        for (int t : level.tensors) {
            std::int64_t words = 1;
            for (std::size_t r = 0; r < w_.tensors[t].ranks.size(); ++r) words *= sums[t * maxRanks_ + static_cast<int>(r)];
            used += words;
        }
        if (used > level.words) return true;
    }
    return false;
}

void Mapspace::buildDecodeOrder()
{
    const int D = w_.numDims();
    decodeOrder_.resize(static_cast<std::size_t>(D));
    for (int d = 0; d < D; ++d) decodeOrder_[static_cast<std::size_t>(d)] = d;
    // (a dimension without tables builds one per decode: too slow to sample)
    if (!boundable_ || std::any_of(dims_.begin(), dims_.end(), [](const DimSpace& ds) { return ds.tables.empty(); })) return;
    // Any order gives the same candidates; this one only gives up sooner. The sample is drawn with
    // its own fixed seed, so the order is the same on every run.
    constexpr int kSample = 256;
    std::mt19937_64 rng(0x5eed0de5u);
    std::vector<MapspacePoint> sample(kSample);
    for (MapspacePoint& p : sample) drawFactorization(rng, false, p);
    const std::size_t sumsSize = capacityLevels_.size() * static_cast<std::size_t>(w_.numTensors() * maxRanks_);
    std::vector<std::vector<std::int64_t>> sums(kSample, std::vector<std::int64_t>(sumsSize, 1));
    std::vector<bool> givenUp(kSample, false);
    // A decode costs about the states its tables hold (tuples averaged).
    std::vector<double> cost(static_cast<std::size_t>(D), 0.0);
    for (int d = 0; d < D; ++d) {
        const DimSpace& ds = dims_[static_cast<std::size_t>(d)];
        for (const DimensionFactorizer::Table& t : ds.tables)
            for (const auto& states : t.states) cost[static_cast<std::size_t>(d)] += static_cast<double>(states.size());
        cost[static_cast<std::size_t>(d)] /= static_cast<double>(ds.tables.size());
    }
    std::vector<int> left = decodeOrder_;
    std::vector<std::int64_t> trial;
    decodeOrder_.clear();
    while (!left.empty()) {
        std::size_t best = 0;
        double bestRate = -1.0;
        for (std::size_t i = 0; i < left.size(); ++i) {
            int count = 0;
            for (int k = 0; k < kSample; ++k) {
                if (givenUp[k]) continue;
                trial = sums[k];
                if (outgrowsCapacity(sample[k], left[i], trial)) ++count;
            }
            const double rate = count / cost[static_cast<std::size_t>(left[i])];
            if (rate > bestRate) bestRate = rate, best = i;
        }
        const int d = left[best];
        for (int k = 0; k < kSample; ++k)
            if (!givenUp[k] && outgrowsCapacity(sample[k], d, sums[k])) givenUp[k] = true;
        decodeOrder_.push_back(d);
        left.erase(left.begin() + static_cast<std::ptrdiff_t>(best));
    }
}

} // namespace nestor
