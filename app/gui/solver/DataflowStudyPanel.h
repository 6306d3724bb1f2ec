#pragma once
// Interstellar's dataflow study in the Solver tab: every single-loop 2-D dataflow U|V of a layer
// on the project's architecture, each with its loop blocking searched (engine/solvers/
// interstellar), ranked by energy, with how far each is from the best and how many come close
// (the paper's Observation 1). Runs in the background with progress and Cancel; a row's best
// mapping can be added to the project or pinned in Compare.
#include "solvers/interstellar/DataflowStudy.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace nestor::app {

class BackgroundJob;
class CompareView;
class JobsDock;
class ProjectDocument;

class DataflowStudyPanel : public QWidget {
    Q_OBJECT
public:
    DataflowStudyPanel(ProjectDocument* document, QWidget* parent = nullptr);
    ~DataflowStudyPanel() override;
    void setJobsDock(JobsDock* dock);
    void setCompareView(CompareView* compare) { compare_ = compare; }

    void setLayer(const QString& layer);
    void setBudget(int evaluationsPerDataflow);
    // Starts the study; false (reason in the status line) without a layer or while one runs.
    bool run();
    void cancel();
    bool isRunning() const;
    QString statusText() const;
    const std::optional<interstellar::DataflowStudy>& study() const { return study_; }
    QTableWidget* table() const { return table_; }
    QString addToProject(int row);
    bool pinInCompare(int row);

signals:
    void finished();
    void message(const QString& text);

private:
    void refreshLayers();
    void show(interstellar::DataflowStudy study);
    void updateButtons();

    ProjectDocument* document_;
    CompareView* compare_ = nullptr;
    BackgroundJob* job_;
    QComboBox* layer_;
    QSpinBox* budget_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* add_;
    QPushButton* pin_;
    QLabel* status_;
    QTableWidget* table_;
    std::optional<interstellar::DataflowStudy> study_;
    Workload workload_;        // of the shown study
    Architecture architecture_;
};

} // namespace nestor::app
