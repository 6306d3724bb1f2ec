#include "EvaluationPanel.h"

#include "EnergyBreakdownChart.h"
#include "EvaluationSummaryView.h"
#include "LoopNestView.h"

#include <QDataStream>
#include <QHBoxLayout>
#include <QIODevice>
#include <QResizeEvent>
#include <QSplitter>

namespace nestor::app {

EvaluationPanel::EvaluationPanel(QWidget* parent)
    : QWidget(parent),
      loopNest_(new widgets::LoopNestView),
      summary_(new widgets::EvaluationSummaryView),
      chart_(new widgets::EnergyBreakdownChart),
      outer_(new QSplitter(Qt::Horizontal, this)),
      left_(new QSplitter(Qt::Vertical))
{
    left_->addWidget(loopNest_);
    left_->addWidget(chart_);
    outer_->addWidget(left_);
    outer_->addWidget(summary_);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(outer_);
}

void EvaluationPanel::clear()
{
    title_.clear();
    loopNest_->clear();
    summary_->clear();
    chart_->clear();
}

void EvaluationPanel::showPending(const QString& title, const Workload& w, const Architecture& a, const Mapping& m)
{
    title_ = title;
    loopNest_->setMapping(w, a, m);
    summary_->showPending(title);
    chart_->clear();
}

void EvaluationPanel::showEvaluation(const Evaluation& e)
{
    loopNest_->setEvaluation(e);
    summary_->showEvaluation(title_, e);
    chart_->setEvaluation(e);
}

void EvaluationPanel::showFailure(const QString& message)
{
    summary_->showFailure(title_, message);
    chart_->clear();
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
}

void EvaluationPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (splittersPlaced_ || width() < 100 || height() < 100) return;
    splittersPlaced_ = true;
    // Loop nest above the chart on the left (3 : 2), the summary and its table on the right.
    outer_->setSizes({width() / 2, width() - width() / 2});
    left_->setSizes({height() * 3 / 5, height() - height() * 3 / 5});
}

} // namespace nestor::app
