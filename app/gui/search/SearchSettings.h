#pragma once
// What the Search tab's form holds, as a plain value, and its translation into the engine's
// SearchOptions (shared by a search run and a PE-array sweep).
#include "search/SearchDriver.h"

#include <optional>

#include <QString>
#include <QStringList>

namespace nestor::app {

struct SearchSettings {
    QString layer;
    QStringList mapspaces{QStringLiteral("pfm")};
    QString algorithm = QStringLiteral("annealing");
    int threads = 1;
    qint64 searchSize = 0;          // valid mappings (0 = off)
    qint64 evaluationBudget = 20000; // evaluated mappings (0 = off)
    qint64 victoryCondition = 500;
    qint64 timeout = 1000;          // consecutive invalid mappings per thread
    QString metrics = QStringLiteral("edp");
    qint64 seed = 1;
    int sweepBudget = 3000;         // evaluations per PE-array configuration
    bool useConstraints = true;     // the project's constraints for the layer (as nestor-cli search)
};

// The engine options for `s` (budget: the evaluation budget); on bad metrics or no mapspace,
// nothing and the reason in *error.
std::optional<SearchOptions> searchOptionsFrom(const SearchSettings& s, QString* error);

// "EDP (J·s)", "energy (pJ)", ... for the first metric of `metrics`, or `metrics` itself.
QString metricAxisLabel(const QString& metrics);

} // namespace nestor::app
