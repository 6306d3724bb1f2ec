#pragma once
// The central area: the loop nest above the energy chart on the left; the summary with
// its per level x tensor table on the right.
#include "analysis/Roofline.h"
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <QWidget>

#include <optional>

class QLabel;
class QSplitter;
class QTabWidget;

namespace nestor::widgets {
class CapacityChart;
class EnergyBreakdownChart;
class RooflineChart;
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
    // After an edit of the shown mapping: new loops at once, the figures stay until the
    // new evaluation arrives. An invalid evaluation then keeps the last valid figures, marked.
    void showEdited(const Workload& w, const Architecture& a, const Mapping& m);
    bool isShowingStale() const { return stale_; }
    const Evaluation* lastValidEvaluation() const { return lastValid_ ? &*lastValid_ : nullptr; }
    // A rejected edit: the reason in a red banner above the loop nest, until the next edit.
    void showEditError(const QString& message);
    void clearEditError();
    QString editError() const;

    QByteArray saveState() const;
    void restoreState(const QByteArray& state);

    widgets::LoopNestView* loopNestView() const { return loopNest_; }
    widgets::EvaluationSummaryView* summaryView() const { return summary_; }
    widgets::EnergyBreakdownChart* energyChart() const { return chart_; }
    widgets::RooflineChart* rooflineChart() const { return roofline_; }
    widgets::CapacityChart* capacityChart() const { return capacity_; }
    enum class Chart { Energy, Roofline, Capacity };
    void showChart(Chart chart);
    void replotNow();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QString title_;
    std::optional<Evaluation> lastValid_;
    Roofline lastValidRoofline_;  // of lastValid_, against the architecture it was evaluated on
    bool stale_ = false;
    QLabel* editError_;
    widgets::LoopNestView* loopNest_;
    widgets::EvaluationSummaryView* summary_;
    widgets::EnergyBreakdownChart* chart_;
    widgets::RooflineChart* roofline_;
    widgets::CapacityChart* capacity_;
    QTabWidget* charts_;
    Architecture architecture_;
    void showFigures(const Evaluation& e, const Roofline& roofline);
    // Until the user moves the splitter: shares the width between the loop nest and the
    // access table so that every column of both fits, exactly where there is room.
    void balanceSplitter();
    void markSplitterPlacedByUser();
    QSplitter* outer_;
    QSplitter* left_;
    bool splittersPlaced_ = false;  // initial proportions applied, or a saved state restored
    bool userPlacedSplitter_ = false;  // moved by the user or restored: balanceSplitter leaves it
};

} // namespace nestor::app
