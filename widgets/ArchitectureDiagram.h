#pragma once
// Draws an architecture: the shared levels (DRAM, global buffers) as full-width boxes from
// the top, then the PE array as a grid (mesh X x Y of the first level with several
// instances, at most 16 x 16 cells drawn), each PE with its own storage and MACs; sizes,
// word widths and fanouts written beside them. Dummy (spatial-only) levels appear as
// fanout annotations.
#include "arch/Architecture.h"

#include <QWidget>

namespace nestor::widgets {

class ArchitectureDiagram : public QWidget {
    Q_OBJECT
public:
    explicit ArchitectureDiagram(QWidget* parent = nullptr);

    void setArchitecture(const Architecture& a);
    // Index of the first storage level drawn inside the PEs (numLevels() when none).
    int firstPeLevel() const;
    const Architecture& architecture() const { return arch_; }
    QSize sizeHint() const override { return {520, 520}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    Architecture arch_;
};

} // namespace nestor::widgets
