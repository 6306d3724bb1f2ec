#include "NetworkChart.h"

#include "NumberFormat.h"
#include "PlotExport.h"
#include "ViridisPalette.h"

#include <qcustomplot.h>

#include <QContextMenuEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace nestor::widgets {

NetworkChart::NetworkChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis2->setVisible(true);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot_->setContextMenuPolicy(Qt::NoContextMenu);
    setMinimumSize(240, 180);
    clear();
}

void NetworkChart::clear()
{
    plot_->clearPlottables();
    layers_ = 0;
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->xAxis->setRange(-0.5, 0.5);
    plot_->yAxis->setLabel(tr("Energy"));
    plot_->yAxis2->setLabel(tr("Cycles"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void NetworkChart::setLayers(const QStringList& names, const QVector<double>& energy_pJ, const QVector<double>& cycles)
{
    clear();
    layers_ = int(names.size());
    if (names.isEmpty()) return;
    double eMax = 0, cMax = 0;
    for (double v : energy_pJ) if (!std::isnan(v)) eMax = std::max(eMax, v);
    for (double v : cycles) if (!std::isnan(v)) cMax = std::max(cMax, v);
    const ScaledUnit unit = NumberFormat::energyUnitFor(eMax);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, e, c;
    for (int i = 0; i < names.size(); ++i) {
        ticker->addTick(i, names[i]);
        keys << i;
        e << (std::isnan(energy_pJ.value(i)) ? 0 : energy_pJ.value(i) / unit.divisor);
        c << (std::isnan(cycles.value(i)) ? 0 : cycles.value(i));
    }
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setTickLabelRotation(names.size() > 8 ? 60 : 0);
    auto* group = new QCPBarsGroup(plot_);
    const QList<QColor> colors = ViridisPalette::categorical(2);
    auto* energy = new QCPBars(plot_->xAxis, plot_->yAxis);
    energy->setName(tr("energy (%1)").arg(unit.unit));
    energy->setData(keys, e, true);
    energy->setBrush(colors[0]);
    energy->setWidth(0.4);
    energy->setBarsGroup(group);
    auto* cyc = new QCPBars(plot_->xAxis, plot_->yAxis2);
    cyc->setName(tr("cycles"));
    cyc->setData(keys, c, true);
    cyc->setBrush(colors[1]);
    cyc->setWidth(0.4);
    cyc->setBarsGroup(group);
    plot_->xAxis->setRange(-0.6, names.size() - 0.4);
    plot_->yAxis->setRange(0, (eMax > 0 ? eMax / unit.divisor : 1) * 1.15);
    plot_->yAxis2->setRange(0, (cMax > 0 ? cMax : 1) * 1.15);
    plot_->yAxis->setLabel(tr("Energy (%1)").arg(unit.unit));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool NetworkChart::exportPng(const QString& path, int width, int height)
{
    return PlotExport::png(plot_, path, width, height);
}

bool NetworkChart::exportPdf(const QString& path, int width, int height)
{
    return PlotExport::pdf(plot_, path, tr("Network"), width, height);
}

void NetworkChart::replotNow()
{
    plot_->replot(QCustomPlot::rpImmediateRefresh);
}

void NetworkChart::contextMenuEvent(QContextMenuEvent* event)
{
    PlotExport::contextMenu(plot_, tr("Network"), event->globalPos());
}

} // namespace nestor::widgets
