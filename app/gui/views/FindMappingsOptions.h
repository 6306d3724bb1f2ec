#pragma once
// The Network tab's "Options" button beside Find Mappings: a drop-down with the search
// algorithm (the engine's registry), the budget per layer and the seed, as nestor-cli's
// --algorithm, --budget and --seed. The mapspace and the metric stay in the tab's bar.
#include "NetworkMappingSearch.h"

#include <QToolButton>

class QComboBox;
class QSpinBox;

namespace nestor::app {

class FindMappingsOptions : public QToolButton {
    Q_OBJECT
public:
    explicit FindMappingsOptions(QWidget* parent = nullptr);

    // Writes the algorithm, budget and seed chosen here into `settings`.
    void applyTo(FindMappingsSettings& settings) const;

    QComboBox* algorithmBox() const { return algorithm_; }
    QSpinBox* budgetBox() const { return budget_; }   // 0 = the default stop rules
    QSpinBox* seedBox() const { return seed_; }

private:
    void updateSummary();

    QComboBox* algorithm_;
    QSpinBox* budget_;
    QSpinBox* seed_;
};

} // namespace nestor::app
