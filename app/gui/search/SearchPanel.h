#pragma once
// The Search tab: the settings form (SearchSettingsForm), Run searches each checked mapspace in
// turn in the background (SearchRunQueue, listed in the Jobs dock); the charts show the
// best-so-far curve (one line per run, kept until Clear), the energy-vs-delay scatter of each
// run with its Pareto front, and the area-vs-EDP front of a PE-array sweep (PeArraySweep); the
// table lists the runs with their best mapping (SearchRunsTable). "Add best to project" adds a
// run's best mapping as an undoable edit; clicking a Pareto point adds that mapping and asks for
// it to be compared. This class only composes the parts and turns results into project edits.
#include "PeArraySweep.h"
#include "SearchRunQueue.h"
#include "SearchSettings.h"
#include "workload/Workload.h"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace nestor::widgets {
class ParetoChart;
class SearchProgressChart;
}

namespace nestor::app {

class JobsDock;
class ProjectDocument;
class SearchRunsTable;
class SearchSettingsForm;

class SearchPanel : public QWidget {
    Q_OBJECT
public:
    using RunRecord = SearchRun;

    SearchPanel(ProjectDocument* document, QWidget* parent = nullptr);
    ~SearchPanel() override;

    void setJobsDock(JobsDock* jobs);
    SearchSettings settings() const;
    bool setSettings(const SearchSettings& s);   // false if the layer or a name is unknown

    // Starts one run per checked mapspace (in turn); false (with lastError()) on bad settings.
    bool run();
    void cancel();                 // the running search returns its best so far; queued runs are dropped
    void clearRuns();
    // Another project: the running search and sweep are discarded, every run, plot and point goes.
    void reset();
    bool isRunning() const;
    bool startSweep();
    void cancelSweep();
    bool isSweeping() const;        // until sweepFinished has been emitted

    const std::vector<SearchRun>& runs() const { return queue_->runs(); }
    const std::vector<SweepItem>& sweepResults() const { return sweep_->items(); }
    // Adds the best mapping of run `index` to the project (undoable); returns its name or "" (lastError()).
    QString addBestToProject(int index);
    // Adds the mapping of a point of the energy-vs-delay or area-vs-EDP plot, as a click does.
    QString addEnergyDelayPoint(int series, int point);
    QString addSweepPoint(int series, int point);
    QString lastError() const { return lastError_; }

    widgets::SearchProgressChart* progressChart() const { return curve_; }
    widgets::ParetoChart* energyDelayChart() const { return energyDelay_; }
    widgets::ParetoChart* areaEdpChart() const { return areaEdp_; }
    QTableWidget* resultsTable() const;
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
    QWidget* buildSettingsColumn();
    QWidget* buildResultsColumn();
    void refreshLayers();
    void onRunStarted(int index);
    void onRunFinished(int index);
    void updateButtons();
    void showSweep();
    bool fail(const QString& error);
    QString addMapping(const QString& layer, const Mapping& m, const QString& name);

    ProjectDocument* document_;
    JobsDock* jobs_ = nullptr;
    SearchRunQueue* queue_;
    PeArraySweep* sweep_;
    QString lastError_;
    int runCounter_ = 0;

    SearchSettingsForm* form_;
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
    SearchRunsTable* table_;
    std::vector<std::vector<int>> sweepSeries_;  // per area-vs-EDP series: indices into sweepResults()
};

} // namespace nestor::app
