#include "SearchProgressChart.h"

#include "LogAxisTicker.h"
#include "PlotExport.h"
#include "ViridisPalette.h"

#include <qcustomplot.h>

#include <QContextMenuEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace nestor::widgets {

namespace {
const QList<QColor>& runColors()
{
    static const QList<QColor> colors = ViridisPalette::categorical(5);
    return colors;
}
} // namespace

SearchProgressChart::SearchProgressChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        useLogScale(axis);
        axis->setNumberFormat(QStringLiteral("eb"));  // decades; narrower ranges get plain 1-2-5 labels
        axis->setNumberPrecision(0);
    }
    plot_->xAxis->setLabel(tr("Evaluated mappings"));
    plot_->yAxis->setLabel(tr("Best so far"));
    plot_->legend->setVisible(true);
    // Best-so-far curves fall from the top left: the bottom left stays free for the legend.
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignLeft);
    plot_->setContextMenuPolicy(Qt::NoContextMenu);
    setMinimumSize(240, 180);
    clear();
}

void SearchProgressChart::setMetricName(const QString& name)
{
    plot_->yAxis->setLabel(tr("Best so far: %1").arg(name));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

int SearchProgressChart::addRun(const QString& name)
{
    Run r;
    r.name = name;
    r.graph = plot_->addGraph();
    r.graph->setName(name);
    r.graph->setLineStyle(QCPGraph::lsStepLeft);
    const QColor c = runColors()[int(runs_.size()) % runColors().size()];
    r.graph->setPen(QPen(c, 2));
    r.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c, c, 4));
    runs_.push_back(r);
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return int(runs_.size()) - 1;
}

void SearchProgressChart::addImprovement(int run, double evaluated, double value)
{
    if (run < 0 || run >= runCount() || !(value > 0)) return;
    Run& r = runs_[std::size_t(run)];
    r.x.push_back(std::max(1.0, evaluated));
    r.y.push_back(value);
    r.extent = std::max(r.extent, evaluated);
    redraw(r);
}

void SearchProgressChart::extendTo(int run, double evaluated)
{
    if (run < 0 || run >= runCount()) return;
    Run& r = runs_[std::size_t(run)];
    if (evaluated <= r.extent) return;
    r.extent = evaluated;
    redraw(r);
}

void SearchProgressChart::redraw(Run& r)
{
    QVector<double> x(r.x.begin(), r.x.end()), y(r.y.begin(), r.y.end());
    if (!r.y.empty() && r.extent > r.x.back()) {  // the flat tail up to the evaluations so far
        x << r.extent;
        y << r.y.back();
    }
    r.graph->setData(x, y, true);
    rescale();
}

void SearchProgressChart::rescale()
{
    double xMax = 10, yMin = std::numeric_limits<double>::infinity(), yMax = 0;
    for (const Run& r : runs_) {
        xMax = std::max(xMax, r.extent);
        for (double v : r.y) {
            yMin = std::min(yMin, v);
            yMax = std::max(yMax, v);
        }
    }
    plot_->xAxis->setRange(1, xMax * 1.5);
    if (yMax > 0) {
        // At least 1.7 decades: below 1.6 QCustomPlot's log ticker falls back to linear ticks.
        double lo = yMin / 1.6, hi = yMax * 1.6;
        if (hi / lo < 50) {
            const double mid = std::sqrt(lo * hi);
            lo = mid / std::sqrt(50.0);
            hi = mid * std::sqrt(50.0);
        }
        plot_->yAxis->setRange(lo, hi);
    }
    else
        plot_->yAxis->setRange(0.1, 10);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SearchProgressChart::clear()
{
    plot_->clearGraphs();
    runs_.clear();
    rescale();
}

int SearchProgressChart::improvementCount(int run) const
{
    return run >= 0 && run < runCount() ? int(runs_[std::size_t(run)].y.size()) : 0;
}

double SearchProgressChart::lastValue(int run) const
{
    if (run < 0 || run >= runCount() || runs_[std::size_t(run)].y.empty()) return std::numeric_limits<double>::quiet_NaN();
    return runs_[std::size_t(run)].y.back();
}

QString SearchProgressChart::runName(int run) const
{
    return run >= 0 && run < runCount() ? runs_[std::size_t(run)].name : QString();
}

bool SearchProgressChart::exportPng(const QString& path, int width, int height)
{
    return PlotExport::png(plot_, path, width, height);
}

bool SearchProgressChart::exportPdf(const QString& path, int width, int height)
{
    return PlotExport::pdf(plot_, path, tr("Best so far"), width, height);
}

void SearchProgressChart::contextMenuEvent(QContextMenuEvent* event)
{
    PlotExport::contextMenu(plot_, tr("Best so far"), event->globalPos());
}

} // namespace nestor::widgets
