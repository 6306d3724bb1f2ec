#pragma once
// The Dataflow tab: steps through the Mapping tab's current mapping on the instances of one
// storage level (trace/StepTrace.h). A level chooser (levels with several instances first; by
// default the first level with as many instances as there are PEs), a tensor chooser, the
// Dataflow picture (widgets/DataflowView) with the loop nest beside it (the loops that advanced
// highlighted), the counts of the chosen tensor at this step and summed from step 0 (summed in
// the background: a window can span 10^9 steps), playback (PlaybackControls) and exports.
// The trace is rebuilt whenever the mapping, its layer or the architecture changes; a mapping
// the trace rejects shows the error in the tab.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "trace/StepTrace.h"
#include "workload/Workload.h"

#include <QWidget>

#include <cstdint>
#include <functional>
#include <optional>

class QComboBox;
class QLabel;
class QToolButton;

namespace nestor::widgets {
class DataflowView;
}

namespace nestor::app {

class BackgroundJob;
class LoopNestProgress;
class MappingSession;
class PlaybackControls;

class DataflowTab : public QWidget {
    Q_OBJECT
public:
    explicit DataflowTab(MappingSession* session, QWidget* parent = nullptr);

    // Shows this mapping (normally fed by the session's selected / edited signals).
    void showMapping(const QString& title, const Workload& w, const Architecture& a, const Mapping& m);
    void clear();

    bool hasTrace() const { return trace_.has_value(); }
    const trace::StepTrace* stepTrace() const { return trace_ ? &*trace_ : nullptr; }
    std::int64_t numSteps() const;
    std::int64_t currentStep() const { return step_; }
    int level() const { return level_; }
    int tensor() const { return tensor_; }
    QString errorText() const { return errorText_; }   // "" when the trace was built
    QString countsText() const;         // the line under the picture
    // Background work (totals, next tile change) still running.
    bool isBusy() const;

    void setLevel(int level);
    void setTensor(int tensor);
    void goToStep(std::int64_t step);
    void nextTileChange();              // in the background; the step follows when it is found

    bool exportFramePng(const QString& path);
    bool exportFramePdf(const QString& path);
    bool exportFrameSvg(const QString& path, QString* error = nullptr);
    int exportPngSequence(const QString& directory, std::int64_t begin, std::int64_t end, QString* error);
    // An animated GIF of steps [begin, end), one step per frame at the playback speed.
    int exportGif(const QString& path, std::int64_t begin, std::int64_t end, QString* error,
                  const std::function<bool(int done, int total)>& progress = {});

    widgets::DataflowView* view() const { return view_; }
    PlaybackControls* playback() const { return playback_; }
    LoopNestProgress* loopNest() const { return loopNest_; }
    QComboBox* levelChooser() const { return levels_; }
    QComboBox* tensorChooser() const { return tensors_; }

    // The level shown by default: the first level with as many instances as there are PEs that
    // keeps a tensor, else the first level with several instances, else the innermost.
    static int defaultLevel(const Architecture& a, const Mapping& m);

signals:
    void message(const QString& text);
    void busyChanged();

private:
    void rebuild();
    void fillLevelChooser();
    void fillTensorChooser();
    void showError(const QString& text);
    void updateCounts();
    void requestTotals();
    void exportWithDialog(int kind);
    void exportGifWithDialog();

    MappingSession* session_;
    widgets::DataflowView* view_;
    LoopNestProgress* loopNest_;
    PlaybackControls* playback_;
    QComboBox* levels_;
    QComboBox* tensors_;
    QToolButton* export_;
    QLabel* title_;
    QLabel* error_;
    QLabel* counts_;
    BackgroundJob* totalsJob_;
    BackgroundJob* nextJob_;

    QString mappingTitle_;
    std::optional<Workload> workload_;
    Architecture architecture_;
    Mapping mapping_;
    std::optional<trace::StepTrace> trace_;
    int level_ = -1;
    int tensor_ = 0;
    std::int64_t step_ = 0;
    std::optional<trace::StepFrame> frame_;
    std::int64_t totalsStep_ = -1;          // the step the shown totals run to (inclusive)
    std::vector<trace::TensorCounts> totals_;
    double totalsProgress_ = -1;            // of the running sum, when it reports one
    QString errorText_;
    QString note_;                          // the last "next tile change" outcome
};

} // namespace nestor::app
