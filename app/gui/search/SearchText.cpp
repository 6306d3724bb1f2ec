#include "SearchText.h"

#include "NumberFormat.h"

#include <QObject>

#include <algorithm>

namespace nestor::app {

using widgets::NumberFormat::count;

QString searchMetricValueText(SearchMetric metric, double value)
{
    using namespace widgets::NumberFormat;
    switch (metric) {
    case SearchMetric::Edp: return scientific(value, QStringLiteral("J·s"));
    case SearchMetric::Energy: return energy(value);
    case SearchMetric::Delay: return count(std::int64_t(value));
    case SearchMetric::LastLevelAccesses: return count(std::int64_t(value));
    }
    return QString::number(value);
}

JobProgress searchJobProgress(const SearchOptions& o, const SearchProgress& p)
{
    JobProgress jp;
    if (o.evaluationBudget > 0) jp.fraction = std::min(1.0, double(p.evaluated) / double(o.evaluationBudget));
    else if (o.searchSize > 0) jp.fraction = std::min(1.0, double(p.valid) / double(o.searchSize));
    QString skipped = p.overBudget > 0 ? QObject::tr(" (%1 over the exact-evaluation budget, skipped)").arg(count(p.overBudget))
                                       : QString();
    if (p.overCapacity > 0) skipped += QObject::tr(", %1 over a level's capacity").arg(count(p.overCapacity));
    if (p.belowUtilization > 0) skipped += QObject::tr(", %1 below the minimum utilization").arg(count(p.belowUtilization));
    const QString best = p.hasBest && !o.metrics.empty() ? searchMetricValueText(o.metrics.front(), p.best) : QStringLiteral("—");
    jp.message = QObject::tr("%1 evaluated, %2 valid%3, best %4, %5 s")
                     .arg(count(p.evaluated), count(p.valid), skipped, best)
                     .arg(p.seconds, 0, 'f', 1)
                     .toStdString();
    return jp;
}

QString searchOutcomeSummary(const SearchOutcome& outcome)
{
    if (!outcome.failure.isEmpty()) return QObject::tr("failed: %1").arg(outcome.failure);
    const SearchResult& res = outcome.result;
    const std::vector<SearchMetric>& metrics = outcome.request.options.metrics;
    return QObject::tr("%1 evaluated in %2 s%3; %4")
        .arg(count(res.evaluated))
        .arg(res.seconds, 0, 'f', 2)
        .arg(res.cancelled ? QObject::tr(" (cancelled)") : QString(),
             res.found && !metrics.empty() && !res.bestMetrics.empty()
                 ? QObject::tr("best %1").arg(searchMetricValueText(metrics.front(), res.bestMetrics.front()))
                 : QObject::tr("no valid mapping"));
}

} // namespace nestor::app
