#include "SearchSettings.h"

#include "search/SearchMetric.h"

#include <QObject>

#include <exception>

namespace nestor::app {

std::optional<SearchOptions> searchOptionsFrom(const SearchSettings& s, QString* error)
{
    SearchOptions o;
    try {
        o.metrics = parseSearchMetrics(s.metrics.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QObject::tr("Metrics: %1").arg(QString::fromStdString(e.what()));
        return std::nullopt;
    }
    if (s.mapspaces.isEmpty()) {
        if (error) *error = QObject::tr("Check at least one mapspace.");
        return std::nullopt;
    }
    o.algorithm = s.algorithm.toStdString();
    o.threads = s.threads;
    o.seed = std::uint64_t(s.seed);
    o.searchSize = s.searchSize;
    o.evaluationBudget = s.evaluationBudget;
    o.victoryCondition = s.victoryCondition;
    o.timeout = s.timeout;
    return o;
}

QString metricAxisLabel(const QString& metrics)
{
    try {
        switch (parseSearchMetrics(metrics.toStdString()).front()) {
        case SearchMetric::Edp: return QObject::tr("EDP (J·s)");
        case SearchMetric::Energy: return QObject::tr("energy (pJ)");
        case SearchMetric::Delay: return QObject::tr("delay (cycles)");
        case SearchMetric::LastLevelAccesses: return QObject::tr("last-level accesses");
        }
    } catch (const std::exception&) {
    }
    return metrics;
}

} // namespace nestor::app
