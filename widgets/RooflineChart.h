#pragma once
// The roofline of a mapping on log-log axes: operational intensity (MACs per byte moved
// at a level) against performance (MACs per cycle). The compute roof is the MAC count;
// every level with a bandwidth adds a roof (bytes per cycle over all its instances x
// intensity). The mapping is a point per level with a bandwidth (its traffic at that level),
// and a filled point for the outermost level. Replots are queued (coalesced).
#include "arch/Architecture.h"
#include "model/Evaluation.h"

#include <QWidget>

class QCustomPlot;

namespace nestor::widgets {

class RooflineChart : public QWidget {
    Q_OBJECT
public:
    struct Point {
        QString level;
        double intensity = 0.0;        // MACs per byte
        double performance = 0.0;      // MACs per cycle
    };
    struct Roof {
        QString name;
        double bytesPerCycle = 0.0;    // 0 for the compute roof
        double macsPerCycle = 0.0;     // compute roof height
    };

    explicit RooflineChart(QWidget* parent = nullptr);

    void setEvaluation(const Architecture& a, const Evaluation& e);
    void clear();

    const std::vector<Roof>& roofs() const { return roofs_; }
    const std::vector<Point>& points() const { return points_; }
    bool exportPng(const QString& path, int width = 0, int height = 0);
    bool exportPdf(const QString& path, int width = 0, int height = 0);
    void exportWithDialog();
    void replotNow();
    QCustomPlot* plot() const { return plot_; }

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    QCustomPlot* plot_;
    std::vector<Roof> roofs_;
    std::vector<Point> points_;
};

} // namespace nestor::widgets
