#pragma once
// Pareto fronts of points with two or more objectives, all minimized (e.g. area vs EDP,
// energy vs delay). A point is on the front when no other point is at least as good in every
// objective and strictly better in one. Duplicates of a front point are all on the front.
#include <cstddef>
#include <vector>

namespace nestor {

// Indices of the non-dominated points, in input order. Every point must have the same
// number of objectives.
std::vector<std::size_t> paretoFront(const std::vector<std::vector<double>>& points);

bool dominates(const std::vector<double>& a, const std::vector<double>& b);

} // namespace nestor
