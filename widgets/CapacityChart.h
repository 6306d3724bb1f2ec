#pragma once
// Capacity use per storage level as horizontal bars: used words of one instance against
// its usable size (percent); overflowing levels in red, unbounded levels left out.
#include "arch/Architecture.h"
#include "model/Evaluation.h"

#include <QWidget>

class QCustomPlot;

namespace nestor::widgets {

class CapacityChart : public QWidget {
    Q_OBJECT
public:
    explicit CapacityChart(QWidget* parent = nullptr);

    void setEvaluation(const Architecture& a, const Evaluation& e);
    void clear();
    int barCount() const { return bars_; }
    bool exportPng(const QString& path, int width = 0, int height = 0);
    bool exportPdf(const QString& path, int width = 0, int height = 0);
    QCustomPlot* plot() const { return plot_; }

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    QCustomPlot* plot_;
    int bars_ = 0;
};

} // namespace nestor::widgets
