#include "DataflowView.h"

#include "NumberFormat.h"
#include "ViridisPalette.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPaintEngine>
#include <QStaticText>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace nestor::widgets {

using trace::Move;
using trace::MoveKind;
using trace::TensorTile;

namespace {
constexpr double kMargin = 8;
constexpr double kMinTileCell = 16;      // below this a cell is only coloured, no tile drawn
constexpr int kMaxLeavesWithHeads = 64;  // more receivers: branches without arrowheads
constexpr std::size_t kMaxLeavesDrawn = 4096;

// Adds the arrowhead at `to` of the line from `from` to `heads`: the heads of a group are filled
// in one call, much cheaper than one fill each.
void addArrowHead(QPainterPath& heads, QPointF from, QPointF to, double size)
{
    const QPointF d = to - from;
    const double len = std::hypot(d.x(), d.y());
    if (len < 1e-6) return;
    const QPointF u = d / len, n(-u.y(), u.x());
    heads.moveTo(to);
    heads.lineTo(to - u * size + n * size * 0.5);
    heads.lineTo(to - u * size - n * size * 0.5);
    heads.closeSubpath();
}

QPainterPath windingPath()
{
    QPainterPath path;
    path.setFillRule(Qt::WindingFill);   // overlapping heads stay filled
    return path;
}

QString rangeText(const trace::Range& r)
{
    if (r.hi - r.lo <= 1) return QString::number(r.lo);
    return QStringLiteral("%1–%2").arg(r.lo).arg(r.hi - 1);
}

bool contains(const std::vector<int>& v, int x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}
} // namespace

DataflowView::DataflowView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void DataflowView::setContext(const DataflowContext& context)
{
    context_ = context;
    if (tensor_ >= int(context_.tensors.size())) tensor_ = 0;
    invalidateCaches();
    update();
}

void DataflowView::setFrame(const trace::StepFrame& frame, const std::optional<trace::StepFrame>& previous)
{
    frame_ = frame;
    previous_ = previous;
    hasFrame_ = true;
    update();
}

void DataflowView::clearFrame()
{
    frame_ = {};
    previous_.reset();
    hasFrame_ = false;
    update();
}

void DataflowView::setTensor(int tensor)
{
    tensor_ = tensor;
    invalidateCaches();   // the legend names the tensor's plane, the parent box its source
    update();
}

QColor DataflowView::colorOf(CellState state)
{
    switch (state) {
    case CellState::Idle: return QColor(0xd4, 0xd4, 0xd4);
    case CellState::Active: return QColor(0xf2, 0xf2, 0xf2);
    case CellState::Filled: return ViridisPalette::at(0.3);
    case CellState::Reused: return ViridisPalette::at(0.72);
    }
    return Qt::white;
}

QColor DataflowView::colorOf(MoveKind kind)
{
    switch (kind) {
    case MoveKind::Fill: return ViridisPalette::at(0.12);
    case MoveKind::Update: return ViridisPalette::at(0.5);
    case MoveKind::Link: return QColor(0xc0, 0x50, 0x10);   // warm, apart from the viridis cells it crosses
    case MoveKind::Read: return ViridisPalette::at(0.85);
    }
    return Qt::black;
}

int DataflowView::instanceCount() const
{
    return std::max(1, context_.meshX) * std::max(1, context_.meshY);
}

DataflowView::Layout DataflowView::layout() const
{
    // Cached: every cell and arrow asks for it, and the legend's text widths are not free.
    if (layoutCache_ && layoutSize_ == size()) return *layoutCache_;
    invalidateCaches();
    layoutCache_ = computeLayout();
    layoutSize_ = size();
    return *layoutCache_;
}

void DataflowView::invalidateCaches() const
{
    layoutCache_.reset();
    staticLayer_ = QImage();
    cellLabels_.clear();
}

void DataflowView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange || event->type() == QEvent::PaletteChange)
        invalidateCaches();
    QWidget::changeEvent(event);
}

DataflowView::Layout DataflowView::computeLayout() const
{
    Layout l;
    const QFontMetricsF fm(font());
    const double w = width() - 2 * kMargin;
    double top = kMargin;
    l.title = QRectF(kMargin, top, w, fm.height() + 4);
    top += l.title.height() + 4;
    const double parentW = std::clamp(w * 0.3, 120.0, 320.0);
    l.parent = QRectF(kMargin + (w - parentW) / 2, top, parentW, fm.height() * 1.6);
    top += l.parent.height() + std::clamp(height() * 0.06, 20.0, 44.0);
    double legendH = (fm.height() + 6) * legendRows(w) + 4;
    if (height() - top - legendH < height() * 0.3) legendH = 0;   // too small: the grid first
    l.legend = QRectF(kMargin, height() - kMargin - legendH, w, legendH);
    const double gridH = std::max(10.0, l.legend.top() - 6 - top);
    const int mx = std::max(1, context_.meshX), my = std::max(1, context_.meshY);
    double cw = w / mx, ch = gridH / my;
    cw = std::min(cw, ch * 1.6);   // keep cells from becoming long strips
    ch = std::min(ch, cw * 1.6);
    l.cellW = cw;
    l.cellH = ch;
    l.grid = QRectF(kMargin + (w - cw * mx) / 2, top, cw * mx, ch * my);
    return l;
}

QRectF DataflowView::cellRect(int instance) const
{
    if (instance < 0 || instance >= instanceCount()) return {};
    const Layout l = layout();
    const int mx = std::max(1, context_.meshX);
    const int x = instance % mx, y = instance / mx;
    const double gap = std::min(3.0, std::min(l.cellW, l.cellH) * 0.08);
    return QRectF(l.grid.left() + x * l.cellW + gap / 2, l.grid.top() + y * l.cellH + gap / 2, l.cellW - gap, l.cellH - gap);
}

int DataflowView::cellOfChild(int child) const
{
    const int fx = std::max(1, context_.fanX), fy = std::max(1, context_.fanY), mx = std::max(1, context_.meshX);
    const int childMeshX = mx * fx;
    if (child < 0 || child >= instanceCount() * fx * fy) return -1;
    return (child / childMeshX / fy) * mx + (child % childMeshX) / fx;
}

QPointF DataflowView::childPoint(int child) const
{
    const int cell = cellOfChild(child);
    if (cell < 0) return {};
    const int fx = std::max(1, context_.fanX), fy = std::max(1, context_.fanY);
    const int childMeshX = std::max(1, context_.meshX) * fx;
    const QRectF r = cellRect(cell);
    const int sx = (child % childMeshX) % fx, sy = (child / childMeshX) % fy;
    return {r.left() + r.width() * (sx + 0.5) / fx, r.top() + r.height() * (sy + 0.5) / fy};
}

QRectF DataflowView::parentRect() const
{
    return layout().parent;
}

QRectF DataflowView::legendRect() const
{
    return layout().legend;
}

int DataflowView::instanceAt(const QPointF& pos) const
{
    const Layout l = layout();
    if (!l.grid.contains(pos) || l.cellW <= 0 || l.cellH <= 0) return -1;
    const int x = std::min(int((pos.x() - l.grid.left()) / l.cellW), std::max(1, context_.meshX) - 1);
    const int y = std::min(int((pos.y() - l.grid.top()) / l.cellH), std::max(1, context_.meshY) - 1);
    return y * std::max(1, context_.meshX) + x;
}

DataflowView::CellState DataflowView::cellState(int instance) const
{
    if (!hasFrame_ || instance < 0 || instance >= int(frame_.instances.size())) return CellState::Idle;
    const trace::InstanceFrame& f = frame_.instances[std::size_t(instance)];
    if (!f.active) return CellState::Idle;
    if (tensor_ < 0 || tensor_ >= int(f.tiles.size()) || !f.tiles[std::size_t(tensor_)].held) return CellState::Active;
    if (previous_) {
        if (instance >= int(previous_->instances.size())) return CellState::Filled;
        const trace::InstanceFrame& pf = previous_->instances[std::size_t(instance)];
        const bool same = tensor_ < int(pf.tiles.size()) && pf.tiles[std::size_t(tensor_)].held &&
                          pf.tiles[std::size_t(tensor_)].ranks == f.tiles[std::size_t(tensor_)].ranks;
        return same ? CellState::Reused : CellState::Filled;
    }
    for (const Move& m : frame_.moves)
        if (m.tensor == tensor_ && m.kind == MoveKind::Fill && contains(m.group, instance)) return CellState::Filled;
    return CellState::Reused;
}

std::vector<int> DataflowView::chainOrder(std::vector<int> cells) const
{
    const int mx = std::max(1, context_.meshX);
    if (cells.size() > 512) {   // large groups: rows alternately left to right and back (boustrophedon)
        std::sort(cells.begin(), cells.end(), [mx](int a, int b) {
            if (a / mx != b / mx) return a / mx < b / mx;
            return (a / mx) % 2 == 0 ? a < b : a > b;
        });
        return cells;
    }
    std::vector<int> order;
    order.reserve(cells.size());
    std::vector<bool> used(cells.size(), false);
    std::size_t cur = 0;
    used[0] = true;
    order.push_back(cells[0]);
    for (std::size_t n = 1; n < cells.size(); ++n) {
        std::size_t best = 0;
        long bestD = -1;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (used[i]) continue;
            const long dx = cells[i] % mx - cells[cur] % mx, dy = cells[i] / mx - cells[cur] / mx;
            const long d = dx * dx + dy * dy;
            if (bestD < 0 || d < bestD) {
                bestD = d;
                best = i;
            }
        }
        used[best] = true;
        cur = best;
        order.push_back(cells[best]);
    }
    return order;
}

std::vector<DataflowView::ArrowGroup> DataflowView::arrowGroups() const
{
    std::vector<ArrowGroup> groups;
    if (!hasFrame_) return groups;
    const Layout l = layout();
    const double junctionY = l.grid.top() - (l.grid.top() - l.parent.bottom()) * 0.4;
    int parentGroups = 0;
    for (const Move& m : frame_.moves)
        if (m.tensor == tensor_ && ((m.kind == MoveKind::Fill && m.fromInstance < 0) || (m.kind == MoveKind::Update && m.group.size() > 1))) ++parentGroups;
    int parentIndex = 0;
    for (std::size_t i = 0; i < frame_.moves.size(); ++i) {
        const Move& m = frame_.moves[i];
        if (m.tensor != tensor_ || m.group.empty()) continue;
        ArrowGroup g;
        g.kind = m.kind;
        g.move = int(i);
        if (m.kind == MoveKind::Fill && m.fromInstance >= 0) {
            // A fill from a mesh neighbour instead of the parent: cell to cell.
            const QRectF from = cellRect(m.fromInstance);
            if (from.isNull()) continue;
            g.kind = MoveKind::Link;
            g.root = g.junction = from.center();
            for (int inst : m.group) {
                const QRectF c = cellRect(inst);
                if (c.isNull()) continue;
                g.leaves.push_back(c.center());
                g.instances.push_back(inst);
            }
            if (g.leaves.empty()) continue;
        } else if (m.kind == MoveKind::Fill || (m.kind == MoveKind::Update && m.group.size() > 1)) {
            // Trunks spread along the parent's bottom edge so that separate groups stay apart.
            const double fx = (parentIndex + 0.5) / double(std::max(1, parentGroups));
            ++parentIndex;
            g.root = QPointF(l.parent.left() + l.parent.width() * (0.15 + 0.7 * fx), l.parent.bottom());
            std::vector<int> cells;
            for (int inst : m.group)
                if (inst >= 0 && inst < instanceCount()) cells.push_back(inst);
            if (cells.empty()) continue;
            std::sort(cells.begin(), cells.end());   // row-major: top row first
            // A fill's receivers are joined by one line through them (from the top-left one, each
            // time to the nearest receiver not yet visited); a reduction's branches merge in a broom.
            g.bus = m.kind == MoveKind::Fill && cells.size() > 1;
            if (g.bus) cells = chainOrder(cells);
            double sumX = 0;
            for (int inst : cells) {
                const QRectF c = cellRect(inst);
                g.leaves.push_back(g.bus ? c.center() : QPointF(c.center().x(), c.top() + std::min(4.0, c.height() * 0.2)));
                g.instances.push_back(inst);
                sumX += c.center().x();
            }
            g.junction = QPointF(g.bus ? g.leaves.front().x() : sumX / double(g.leaves.size()), junctionY);
        } else if (m.kind == MoveKind::Link && m.fromInstance >= 0) {
            // Between children of the traced level: drawn at the children's places in their cells.
            if (cellOfChild(m.fromInstance) < 0) continue;
            g.root = g.junction = childPoint(m.fromInstance);
            for (int child : m.group) {
                const int cell = cellOfChild(child);
                if (cell < 0) continue;
                g.leaves.push_back(childPoint(child));
                g.instances.push_back(cell);
            }
            if (g.leaves.empty()) continue;
        } else {
            continue;   // reads and single updates: counted in the tooltip and the counts line
        }
        groups.push_back(std::move(g));
    }
    return groups;
}

QString DataflowView::tileText(int tensor, const TensorTile& tile) const
{
    const DataflowTensorShape* s = tensor < int(context_.tensors.size()) ? &context_.tensors[std::size_t(tensor)] : nullptr;
    const QString name = s ? s->name : tr("tensor %1").arg(tensor);
    if (!tile.held) return tr("%1: not held").arg(name);
    QStringList ranks;
    for (std::size_t r = 0; r < tile.ranks.size(); ++r) {
        const QString rank = s && r < s->rankNames.size() ? s->rankNames[r] : tr("rank %1").arg(r);
        ranks << QStringLiteral("%1 %2").arg(rank, rangeText(tile.ranks[r]));
    }
    return tr("%1: %2 (%3 words)").arg(name, ranks.join(QStringLiteral(", ")), NumberFormat::count(tile.words));
}

QString DataflowView::moveText(const Move& m) const
{
    const QString tensor = m.tensor < int(context_.tensors.size()) ? context_.tensors[std::size_t(m.tensor)].name : QString::number(m.tensor);
    const QString words = NumberFormat::count(m.words);
    const int n = int(m.group.size());
    const int mx = std::max(1, context_.meshX);
    const int r = int(m.receivers.size());
    switch (m.kind) {
    case MoveKind::Fill: {
        QString t = n > 1 ? tr("fill %1, %2 words, multicast to %3 instances").arg(tensor, words).arg(n)
                          : tr("fill %1, %2 words").arg(tensor, words);
        if (m.fromInstance >= 0) t += tr(" from neighbour (%1, %2)").arg(m.fromInstance % mx).arg(m.fromInstance / mx);
        return t;
    }
    case MoveKind::Read:
        return r > 1 ? tr("read %1, %2 words, to %3 children").arg(tensor, words).arg(r) : tr("read %1, %2 words").arg(tensor, words);
    case MoveKind::Update: {
        QString t = tr("update %1, %2 words").arg(tensor, words);
        if (r > 1) t += tr(", merged from %1 children").arg(r);
        if (n > 1) t += tr(", reduced over %1 instances").arg(n);
        return t;
    }
    case MoveKind::Link: {
        const int from = cellOfChild(m.fromInstance);
        return tr("link %1, %2 words between children, from the one in (%3, %4)").arg(tensor, words).arg(from % mx).arg(from / mx);
    }
    }
    return {};
}

bool DataflowView::involves(const Move& m, int instance) const
{
    if (m.kind != MoveKind::Link) return contains(m.group, instance);
    if (cellOfChild(m.fromInstance) == instance) return true;
    for (int child : m.group)
        if (cellOfChild(child) == instance) return true;
    return false;
}

QString DataflowView::cellToolTip(int instance) const
{
    if (instance < 0 || instance >= instanceCount()) return {};
    const int mx = std::max(1, context_.meshX);
    QStringList lines;
    const CellState state = cellState(instance);
    const QString stateText = state == CellState::Idle     ? tr("idle")
                              : state == CellState::Filled ? tr("active, new tile this step")
                              : state == CellState::Reused ? tr("active, tile reused")
                                                           : tr("active");
    lines << tr("%1 (%2, %3), instance %4: %5")
                 .arg(context_.levelName.isEmpty() ? tr("Instance") : context_.levelName)
                 .arg(instance % mx).arg(instance / mx).arg(instance).arg(stateText);
    if (hasFrame_ && instance < int(frame_.instances.size())) {
        const trace::InstanceFrame& f = frame_.instances[std::size_t(instance)];
        for (std::size_t t = 0; t < f.tiles.size(); ++t) {
            const bool kept = t >= context_.tensors.size() || context_.tensors[t].keptAtLevel;
            if (!kept) continue;
            lines << tileText(int(t), f.tiles[t]);
        }
        QStringList moves;
        for (const Move& m : frame_.moves)
            if (involves(m, instance)) moves << moveText(m);
        lines << (moves.isEmpty() ? tr("No moves this step") : tr("Moves: %1").arg(moves.join(QStringLiteral("; "))));
    }
    return lines.join(QLatin1Char('\n'));
}

QString DataflowView::toolTipAt(const QPointF& pos) const
{
    return cellToolTip(instanceAt(pos));
}

bool DataflowView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void DataflowView::paintTile(QPainter& p, const QRectF& area, const TensorTile& tile, const QColor& color) const
{
    if (tensor_ < 0 || tensor_ >= int(context_.tensors.size())) return;
    const DataflowTensorShape& s = context_.tensors[std::size_t(tensor_)];
    const std::size_t n = std::min(s.extents.size(), tile.ranks.size());
    if (n == 0) return;
    // The plane of the last two ranks (rows = second-to-last, columns = last).
    const std::size_t cx = n - 1, cy = n >= 2 ? n - 2 : n - 1;
    const double ex = double(std::max<std::int64_t>(1, s.extents[cx]));
    const double ey = n >= 2 ? double(std::max<std::int64_t>(1, s.extents[cy])) : 1.0;
    const double aspect = std::clamp(ex / ey, 0.25, 4.0);
    double w = area.width(), h = area.height();
    if (w / h > aspect) w = h * aspect;
    else h = w / aspect;
    const QRectF plane(area.center().x() - w / 2, area.center().y() - h / 2, w, h);
    p.setPen(QPen(QColor(0x60, 0x60, 0x60), 1));
    p.setBrush(Qt::white);
    p.drawRect(plane);
    const trace::Range rx = tile.ranks[cx];
    const trace::Range ry = n >= 2 ? tile.ranks[cy] : trace::Range{0, 1};
    double x0 = plane.left() + plane.width() * double(rx.lo) / ex, x1 = plane.left() + plane.width() * double(rx.hi) / ex;
    double y0 = plane.top() + plane.height() * double(ry.lo) / ey, y1 = plane.top() + plane.height() * double(ry.hi) / ey;
    // A tile of one element in a large plane stays visible: at least 4 px (shifted back inside).
    const double minSide = std::min({4.0, plane.width(), plane.height()});
    if (x1 - x0 < minSide) {
        x1 = std::min(plane.right(), x0 + minSide);
        x0 = x1 - minSide;
    }
    if (y1 - y0 < minSide) {
        y1 = std::min(plane.bottom(), y0 + minSide);
        y0 = y1 - minSide;
    }
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)));
}

void DataflowView::paintIdleCell(QPainter& p, const QRectF& r)
{
    p.setPen(QPen(QColor(0xa0, 0xa0, 0xa0), 1));
    p.setBrush(colorOf(CellState::Idle));
    p.drawRect(r);
    p.setBrush(QBrush(QColor(0x90, 0x90, 0x90), Qt::BDiagPattern));
    p.drawRect(r);
}

bool DataflowView::paintCell(QPainter& p, int instance, const QRectF& r) const
{
    const CellState state = cellState(instance);
    const QColor base = colorOf(state);
    if (state == CellState::Idle) {
        paintIdleCell(p, r);
        return false;
    }
    const bool tinted = state == CellState::Filled || state == CellState::Reused;
    p.setPen(QPen(tinted ? base.darker(130) : QColor(0x9a, 0x9a, 0x9a), tinted ? 1.5 : 1));
    // A tinted cell is its colour blended two thirds with white (lighter() keeps dark colours dark).
    p.setBrush(tinted ? QColor((base.red() + 2 * 255) / 3, (base.green() + 2 * 255) / 3, (base.blue() + 2 * 255) / 3) : base);
    p.drawRect(r);
    if (!tinted || r.width() < kMinTileCell || r.height() < kMinTileCell) return false;
    const TensorTile& tile = frame_.instances[std::size_t(instance)].tiles[std::size_t(tensor_)];
    const double inset = std::min(r.width(), r.height()) >= 32 ? 4 : 2;
    QRectF area = r.adjusted(inset, inset, -inset, -inset);
    const bool labelled = r.height() >= 48 && r.width() >= 40;
    if (labelled) area.setTop(r.top() + 2 + QFontMetricsF(labelFont()).height());
    paintTile(p, area, tile, base);
    return labelled;
}

QFont DataflowView::labelFont() const
{
    QFont f = font();
    f.setPointSizeF(std::max(6.5, f.pointSizeF() * 0.8));
    return f;
}

void DataflowView::paintCellLabels(QPainter& p, const std::vector<int>& instances) const
{
    if (instances.empty()) return;
    // The "x,y" of each cell, laid out once per layout (QStaticText) rather than every frame.
    const QFont f = labelFont();
    if (cellLabels_.size() != std::size_t(instanceCount())) {
        cellLabels_.assign(std::size_t(instanceCount()), QStaticText());
        const int mx = std::max(1, context_.meshX);
        for (int i = 0; i < instanceCount(); ++i) {
            QStaticText& t = cellLabels_[std::size_t(i)];
            t.setTextFormat(Qt::PlainText);
            t.setText(QStringLiteral("%1,%2").arg(i % mx).arg(i / mx));
            t.prepare(QTransform(), f);
        }
    }
    p.setFont(f);
    p.setPen(QColor(0x30, 0x30, 0x30));
    // Vector devices get plain text (QPainter hands static text only to raster-like engines).
    const bool raster = p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Raster;
    const double h = QFontMetricsF(f).height();
    for (int i : instances) {
        const QRectF r = cellRect(i);
        if (raster) p.drawStaticText(QPointF(r.left() + 3, r.top() + 1), cellLabels_[std::size_t(i)]);
        else p.drawText(QRectF(r.left() + 3, r.top() + 1, r.width() - 6, h), Qt::AlignLeft | Qt::AlignVCenter, cellLabels_[std::size_t(i)].text());
    }
    p.setFont(font());
}

void DataflowView::paintArrows(QPainter& p) const
{
    const std::vector<ArrowGroup> groups = arrowGroups();
    std::size_t drawn = 0;
    // A busy step has hundreds of arrows: their lines and heads go to paths stroked and filled
    // once per run of consecutive link groups, and once per style for the branches below.
    QPainterPath linkLines, linkHeads = windingPath();
    auto flushLinks = [&] {
        if (linkLines.isEmpty()) return;
        const QColor c = colorOf(MoveKind::Link);
        p.strokePath(linkLines, QPen(c, 2.2, Qt::SolidLine, Qt::RoundCap));
        p.fillPath(linkHeads, c);
        linkLines = QPainterPath();
        linkHeads = windingPath();
    };
    // Moves of different words to the same receivers (a column multicast of each of its words)
    // have their own trunks but the same bus or branches: those are drawn once, not over and over.
    std::set<std::tuple<MoveKind, bool, std::vector<int>>> drawnReceivers;
    // Branches (by colour, width and dashing), their heads and the junction dots are drawn
    // after all groups, each style in one call.
    struct Branches {
        QPainterPath lines, heads;
    };
    std::map<std::tuple<QRgb, double, bool>, Branches> branches;
    std::map<QRgb, QPainterPath> junctions;
    // Many trunks from the parent (a unicast fill of every PE) overlap into one band anyway:
    // then they are hairlines, which Qt draws without stroking a path, several times faster.
    const bool crowded = std::count_if(groups.begin(), groups.end(), [](const ArrowGroup& g) { return g.kind != MoveKind::Link; }) > 24;
    for (const ArrowGroup& g : groups) {
        if (g.kind == MoveKind::Link) {
            for (const QPointF& leaf : g.leaves) {
                if (drawn++ > kMaxLeavesDrawn) break;
                const QPointF a = g.root + (leaf - g.root) * 0.25, b = g.root + (leaf - g.root) * 0.75;
                linkLines.moveTo(a);
                linkLines.lineTo(b);
                addArrowHead(linkHeads, a, b, 8);
            }
            continue;
        }
        flushLinks();
        const QColor c = colorOf(g.kind);
        const bool many = g.leaves.size() > 24;
        const bool heads = int(g.leaves.size()) <= kMaxLeavesWithHeads;
        const bool merge = g.kind == MoveKind::Update;
        // Trunk between the parent and the junction; branches between the junction and the cells.
        p.setPen(QPen(c, crowded ? 1.0 : 3.0, merge ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap));
        p.drawLine(g.root, g.junction);
        if (merge) {
            QPainterPath head = windingPath();
            addArrowHead(head, g.junction, g.root, 10);
            p.fillPath(head, c);
        }
        if (!drawnReceivers.insert({g.kind, g.bus, g.instances}).second) continue;
        if (g.bus) {
            QPolygonF line;
            line << g.junction;
            for (const QPointF& leaf : g.leaves) line << leaf;
            p.setPen(QPen(c, 2, merge ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
            p.setBrush(Qt::NoBrush);
            p.drawPolyline(line);
            QPainterPath dots = windingPath();
            for (const QPointF& leaf : g.leaves) dots.addEllipse(leaf, 3.5, 3.5);
            p.fillPath(dots, c);
            drawn += g.leaves.size();
            continue;
        }
        QColor branch = c;
        branch.setAlpha(many ? 90 : 220);
        Branches& b = branches[{branch.rgba(), many || crowded ? 1.0 : 1.6, merge}];
        for (const QPointF& leaf : g.leaves) {
            if (drawn++ > kMaxLeavesDrawn) break;
            b.lines.moveTo(g.junction);
            b.lines.lineTo(leaf);
            if (heads && !merge) addArrowHead(b.heads, g.junction, leaf, 7);
        }
        junctions[c.rgba()].addEllipse(g.junction, 3.5, 3.5);
    }
    flushLinks();
    for (auto& [style, b] : branches) {
        const auto& [rgba, width, dashed] = style;
        p.strokePath(b.lines, QPen(QColor::fromRgba(rgba), width, dashed ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap));
        b.heads.setFillRule(Qt::WindingFill);
        p.fillPath(b.heads, QColor::fromRgba(rgba));
    }
    for (auto& [rgba, dots] : junctions) {
        dots.setFillRule(Qt::WindingFill);
        p.fillPath(dots, QColor::fromRgba(rgba));
    }
}

std::vector<DataflowView::LegendItem> DataflowView::legendItems() const
{
    return {
        {int(CellState::Idle), MoveKind::Fill, tr("idle")},
        {int(CellState::Active), MoveKind::Fill, tr("active, tensor not held")},
        {int(CellState::Filled), MoveKind::Fill, tr("new tile")},
        {int(CellState::Reused), MoveKind::Fill, tr("reused tile")},
        {-1, MoveKind::Fill, tr("fill / multicast")},
        {-1, MoveKind::Update, tr("reduction")},
        {-1, MoveKind::Link, tr("neighbour link")},
    };
}

QString DataflowView::legendShapeText() const
{
    if (tensor_ < 0 || tensor_ >= int(context_.tensors.size())) return {};
    const DataflowTensorShape& s = context_.tensors[std::size_t(tensor_)];
    if (s.rankNames.size() >= 2)
        return tr("tile over %1 × %2 of %3").arg(s.rankNames[s.rankNames.size() - 2], s.rankNames.back(), s.name);
    return s.rankNames.empty() ? QString() : tr("tile over %1 of %2").arg(s.rankNames.back(), s.name);
}

int DataflowView::legendRows(double width) const
{
    const QFontMetricsF fm(font());
    const double sw = fm.height() * 0.9;
    int rows = 1;
    double x = 0;
    auto place = [&](double w) {
        if (x + w > width && x > 0) {
            ++rows;
            x = 0;
        }
        x += w;
    };
    for (const LegendItem& it : legendItems()) place(sw * (it.cell < 0 ? 1.8 : 1.0) + 5 + fm.horizontalAdvance(it.text) + 16);
    place(fm.horizontalAdvance(legendShapeText()));
    return rows;
}

void DataflowView::paintLegend(QPainter& p, const QRectF& r) const
{
    const QFontMetricsF fm(font());
    const double sw = fm.height() * 0.9;
    double x = r.left(), y = r.top() + 4;
    auto advance = [&](double w) {
        if (x + w > r.right() && x > r.left()) {
            x = r.left();
            y += fm.height() + 6;
        }
    };
    const std::vector<LegendItem> items = legendItems();
    const QString shape = legendShapeText();
    p.setFont(font());
    for (const LegendItem& it : items) {
        advance(sw * (it.cell < 0 ? 1.8 : 1.0) + 5 + fm.horizontalAdvance(it.text) + 16);
        const QRectF box(x, y + (fm.height() - sw) / 2, sw * (it.cell < 0 ? 1.8 : 1.0), sw);
        if (it.cell >= 0) {
            const auto s = CellState(it.cell);
            p.setPen(QPen(QColor(0x80, 0x80, 0x80), 1));
            p.setBrush(colorOf(s));
            p.drawRect(box);
            if (s == CellState::Idle) {
                p.setBrush(QBrush(QColor(0x90, 0x90, 0x90), Qt::BDiagPattern));
                p.drawRect(box);
            }
        } else {
            p.setPen(QPen(colorOf(it.kind), 2.5, it.kind == MoveKind::Update ? Qt::DashLine : Qt::SolidLine));
            p.drawLine(QPointF(box.left(), box.center().y()), QPointF(box.right(), box.center().y()));
        }
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QPointF(box.right() + 5, y + fm.ascent()), it.text);
        x = box.right() + 5 + fm.horizontalAdvance(it.text) + 16;
    }
    if (!shape.isEmpty()) {
        advance(fm.horizontalAdvance(shape));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QPointF(x, y + fm.ascent()), shape);
    }
}

void DataflowView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintContent(p);   // the background is the widget's (autoFillBackground)
}

void DataflowView::paint(QPainter& p) const
{
    p.fillRect(QRectF(QPointF(0, 0), QSizeF(size())), palette().color(QPalette::Base));
    paintContent(p);
}

void DataflowView::paintStatic(QPainter& p, bool idleCells) const
{
    const Layout l = layout();
    const QColor text = palette().color(QPalette::Text);
    p.setFont(font());
    // The parent level the fills come from.
    p.setPen(QPen(QColor(0x70, 0x70, 0x70), 1));
    p.setBrush(QColor(0xea, 0xea, 0xf2));
    p.drawRoundedRect(l.parent, 4, 4);
    p.setPen(text);
    const QString source = tensor_ >= 0 && tensor_ < int(context_.tensors.size()) ? context_.tensors[std::size_t(tensor_)].source : QString();
    const QString parent = source.isEmpty() ? context_.parentName : source;
    const QString parentText = parent.isEmpty() ? tr("(no parent level)") : parent;
    p.drawText(l.parent, Qt::AlignCenter, QFontMetricsF(font()).elidedText(parentText, Qt::ElideRight, l.parent.width() - 8));
    paintLegend(p, l.legend);
    if (idleCells) {
        p.setRenderHint(QPainter::Antialiasing, false);   // as the other cells (paintContent)
        for (int i = 0; i < instanceCount(); ++i) paintIdleCell(p, cellRect(i));
        p.setRenderHint(QPainter::Antialiasing);
    }
}

const QImage& DataflowView::staticLayer(double devicePixelRatio) const
{
    const QSize pixels = (QSizeF(size()) * devicePixelRatio).toSize();
    if (staticLayer_.size() == pixels && staticLayer_.devicePixelRatio() == devicePixelRatio) return staticLayer_;
    layout();   // a size change clears the caches: before drawing the new layer
    staticLayer_ = QImage(pixels, QImage::Format_RGB32);
    staticLayer_.setDevicePixelRatio(devicePixelRatio);
    QPainter p(&staticLayer_);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(QRectF(QPointF(0, 0), QSizeF(size())), palette().color(QPalette::Base));
    paintStatic(p, true);
    return staticLayer_;
}

void DataflowView::paintContent(QPainter& p) const
{
    p.setRenderHint(QPainter::Antialiasing);
    p.setFont(font());
    // On pixels, what changes only with the size, tensor or context (background, parent box,
    // legend, every cell idle) comes from a cached image and only the non-idle cells are drawn
    // over it; vector devices (SVG, PDF) get every item.
    const bool raster = p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Raster && p.worldTransform().isIdentity() &&
                        p.device();
    if (raster) p.drawImage(QPointF(0, 0), staticLayer(p.device()->devicePixelRatio()));
    else paintStatic(p, false);
    const Layout l = layout();
    const QColor text = palette().color(QPalette::Text);

    // Title: step, level, mesh, activity.
    QString title;
    if (hasFrame_) {
        int active = 0;
        for (const trace::InstanceFrame& f : frame_.instances) active += f.active ? 1 : 0;
        const QString tensor = tensor_ >= 0 && tensor_ < int(context_.tensors.size()) ? context_.tensors[std::size_t(tensor_)].name : QString();
        title = tr("Step %1 · %2, %3 × %4 instances, %5 active · %6")
                    .arg(NumberFormat::count(frame_.step), context_.levelName)
                    .arg(context_.meshX).arg(context_.meshY).arg(active).arg(tensor);
    } else {
        title = tr("No step to show");
    }
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(text);
    p.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter, QFontMetricsF(bold).elidedText(title, Qt::ElideRight, l.title.width()));
    p.setFont(font());

    // Cells and tiles are axis-parallel rectangles: on pixels they are drawn aliased (crisp, and
    // plain rectangle fills; antialiased ones are span fills that Qt hands to its thread pool,
    // which costs more than the fill on a small machine).
    p.setRenderHint(QPainter::Antialiasing, !raster);
    std::vector<int> labelled;
    for (int i = 0; i < instanceCount(); ++i) {
        if (raster && cellState(i) == CellState::Idle) continue;
        if (paintCell(p, i, cellRect(i))) labelled.push_back(i);
    }
    p.setRenderHint(QPainter::Antialiasing);
    paintCellLabels(p, labelled);
    paintArrows(p);
}

} // namespace nestor::widgets
