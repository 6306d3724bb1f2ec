#pragma once
// A two-objective scatter (both minimized, e.g. energy vs delay, area vs EDP) with the Pareto
// front of each series (engine/analysis/ParetoFront) drawn as a staircase of larger markers;
// dominated points are small and pale. Clicking near a point emits pointClicked(series, index)
// with the index in the order the series was given.
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPGraph;

namespace nestor::widgets {

class ParetoChart : public QWidget {
    Q_OBJECT
public:
    explicit ParetoChart(QWidget* parent = nullptr);

    void setAxisLabels(const QString& x, const QString& y);
    void setLogarithmic(bool x, bool y);
    // Adds a series; returns its index. Non-positive values on a log axis are left out of the plot.
    // `labels` (one per point, optional) name the points in the hover tooltip, e.g. "16x12".
    int addSeries(const QString& name, const QVector<QPointF>& points, const QStringList& labels = {});
    // The hover text of a point: its label, series and both coordinates.
    QString toolTipOf(int series, int index) const;
    void clear();

    int seriesCount() const { return int(series_.size()); }
    int pointCount(int series) const;
    // Indices (into the series' points) of the non-dominated points, ascending.
    std::vector<int> frontIndices(int series) const;
    // The point nearest to a pixel of the plot within `radius` pixels: {series, index} or {-1, -1}.
    std::pair<int, int> pointAt(const QPoint& pixel, double radius = 8) const;
    QPointF pixelOf(int series, int index) const;
    // As a click on the point.
    void clickPoint(int series, int index);

    bool exportPng(const QString& path, int width = 0, int height = 0);
    bool exportPdf(const QString& path, int width = 0, int height = 0);
    QCustomPlot* plot() const { return plot_; }

signals:
    void pointClicked(int series, int index);

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    struct Series {
        QString name;
        QVector<QPointF> points;
        QStringList labels;
        std::vector<int> front;
        QCPGraph* cloud = nullptr;
        QCPGraph* frontGraph = nullptr;
    };
    bool plottable(const QPointF& p) const;
    void rescale();

    QCustomPlot* plot_;
    std::vector<Series> series_;
    bool logX_ = true, logY_ = true;
    QString title_;
};

} // namespace nestor::widgets
