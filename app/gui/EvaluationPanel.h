#pragma once
// The central area: the loop nest above the energy chart on the left; the summary with
// its per level x tensor table on the right.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <QWidget>

class QSplitter;

namespace nestor::widgets {
class EnergyBreakdownChart;
class EvaluationSummaryView;
class LoopNestView;
} // namespace nestor::widgets

namespace nestor::app {

class EvaluationPanel : public QWidget {
    Q_OBJECT
public:
    explicit EvaluationPanel(QWidget* parent = nullptr);

    void clear();
    // Shows the mapping's loops at once; figures follow with showEvaluation.
    void showPending(const QString& title, const Workload& w, const Architecture& a, const Mapping& m);
    void showEvaluation(const Evaluation& e);
    void showFailure(const QString& message);

    QByteArray saveState() const;
    void restoreState(const QByteArray& state);

    widgets::LoopNestView* loopNestView() const { return loopNest_; }
    widgets::EvaluationSummaryView* summaryView() const { return summary_; }
    widgets::EnergyBreakdownChart* energyChart() const { return chart_; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QString title_;
    widgets::LoopNestView* loopNest_;
    widgets::EvaluationSummaryView* summary_;
    widgets::EnergyBreakdownChart* chart_;
    QSplitter* outer_;
    QSplitter* left_;
    bool splittersPlaced_ = false;  // initial proportions applied, or a saved state restored
};

} // namespace nestor::app
