#include "ParetoChart.h"

#include "LogAxisTicker.h"
#include "NumberFormat.h"

#include "PlotExport.h"
#include "ViridisPalette.h"
#include "analysis/ParetoFront.h"

#include <qcustomplot.h>

#include <QContextMenuEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace nestor::widgets {

namespace {
void setScale(QCPAxis* axis, bool log)
{
    if (log) {
        useLogScale(axis);
        axis->setNumberFormat(QStringLiteral("eb"));  // decades; narrower ranges get plain 1-2-5 labels
        axis->setNumberPrecision(0);
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(3);
    }
}
} // namespace

ParetoChart::ParetoChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    // Translucent, so that points under it stay visible (and hoverable).
    plot_->legend->setBrush(QColor(255, 255, 255, 170));
    plot_->setContextMenuPolicy(Qt::NoContextMenu);
    setLogarithmic(true, true);
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        if (e->button() != Qt::LeftButton) return;
        const auto [s, i] = pointAt(e->pos());
        if (s >= 0) emit pointClicked(s, i);
    });
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const auto [s, i] = pointAt(e->pos());
        if (s < 0) QToolTip::hideText();
        else QToolTip::showText(e->globalPosition().toPoint(), toolTipOf(s, i), plot_);
    });
    setMinimumSize(240, 180);
    clear();
}

void ParetoChart::setAxisLabels(const QString& x, const QString& y)
{
    plot_->xAxis->setLabel(x);
    plot_->yAxis->setLabel(y);
    title_ = y + QStringLiteral(" vs ") + x;
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ParetoChart::setLogarithmic(bool x, bool y)
{
    logX_ = x;
    logY_ = y;
    setScale(plot_->xAxis, x);
    setScale(plot_->yAxis, y);
    rescale();
}

bool ParetoChart::plottable(const QPointF& p) const
{
    return std::isfinite(p.x()) && std::isfinite(p.y()) && (!logX_ || p.x() > 0) && (!logY_ || p.y() > 0);
}

QString ParetoChart::toolTipOf(int series, int index) const
{
    if (series < 0 || series >= seriesCount() || index < 0 || index >= pointCount(series)) return {};
    const Series& s = series_[std::size_t(series)];
    const QPointF p = s.points[index];
    const QString label = index < s.labels.size() ? s.labels[index] + QLatin1Char('\n') : QString();
    const bool onFront = std::find(s.front.begin(), s.front.end(), index) != s.front.end();
    return tr("%1%2%3\n%4: %5\n%6: %7\nclick to open it")
        .arg(label, s.name, onFront ? tr(" (Pareto front)") : QString(), plot_->xAxis->label(),
             NumberFormat::decimal(p.x(), 4), plot_->yAxis->label(), NumberFormat::decimal(p.y(), 4));
}

int ParetoChart::addSeries(const QString& name, const QVector<QPointF>& points, const QStringList& labels)
{
    Series s;
    s.name = name;
    s.points = points;
    s.labels = labels;
    std::vector<std::vector<double>> objectives;
    std::vector<int> index;
    for (int i = 0; i < points.size(); ++i)
        if (plottable(points[i])) {
            objectives.push_back({points[i].x(), points[i].y()});
            index.push_back(i);
        }
    for (std::size_t f : paretoFront(objectives)) s.front.push_back(index[f]);

    const QList<QColor> colors = ViridisPalette::categorical(4);
    const QColor c = colors[int(series_.size()) % colors.size()];
    QColor pale = c;
    pale.setAlpha(70);
    s.cloud = plot_->addGraph();
    s.cloud->setName(tr("%1 (%n points)", nullptr, int(index.size())).arg(name));
    s.cloud->setLineStyle(QCPGraph::lsNone);
    s.cloud->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, pale, pale, 5));
    QVector<double> x, y;
    for (int i : index) {
        x << points[i].x();
        y << points[i].y();
    }
    s.cloud->setData(x, y);
    s.frontGraph = plot_->addGraph();
    s.frontGraph->setName(tr("%1 Pareto front").arg(name));
    s.frontGraph->setLineStyle(QCPGraph::lsStepLeft);
    s.frontGraph->setPen(QPen(c, 1.5));
    s.frontGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(c.darker(130), 1.5), c, 9));
    QVector<double> fx, fy;
    for (int i : s.front) {
        fx << points[i].x();
        fy << points[i].y();
    }
    s.frontGraph->setData(fx, fy);  // sorted by x: the staircase
    series_.push_back(s);
    rescale();
    return int(series_.size()) - 1;
}

void ParetoChart::clear()
{
    plot_->clearGraphs();
    series_.clear();
    rescale();
}

int ParetoChart::pointCount(int series) const
{
    return series >= 0 && series < seriesCount() ? int(series_[std::size_t(series)].points.size()) : 0;
}

std::vector<int> ParetoChart::frontIndices(int series) const
{
    if (series < 0 || series >= seriesCount()) return {};
    std::vector<int> f = series_[std::size_t(series)].front;
    std::sort(f.begin(), f.end());
    return f;
}

QPointF ParetoChart::pixelOf(int series, int index) const
{
    const QPointF& p = series_[std::size_t(series)].points[index];
    return {plot_->xAxis->coordToPixel(p.x()), plot_->yAxis->coordToPixel(p.y())};
}

std::pair<int, int> ParetoChart::pointAt(const QPoint& pixel, double radius) const
{
    std::pair<int, int> best{-1, -1};
    double bestD = radius * radius;
    // Front points first: they sit on top and are what one aims at.
    for (int pass = 0; pass < 2; ++pass) {
        for (int s = 0; s < seriesCount(); ++s) {
            const Series& se = series_[std::size_t(s)];
            for (int i = 0; i < se.points.size(); ++i) {
                const bool onFront = std::find(se.front.begin(), se.front.end(), i) != se.front.end();
                if (onFront != (pass == 0) || !plottable(se.points[i])) continue;
                const QPointF q = pixelOf(s, i);
                const double d = (q.x() - pixel.x()) * (q.x() - pixel.x()) + (q.y() - pixel.y()) * (q.y() - pixel.y());
                if (d <= bestD) {
                    bestD = d;
                    best = {s, i};
                }
            }
        }
        if (best.first >= 0) return best;
    }
    return best;
}

void ParetoChart::clickPoint(int series, int index)
{
    if (series >= 0 && series < seriesCount() && index >= 0 && index < pointCount(series)) emit pointClicked(series, index);
}

void ParetoChart::rescale()
{
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (const Series& s : series_)
        for (const QPointF& p : s.points)
            if (plottable(p)) {
                x0 = std::min(x0, p.x());
                x1 = std::max(x1, p.x());
                y0 = std::min(y0, p.y());
                y1 = std::max(y1, p.y());
            }
    auto range = [](QCPAxis* axis, double lo, double hi, bool log) {
        if (!(lo <= hi)) {
            axis->setRange(log ? 0.1 : 0, log ? 10 : 1);
        } else if (log) {
            // At least 1.7 decades: below 1.6 QCustomPlot's log ticker falls back to linear ticks.
            double a = lo / 1.5, b = hi * 1.5;
            if (b / a < 50) {
                const double mid = std::sqrt(a * b);
                a = mid / std::sqrt(50.0);
                b = mid * std::sqrt(50.0);
            }
            axis->setRange(a, b);
        } else {
            const double pad = hi > lo ? 0.08 * (hi - lo) : std::max(1.0, std::abs(hi) * 0.1);
            axis->setRange(lo - pad, hi + pad);
        }
    };
    range(plot_->xAxis, x0, x1, logX_);
    range(plot_->yAxis, y0, y1, logY_);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool ParetoChart::exportPng(const QString& path, int width, int height)
{
    return PlotExport::png(plot_, path, width, height);
}

bool ParetoChart::exportPdf(const QString& path, int width, int height)
{
    return PlotExport::pdf(plot_, path, title_, width, height);
}

void ParetoChart::contextMenuEvent(QContextMenuEvent* event)
{
    PlotExport::contextMenu(plot_, title_.isEmpty() ? tr("Pareto front") : title_, event->globalPos());
}

} // namespace nestor::widgets
