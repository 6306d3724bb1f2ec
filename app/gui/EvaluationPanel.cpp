#include "EvaluationPanel.h"

#include "CapacityChart.h"
#include "ColumnFitter.h"
#include "EnergyBreakdownChart.h"
#include "RooflineChart.h"
#include "EvaluationSummaryView.h"
#include "LoopNestView.h"

#include <QDataStream>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QVBoxLayout>
#include <QIODevice>
#include <QResizeEvent>
#include <QSplitter>
#include <QTabWidget>

namespace nestor::app {

EvaluationPanel::EvaluationPanel(QWidget* parent)
    : QWidget(parent),
      editError_(new QLabel),
      loopNest_(new widgets::LoopNestView),
      summary_(new widgets::EvaluationSummaryView),
      chart_(new widgets::EnergyBreakdownChart),
      roofline_(new widgets::RooflineChart),
      capacity_(new widgets::CapacityChart),
      charts_(new QTabWidget),
      outer_(new QSplitter(Qt::Horizontal, this)),
      left_(new QSplitter(Qt::Vertical))
{
    connect(outer_, &QSplitter::splitterMoved, this, &EvaluationPanel::markSplitterPlacedByUser);
    editError_->setObjectName(QStringLiteral("editErrorBanner"));
    editError_->setWordWrap(true);
    editError_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    editError_->setStyleSheet(QStringLiteral("QLabel { background: #fde7ea; color: #b00020; border: 1px solid #b00020; padding: 4px; }"));
    editError_->setVisible(false);
    auto* nestBox = new QWidget;
    auto* nestLayout = new QVBoxLayout(nestBox);
    nestLayout->setContentsMargins(0, 0, 0, 0);
    nestLayout->setSpacing(2);
    nestLayout->addWidget(editError_);
    nestLayout->addWidget(loopNest_, 1);
    left_->addWidget(nestBox);
    charts_->addTab(chart_, tr("Energy"));
    charts_->addTab(roofline_, tr("Roofline"));
    charts_->addTab(capacity_, tr("Capacity"));
    charts_->setDocumentMode(true);
    left_->addWidget(charts_);
    outer_->addWidget(left_);
    outer_->addWidget(summary_);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(outer_);
}

void EvaluationPanel::clear()
{
    title_.clear();
    lastValid_.reset();
    stale_ = false;
    clearEditError();
    chart_->setNote({});
    loopNest_->clear();
    summary_->clear();
    chart_->clear();
    roofline_->clear();
    capacity_->clear();
}

void EvaluationPanel::showPending(const QString& title, const Workload& w, const Architecture& a, const Mapping& m)
{
    title_ = title;
    lastValid_.reset();
    stale_ = false;
    clearEditError();
    chart_->setNote({});
    architecture_ = a;
    loopNest_->setMapping(w, a, m);
    summary_->showPending(title);
    balanceSplitter();
    chart_->clear();
    roofline_->clear();
    capacity_->clear();
}

void EvaluationPanel::showEdited(const Workload& w, const Architecture& a, const Mapping& m)
{
    architecture_ = a;
    loopNest_->setMapping(w, a, m);
    summary_->showUpdating(title_);
}

void EvaluationPanel::showEvaluation(const Evaluation& e)
{
    loopNest_->setEvaluation(e);
    if (!e.valid && lastValid_) {
        stale_ = true;
        summary_->showStale(title_, *lastValid_, lastValidRoofline_, e.errors, e.exactBudgetExceeded);
        chart_->setNote(tr("last valid evaluation"));
        showFigures(*lastValid_, lastValidRoofline_);
        return;
    }
    stale_ = false;
    const Roofline roofline = computeRoofline(architecture_, e);
    if (e.valid) {
        lastValid_ = e;
        lastValidRoofline_ = roofline;
    }
    chart_->setNote({});
    summary_->showEvaluation(title_, e, roofline);
    showFigures(e, roofline);
    balanceSplitter();
}

void EvaluationPanel::balanceSplitter()
{
    if (userPlacedSplitter_ || !splittersPlaced_ || width() < 100) return;
    const int total = width() - outer_->handleWidth();
    // The summary's own minimum (its headline figures) is a floor for the right side.
    const QMargins m = summary_->layout()->contentsMargins();
    const int rightFloor = summary_->minimumSizeHint().width();
    const int leftMin = loopNest_->columnFitter()->minimumViewWidth();
    const int leftPref = loopNest_->columnFitter()->preferredViewWidth();
    const int rightMin = std::max(rightFloor, summary_->accessColumns()->minimumViewWidth() + m.left() + m.right());
    const int rightPref = std::max(rightFloor, summary_->accessColumns()->preferredViewWidth() + m.left() + m.right());
    int left = 0;
    if (leftPref + rightPref <= total) {
        left = leftPref + (total - leftPref - rightPref) / 2;  // both exact; the rest shared evenly
    } else if (leftMin + rightMin <= total) {
        // Both fit compacted: the room beyond the minima goes where exact figures lack it.
        const int room = total - leftMin - rightMin;
        const int lacking = (leftPref - leftMin) + (rightPref - rightMin);
        left = leftMin + (lacking > 0 ? int(std::int64_t(room) * (leftPref - leftMin) / lacking) : room / 2);
    } else {
        left = int(std::int64_t(total) * leftMin / (leftMin + rightMin));  // neither fits: shared in proportion
    }
    outer_->setSizes({left, total - left});
}

void EvaluationPanel::showFigures(const Evaluation& e, const Roofline& roofline)
{
    chart_->setEvaluation(e);
    roofline_->setRoofline(roofline);
    capacity_->setEvaluation(architecture_, e);
}

void EvaluationPanel::showChart(Chart chart)
{
    charts_->setCurrentIndex(int(chart));
}

void EvaluationPanel::replotNow()
{
    chart_->replotNow();
    roofline_->replotNow();
}

void EvaluationPanel::showEditError(const QString& message)
{
    editError_->setText(tr("Edit rejected: %1").arg(message));
    editError_->setVisible(true);
}

void EvaluationPanel::clearEditError()
{
    editError_->clear();
    editError_->setVisible(false);
}

QString EvaluationPanel::editError() const
{
    return editError_->text();
}

void EvaluationPanel::showFailure(const QString& message)
{
    summary_->showFailure(title_, message);
    chart_->clear();
    roofline_->clear();
    capacity_->clear();
}

QByteArray EvaluationPanel::saveState() const
{
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << outer_->saveState() << left_->saveState();
    return state;
}

void EvaluationPanel::restoreState(const QByteArray& state)
{
    QDataStream in(state);
    QByteArray outer, left;
    in >> outer >> left;
    if (in.status() != QDataStream::Ok) return;
    splittersPlaced_ = outer_->restoreState(outer) && left_->restoreState(left);
    userPlacedSplitter_ = splittersPlaced_;  // a saved layout is the user's
}

void EvaluationPanel::markSplitterPlacedByUser()
{
    userPlacedSplitter_ = true;
}

void EvaluationPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (!splittersPlaced_ && width() >= 100 && height() >= 100) {
        splittersPlaced_ = true;
        // Loop nest above the chart on the left (3 : 2), the summary and its table on the right.
        left_->setSizes({height() * 3 / 5, height() - height() * 3 / 5});
    }
    balanceSplitter();
}

} // namespace nestor::app
