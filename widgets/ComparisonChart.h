#pragma once
// Several evaluations on one axis: energy per level (and the MACs) as grouped bars, one
// colour per evaluation, so two mappings (or one mapping on two architectures) compare
// level by level. Levels are matched by name.
#include "model/Evaluation.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QCustomPlot;

namespace nestor::widgets {

class ComparisonChart : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonChart(QWidget* parent = nullptr);

    void setEvaluations(const QStringList& labels, const std::vector<Evaluation>& evaluations);
    void clear();
    int seriesCount() const;
    bool exportPng(const QString& path, int width = 0, int height = 0);
    bool exportPdf(const QString& path, int width = 0, int height = 0);
    void replotNow();
    QCustomPlot* plot() const { return plot_; }

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    QCustomPlot* plot_;
};

} // namespace nestor::widgets
