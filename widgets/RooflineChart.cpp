#include "RooflineChart.h"

#include "NumberFormat.h"
#include "PlotExport.h"
#include "ViridisPalette.h"

#include <qcustomplot.h>

#include <QContextMenuEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace nestor::widgets {

namespace {

std::optional<double> levelBandwidth(const StorageLevel& l)
{
    if (l.shared_bw_words_per_cycle) return *l.shared_bw_words_per_cycle;
    if (l.read_bw_words_per_cycle && l.write_bw_words_per_cycle) return *l.read_bw_words_per_cycle + *l.write_bw_words_per_cycle;
    if (l.read_bw_words_per_cycle) return *l.read_bw_words_per_cycle;
    return l.write_bw_words_per_cycle;
}

} // namespace

RooflineChart::RooflineChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(0);
    }
    plot_->xAxis->setLabel(tr("Operational intensity (MACs per byte)"));
    plot_->yAxis->setLabel(tr("Performance (MACs per cycle)"));
    // The legend in its own column right of the axis rect, so it never covers the roofs.
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(0, 1, plot_->legend);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    plot_->legend->setBorderPen(Qt::NoPen);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot_->legend->setFont(small);
    plot_->setContextMenuPolicy(Qt::NoContextMenu);
    setMinimumSize(240, 180);
    clear();
}

void RooflineChart::clear()
{
    plot_->clearGraphs();
    roofs_.clear();
    points_.clear();
    plot_->xAxis->setRange(0.01, 1000);
    plot_->yAxis->setRange(0.1, 1000);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RooflineChart::setEvaluation(const Architecture& a, const Evaluation& e)
{
    clear();
    if (!e.valid || e.cycles <= 0) return;
    const double peak = double(a.compute.instances);
    roofs_.push_back({a.compute.name.empty() ? tr("compute") : QString::fromStdString(a.compute.name), 0.0, peak});
    const double performance = double(e.macs) / double(e.cycles);
    for (int i = 0; i < a.numLevels() && std::size_t(i) < e.levels.size(); ++i) {
        const StorageLevel& l = a.levels[std::size_t(i)];
        if (l.isSpatialOnly()) continue;
        double words = 0.0;
        for (const TensorLevelStats& t : e.levels[std::size_t(i)].tensors) words += double(t.reads + t.fills + t.updates);
        const double bytes = words * l.word_bits / 8.0;
        const QString name = QString::fromStdString(l.name);
        if (const auto bw = levelBandwidth(l)) roofs_.push_back({name, *bw * double(l.instances) * l.word_bits / 8.0, 0.0});
        if (bytes > 0 && (i == 0 || levelBandwidth(l))) points_.push_back({name, double(e.macs) / bytes, performance});
    }

    double xMin = 1e30, xMax = 0;
    for (const Point& p : points_) {
        xMin = std::min(xMin, p.intensity);
        xMax = std::max(xMax, p.intensity);
    }
    for (const Roof& r : roofs_)
        if (r.bytesPerCycle > 0) {
            xMin = std::min(xMin, peak / r.bytesPerCycle);
            xMax = std::max(xMax, peak / r.bytesPerCycle);
        }
    if (xMax <= 0) xMin = xMax = 1;
    xMin /= 10;
    xMax *= 10;

    const QList<QColor> colors = ViridisPalette::categorical(int(roofs_.size()) + 1);
    QVector<double> xs;
    for (int k = 0; k <= 60; ++k) xs << xMin * std::pow(xMax / xMin, k / 60.0);
    for (std::size_t r = 0; r < roofs_.size(); ++r) {
        QCPGraph* g = plot_->addGraph();
        QVector<double> ys;
        for (double x : xs) ys << (roofs_[r].bytesPerCycle > 0 ? std::min(peak, roofs_[r].bytesPerCycle * x) : peak);
        g->setData(xs, ys, true);
        QPen pen(colors[int(r)], 2);
        if (r == 0) pen.setStyle(Qt::DashLine);
        g->setPen(pen);
        g->setName(r == 0 ? tr("compute roof: %1 MACs/cycle").arg(NumberFormat::decimal(peak, 4))
                          : tr("%1: %2 B/cycle").arg(roofs_[r].name, NumberFormat::decimal(roofs_[r].bytesPerCycle, 4)));
    }
    for (std::size_t p = 0; p < points_.size(); ++p) {
        QCPGraph* g = plot_->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        const bool main = p == 0;
        g->setScatterStyle(QCPScatterStyle(main ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle, QColor(0xB0, 0x00, 0x20),
                                           main ? 11 : 8));
        g->setData(QVector<double>{points_[p].intensity}, QVector<double>{points_[p].performance}, true);
        g->setName(tr("mapping at %1: %2 MACs/B, %3 MACs/cycle")
                       .arg(points_[p].level, NumberFormat::decimal(points_[p].intensity, 3), NumberFormat::decimal(performance, 3)));
    }
    plot_->xAxis->setRange(xMin, xMax);
    plot_->yAxis->setRange(std::max(1e-3, std::min(performance, peak) / 100), peak * 3);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool RooflineChart::exportPng(const QString& path, int width, int height)
{
    return PlotExport::png(plot_, path, width, height);
}

bool RooflineChart::exportPdf(const QString& path, int width, int height)
{
    return PlotExport::pdf(plot_, path, tr("Roofline"), width, height);
}

void RooflineChart::exportWithDialog()
{
    PlotExport::withDialog(plot_, tr("Roofline"));
}

void RooflineChart::replotNow()
{
    plot_->replot(QCustomPlot::rpImmediateRefresh);
}

void RooflineChart::contextMenuEvent(QContextMenuEvent* event)
{
    PlotExport::contextMenu(plot_, tr("Roofline"), event->globalPos());
}

} // namespace nestor::widgets
