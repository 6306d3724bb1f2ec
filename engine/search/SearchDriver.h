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
//
// No exception escapes a search thread: the first one (out of memory, a failing evaluation)
// stops the other threads, and runSearch throws it as a NestorError after joining them all,
// as it does when a thread cannot be started.
#include "mapspace/Mapspace.h"
#include "model/Model.h"
#include "search/EvaluatedSet.h"
#include "search/SearchMetric.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace nestor {

class SearchAlgorithm;
struct SearchContext;

// The most search threads runSearch starts. Fixed, not tied to this machine's cores: a seed
// and thread count that ran on a large machine must replay anywhere.
constexpr int kMaxSearchThreads = 256;

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
    // A strategy that is not in the registry (then `algorithm` only names it in reports).
    std::function<std::unique_ptr<SearchAlgorithm>(const SearchContext&)> algorithmFactory;
};

struct SearchCurvePoint {
    std::int64_t evaluated = 0;  // candidates evaluated (all threads) when the best improved
    double value = 0.0;          // first metric of the new best
};

struct SearchProgress {
    std::int64_t evaluated = 0;
    std::int64_t valid = 0;
    std::int64_t overBudget = 0;  // skipped: their exact evaluation exceeds ModelOptions' budgets
    std::int64_t overCapacity = 0;  // invalid: a level's tiles outgrow its capacity
    std::int64_t belowUtilization = 0;  // invalid: below the mapspace's minimum utilization
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
    // Candidates skipped because their exact evaluation exceeds the model's budgets
    // (ModelOptions::exactMemoryBudgetMB / exactWorkBudget); counted as invalid by the search.
    std::int64_t overBudget = 0;
    // Invalid candidates by cause: some level's tiles outgrow its capacity (Mapspace::exceedsCapacity,
    // the model's own check), or the mapping is below the constraints' minimum utilization.
    std::int64_t overCapacity = 0;
    std::int64_t belowUtilization = 0;
    bool cancelled = false;
    std::vector<std::string> stopReasons;      // per thread
    std::vector<SearchCurvePoint> curve;       // best so far (exact order only with one thread)
    // Every valid mapping evaluated that no other one beats in both energy and cycles, by
    // cycles; and the scatter sample (options.scatterSize).
    std::vector<EvaluatedPoint> energyDelayFront;
    std::vector<EvaluatedPoint> scatter;
    double seconds = 0.0;
};

// The rules that stopped the threads, each once, in the order met: "victory, search size".
std::string stopReasonsText(const SearchResult& r);

// Throws NestorError for an unknown algorithm, a thread count outside [1, kMaxSearchThreads],
// a thread that cannot be started or a search thread that failed (see above).
SearchResult runSearch(const Mapspace& space, const SearchOptions& opt, SearchObserver* observer = nullptr,
                       const std::atomic<bool>* cancel = nullptr);

} // namespace nestor
