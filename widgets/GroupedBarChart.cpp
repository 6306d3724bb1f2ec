#include "GroupedBarChart.h"

#include "PlotExport.h"
#include "ViridisPalette.h"

#include <qcustomplot.h>

#include <QContextMenuEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace nestor::widgets {

namespace {
constexpr int kMaxSeries = 6;
}

GroupedBarChart::GroupedBarChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->xAxis->grid()->setVisible(false);
    // The legend in a row under the axis rect: over the bars it would hide the tallest group.
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(1, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(kMaxSeries);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->setContextMenuPolicy(Qt::NoContextMenu);
    setMinimumSize(240, 160);
    clear();
}

void GroupedBarChart::clear()
{
    plot_->clearPlottables();
    categories_.clear();
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->xAxis->setRange(-0.5, 0.5);
    plot_->yAxis->setRange(0, 1);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void GroupedBarChart::setCategories(const QStringList& categories, const QString& valueLabel)
{
    clear();
    categories_ = categories;
    title_ = valueLabel;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < categories.size(); ++i) ticker->addTick(i, categories[i]);
    plot_->xAxis->setTicker(ticker);
    // Many layers: the names stand at an angle rather than run into each other.
    plot_->xAxis->setTickLabelRotation(categories.size() > 8 ? 45 : 0);
    plot_->yAxis->setLabel(valueLabel);
    relayout();
}

int GroupedBarChart::addSeries(const QString& name, const QVector<double>& values)
{
    QCPBarsGroup* group = nullptr;
    for (int i = 0; i < plot_->plottableCount() && !group; ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot_->plottable(i))) group = b->barsGroup();
    if (!group) group = new QCPBarsGroup(plot_);
    QVector<double> keys, shown;
    for (int i = 0; i < values.size() && i < categories_.size(); ++i)
        if (std::isfinite(values[i])) {
            keys << i;
            shown << values[i];
        }
    const int index = seriesCount();
    const QColor color = ViridisPalette::categorical(kMaxSeries)[index % kMaxSeries];
    auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars->setName(name);
    bars->setData(keys, shown, true);
    bars->setBrush(color);
    bars->setPen(QPen(color.darker(130)));
    bars->setBarsGroup(group);
    relayout();
    return index;
}

void GroupedBarChart::relayout()
{
    const int n = std::max(1, seriesCount());
    double tallest = 0;
    for (int i = 0; i < plot_->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot_->plottable(i))) {
            b->setWidth(0.8 / n);
            for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it) tallest = std::max(tallest, it->value);
        }
    plot_->xAxis->setRange(-0.6, std::max<qsizetype>(1, categories_.size()) - 0.4);
    plot_->yAxis->setRange(0, tallest > 0 ? tallest * 1.05 : 1);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

int GroupedBarChart::seriesCount() const
{
    return plot_->plottableCount();
}

bool GroupedBarChart::exportPng(const QString& path, int width, int height)
{
    return PlotExport::png(plot_, path, width, height);
}

bool GroupedBarChart::exportPdf(const QString& path, int width, int height)
{
    return PlotExport::pdf(plot_, path, title_, width, height);
}

void GroupedBarChart::contextMenuEvent(QContextMenuEvent* event)
{
    PlotExport::contextMenu(plot_, title_, event->globalPos());
}

} // namespace nestor::widgets
