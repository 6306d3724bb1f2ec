#pragma once
// Export of the Dataflow view for slides: the current frame as PNG (QWidget::grab) or PDF
// (vector, QPdfWriter; Qt SVG is not part of the stack), and a range of steps as a PNG
// sequence frame_00001.png, frame_00002.png, ... rendered by an offscreen copy of the view.
// No animated GIF writer: a PNG sequence converts to one with any tool (ffmpeg, ImageMagick).
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
// Steps [begin, end) (at most kMaxSequenceFrames) drawn like `view` (same size, context and
// tensor) into `directory`; returns the number of files written, or -1 with `error` set.
int pngSequence(const nestor::widgets::DataflowView* view, const trace::StepTrace& trace, std::int64_t begin,
                std::int64_t end, const QString& directory, QString* error);

} // namespace nestor::app::DataflowExport
