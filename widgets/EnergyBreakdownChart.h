#pragma once
// Energy per storage level as stacked bars, one stack element per tensor (plus leakage
// where present), and a separate bar for the MACs. Colours come from ViridisPalette.
// Updates are coalesced: every change queues one replot for the next event-loop pass.
#include "model/Evaluation.h"

#include <QStringList>
#include <QWidget>

class QCustomPlot;
class QCPLayoutGrid;
class QCPTextElement;

namespace nestor::widgets {

class EnergyBreakdownChart : public QWidget {
    Q_OBJECT
public:
    explicit EnergyBreakdownChart(QWidget* parent = nullptr);

    void setEvaluation(const Evaluation& e);  // an invalid evaluation clears the chart
    void clear();
    // A note after the title, e.g. "last valid evaluation"; empty = none.
    void setNote(const QString& note);

    // Export at the given size in pixels (0 = the widget's size, or 800 x 500 when hidden).
    bool exportPng(const QString& path, int width = 0, int height = 0);
    bool exportPdf(const QString& path, int width = 0, int height = 0);

    void exportWithDialog();                // asks for a .png or .pdf file
    void replotNow();                       // draw pending changes immediately (before a grab)
    int stackElementCount() const;          // bar series currently shown, MAC bar included
    QCustomPlot* plot() const { return plot_; }

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void resetPlot(const QString& title);
    // Level names that do not fit side by side at this width go on two staggered lines, or
    // turn 45 degrees when even that is too narrow; the legend wraps into as many rows as its
    // entries need.
    void fitToWidth(int width);
    void showLegend(bool show);
    QSize exportSize(int width, int height) const;
    void exportWithDialog(bool pdf);

    QCustomPlot* plot_;
    QCPTextElement* title_;
    QCPLayoutGrid* legendRow_;
    QStringList categoryNames_;  // the x tick labels as given: levels, then "compute"
    QString baseTitle_;
    QString note_;
};

} // namespace nestor::widgets
