#pragma once
// One search strategy, Timeloop style: next() proposes a point, report() tells how it scored.
// Each search thread owns one instance; the driver (SearchDriver.h) evaluates every point with
// nestor::evaluate, keeps the best and applies the termination rules.
#include "mapspace/Mapspace.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace nestor {

struct SearchContext {
    const Mapspace* space = nullptr;
    int threadId = 0;
    int threads = 1;
    std::uint64_t seed = 1;
    int maxOrdersPerVisit = 16;  // random-pruned / hybrid: loop orders tried per factorization
};

class SearchAlgorithm {
public:
    virtual ~SearchAlgorithm() = default;
    // The next point to evaluate; false when this thread's part of the space is exhausted.
    virtual bool next(MapspacePoint& p) = 0;
    // The last point was valid (or not); cost = log of the first metric (when valid);
    // improved = it became this thread's best.
    virtual void report(bool valid, double cost, bool improved) = 0;
    // Exhaustive search ignores the victory and timeout rules.
    virtual bool usesTerminationRules() const { return true; }
};

// Timeloop's split of the factorization space across threads: thread t visits indices
// t, t + threads, t + 2 threads, ...; the per-thread random streams derive from (seed, t).
std::uint64_t threadSeed(std::uint64_t seed, int threadId);

struct SearchAlgorithmInfo {
    std::string name;
    std::string description;
    std::function<std::unique_ptr<SearchAlgorithm>(const SearchContext&)> create;
};

// "exhaustive", "random", "random-pruned", "hybrid", "annealing"
const std::vector<SearchAlgorithmInfo>& searchAlgorithms();
const SearchAlgorithmInfo* findSearchAlgorithm(const std::string& name);

} // namespace nestor
