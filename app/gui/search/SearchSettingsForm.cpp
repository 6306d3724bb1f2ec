#include "SearchSettingsForm.h"

#include "SearchAlgorithmBox.h"

#include "mapspace/Mapspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QThread>

#include <algorithm>
#include <limits>

namespace nestor::app {

namespace {

constexpr int kIntMax = std::numeric_limits<int>::max();

QSpinBox* spin(int lo, int hi, int value, const QString& tip)
{
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(value);
    s->setGroupSeparatorShown(true);
    s->setToolTip(tip);
    return s;
}

int clampToInt(qint64 v)
{
    return int(std::clamp<qint64>(v, 0, kIntMax));
}

} // namespace

SearchSettingsForm::SearchSettingsForm(QWidget* parent)
    : QWidget(parent), layer_(new QComboBox), constraints_(new QCheckBox(tr("Apply the project's constraints"))),
      algorithm_(new QComboBox),
      threads_(spin(1, std::max(1, QThread::idealThreadCount()), 1, tr("Search threads; a seed and a thread count fix the result"))),
      searchSize_(spin(0, kIntMax, 0, tr("Stop after this many valid mappings (all threads; 0 = off)"))),
      budget_(spin(0, kIntMax, 20000, tr("Stop after this many evaluated mappings (all threads; 0 = off)"))),
      victory_(spin(0, kIntMax, 500, tr("Stop a thread after this many consecutive valid mappings that do not improve (0 = off)"))),
      timeout_(spin(0, kIntMax, 1000, tr("Stop a thread after this many consecutive invalid mappings (Timeloop's \"timeout\"); 0 stops at the first"))),
      metrics_(new QLineEdit(QStringLiteral("edp"))),
      seed_(spin(0, kIntMax, 1, tr("Random seed: the same seed and thread count give the same result"))),
      sweepBudget_(spin(100, kIntMax, 3000, tr("Evaluated mappings per PE-array configuration")))
{
    fillSearchAlgorithms(algorithm_, QStringLiteral("annealing"));
    metrics_->setToolTip(tr("Ordered metric list, comma separated: edp, energy, delay, last-level-accesses"));

    auto* kinds = new QHBoxLayout;
    for (MapspaceKind k : allMapspaceKinds()) {
        auto* box = new QCheckBox(QString::fromStdString(mapspaceKindName(k)));
        box->setChecked(k == MapspaceKind::Pfm);
        box->setToolTip(k == MapspaceKind::Pfm ? tr("perfect factorization") : tr("remainders allowed (Ruby); slower to evaluate"));
        kinds->addWidget(box);
        mapspaces_.push_back(box);
    }
    kinds->addStretch(1);

    constraints_->setChecked(true);
    constraints_->setToolTip(tr("The project's constraints section for the chosen layer (fixed or bounded factors, "
                                "loop orders, spatial axes, keep/bypass, minimum utilization), as nestor-cli search "
                                "applies it unless --no-constraints"));

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Layer"), layer_);
    form->addRow(tr("Mapspaces"), kinds);
    form->addRow(tr("Constraints"), constraints_);
    form->addRow(tr("Algorithm"), algorithm_);
    form->addRow(tr("Threads"), threads_);
    form->addRow(tr("Search size"), searchSize_);
    form->addRow(tr("Evaluation budget"), budget_);
    form->addRow(tr("Victory condition"), victory_);
    form->addRow(tr("Invalid in a row"), timeout_);
    form->addRow(tr("Metrics"), metrics_);
    form->addRow(tr("Seed"), seed_);
}

SearchSettings SearchSettingsForm::settings() const
{
    SearchSettings s;
    s.layer = layer_->currentText();
    s.mapspaces.clear();
    for (QCheckBox* b : mapspaces_)
        if (b->isChecked()) s.mapspaces << b->text();
    s.algorithm = algorithm_->currentText();
    s.threads = threads_->value();
    s.searchSize = searchSize_->value();
    s.evaluationBudget = budget_->value();
    s.victoryCondition = victory_->value();
    s.timeout = timeout_->value();
    s.metrics = metrics_->text();
    s.seed = seed_->value();
    s.sweepBudget = sweepBudget_->value();
    s.useConstraints = constraints_->isChecked();
    return s;
}

bool SearchSettingsForm::setSettings(const SearchSettings& s)
{
    bool ok = true;
    if (layer_->findText(s.layer) >= 0) layer_->setCurrentText(s.layer);
    else ok = false;
    for (QCheckBox* b : mapspaces_) b->setChecked(s.mapspaces.contains(b->text()));
    for (const QString& m : s.mapspaces)
        if (!parseMapspaceKind(m.toStdString())) ok = false;
    if (algorithm_->findText(s.algorithm) >= 0) algorithm_->setCurrentText(s.algorithm);
    else ok = false;
    threads_->setValue(s.threads);
    searchSize_->setValue(clampToInt(s.searchSize));
    budget_->setValue(clampToInt(s.evaluationBudget));
    victory_->setValue(clampToInt(s.victoryCondition));
    timeout_->setValue(clampToInt(s.timeout));
    metrics_->setText(s.metrics);
    seed_->setValue(clampToInt(s.seed));
    sweepBudget_->setValue(s.sweepBudget);
    constraints_->setChecked(s.useConstraints);
    return ok;
}

void SearchSettingsForm::setLayers(const QStringList& layers, const QString& fallback)
{
    const QString current = layer_->currentText();
    layer_->clear();
    layer_->addItems(layers);
    const int i = layer_->findText(current);
    if (i >= 0) layer_->setCurrentIndex(i);
    else if (!fallback.isEmpty()) layer_->setCurrentText(fallback);
}

bool SearchSettingsForm::hasLayers() const
{
    return layer_->count() > 0;
}

} // namespace nestor::app
