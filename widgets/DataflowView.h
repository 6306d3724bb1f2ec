#pragma once
// The Dataflow teaching picture of one time step (trace/StepTrace.h): the instances of the traced
// level as a meshX x meshY grid (idle ones grey and hatched), each cell showing the tile it holds
// of the chosen tensor over that tensor's shape (the last two ranks as a plane: R x S for weights,
// the H x W window for inputs, P x Q for outputs; the other ranks in the tooltip), coloured by
// whether the tile arrived this step or is reused; the parent level above the grid; the step's
// moves as arrows: one trunk fanning out to every receiver of a multicast fill, branches merging
// into one trunk for a spatial reduction, neighbour-link arrows between cells; and a legend.
// It draws finished values only (the caller computes the frame).
#include "DataflowContext.h"
#include "trace/StepTrace.h"

#include <QImage>
#include <QPointF>
#include <QRectF>
#include <QStaticText>
#include <QWidget>

#include <optional>
#include <vector>

namespace nestor::widgets {

class DataflowView : public QWidget {
    Q_OBJECT
public:
    enum class CellState { Idle, Active, Filled, Reused };

    // One drawn arrow group: a fill fans out from `root` (the parent) through `junction` to the
    // `leaves`; a reduction merges from the leaves through the junction into the root; a link
    // goes from `root` (the sending child's or neighbour's place) to each leaf.
    // Leaves are cell centres for a bus or a link, the top of the cells for a broom.
    struct ArrowGroup {
        trace::MoveKind kind = trace::MoveKind::Fill;
        int move = -1;                      // index in StepFrame::moves
        QPointF root, junction;
        std::vector<QPointF> leaves;
        std::vector<int> instances;         // the cells of the leaves
        // A multicast fill: drawn as one line through its receivers (junction, then the leaves
        // in order, each the nearest not yet visited) instead of a branch to each.
        bool bus = false;
    };

    explicit DataflowView(QWidget* parent = nullptr);

    void setContext(const DataflowContext& context);
    // `previous` (the frame of step - 1, if any) decides reuse: an active instance whose tile of
    // the chosen tensor equals the previous one is reused; without it, one no fill or link reached.
    void setFrame(const trace::StepFrame& frame, const std::optional<trace::StepFrame>& previous = std::nullopt);
    void clearFrame();
    void setTensor(int tensor);

    const DataflowContext& context() const { return context_; }
    const trace::StepFrame& frame() const { return frame_; }
    bool hasFrame() const { return hasFrame_; }
    int tensor() const { return tensor_; }

    // Geometry at the current size (what paintEvent draws), for tests and hit testing.
    QRectF cellRect(int instance) const;
    // Where child `child` of the traced level (a Link move's ids) sits: inside its parent's cell.
    QPointF childPoint(int child) const;
    int cellOfChild(int child) const;
    QRectF parentRect() const;
    QRectF legendRect() const;
    int instanceAt(const QPointF& pos) const;        // -1 outside the cells
    CellState cellState(int instance) const;
    std::vector<ArrowGroup> arrowGroups() const;

    // Text shown when hovering a cell: position, activity, every tensor's tile, its moves.
    QString cellToolTip(int instance) const;
    QString toolTipAt(const QPointF& pos) const;     // "" outside the cells

    // The whole picture (background included) at the widget's current size, on any paint device:
    // what the exports (SVG, GIF, sequences) and the paint benchmark draw into.
    void paint(QPainter& p) const;

    static QColor colorOf(CellState state);
    static QColor colorOf(trace::MoveKind kind);

    QSize sizeHint() const override { return {720, 520}; }
    QSize minimumSizeHint() const override { return {240, 200}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Layout {
        QRectF title, parent, grid, legend;
        double cellW = 0, cellH = 0;
    };
    Layout layout() const;
    Layout computeLayout() const;
    int instanceCount() const;
    void paintContent(QPainter& p) const;
    std::vector<int> chainOrder(std::vector<int> cells) const;
    // Paints a non-idle or idle cell and its tile; true when the cell has room for its "x,y" label.
    bool paintCell(QPainter& p, int instance, const QRectF& r) const;
    static void paintIdleCell(QPainter& p, const QRectF& r);
    void paintCellLabels(QPainter& p, const std::vector<int>& instances) const;
    QFont labelFont() const;
    // The parent box and the legend (and, for the cached layer, every cell as idle).
    void paintStatic(QPainter& p, bool idleCells) const;
    const QImage& staticLayer(double devicePixelRatio) const;
    void invalidateCaches() const;
    void paintTile(QPainter& p, const QRectF& area, const trace::TensorTile& tile, const QColor& color) const;
    void paintArrows(QPainter& p) const;
    void paintLegend(QPainter& p, const QRectF& r) const;
    struct LegendItem {
        int cell;                           // a CellState, or -1 for an arrow sample
        trace::MoveKind kind;
        QString text;
    };
    std::vector<LegendItem> legendItems() const;
    QString legendShapeText() const;
    int legendRows(double width) const;
    QString tileText(int tensor, const trace::TensorTile& tile) const;
    QString moveText(const trace::Move& m) const;
    bool involves(const trace::Move& m, int instance) const;

    DataflowContext context_;
    trace::StepFrame frame_;
    std::optional<trace::StepFrame> previous_;
    bool hasFrame_ = false;
    int tensor_ = 0;
    mutable std::optional<Layout> layoutCache_;
    mutable QSize layoutSize_;
    // What changes only with the size, tensor, context, font or palette: background, parent box,
    // legend and every cell drawn idle (a busy step paints several times faster over it).
    mutable QImage staticLayer_;
    mutable std::vector<QStaticText> cellLabels_;
};

} // namespace nestor::widgets
