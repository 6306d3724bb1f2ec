#include "FindMappingsOptions.h"

#include "search/SearchAlgorithmBox.h"

#include <QComboBox>
#include <QFormLayout>
#include <QMenu>
#include <QSpinBox>
#include <QWidgetAction>

#include <limits>

namespace nestor::app {

FindMappingsOptions::FindMappingsOptions(QWidget* parent)
    : QToolButton(parent), algorithm_(new QComboBox), budget_(new QSpinBox), seed_(new QSpinBox)
{
    const FindMappingsSettings defaults;
    fillSearchAlgorithms(algorithm_, QString::fromStdString(defaults.algorithm));
    algorithm_->setToolTip(tr("Search algorithm of Find Mappings (nestor-cli --algorithm)"));
    budget_->setRange(0, std::numeric_limits<int>::max());
    budget_->setGroupSeparatorShown(true);
    budget_->setSpecialValueText(tr("default stop"));
    budget_->setValue(int(defaults.budget));
    const SearchOptions engine;
    budget_->setToolTip(tr("Evaluated mappings per layer, spent whole (the victory rule is off); "
                           "\"default stop\": %1 valid mappings in a row without improvement or %2 invalid ones in a row "
                           "end a thread, as nestor-cli search")
                            .arg(engine.victoryCondition)
                            .arg(engine.timeout));
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setValue(int(defaults.seed));
    seed_->setToolTip(tr("Random seed: the same seed, settings and machine thread count give the same mappings"));

    auto* form = new QWidget;
    auto* layout = new QFormLayout(form);
    layout->addRow(tr("Algorithm"), algorithm_);
    layout->addRow(tr("Budget per layer"), budget_);
    layout->addRow(tr("Seed"), seed_);
    auto* menu = new QMenu(this);
    auto* action = new QWidgetAction(menu);
    action->setDefaultWidget(form);
    menu->addAction(action);
    setMenu(menu);
    setPopupMode(QToolButton::InstantPopup);
    setText(tr("Options"));

    connect(algorithm_, &QComboBox::currentTextChanged, this, &FindMappingsOptions::updateSummary);
    connect(budget_, &QSpinBox::valueChanged, this, &FindMappingsOptions::updateSummary);
    connect(seed_, &QSpinBox::valueChanged, this, &FindMappingsOptions::updateSummary);
    updateSummary();
}

void FindMappingsOptions::applyTo(FindMappingsSettings& settings) const
{
    settings.algorithm = algorithm_->currentText().toStdString();
    settings.budget = budget_->value();
    settings.seed = std::uint64_t(seed_->value());
}

void FindMappingsOptions::updateSummary()
{
    setToolTip(tr("Find Mappings searches with %1, seed %2, %3")
                   .arg(algorithm_->currentText())
                   .arg(seed_->value())
                   .arg(findMappingsStopText(budget_->value())));
}

} // namespace nestor::app
