#pragma once
// The counts of a step trace summed from step 0 through a target step, for the "so far" part of
// the Dataflow tab's counts line. StepTrace::countWindow costs time proportional to the window,
// so the sum starts from the last known sum when that is closer (adding the steps after it, or
// subtracting the steps after the target), and runs in chunks that poll the job's cancel flag
// and report progress. Runs on a worker thread (no Qt).
#include "common/Job.h"
#include "trace/StepTrace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace nestor::app {

struct KnownTotals {
    std::int64_t through = -1;                  // counts over steps [0, through]; -1 = none known
    std::vector<trace::TensorCounts> counts;
};

constexpr std::int64_t kTotalsChunkSteps = 256;

// Counts over [0, target]; nullopt when the job was cancelled.
std::optional<std::vector<trace::TensorCounts>> totalsThrough(const trace::StepTrace& t, std::int64_t target,
                                                              const KnownTotals& known, JobContext& job);

} // namespace nestor::app
