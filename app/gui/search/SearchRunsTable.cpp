#include "SearchRunsTable.h"

#include "NumberFormat.h"
#include "SearchRunQueue.h"
#include "SearchText.h"

#include <QHeaderView>
#include <QStringList>

namespace nestor::app {

namespace {

enum Column { ColRun, ColMapspace, ColAlgorithm, ColSeed, ColEvaluated, ColValid, ColMetric, ColEdp, ColEnergy, ColCycles,
              ColUtilization, ColStopped, ColumnCount };

QString metricName(SearchMetric m)
{
    switch (m) {
    case SearchMetric::Edp: return QObject::tr("EDP");
    case SearchMetric::Energy: return QObject::tr("energy");
    case SearchMetric::Delay: return QObject::tr("delay");
    case SearchMetric::LastLevelAccesses: return QObject::tr("last-level accesses");
    }
    return {};
}

} // namespace

SearchRunsTable::SearchRunsTable(QWidget* parent) : QTableWidget(parent)
{
    setColumnCount(ColumnCount);
    setHorizontalHeaderLabels({tr("Run"), tr("Mapspace"), tr("Algorithm"), tr("Seed"), tr("Evaluated"), tr("Valid"), tr("Best"),
                               tr("EDP"), tr("Energy"), tr("Cycles"), tr("Utilization"), tr("Stopped by")});
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->setVisible(false);
}

void SearchRunsTable::clearRuns()
{
    setRowCount(0);
}

void SearchRunsTable::showRun(int index, const SearchRun& r)
{
    using namespace widgets::NumberFormat;
    if (rowCount() <= index) setRowCount(index + 1);
    auto set = [&](int col, const QString& text) {
        auto* item = new QTableWidgetItem(text);
        if (col >= ColSeed && col <= ColUtilization) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setItem(index, col, item);
    };
    set(ColRun, r.label.section(QLatin1Char(' '), 0, 0));
    set(ColMapspace, r.mapspace);
    set(ColAlgorithm, r.algorithm);
    set(ColSeed, QString::number(r.seed));
    const SearchMetric first = r.outcome.request.options.metrics.front();
    horizontalHeaderItem(ColMetric)->setText(tr("Best %1").arg(metricName(first)));
    if (!r.finished) {
        set(ColEvaluated, count(r.progress.evaluated));
        set(ColValid, count(r.progress.valid));
        set(ColMetric, r.progress.hasBest ? searchMetricValueText(first, r.progress.best) : QStringLiteral("—"));
        for (int c = ColEdp; c <= ColUtilization; ++c) set(c, QString());
        set(ColStopped, tr("running…"));
        return;
    }
    const SearchResult& res = r.outcome.result;
    set(ColEvaluated, count(res.evaluated));
    set(ColValid, count(res.valid));
    QStringList invalid;  // why the others were not valid
    if (res.overCapacity > 0) invalid << tr("%1 outgrew a level's capacity").arg(count(res.overCapacity));
    if (res.belowUtilization > 0) invalid << tr("%1 below the minimum utilization").arg(count(res.belowUtilization));
    if (res.overBudget > 0)
        invalid << tr("%1 skipped: their exact evaluation exceeds the model's budget").arg(count(res.overBudget));
    if (!invalid.isEmpty()) item(index, ColValid)->setToolTip(tr("Of the candidates not valid: %1").arg(invalid.join(tr("; "))));
    set(ColStopped, r.outcome.failure.isEmpty() ? QString::fromStdString(stopReasonsText(res)) : r.outcome.failure);
    if (!res.found) {
        set(ColMetric, res.evaluated > 0 && res.overCapacity == res.evaluated ? tr("no valid mapping: every candidate overflowed")
                                                                              : tr("no valid mapping"));
        for (int c = ColEdp; c <= ColUtilization; ++c) set(c, QString());
        return;
    }
    const Evaluation& ev = res.bestEvaluation;
    set(ColMetric, searchMetricValueText(first, res.bestMetrics.front()));
    set(ColEdp, scientific(ev.edp_J_s, QStringLiteral("J·s")));
    set(ColEnergy, energy(ev.energy_pJ));
    set(ColCycles, count(ev.cycles));
    set(ColUtilization, percent(ev.utilization));
}

} // namespace nestor::app
