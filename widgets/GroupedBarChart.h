#pragma once
// Bars grouped by category, one colour per series: e.g. per layer, the pJ/MAC of the fixed
// architecture, the layer-wise co-design and the single architecture (Thistle's Fig. 6).
// A missing value (NaN) leaves a gap in its group.
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCustomPlot;

namespace nestor::widgets {

class GroupedBarChart : public QWidget {
    Q_OBJECT
public:
    explicit GroupedBarChart(QWidget* parent = nullptr);
    void setCategories(const QStringList& categories, const QString& valueLabel);
    // One value per category (NaN = none). Returns the series index.
    int addSeries(const QString& name, const QVector<double>& values);
    void clear();
    int seriesCount() const;
    bool exportPng(const QString& path, int width = 0, int height = 0);
    bool exportPdf(const QString& path, int width = 0, int height = 0);
    QCustomPlot* plot() const { return plot_; }

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void relayout();
    QCustomPlot* plot_;
    QStringList categories_;
    QString title_;
};

} // namespace nestor::widgets
