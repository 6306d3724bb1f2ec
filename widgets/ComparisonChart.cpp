#include "ComparisonChart.h"

#include "NumberFormat.h"
#include "PlotExport.h"
#include "ViridisPalette.h"

#include <qcustomplot.h>

#include <QContextMenuEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace nestor::widgets {

ComparisonChart::ComparisonChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->xAxis->grid()->setVisible(false);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot_->setContextMenuPolicy(Qt::NoContextMenu);
    setMinimumSize(240, 180);
    clear();
}

void ComparisonChart::clear()
{
    plot_->clearPlottables();
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->xAxis->setRange(-0.5, 0.5);
    plot_->yAxis->setRange(0, 1);
    plot_->yAxis->setLabel(tr("Energy"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

int ComparisonChart::seriesCount() const
{
    return plot_->plottableCount();
}

void ComparisonChart::setEvaluations(const QStringList& labels, const std::vector<Evaluation>& evaluations)
{
    clear();
    // Level names in order of first appearance; the MACs last.
    QStringList levels;
    double tallest = 0;
    for (const Evaluation& e : evaluations) {
        if (!e.valid) continue;
        for (const LevelStats& l : e.levels) {
            if (l.energy_pJ == 0.0) continue;
            if (!levels.contains(QString::fromStdString(l.name))) levels << QString::fromStdString(l.name);
            tallest = std::max(tallest, l.energy_pJ);
        }
        tallest = std::max(tallest, e.compute_energy_pJ);
    }
    if (levels.isEmpty() && tallest == 0) return;
    const ScaledUnit unit = NumberFormat::energyUnitFor(tallest);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < levels.size(); ++i) ticker->addTick(i, levels[i]);
    ticker->addTick(levels.size(), tr("compute"));
    plot_->xAxis->setTicker(ticker);

    auto* group = new QCPBarsGroup(plot_);
    const QList<QColor> colors = ViridisPalette::categorical(std::max<int>(2, int(evaluations.size())));
    for (std::size_t k = 0; k < evaluations.size(); ++k) {
        const Evaluation& e = evaluations[k];
        QVector<double> keys, values;
        if (e.valid) {
            for (int i = 0; i < levels.size(); ++i) {
                double v = 0;
                for (const LevelStats& l : e.levels)
                    if (QString::fromStdString(l.name) == levels[i]) v = l.energy_pJ;
                keys << i;
                values << v / unit.divisor;
            }
            keys << levels.size();
            values << e.compute_energy_pJ / unit.divisor;
        }
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setName(k < std::size_t(labels.size()) ? labels[int(k)] : QString::number(k + 1));
        bars->setData(keys, values, true);
        bars->setBrush(colors[int(k)]);
        bars->setPen(QPen(colors[int(k)].darker(130)));
        bars->setWidth(0.8 / double(std::max<std::size_t>(1, evaluations.size())));
        bars->setBarsGroup(group);
    }
    plot_->xAxis->setRange(-0.6, levels.size() + 0.6);
    plot_->yAxis->setRange(0, tallest / unit.divisor * 1.15);
    plot_->yAxis->setLabel(tr("Energy (%1)").arg(unit.unit));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool ComparisonChart::exportPng(const QString& path, int width, int height)
{
    return PlotExport::png(plot_, path, width, height);
}

bool ComparisonChart::exportPdf(const QString& path, int width, int height)
{
    return PlotExport::pdf(plot_, path, tr("Energy comparison"), width, height);
}

void ComparisonChart::replotNow()
{
    plot_->replot(QCustomPlot::rpImmediateRefresh);
}

void ComparisonChart::contextMenuEvent(QContextMenuEvent* event)
{
    PlotExport::contextMenu(plot_, tr("Energy comparison"), event->globalPos());
}

} // namespace nestor::widgets
