#pragma once
// Runs a named search algorithm over a mapspace on N threads (std::thread). Every candidate
// is scored by nestor::evaluate. Per thread, Timeloop's termination rules apply:
//   victory      `victoryCondition` consecutive valid mappings that do not improve (0 = off);
//   timeout      `timeout` consecutive invalid mappings; as in Timeloop master since commit
//                7b91fa2 the test is `invalid > 0 && invalid >= timeout`, so 0 stops at the
//                first invalid mapping;
//   search size  `searchSize` valid mappings in all, divided among threads (0 = off);
//   budget       `evaluationBudget` evaluated candidates in all, divided among threads (0 = off);
//   exhausted    the algorithm has nothing left.
// Exhaustive search ignores victory and timeout. Each thread searches on its own (no
// sharing) and the best of all threads, taken in thread order, is the result: the same seed
// and thread count give the same result. The cancel flag is polled before every evaluation;
// the search then returns the best so far. The observer is called only on the caller's
// thread (about every 50 ms and at the end).
#include "mapspace/Mapspace.h"
#include "model/Model.h"
#include "search/EvaluatedSet.h"
#include "search/SearchMetric.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

struct SearchOptions {
    std::string algorithm = "annealing";
    int threads = 1;
    std::uint64_t seed = 1;
    std::vector<SearchMetric> metrics{SearchMetric::Edp};
    double tieTolerance = kDefaultTieTolerance;
    std::int64_t searchSize = 0;
    std::int64_t evaluationBudget = 0;
    std::int64_t victoryCondition = 500;
    std::int64_t timeout = 1000;
    int maxOrdersPerVisit = 16;
    // Valid mappings kept as a uniform sample of everything evaluated (for a scatter plot),
    // in all, divided among threads; 0 = none. The energy-delay front is always kept.
    int scatterSize = 0;
    ModelOptions model;
};

struct SearchCurvePoint {
    std::int64_t evaluated = 0;  // candidates evaluated (all threads) when the best improved
    double value = 0.0;          // first metric of the new best
};

struct SearchProgress {
    std::int64_t evaluated = 0;
    std::int64_t valid = 0;
    bool hasBest = false;
    double best = 0.0;           // first metric of the best so far
    double seconds = 0.0;
};

class SearchObserver {
public:
    virtual ~SearchObserver() = default;
    virtual void onProgress(const SearchProgress&) {}
    virtual void onImprovement(const SearchCurvePoint&) {}
};

struct SearchResult {
    bool found = false;
    Mapping best;
    Evaluation bestEvaluation;
    MapspacePoint bestPoint;
    std::vector<double> bestMetrics;
    std::int64_t evaluated = 0;
    std::int64_t valid = 0;
    bool cancelled = false;
    std::vector<std::string> stopReasons;      // per thread
    std::vector<SearchCurvePoint> curve;       // best so far (exact order only with one thread)
    // Every valid mapping evaluated that no other one beats in both energy and cycles, by
    // cycles; and the scatter sample (options.scatterSize).
    std::vector<EvaluatedPoint> energyDelayFront;
    std::vector<EvaluatedPoint> scatter;
    double seconds = 0.0;
};

// Throws NestorError for an unknown algorithm or a thread count below 1.
SearchResult runSearch(const Mapspace& space, const SearchOptions& opt, SearchObserver* observer = nullptr,
                       const std::atomic<bool>* cancel = nullptr);

} // namespace nestor
