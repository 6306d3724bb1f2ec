#include "EvaluationSummaryView.h"

#include "ColumnFitter.h"
#include "NumberFormat.h"
#include "models/AccessCountModel.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace nestor::widgets {

namespace {

struct MetricInfo {
    EvaluationSummaryView::Metric metric;
    const char* label;
    const char* toolTip;
};

constexpr MetricInfo kMetrics[] = {
    {EvaluationSummaryView::Metric::Macs, QT_TRANSLATE_NOOP("EvaluationSummaryView", "MACs"),
     QT_TRANSLATE_NOOP("EvaluationSummaryView", "Multiply-accumulates of the workload")},
    {EvaluationSummaryView::Metric::Cycles, QT_TRANSLATE_NOOP("EvaluationSummaryView", "Cycles"),
     QT_TRANSLATE_NOOP("EvaluationSummaryView", "Maximum over compute and every level's bandwidth-limited cycles")},
    {EvaluationSummaryView::Metric::Utilization, QT_TRANSLATE_NOOP("EvaluationSummaryView", "Utilization"),
     QT_TRANSLATE_NOOP("EvaluationSummaryView", "MACs / (MAC instances x cycles)")},
    {EvaluationSummaryView::Metric::Bound, QT_TRANSLATE_NOOP("EvaluationSummaryView", "Bound by"),
     QT_TRANSLATE_NOOP("EvaluationSummaryView", "Compute, or the level whose bandwidth sets the cycle count")},
    {EvaluationSummaryView::Metric::Energy, QT_TRANSLATE_NOOP("EvaluationSummaryView", "Energy"),
     QT_TRANSLATE_NOOP("EvaluationSummaryView", "Accesses, leakage and compute")},
    {EvaluationSummaryView::Metric::EnergyPerMac, QT_TRANSLATE_NOOP("EvaluationSummaryView", "pJ/MAC"),
     QT_TRANSLATE_NOOP("EvaluationSummaryView", "Total energy per multiply-accumulate")},
    {EvaluationSummaryView::Metric::Area, QT_TRANSLATE_NOOP("EvaluationSummaryView", "Area"),
     QT_TRANSLATE_NOOP("EvaluationSummaryView", "All instances of every level and the MACs")},
    {EvaluationSummaryView::Metric::Edp, QT_TRANSLATE_NOOP("EvaluationSummaryView", "EDP"),
     QT_TRANSLATE_NOOP("EvaluationSummaryView", "Energy x delay")},
};
constexpr int kMetricsPerRow = 3;  // narrow enough to leave the access table its room at 1366 x 768

// The limit the roofline puts the mapping on (analysis/Roofline.h), so summary and chart agree.
QString boundText(const Roofline& r)
{
    if (!r.valid) return QStringLiteral("—");
    if (r.computeBound()) return EvaluationSummaryView::tr("compute");
    return EvaluationSummaryView::tr("%1 bandwidth").arg(QString::fromStdString(r.roofs[*r.binding].label()));
}

} // namespace

EvaluationSummaryView::EvaluationSummaryView(QWidget* parent)
    : QWidget(parent), status_(new QLabel(this)), accessModel_(new AccessCountModel(this)), table_(new QTableView(this))
{
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setObjectName(QStringLiteral("evaluationStatus"));
    QFont heading = status_->font();
    heading.setBold(true);
    heading.setPointSizeF(heading.pointSizeF() * 1.15);
    status_->setFont(heading);

    auto* grid = new QGridLayout;
    int i = 0;
    for (const MetricInfo& info : kMetrics) {
        auto* name = new QLabel(tr(info.label) + QLatin1Char(':'), this);
        auto* value = new QLabel(this);
        name->setToolTip(tr(info.toolTip));
        value->setToolTip(tr(info.toolTip));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        QFont bold = value->font();
        bold.setBold(true);
        value->setFont(bold);
        const int row = i / kMetricsPerRow;
        const int col = 2 * (i % kMetricsPerRow);
        grid->addWidget(name, row, col, Qt::AlignRight);
        grid->addWidget(value, row, col + 1, Qt::AlignLeft);
        values_[info.metric] = value;
        ++i;
    }
    for (int c = 1; c < 2 * kMetricsPerRow; c += 2) grid->setColumnStretch(c, 1);

    table_->setModel(accessModel_);
    table_->setAlternatingRowColors(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    columns_ = new ColumnFitter(table_, table_->horizontalHeader());
    // Long level names ("inter_PE_column_spatial") may lose their end; the tooltip names the level.
    table_->setTextElideMode(Qt::ElideRight);
    columns_->setElidableColumn(AccessCountModel::NameColumn, table_->fontMetrics().averageCharWidth() * 14);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);  // the table's columns need the room at 1366 x 768
    layout->addWidget(status_);
    layout->addLayout(grid);
    layout->addWidget(table_, 1);
    clear();
}

void EvaluationSummaryView::setStatus(const QString& text, bool alarming)
{
    status_->setText(text);
    status_->setStyleSheet(alarming ? QStringLiteral("color: #b00020;") : QString());
}

void EvaluationSummaryView::clearMetrics()
{
    for (auto& [metric, label] : values_) label->setText(QStringLiteral("—"));
    accessModel_->clear();
}

void EvaluationSummaryView::clear()
{
    clearMetrics();
    setStatus(tr("No mapping selected."), false);
}

void EvaluationSummaryView::showPending(const QString& title)
{
    clearMetrics();
    setStatus(tr("Evaluating %1…").arg(title), false);
}

void EvaluationSummaryView::showFailure(const QString& title, const QString& message)
{
    clearMetrics();
    setStatus(tr("%1: evaluation failed: %2").arg(title, message), true);
}

void EvaluationSummaryView::showEvaluation(const QString& title, const Evaluation& e, const Roofline& roofline)
{
    accessModel_->setEvaluation(e);
    if (!e.valid) {
        for (auto& [metric, label] : values_) label->setText(QStringLiteral("—"));
        values_[Metric::Macs]->setText(NumberFormat::count(e.macs));
        QStringList lines;
        for (const Diagnostic& d : e.errors) lines << QString::fromStdString(d.toString());
        const QString what = e.exactBudgetExceeded ? tr("no figures: the exact evaluation stopped at its budget")
                                                   : tr("invalid mapping");
        setStatus(tr("%1: %2\n%3").arg(title, what, lines.join(QLatin1Char('\n'))), true);
        return;
    }
    setStatus(title, false);
    fillMetrics(e, roofline);
}

void EvaluationSummaryView::showStale(const QString& title, const Evaluation& lastValid, const Roofline& lastValidRoofline,
                                      const Diagnostics& errors, bool overBudget)
{
    accessModel_->setEvaluation(lastValid);
    fillMetrics(lastValid, lastValidRoofline);
    QStringList lines;
    for (const Diagnostic& d : errors) lines << QString::fromStdString(d.toString());
    const QString what = overBudget ? tr("the exact evaluation of the edited mapping stopped at its budget")
                                    : tr("the edited mapping is invalid");
    setStatus(tr("%1: %2; the figures below (marked *) are of the last valid one.\n%3")
                  .arg(title, what, lines.join(QLatin1Char('\n'))),
              true);
    for (auto& [metric, label] : values_) label->setText(label->text() + QStringLiteral(" *"));
}

void EvaluationSummaryView::showUpdating(const QString& title)
{
    setStatus(tr("%1 (re-evaluating…)").arg(title), false);
}

void EvaluationSummaryView::fillMetrics(const Evaluation& e, const Roofline& roofline)
{
    values_[Metric::Macs]->setText(NumberFormat::count(e.macs));
    values_[Metric::Cycles]->setText(NumberFormat::count(e.cycles));
    values_[Metric::Utilization]->setText(NumberFormat::percent(e.utilization));
    values_[Metric::Bound]->setText(boundText(roofline));
    values_[Metric::Energy]->setText(NumberFormat::energy(e.energy_pJ));
    values_[Metric::EnergyPerMac]->setText(NumberFormat::decimal(e.pJ_per_mac));
    values_[Metric::Area]->setText(NumberFormat::area(e.area_um2));
    values_[Metric::Edp]->setText(NumberFormat::scientific(e.edp_J_s, QStringLiteral("J·s")));
}

QString EvaluationSummaryView::metricText(Metric m) const
{
    const auto it = values_.find(m);
    return it == values_.end() ? QString() : it->second->text();
}

QString EvaluationSummaryView::statusText() const
{
    return status_->text();
}

} // namespace nestor::widgets
