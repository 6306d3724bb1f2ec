#include "UtilizationTimeline.h"

#include "NumberFormat.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace nestor::widgets {

namespace {

constexpr int kNameWidth = 70;     // lane names, left of the plot
constexpr int kRulerHeight = 18;   // markers (layer boundaries), above the lanes
constexpr int kAxisHeight = 20;    // cycle ticks, below the lanes
constexpr int kLegendHeight = 18;
constexpr int kLaneGap = 4;
constexpr std::uint64_t kMinVisible = 10;

// First span of `spans` that ends after `cycle`.
std::size_t firstEndingAfter(const std::vector<TimelineSpan>& spans, std::uint64_t cycle)
{
    return std::size_t(std::partition_point(spans.begin(), spans.end(), [&](const TimelineSpan& s) { return s.end <= cycle; }) -
                       spans.begin());
}

// 1, 2, 5 x 10^k cycles: the tick step that puts about `ticks` ticks on `range`.
std::uint64_t niceStep(double range, int ticks)
{
    const double raw = std::max(1.0, range / std::max(1, ticks));
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= raw) return std::uint64_t(m * decade);
    return std::uint64_t(10 * decade);
}

} // namespace

UtilizationTimeline::UtilizationTimeline(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(minimumSizeHint());
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void UtilizationTimeline::setLanes(std::vector<TimelineLane> lanes, std::uint64_t totalCycles)
{
    lanes_ = std::move(lanes);
    total_ = totalCycles;
    showAll();
}

void UtilizationTimeline::setMarkers(std::vector<TimelineMarker> markers)
{
    markers_ = std::move(markers);
    update();
}

void UtilizationTimeline::setLegend(std::vector<TimelineLegendEntry> legend)
{
    legend_ = std::move(legend);
    update();
}

void UtilizationTimeline::clear()
{
    lanes_.clear();
    markers_.clear();
    total_ = 0;
    showAll();
}

void UtilizationTimeline::showAll()
{
    begin_ = 0;
    end_ = std::max<std::uint64_t>(total_, 1);
    update();
}

void UtilizationTimeline::zoomTo(std::uint64_t begin, std::uint64_t end)
{
    const std::uint64_t whole = std::max<std::uint64_t>(total_, 1);
    std::uint64_t width = std::max(end > begin ? end - begin : 0, std::min(kMinVisible, whole));
    width = std::min(width, whole);
    begin = std::min(begin, whole - width);
    begin_ = begin;
    end_ = begin + width;
    update();
}

QRect UtilizationTimeline::plotRect() const
{
    const int legend = legend_.empty() ? 0 : kLegendHeight;
    return QRect(kNameWidth, kRulerHeight, std::max(10, width() - kNameWidth - 8),
                 std::max(10, height() - kRulerHeight - kAxisHeight - legend));
}

QRect UtilizationTimeline::laneRect(int lane) const
{
    const QRect plot = plotRect();
    const int n = std::max<int>(1, int(lanes_.size()));
    const int h = plot.height() / n;
    return QRect(plot.left(), plot.top() + lane * h + kLaneGap / 2, plot.width(), std::max(2, h - kLaneGap));
}

double UtilizationTimeline::xOf(std::uint64_t cycle) const
{
    const QRect plot = plotRect();
    const double span = double(end_ - begin_);
    return plot.left() + (double(cycle) - double(begin_)) / span * plot.width();
}

std::uint64_t UtilizationTimeline::cycleAt(int x) const
{
    const QRect plot = plotRect();
    const double f = std::clamp(double(x - plot.left()) / plot.width(), 0.0, 1.0);
    return begin_ + std::uint64_t(f * double(end_ - begin_));
}

std::pair<int, int> UtilizationTimeline::spanAt(const QPoint& pixel) const
{
    for (int l = 0; l < int(lanes_.size()); ++l) {
        if (!laneRect(l).contains(pixel)) continue;
        const std::vector<TimelineSpan>& spans = lanes_[std::size_t(l)].spans;
        // The pixel column covers [c0, c1): any span overlapping it counts (thin spans stay hoverable).
        const std::uint64_t c0 = cycleAt(pixel.x()), c1 = std::max(cycleAt(pixel.x() + 1), c0 + 1);
        const std::size_t i = firstEndingAfter(spans, c0);
        if (i < spans.size() && spans[i].begin < c1) return {l, int(i)};
        return {l, -1};
    }
    return {-1, -1};
}

QString UtilizationTimeline::toolTipAt(const QPoint& pixel) const
{
    const auto [lane, span] = spanAt(pixel);
    if (lane < 0 || span < 0) return {};
    const TimelineSpan& s = lanes_[std::size_t(lane)].spans[std::size_t(span)];
    return tr("%1: %2\ncycles %3 – %4 (%5)")
        .arg(lanes_[std::size_t(lane)].name, s.label, NumberFormat::count(std::int64_t(s.begin)),
             NumberFormat::count(std::int64_t(s.end)), NumberFormat::count(std::int64_t(s.end - s.begin)));
}

QPoint UtilizationTimeline::pixelOf(int lane, int span) const
{
    const TimelineSpan& s = lanes_[std::size_t(lane)].spans[std::size_t(span)];
    const double x = (xOf(s.begin) + xOf(s.end)) / 2;
    return QPoint(int(x), laneRect(lane).center().y());
}

void UtilizationTimeline::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QRect plot = plotRect();
    if (lanes_.empty() || total_ == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Run a program to see when each unit is busy or stalled."));
        return;
    }
    for (int l = 0; l < int(lanes_.size()); ++l) drawLane(p, l);
    drawAxis(p, plot);
    drawLegend(p);
}

void UtilizationTimeline::drawLane(QPainter& p, int lane) const
{
    const QRect r = laneRect(lane);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(4, r.top(), kNameWidth - 8, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
               lanes_[std::size_t(lane)].name);
    p.fillRect(r, palette().color(QPalette::AlternateBase));
    const std::vector<TimelineSpan>& spans = lanes_[std::size_t(lane)].spans;
    // One span per pixel column at most: past one drawn at column x, skip to the first span that
    // ends after the next column starts.
    std::size_t i = firstEndingAfter(spans, begin_);
    int lastColumn = -1;
    while (i < spans.size() && spans[i].begin < end_) {
        const TimelineSpan& s = spans[i];
        const double x0 = std::max(xOf(s.begin), double(r.left()));
        const double x1 = std::min(xOf(s.end), double(r.right() + 1));
        const int column = int(std::floor(x0));
        if (column > lastColumn || x1 - x0 >= 1.0) {
            const QRectF box(x0, r.top(), std::max(1.0, x1 - x0), r.height());
            if (s.stall) {
                QColor light = s.color;
                light.setAlpha(90);
                p.fillRect(box, light);
                p.fillRect(box, QBrush(s.color, Qt::BDiagPattern));
            } else {
                p.fillRect(box, s.color);
            }
            lastColumn = int(std::floor(x1 - 1e-9));
        }
        const std::uint64_t nextColumnCycle = cycleAt(lastColumn + 1);
        if (nextColumnCycle > s.end) i = std::max(i + 1, firstEndingAfter(spans, nextColumnCycle));
        else ++i;
    }
}

void UtilizationTimeline::drawAxis(QPainter& p, const QRect& plot) const
{
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(plot.adjusted(0, 0, -1, -1));
    const QFontMetrics fm = p.fontMetrics();
    const int labelWidth = fm.horizontalAdvance(QStringLiteral("00,000,000")) + 12;
    const std::uint64_t step = niceStep(double(end_ - begin_), std::max(2, plot.width() / labelWidth));
    p.setPen(palette().color(QPalette::Text));
    for (std::uint64_t c = (begin_ + step - 1) / step * step; c <= end_; c += step) {
        const int x = int(xOf(c));
        p.drawLine(x, plot.bottom(), x, plot.bottom() + 4);
        p.drawText(QRect(x - labelWidth / 2, plot.bottom() + 4, labelWidth, kAxisHeight - 4), Qt::AlignHCenter | Qt::AlignTop,
                   NumberFormat::count(std::int64_t(c)));
    }
    p.drawText(QRect(0, plot.bottom() + 4, kNameWidth - 8, kAxisHeight - 4), Qt::AlignRight | Qt::AlignTop, tr("cycle"));
    // The ruler: named points on top, labels elided to the room before the next one.
    for (std::size_t m = 0; m < markers_.size(); ++m) {
        const TimelineMarker& mk = markers_[m];
        if (mk.cycle < begin_ || mk.cycle > end_) continue;
        const int x = int(xOf(mk.cycle));
        const int next = m + 1 < markers_.size() && markers_[m + 1].cycle <= end_ ? int(xOf(markers_[m + 1].cycle)) : plot.right();
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(x, 0, x, plot.bottom());
        p.setPen(palette().color(QPalette::Text));
        if (next - x > 12)
            p.drawText(QRect(x + 2, 0, next - x - 4, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(mk.label, Qt::ElideRight, next - x - 4));
    }
}

void UtilizationTimeline::drawLegend(QPainter& p) const
{
    if (legend_.empty()) return;
    int x = kNameWidth;
    const int y = height() - kLegendHeight + 3;
    const QFontMetrics fm = p.fontMetrics();
    for (const TimelineLegendEntry& e : legend_) {
        const QRect swatch(x, y, 12, 12);
        if (e.stall) {
            QColor light = e.color;
            light.setAlpha(90);
            p.fillRect(swatch, light);
            p.fillRect(swatch, QBrush(e.color, Qt::BDiagPattern));
        } else {
            p.fillRect(swatch, e.color);
        }
        p.setPen(palette().color(QPalette::Text));
        p.drawText(x + 16, y + 11, e.name);
        x += 16 + fm.horizontalAdvance(e.name) + 14;
        if (x > width()) break;
    }
}

void UtilizationTimeline::wheelEvent(QWheelEvent* event)
{
    if (total_ == 0) return;
    const double steps = event->angleDelta().y() / 120.0;
    const double factor = std::pow(0.8, steps);  // one notch: 20 % closer
    const std::uint64_t anchor = cycleAt(int(event->position().x()));
    const double width = std::max(double(kMinVisible), double(end_ - begin_) * factor);
    const double left = double(anchor) - (double(anchor) - double(begin_)) * factor;
    zoomTo(std::uint64_t(std::max(0.0, left)), std::uint64_t(std::max(0.0, left) + width));
    event->accept();
}

void UtilizationTimeline::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return;
    dragging_ = true;
    dragX_ = int(event->position().x());
    dragBegin_ = begin_;
}

void UtilizationTimeline::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (dragging_) {
        const double cyclesPerPixel = double(end_ - begin_) / plotRect().width();
        const double shifted = double(dragBegin_) - (pos.x() - dragX_) * cyclesPerPixel;
        zoomTo(std::uint64_t(std::max(0.0, shifted)), std::uint64_t(std::max(0.0, shifted)) + (end_ - begin_));
        return;
    }
    const QString tip = toolTipAt(pos);
    if (tip.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

void UtilizationTimeline::mouseReleaseEvent(QMouseEvent*)
{
    dragging_ = false;
}

void UtilizationTimeline::mouseDoubleClickEvent(QMouseEvent*)
{
    showAll();
}

} // namespace nestor::widgets
