#pragma once
// The best-so-far curve of mapspace searches (the Ruby paper's Fig. 7): the first metric of the
// best mapping found against the number of evaluated mappings, both axes logarithmic, one
// step line per run (e.g. per mapspace). Runs stay until clear(), so several mapspaces can be
// compared on one axis.
#include <QString>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPGraph;

namespace nestor::widgets {

class SearchProgressChart : public QWidget {
    Q_OBJECT
public:
    explicit SearchProgressChart(QWidget* parent = nullptr);

    void setMetricName(const QString& name);      // y axis label, e.g. "EDP (J·s)"
    int addRun(const QString& name);              // a new line; returns its index
    void addImprovement(int run, double evaluated, double value);
    void extendTo(int run, double evaluated);     // the line continues flat up to `evaluated`
    void clear();

    int runCount() const { return int(runs_.size()); }
    int improvementCount(int run) const;
    double lastValue(int run) const;              // NaN when the run has no point yet
    QString runName(int run) const;
    bool exportPng(const QString& path, int width = 0, int height = 0);
    bool exportPdf(const QString& path, int width = 0, int height = 0);
    QCustomPlot* plot() const { return plot_; }

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    struct Run {
        QString name;
        QCPGraph* graph = nullptr;
        std::vector<double> x, y;   // improvements
        double extent = 0;          // evaluated so far
    };
    void redraw(Run& r);
    void rescale();

    QCustomPlot* plot_;
    std::vector<Run> runs_;
};

} // namespace nestor::widgets
