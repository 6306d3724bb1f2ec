#pragma once
// The Search tab: pick a layer, one or more mapspaces (pfm, ruby, ruby-s, ruby-t), an algorithm
// from the engine's registry, threads, the termination rules (search size, evaluation budget,
// victory condition, timeout), an ordered metric list and a seed; Run searches each checked
// mapspace in turn in the background (SearchJob, listed in the Jobs dock). It shows the
// best-so-far curve (one line per run, kept until Clear), a table of the runs with their best
// mapping, the energy-vs-delay scatter of each run with its Pareto front, and the area-vs-EDP
// front of a PE-array sweep. "Add best to project" adds a run's best mapping as an undoable
// edit; clicking a Pareto point adds that mapping and asks for it to be compared. The sweep is
// the engine's runArchitectureSweep (the same as `nestor-cli sweep`) for the one chosen layer.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "search/SearchJob.h"
#include "search/ArchitectureSweep.h"
#include "workload/Workload.h"

#include <QStringList>
#include <QThreadPool>
#include <QWidget>

#include <deque>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace nestor::widgets {
class ParetoChart;
class SearchProgressChart;
}

namespace nestor::app {

class BackgroundJob;

class JobsDock;
class ProjectDocument;

struct SearchSettings {
    QString layer;
    QStringList mapspaces{QStringLiteral("pfm")};
    QString algorithm = QStringLiteral("annealing");
    int threads = 1;
    qint64 searchSize = 0;          // valid mappings (0 = off)
    qint64 evaluationBudget = 20000; // evaluated mappings (0 = off)
    qint64 victoryCondition = 500;
    qint64 timeout = 1000;
    QString metrics = QStringLiteral("edp");
    qint64 seed = 1;
    int sweepBudget = 3000;         // evaluations per PE-array configuration
    bool useConstraints = true;     // the project's constraints for the layer (as nestor-cli search)
};

// One point of the PE-array sweep (engine/search/ArchitectureSweep) and the resized
// architecture its mapping was found for.
struct SweepItem {
    SweepPoint point;
    Architecture architecture;
    const Mapping* best() const;   // nullptr without a valid mapping
};

class SearchPanel : public QWidget {
    Q_OBJECT
public:
    SearchPanel(ProjectDocument* document, QWidget* parent = nullptr);
    ~SearchPanel() override;

    void setJobsDock(JobsDock* jobs) { jobs_ = jobs; }
    SearchSettings settings() const;
    bool setSettings(const SearchSettings& s);   // false if the layer or a name is unknown

    // Starts one run per checked mapspace (in turn); false (with lastError()) on bad settings.
    bool run();
    void cancel();                 // the running search returns its best so far; queued runs are dropped
    void clearRuns();
    bool isRunning() const;
    bool startSweep();
    void cancelSweep();
    bool isSweeping() const;        // until sweepFinished has been emitted

    struct RunRecord {
        QString label;
        QString layer;
        QString mapspace;
        QString algorithm;
        qint64 seed = 0;
        int curve = -1;             // line in the progress chart
        int job = 0;                // Jobs dock id
        int paretoSeries = -1;
        bool finished = false;
        SearchProgress progress;
        SearchOutcome outcome;
    };
    const std::vector<RunRecord>& runs() const { return runs_; }
    const std::vector<SweepItem>& sweepResults() const { return sweep_; }
    // Adds the best mapping of run `index` to the project (undoable); returns its name or "" (lastError()).
    QString addBestToProject(int index);
    // Adds the mapping of a point of the energy-vs-delay or area-vs-EDP plot, as a click does.
    QString addEnergyDelayPoint(int series, int point);
    QString addSweepPoint(int series, int point);
    QString lastError() const { return lastError_; }

    widgets::SearchProgressChart* progressChart() const { return curve_; }
    widgets::ParetoChart* energyDelayChart() const { return energyDelay_; }
    widgets::ParetoChart* areaEdpChart() const { return areaEdp_; }
    QTableWidget* resultsTable() const { return table_; }
    QTabWidget* chartTabs() const { return chartTabs_; }

signals:
    void runFinished(int index);
    void allRunsFinished();
    void sweepFinished(bool completed);
    void mappingAdded(const QString& name);
    // A mapping to show beside others in the Compare tab (its own architecture for sweep points).
    void compareRequested(const QString& label, const nestor::Workload& workload, const nestor::Architecture& architecture,
                          const nestor::Mapping& mapping);
    void message(const QString& text);

private:
    void refreshLayers();
    void startNext();
    void onProgress(const SearchProgress& p);
    void onImproved(qint64 evaluated, double value);
    void onJobFinished();
    void updateRow(int index);
    void updateButtons();
    void showSweep();
    QString metricLabel() const;
    QString addMapping(const QString& layer, const Mapping& m, const QString& name, const QString& compareLabel,
                       const Architecture* architecture);

    ProjectDocument* document_;
    JobsDock* jobs_ = nullptr;
    SearchJob* job_;
    std::deque<SearchRequest> queue_;
    std::vector<RunRecord> runs_;
    int current_ = -1;
    QString lastError_;
    int runCounter_ = 0;

    QComboBox* layer_;
    std::vector<QCheckBox*> mapspaces_;
    QComboBox* algorithm_;
    QSpinBox* threads_;
    QSpinBox* searchSize_;
    QSpinBox* budget_;
    QSpinBox* victory_;
    QSpinBox* timeout_;
    QLineEdit* metrics_;
    QSpinBox* seed_;
    QSpinBox* sweepBudget_;
    QCheckBox* constraints_ = nullptr;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* clear_;
    QPushButton* addBest_;
    QPushButton* sweepButton_;
    QLabel* status_;
    QTabWidget* chartTabs_;
    widgets::SearchProgressChart* curve_;
    widgets::ParetoChart* energyDelay_;
    widgets::ParetoChart* areaEdp_;
    QTableWidget* table_;

    QThreadPool sweepPool_;  // its own thread, as SearchJob's
    BackgroundJob* sweepJob_;       // runs on sweepPool_
    std::vector<SweepItem> sweep_;
    std::vector<std::vector<int>> sweepSeries_;  // per area-vs-EDP series: indices into sweep_
    QString sweepLayer_;
    bool sweepCancelled_ = false;
};

} // namespace nestor::app
