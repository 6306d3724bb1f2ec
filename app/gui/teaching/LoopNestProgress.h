#pragma once
// The flattened loop nest of a step trace as `for` lines (outermost first, indented, each with
// under a header line per level), every temporal loop showing its current index at the shown step, and the loops
// that advanced at that step highlighted (the innermost always; an outer one when every loop
// inside it wrapped to 0). Spatial loops are `par_for` lines without an index.
#include "trace/StepTrace.h"
#include "workload/Workload.h"
#include "arch/Architecture.h"

#include <QListWidget>

#include <vector>

namespace nestor::app {

class LoopNestProgress : public QListWidget {
    Q_OBJECT
public:
    explicit LoopNestProgress(QWidget* parent = nullptr);

    void setLoops(const std::vector<trace::NestLoop>& loops, const Workload& w, const Architecture& a);
    void setIndices(std::int64_t step, const std::vector<std::int64_t>& loopIndex);
    void clearLoops();

    // The loops (indices into the trace's loops()) highlighted as advanced at the shown step.
    std::vector<int> advancedRows() const;

    QSize sizeHint() const override { return {200, 300}; }

private:
    QString lineOf(std::size_t loop, std::int64_t index) const;

    std::vector<trace::NestLoop> loops_;
    std::vector<QString> dimNames_, levelNames_;
    std::vector<int> advanced_;
    std::vector<int> rowOfLoop_;
};

} // namespace nestor::app
