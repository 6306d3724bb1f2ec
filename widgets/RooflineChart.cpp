#include "RooflineChart.h"

#include "LogAxisTicker.h"
#include "NumberFormat.h"
#include "PlotExport.h"
#include "ViridisPalette.h"

#include <qcustomplot.h>

#include <QContextMenuEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace nestor::widgets {

RooflineChart::RooflineChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        useLogScale(axis);
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(0);
    }
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis})
        axis->ticker().staticCast<QCPAxisTickerLog>()->setTickCount(4);  // decades only: labels never crowd
    plot_->xAxis->setLabel(tr("MACs per byte"));
    plot_->yAxis->setLabel(tr("MACs per cycle"));
    // The legend in a row of its own under the axis rect, wrapped into columns, so it never
    // covers the roofs nor squeezes the plot sideways; the secondary points stay out of it (their
    // names are the hover tooltip).
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(1, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(legendColumns());
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setMargins(QMargins(2, 0, 2, 2));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot_->legend->setFont(small);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) { showToolTip(event->pos(), event->globalPosition().toPoint()); });
    plot_->setContextMenuPolicy(Qt::NoContextMenu);
    setMinimumSize(320, 240);
    clear();
}

void RooflineChart::clear()
{
    plot_->clearGraphs();
    roofline_ = Roofline{};
    plot_->xAxis->setRange(0.01, 1000);
    plot_->yAxis->setRange(0.1, 1000);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RooflineChart::setRoofline(const Roofline& r)
{
    clear();
    if (!r.valid) return;
    roofline_ = r;
    const double peak = r.compute_macs_per_cycle;
    const double performance = r.operating.macs_per_cycle;

    double xMin = 1e30, xMax = 0;
    auto include = [&](double x) {
        if (x <= 0) return;
        xMin = std::min(xMin, x);
        xMax = std::max(xMax, x);
    };
    include(r.operating.intensity_macs_per_byte);
    for (const BandwidthRoof& roof : r.roofs) {
        include(roof.intensity_macs_per_byte);
        include(roof.ridge_macs_per_byte);
    }
    if (xMax <= 0) xMin = xMax = 1;
    xMin /= 10;
    xMax *= 10;

    const QList<QColor> colors = ViridisPalette::categorical(int(r.roofs.size()) + 2);
    QVector<double> xs;
    for (int k = 0; k <= 60; ++k) xs << xMin * std::pow(xMax / xMin, k / 60.0);
    QCPGraph* compute = plot_->addGraph();
    compute->setData(xs, QVector<double>(xs.size(), peak), true);
    compute->setPen(QPen(colors[0], 2, Qt::DashLine));
    compute->setName(tr("compute %1 MACs/cy").arg(NumberFormat::decimal(peak, 3)));
    for (std::size_t i = 0; i < r.roofs.size(); ++i) {
        const BandwidthRoof& roof = r.roofs[i];
        QCPGraph* g = plot_->addGraph();
        QVector<double> ys;
        for (double x : xs) ys << std::min(peak, roof.bytes_per_cycle * x);
        g->setData(xs, ys, true);
        g->setPen(QPen(colors[int(i) + 1], r.binding == i ? 3 : 2));
        g->setName(tr("%1 %2 B/cy").arg(QString::fromStdString(roof.label()), NumberFormat::decimal(roof.bytes_per_cycle, 3)));
    }
    const QColor pointColor(0xB0, 0x00, 0x20);
    auto addPoint = [&](double intensity, bool operating, const QString& name) {
        QCPGraph* g = plot_->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(operating ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle, pointColor,
                                           operating ? 11 : 8));
        g->setData(QVector<double>{intensity}, QVector<double>{performance}, true);
        g->setName(name);
        if (!operating) g->removeFromLegend();
    };
    for (const BandwidthRoof& roof : r.roofs) {
        if (roof.traffic_bytes <= 0 || roof.label() == r.operatingAt) continue;
        addPoint(roof.intensity_macs_per_byte, false,
                 tr("mapping at %1: %2 MACs/B").arg(QString::fromStdString(roof.label()),
                                                    NumberFormat::decimal(roof.intensity_macs_per_byte, 3)));
    }
    if (r.operating.intensity_macs_per_byte > 0)
        addPoint(r.operating.intensity_macs_per_byte, true,
                 tr("mapping: %1 MACs/B, %2 MACs/cy, bound by %3")
                     .arg(NumberFormat::decimal(r.operating.intensity_macs_per_byte, 3), NumberFormat::decimal(performance, 3),
                          QString::fromStdString(r.boundBy())));
    plot_->xAxis->setRange(xMin, xMax);
    plot_->yAxis->setRange(std::max(1e-3, std::min(performance, peak) / 100), peak * 3);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

int RooflineChart::legendColumns() const
{
    constexpr int kColumnWidth = 250;  // px: "weights_spad write 336 B/cy" in the legend font, and its icon
    return std::clamp(width() / kColumnWidth, 1, 4);
}

void RooflineChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // A short chart keeps its plot and drops the legend (every curve still names itself on hover).
    constexpr int kLegendMinHeight = 380;
    const bool legend = height() >= kLegendMinHeight;
    if (plot_->legend->visible() != legend) {
        plot_->legend->setVisible(legend);
        if (legend) {
            plot_->plotLayout()->addElement(1, 0, plot_->legend);
            plot_->plotLayout()->setRowStretchFactor(1, 0.001);
        } else {
            plot_->plotLayout()->take(plot_->legend);  // its row goes too, not just its drawing
            plot_->plotLayout()->simplify();
        }
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
    if (plot_->legend->wrap() != legendColumns()) {
        plot_->legend->setWrap(legendColumns());
        plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-flow the items
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

void RooflineChart::showToolTip(const QPoint& pos, const QPoint& globalPos)
{
    // The name of the nearest curve or point within a few pixels: roofs and points alike.
    constexpr double kPixels = 6;
    QString name;
    double best = kPixels;
    for (int i = 0; i < plot_->graphCount(); ++i) {
        QCPGraph* g = plot_->graph(i);
        const double d = g->selectTest(QPointF(pos), false);
        if (d >= 0 && d < best) {
            best = d;
            name = g->name();
        }
    }
    if (name.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(globalPos, name, plot_);
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
