#pragma once
// The Simulator tab: runs a VTA program (a program-vector file, FORMAT.md), or a whole network
// (ResNet-18, lowered layer by layer: engine/sim/vta/lowering), on the bit-exact behavioural
// simulator and the cycle model (engine/sim/vta) in the background with progress and Cancel.
// It shows, for a vector, whether its output bytes, counters and token pushes match the
// expected results; for a network, each layer's cycles, bytes and busy shares and the VTA
// roofline of its layers; for both, the cycles, each module's utilization and the utilization
// timeline (load, compute with GEMM and ALU in their own colours, store, fetch; stalls shaded;
// a layer ruler on top for a network; zoom and pan down to single instructions; hover names the
// instruction and its cycles). The timing knobs (GEMM and ALU initiation intervals, bus width,
// read latency) and the fidelity mode are edited above it.
#include "sim/vta/ActivityTrace.h"
#include "sim/vta/Executor.h"
#include "sim/vta/Instruction.h"
#include "sim/vta/TimingConfig.h"
#include "sim/vta/lowering/NetworkRun.h"
#include "sim/vta/lowering/Sweep.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTableWidget;
class QTabWidget;
class QCustomPlot;

namespace nestor::widgets {
class ParetoChart;
class UtilizationTimeline;
}

namespace nestor::app {

class BackgroundJob;
class JobsDock;

// What one run of a vector gave.
struct SimulationOutcome {
    QString file;
    QString error;                 // the vector could not be read (located), or the run failed to start
    bool passed = false;           // output bytes, counters and token pushes all as expected
    QString report;                // the readable check report (as `nestor-cli vta run`)
    std::optional<std::uint64_t> cycles;  // the cycle model's total, when the functional run succeeded
    QString timingError;           // the cycle model could not finish the program
    vta::ActivityTrace trace;
    std::vector<vta::Instruction> insns;
};

class SimulatorView : public QWidget {
    Q_OBJECT
public:
    explicit SimulatorView(QWidget* parent = nullptr);
    ~SimulatorView() override;

    void setJobsDock(JobsDock* dock);
    vta::TimingConfig timingConfig() const;
    void setTimingConfig(const vta::TimingConfig& c);
    vta::Fidelity fidelity() const;

    // Runs the vector at `path` in the background; false (nothing starts) while a run is going.
    bool runVector(const QString& path);
    // Runs ResNet-18 at `imageSize` (224 = the paper's network) in the background: every layer
    // lowered, timed and (with `bitExact`) executed; false while a run is going.
    bool runResNet18(int imageSize, bool bitExact = false, const vta::VtaConfig& config = {});
    // Sweeps GEMM shape, bus width, scratchpad sizes and GEMM II (vta::SweepSpace) over ResNet-18
    // at `imageSize`: the area-vs-cycles plot, Pareto front marked; clicking a point runs that
    // configuration's network and shows its timeline.
    bool runSweep(int imageSize);
    const std::vector<vta::SweepPoint>& sweepPoints() const { return sweep_; }
    widgets::ParetoChart* paretoChart() const { return pareto_; }
    // As a click on point `index` of the sweep: its configuration's network run.
    bool openSweepPoint(int index);
    void cancel();
    // The tab below the timeline.
    enum class Detail { Report, Layers, Roofline, AreaVsCycles };
    void showDetail(Detail d);
    const std::optional<vta::NetworkRun>& lastNetwork() const { return network_; }
    QTableWidget* layerTable() const { return layers_; }
    QCustomPlot* rooflinePlot() const { return roofline_; }
    bool isRunning() const;
    const std::optional<SimulationOutcome>& lastOutcome() const { return outcome_; }
    widgets::UtilizationTimeline* timeline() const { return timeline_; }

    // The work itself, on any thread.
    static SimulationOutcome simulate(const QString& path, const vta::TimingConfig& timing, vta::Fidelity fidelity);

signals:
    void finished();
    void message(const QString& text);

private:
    void openWithDialog();
    void show(const SimulationOutcome& o);
    void showNetwork(const vta::NetworkRun& run, int imageSize);
    void showRoofline(const vta::NetworkRun& run);
    void setRunning(bool running);
    void showSweep();
    void giveRoomTo(QWidget* pane);  // three quarters of the splitter's height

    BackgroundJob* job_;
    QLineEdit* path_;
    QPushButton* open_;
    QPushButton* run_;
    QPushButton* runNetwork_;
    QSpinBox* imageSize_;
    QPushButton* cancel_;
    QPushButton* sweepButton_;
    QSpinBox* gemmII_;
    QSpinBox* aluImmII_;
    QSpinBox* aluVectorII_;
    QComboBox* busBits_;
    QSpinBox* readLatency_;
    QComboBox* fidelity_;
    QLabel* summary_;
    QPlainTextEdit* report_;
    QTableWidget* layers_;
    QCustomPlot* roofline_;
    widgets::ParetoChart* pareto_;
    QTabWidget* details_;
    QSplitter* split_ = nullptr;   // timeline above, details below
    widgets::UtilizationTimeline* timeline_;
    std::optional<SimulationOutcome> outcome_;
    std::optional<vta::NetworkRun> network_;
    std::vector<vta::SweepPoint> sweep_;
    int sweepImageSize_ = 224;
};

} // namespace nestor::app
