#pragma once
// Counting the distinct words of a tensor that one instance ever holds: per dimension the set
// of covered positions (a union of intervals), per rank the size of the Minkowski sum of
// coef x positions over its terms, multiplied over ranks.
#include "workload/Workload.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace nestor::model {

using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;  // sorted, disjoint [lo, hi)

// Sorted and merged (overlapping or touching intervals joined).
Intervals mergeIntervals(Intervals v);
// The same in v itself (no allocation: v keeps its storage).
void mergeIntervalsInPlace(Intervals& v);
// Intervals of a position bitmap (1 = covered).
Intervals intervalsOf(const std::vector<std::uint8_t>& covered);
// {p + i * stride : p in base, 0 <= i < trips}, merged.
Intervals replicate(const Intervals& base, std::int64_t stride, std::int64_t trips);
// Distinct values of sum_terms coef * x_dim with x_dim in positions[dim].
std::int64_t countRankValues(const RankExpression& rank, const std::vector<Intervals>& positions);

} // namespace nestor::model
