#pragma once
// The Network tab: evaluates every layer of a network with its mapping (the first mapping
// that names the layer's workload) in the background, with progress and Cancel; shows a
// per-layer table (repeats included) with the engine's totals (analysis/NetworkTotals.h, as the
// CLI prints them), and energy / cycles bars per layer.
// "(all layers)" stands for every workload of the project in order. "Find Mappings" searches
// the layers that have no mapping (NetworkMappingSearch.h) in the mapspace and by the metric of
// the two lists beside it, with the algorithm, budget and seed of its Options, then evaluates
// the network.
#include "analysis/NetworkTotals.h"
#include "model/Evaluation.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace nestor::widgets {
class NetworkChart;
}

namespace nestor::app {

class BackgroundJob;
class FindMappingsOptions;
class JobsDock;
class NetworkMappingSearch;
class ProjectDocument;

// One layer as evaluated here (not the engine's NetworkLayerResult of a network search).
struct NetworkLayerEvaluation {
    int index = 0;
    QString layer;
    QString mapping;        // empty: no mapping for this layer
    qint64 repeat = 1;
    Evaluation evaluation;
};

class NetworkView : public QWidget {
    Q_OBJECT
public:
    NetworkView(ProjectDocument* document, QWidget* parent = nullptr);
    ~NetworkView() override;

    bool selectNetwork(const QString& name);   // "" = all layers
    void start();
    // Searches the layers without a mapping, adds the mappings found (one undo step) and then
    // evaluates; false (with message()) when there is nothing to search.
    bool findMappings();
    void cancel();
    bool isRunning() const;       // evaluating or searching
    void setJobsDock(JobsDock* dock);           // each evaluation becomes a row of the dock
    const std::vector<NetworkLayerEvaluation>& results() const { return results_; }
    const NetworkTotals& totals() const { return totals_; }
    QTableWidget* table() const { return table_; }
    QComboBox* findMapspaceBox() const { return findMapspace_; }   // data: MapspaceKind as int
    QComboBox* findMetricBox() const { return findMetric_; }       // data: SearchMetric as int
    FindMappingsOptions* findOptions() const { return findOptions_; }  // algorithm, budget, seed
    widgets::NetworkChart* chart() const { return chart_; }

signals:
    void started();
    void finished(bool completed);
    void message(const QString& text);

private:
    void refreshNetworks();
    void showResults();
    void setRunning(bool running);

    ProjectDocument* document_;
    QComboBox* networks_;
    QPushButton* run_;
    QPushButton* find_;
    QComboBox* findMapspace_;
    QComboBox* findMetric_;
    FindMappingsOptions* findOptions_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* totalsLabel_;
    QTableWidget* table_;
    widgets::NetworkChart* chart_;
    BackgroundJob* job_;
    NetworkMappingSearch* search_;
    bool cancelled_ = false;        // the last evaluation was cancelled
    static constexpr int kProgressSteps = 1000;
    std::vector<NetworkLayerEvaluation> results_;
    NetworkTotals totals_;
    double cycleSeconds_ = 1e-9;  // of the architecture the results were evaluated on
};

} // namespace nestor::app
