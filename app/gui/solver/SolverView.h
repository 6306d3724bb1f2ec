#pragma once
// The Solver tab: Thistle's dataflow optimization and architecture-dataflow co-design
// (engine/solvers/thistle) on a layer or a network of the project, in the background with
// progress and Cancel. Shows per layer the fixed architecture's best dataflow, the layer-wise
// co-design and the single architecture side by side (table and bars, the paper's Fig. 6/8),
// and the candidates of the selected row as an area-vs-energy (or area-vs-cycles) Pareto plot;
// the solver's own estimate stands beside the cost model's figures. A result opens as a
// mapping of the project (fixed architecture) or a pin in the Compare tab (any architecture).
#include "solvers/thistle/NetworkCodesign.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace nestor::widgets {
class GroupedBarChart;
class ParetoChart;
}

namespace nestor::app {

class BackgroundJob;
class CompareView;
class JobsDock;
class ProjectDocument;

class SolverView : public QWidget {
    Q_OBJECT
public:
    struct Settings {
        QString target;                // a workload name, or "network:NAME"
        bool energyObjective = true;   // false: delay
        bool fixedArchitecture = true; // Eq. 3 on the project's architecture
        bool codesign = true;          // Eq. 5 under the area budget
        bool singleArchitecture = true;
        double areaBudget_um2 = 0;     // 0: the project architecture's area
        bool climb = true;             // the cost-model hill climb after the paper's rounding
    };
    // One row of the results table.
    struct Row {
        int layer = 0;                 // index into layers()
        enum class Design { Fixed, Layerwise, Single } design = Design::Fixed;
        const thistle::LayerOptimization* result = nullptr;
    };

    SolverView(ProjectDocument* document, QWidget* parent = nullptr);
    ~SolverView() override;
    void setJobsDock(JobsDock* dock);
    void setCompareView(CompareView* compare) { compare_ = compare; }

    Settings settings() const;
    void setSettings(const Settings& s);
    // Starts the solver in the background; false (with the reason in the status line) when the
    // project cannot be solved (no such layer, architecture not of Thistle's shape) or a run is going.
    bool run();
    void cancel();
    bool isRunning() const;
    QString statusText() const;

    const std::optional<thistle::NetworkCodesign>& result() const { return result_; }
    const std::vector<Row>& rows() const { return rows_; }
    QTableWidget* table() const { return table_; }
    widgets::ParetoChart* paretoChart() const { return pareto_; }
    widgets::GroupedBarChart* barChart() const { return bars_; }
    void selectRow(int row);
    // The row's design opened in the workbench, one undo step: a fixed-architecture result's
    // mapping added to the project; a co-designed one's architecture replacing the project's
    // (same levels, new sizes and PE count) with its mapping added. `candidate` indexes the
    // row's candidates (the Pareto plot's points), -1 the best. Emits mappingOpened; empty on
    // success, else why not.
    QString addToProject(int row, int candidate = -1);
    // The candidate chosen in the Pareto plot for the current row (-1: the best).
    int selectedCandidate() const { return candidate_; }
    // The row's mapping and architecture pinned in the Compare tab.
    bool pinInCompare(int row);
    bool exportCsv(const QString& path);

signals:
    void finished();
    void message(const QString& text);
    // A mapping the tab added to the project, to show in the Mapping tab.
    void mappingOpened(const QString& name);

private:
    void refreshTargets();
    void show(thistle::NetworkCodesign result);
    void fillTable();
    void fillBars();
    void showCandidates(int row);
    void updateButtons();

    ProjectDocument* document_;
    CompareView* compare_ = nullptr;
    BackgroundJob* job_;
    QComboBox* target_;
    QComboBox* objective_;
    QCheckBox* fixed_;
    QCheckBox* codesign_;
    QCheckBox* single_;
    QCheckBox* climb_;
    QDoubleSpinBox* area_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* add_;
    QPushButton* pin_;
    QPushButton* csv_;
    QLabel* status_;
    QTableWidget* table_;
    widgets::GroupedBarChart* bars_;
    widgets::ParetoChart* pareto_;
    std::optional<thistle::NetworkCodesign> result_;
    std::vector<Workload> layers_;     // the workloads the result is about, in order
    std::vector<Row> rows_;
    bool energyObjective_ = true;      // of the shown result
    int candidate_ = -1;               // clicked in the Pareto plot, -1: the row's best
};

} // namespace nestor::app
