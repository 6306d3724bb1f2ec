#pragma once
// A utilization timeline: one lane per unit (e.g. a VTA's load, compute, store and fetch
// modules), each a sequence of spans on a cycle axis: busy spans in the colour of what they run,
// stalls shaded in the colour of their cause, idle time left blank. A ruler on top marks named
// points (layer boundaries). Wheel zooms around the cursor, drag pans, double-click shows all;
// hovering a span shows its label and cycle range. Drawing is proportional to the spans visible
// (binary search, at most one span per pixel column), so a trace of millions of spans stays
// interactive. The widget knows nothing of any simulator: callers fill lanes and spans.
#include <QColor>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

namespace nestor::widgets {

struct TimelineSpan {
    std::uint64_t begin = 0;  // first cycle
    std::uint64_t end = 0;    // one past the last
    QColor color;
    bool stall = false;       // drawn shaded (hatched), not solid
    QString label;            // hover text, e.g. "GEMM #12 (busy)"
};

struct TimelineLane {
    QString name;
    std::vector<TimelineSpan> spans;  // sorted by begin, not overlapping
};

struct TimelineMarker {
    std::uint64_t cycle = 0;
    QString label;
};

struct TimelineLegendEntry {
    QString name;
    QColor color;
    bool stall = false;
};

class UtilizationTimeline : public QWidget {
    Q_OBJECT
public:
    explicit UtilizationTimeline(QWidget* parent = nullptr);

    void setLanes(std::vector<TimelineLane> lanes, std::uint64_t totalCycles);
    void setMarkers(std::vector<TimelineMarker> markers);
    void setLegend(std::vector<TimelineLegendEntry> legend);
    void clear();

    // The visible cycle range [begin, end); zoomTo clamps to the whole run (at least 10 cycles).
    void zoomTo(std::uint64_t begin, std::uint64_t end);
    void showAll();
    std::uint64_t visibleBegin() const { return begin_; }
    std::uint64_t visibleEnd() const { return end_; }
    std::uint64_t totalCycles() const { return total_; }
    const std::vector<TimelineLane>& lanes() const { return lanes_; }

    // The lane and span under a widget pixel: {lane, span} or {-1, -1}.
    std::pair<int, int> spanAt(const QPoint& pixel) const;
    QString toolTipAt(const QPoint& pixel) const;
    // The pixel centre of span `span` of lane `lane` at the current zoom (for tests).
    QPoint pixelOf(int lane, int span) const;

    QSize sizeHint() const override { return {800, 220}; }
    QSize minimumSizeHint() const override { return {320, 140}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    QRect plotRect() const;
    QRect laneRect(int lane) const;
    double xOf(std::uint64_t cycle) const;
    std::uint64_t cycleAt(int x) const;
    void drawAxis(QPainter& p, const QRect& plot) const;
    void drawLane(QPainter& p, int lane) const;
    void drawLegend(QPainter& p) const;

    std::vector<TimelineLane> lanes_;
    std::vector<TimelineMarker> markers_;
    std::vector<TimelineLegendEntry> legend_;
    std::uint64_t total_ = 0;
    std::uint64_t begin_ = 0;
    std::uint64_t end_ = 1;
    bool dragging_ = false;
    int dragX_ = 0;
    std::uint64_t dragBegin_ = 0;
};

} // namespace nestor::widgets
