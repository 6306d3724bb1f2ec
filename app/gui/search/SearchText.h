#pragma once
// The words a search's progress and outcome are shown in (Jobs dock, status line, table).
#include "SearchJob.h"
#include "common/Job.h"

#include <QString>

namespace nestor::app {

// "1.23e-05 J·s", "4.5 µJ", "1,234" for a value of `metric`.
QString searchMetricValueText(SearchMetric metric, double value);
// "12,000 evaluated, 9,800 valid, best 1.2e-05 J·s, 0.4 s" and the fraction of the budget done.
JobProgress searchJobProgress(const SearchOptions& options, const SearchProgress& progress);
// "20,000 evaluated in 0.41 s; best 1.2e-05 J·s" (with "(cancelled)"), or "failed: ...".
QString searchOutcomeSummary(const SearchOutcome& outcome);

} // namespace nestor::app
