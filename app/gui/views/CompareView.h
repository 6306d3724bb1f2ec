#pragma once
// The Compare tab: pin two or more mappings (or one mapping on another project's
// architecture) and see them side by side: the loop nests aligned by level, the headline
// figures with their differences to the first pin, and energy per level on one axis.
// The pins are evaluated together in the background.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QTableWidget;

namespace nestor::widgets {
class ComparisonChart;
}

namespace nestor::app {

class BackgroundJob;
class ProjectDocument;

class CompareView : public QWidget {
    Q_OBJECT
public:
    struct Pin {
        QString label;
        Workload workload;
        Architecture architecture;
        Mapping mapping;
    };

    CompareView(ProjectDocument* document, QWidget* parent = nullptr);

    void setCurrentMapping(const QString& name);
    bool pin(const QString& mapping);                       // on the project's architecture
    // Replaces the pins by every mapping of `mapping`'s layer, in project order; how many.
    int pinAllOfLayer(const QString& mapping);
    bool pinWithArchitecture(const QString& mapping, const QString& projectPath);  // another project's architecture
    void pinValue(Pin pin);                                  // any mapping on any architecture (e.g. a sweep point)
    void clearPins();
    int pinCount() const { return int(pins_.size()); }
    bool isEvaluating() const;
    const std::vector<Evaluation>& evaluations() const { return evaluations_; }

    QTableWidget* metricsTable() const { return metrics_; }
    QTableWidget* nestTable() const { return nests_; }
    widgets::ComparisonChart* chart() const { return chart_; }

signals:
    void comparisonUpdated();
    void message(const QString& text);

private:
    void refreshMappings();
    void evaluatePins();
    void showResults();
    void fillNests();

    ProjectDocument* document_;
    std::vector<Pin> pins_;
    std::vector<Evaluation> evaluations_;
    BackgroundJob* job_;
    QComboBox* mappings_;
    QLabel* hint_ = nullptr;  // shown while nothing is pinned
    QTableWidget* metrics_;
    QTableWidget* nests_;
    widgets::ComparisonChart* chart_;
};

} // namespace nestor::app
