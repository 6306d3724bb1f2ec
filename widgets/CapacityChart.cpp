#include "CapacityChart.h"

#include "PlotExport.h"
#include "ViridisPalette.h"

#include <qcustomplot.h>

#include <QContextMenuEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace nestor::widgets {

CapacityChart::CapacityChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->yAxis->setLabel(tr("Capacity used by one instance (%)"));
    plot_->xAxis->grid()->setVisible(false);
    plot_->setContextMenuPolicy(Qt::NoContextMenu);
    setMinimumSize(240, 150);
    clear();
}

void CapacityChart::clear()
{
    plot_->clearPlottables();
    plot_->clearItems();
    bars_ = 0;
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->xAxis->setRange(-0.5, 0.5);
    plot_->yAxis->setRange(0, 100);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void CapacityChart::setEvaluation(const Architecture& a, const Evaluation& e)
{
    clear();
    if (!e.valid) return;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, fits, overflows;
    double top = 100;
    for (int i = 0; i < a.numLevels() && std::size_t(i) < e.levels.size(); ++i) {
        const auto size = a.levels[std::size_t(i)].effectiveSizeWords();
        if (!size || *size <= 0) continue;
        const double pct = 100.0 * double(e.levels[std::size_t(i)].capacity_used_words) / double(*size);
        const double key = keys.size();
        keys << key;
        fits << (pct <= 100 ? pct : 0);
        overflows << (pct > 100 ? pct : 0);
        top = std::max(top, pct);
        ticker->addTick(key, QString::fromStdString(a.levels[std::size_t(i)].name));
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(key, pct);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(QStringLiteral("%1 %").arg(pct, 0, 'f', pct < 10 ? 1 : 0));
    }
    bars_ = int(keys.size());
    if (keys.isEmpty()) return;
    const QColor color = ViridisPalette::at(0.45);
    auto* ok = new QCPBars(plot_->xAxis, plot_->yAxis);
    ok->setData(keys, fits, true);
    ok->setBrush(color);
    ok->setPen(QPen(color.darker(130)));
    ok->setWidth(0.6);
    auto* bad = new QCPBars(plot_->xAxis, plot_->yAxis);
    bad->setData(keys, overflows, true);
    bad->setBrush(QColor(0xB0, 0x00, 0x20));
    bad->setWidth(0.6);
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(-0.6, keys.size() - 0.4);
    plot_->yAxis->setRange(0, top * 1.15);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool CapacityChart::exportPng(const QString& path, int width, int height)
{
    return PlotExport::png(plot_, path, width, height);
}

bool CapacityChart::exportPdf(const QString& path, int width, int height)
{
    return PlotExport::pdf(plot_, path, tr("Capacity use"), width, height);
}

void CapacityChart::contextMenuEvent(QContextMenuEvent* event)
{
    PlotExport::contextMenu(plot_, tr("Capacity use"), event->globalPos());
}

} // namespace nestor::widgets
