#pragma once
// Draws an engine Roofline (analysis/Roofline.h) on log-log axes: operational intensity (MACs
// per byte) against throughput (MACs per cycle). The compute roof is dashed; every bandwidth
// limit (a level's read, write or shared port) is a roof; the mapping is a hollow point per
// limit it moves data through and a filled point where it operates (on the roof that binds).
// The chart computes nothing. Replots are queued (coalesced).
#include "analysis/Roofline.h"

#include <QWidget>

class QCustomPlot;

namespace nestor::widgets {

class RooflineChart : public QWidget {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);

    void setRoofline(const Roofline& r);  // an invalid roofline clears the chart
    void clear();

    const Roofline& roofline() const { return roofline_; }
    bool exportPng(const QString& path, int width = 0, int height = 0);
    bool exportPdf(const QString& path, int width = 0, int height = 0);
    void exportWithDialog();
    void replotNow();
    QCustomPlot* plot() const { return plot_; }

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void showToolTip(const QPoint& pos, const QPoint& globalPos);
    int legendColumns() const;
    QCustomPlot* plot_;
    Roofline roofline_;
};

} // namespace nestor::widgets
