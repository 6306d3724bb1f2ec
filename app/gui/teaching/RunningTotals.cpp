#include "RunningTotals.h"

#include <algorithm>

namespace nestor::app {

namespace {
void add(std::vector<trace::TensorCounts>& sum, const std::vector<trace::TensorCounts>& c, int sign)
{
    if (sum.size() < c.size()) sum.resize(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
        sum[i].reads += sign * c[i].reads;
        sum[i].fills += sign * c[i].fills;
        sum[i].updates += sign * c[i].updates;
        sum[i].linkTransfers += sign * c[i].linkTransfers;
    }
}
} // namespace

std::optional<std::vector<trace::TensorCounts>> totalsThrough(const trace::StepTrace& t, std::int64_t target,
                                                              const KnownTotals& known, JobContext& job)
{
    // Three ways to get there; take the one with the fewest steps to count.
    std::vector<trace::TensorCounts> sum;
    std::int64_t begin = 0, end = target + 1;   // the window to count
    int sign = 1;
    if (known.through >= 0) {
        const std::int64_t forward = target - known.through, backward = known.through - target;
        if (forward >= 0 && forward <= target + 1) {
            sum = known.counts;
            begin = known.through + 1;
        } else if (backward > 0 && backward < target + 1) {
            sum = known.counts;
            begin = target + 1;
            end = known.through + 1;
            sign = -1;
        }
    }
    const std::int64_t total = end - begin;
    for (std::int64_t b = begin; b < end; b += kTotalsChunkSteps) {
        if (job.cancelRequested()) return std::nullopt;
        add(sum, t.countWindow(b, std::min(end, b + kTotalsChunkSteps)), sign);
        if (total > kTotalsChunkSteps) job.reportProgress({double(b + kTotalsChunkSteps - begin) / double(total), {}});
    }
    return sum;
}

} // namespace nestor::app
