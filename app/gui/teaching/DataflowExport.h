#pragma once
// Export of the Dataflow view for slides: the current frame as PNG (QWidget::grab), PDF (vector,
// QPdfWriter) or SVG 1.1 (vector, widgets/SvgPaintDevice: Qt SVG is not part of the stack), and
// a range of steps as a PNG sequence frame_00001.png, frame_00002.png, ... or as one looping
// animated GIF (widgets/GifWriter), both rendered by an offscreen copy of the view.
#include "trace/StepTrace.h"

#include <QString>

#include <cstdint>
#include <functional>

namespace nestor::widgets {
class DataflowView;
}

namespace nestor::app::DataflowExport {

constexpr int kMaxSequenceFrames = 2000;   // a slide sequence, not a film

bool png(nestor::widgets::DataflowView* view, const QString& path);
bool pdf(nestor::widgets::DataflowView* view, const QString& path, const QString& title);
bool svg(const nestor::widgets::DataflowView* view, const QString& path, const QString& title, QString* error = nullptr);
// Steps [begin, end) (at most kMaxSequenceFrames) drawn like `view` (same size, context and
// tensor) into `directory`; returns the number of files written, or -1 with `error` set.
int pngSequence(const nestor::widgets::DataflowView* view, const trace::StepTrace& trace, std::int64_t begin,
                std::int64_t end, const QString& directory, QString* error);

// The GIF frame delay (hundredths of a second) that plays one step per frame at `stepsPerSecond`:
// 100 / stepsPerSecond, at least 2 (viewers slow shorter delays down to 10).
int gifDelayForSpeed(int stepsPerSecond);
// Steps [begin, end) (at most kMaxSequenceFrames) as one looping animated GIF at `path`, each
// frame shown `delayCentiseconds`. `progress(done, total)` after each frame; returning false
// cancels (the file is removed). Returns the number of frames, or -1 with `error` set.
int gif(const nestor::widgets::DataflowView* view, const trace::StepTrace& trace, std::int64_t begin, std::int64_t end,
        int delayCentiseconds, const QString& path, QString* error,
        const std::function<bool(int done, int total)>& progress = {});

} // namespace nestor::app::DataflowExport
