#include "EvaluationPanel.h"

#include "EnergyBreakdownChart.h"
#include "EvaluationSummaryView.h"
#include "LoopNestView.h"

#include <QDataStream>
#include <QHBoxLayout>
#include <QSplitter>

namespace nestor::app {

EvaluationPanel::EvaluationPanel(QWidget* parent)
    : QWidget(parent),
      loopNest_(new widgets::LoopNestView),
      summary_(new widgets::EvaluationSummaryView),
      chart_(new widgets::EnergyBreakdownChart),
      outer_(new QSplitter(Qt::Horizontal, this)),
      right_(new QSplitter(Qt::Vertical))
{
    right_->addWidget(summary_);
    right_->addWidget(chart_);
    right_->setStretchFactor(0, 3);
    right_->setStretchFactor(1, 2);
    outer_->addWidget(loopNest_);
    outer_->addWidget(right_);
    outer_->setStretchFactor(0, 2);
    outer_->setStretchFactor(1, 3);
    outer_->setChildrenCollapsible(false);

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
    out << outer_->saveState() << right_->saveState();
    return state;
}

void EvaluationPanel::restoreState(const QByteArray& state)
{
    QDataStream in(state);
    QByteArray outer, right;
    in >> outer >> right;
    if (in.status() != QDataStream::Ok) return;
    outer_->restoreState(outer);
    right_->restoreState(right);
}

} // namespace nestor::app
