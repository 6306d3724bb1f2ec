#pragma once
// Ranking of evaluated mappings by an ordered metric list (Timeloop's optimization_metrics):
// a metric decides only when the relative difference exceeds the tolerance (0.1% by default);
// otherwise the next metric is consulted; when none differs by more, the candidate wins iff it
// is strictly better on the first metric (an exact tie keeps the incumbent).
#include "model/Evaluation.h"

#include <optional>
#include <string>
#include <vector>

namespace nestor {

enum class SearchMetric { Edp, Energy, Delay, LastLevelAccesses };

std::string searchMetricName(SearchMetric m);  // "edp", "energy", "delay", "last-level-accesses"
std::optional<SearchMetric> parseSearchMetric(const std::string& name);
// "edp,energy" -> list; throws NestorError on an unknown name or an empty list.
std::vector<SearchMetric> parseSearchMetrics(const std::string& commaSeparated);

// Smaller is better for every metric. Last-level accesses: reads + fills + updates of all
// tensors at the outermost level (the backing store).
double metricValue(SearchMetric m, const Evaluation& ev);
std::vector<double> metricValues(const std::vector<SearchMetric>& ms, const Evaluation& ev);
// Same, into `out` (its storage reused: the search calls this once per valid candidate).
void metricValues(const std::vector<SearchMetric>& ms, const Evaluation& ev, std::vector<double>& out);

constexpr double kDefaultTieTolerance = 0.001;

// True when `candidate` beats `incumbent` (both in the same metric order).
bool isBetter(const std::vector<double>& candidate, const std::vector<double>& incumbent,
              double relativeTolerance = kDefaultTieTolerance);

} // namespace nestor
