#pragma once
// The Search tab's settings: layer, mapspaces, constraints, algorithm (from the engine's
// registry), threads, the termination rules, the ordered metric list, the seed and the sweep's
// budget per PE array. It only edits a SearchSettings; running is the panel's business.
#include "SearchSettings.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;

namespace nestor::app {

class SearchSettingsForm : public QWidget {
    Q_OBJECT
public:
    explicit SearchSettingsForm(QWidget* parent = nullptr);

    SearchSettings settings() const;
    bool setSettings(const SearchSettings& s);   // false if the layer or a name is unknown
    // The layers offered; keeps the chosen one when it is still there, else picks `fallback`.
    void setLayers(const QStringList& layers, const QString& fallback);
    bool hasLayers() const;
    // The sweep's own field, placed by the panel in its sweep box.
    QSpinBox* sweepBudgetField() const { return sweepBudget_; }

private:
    QComboBox* layer_;
    std::vector<QCheckBox*> mapspaces_;
    QCheckBox* constraints_;
    QComboBox* algorithm_;
    QSpinBox* threads_;
    QSpinBox* searchSize_;
    QSpinBox* budget_;
    QSpinBox* victory_;
    QSpinBox* timeout_;
    QLineEdit* metrics_;
    QSpinBox* seed_;
    QSpinBox* sweepBudget_;
};

} // namespace nestor::app
