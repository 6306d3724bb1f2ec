#include "ColumnFitter.h"

#include "CompactTextDelegate.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>

#include <algorithm>
#include <numeric>

namespace nestor::widgets {

namespace {
// Style metrics and the eliding code round differently by a pixel or so; a column this much
// wider than its text never elides it.
constexpr int kSlack = 2;
} // namespace

ColumnFitter::ColumnFitter(QAbstractItemView* view, QHeaderView* header)
    : QObject(view), view_(view), header_(header), delegate_(new CompactTextDelegate(this))
{
    view_->setItemDelegate(delegate_);
    header_->setStretchLastSection(false);  // fit() fills the viewport itself
    view_->viewport()->installEventFilter(this);
    if (view_->model()) connect(view_->model(), &QAbstractItemModel::modelReset, this, &ColumnFitter::fit);
}

bool ColumnFitter::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == view_->viewport() && event->type() == QEvent::Resize) fit();
    return QObject::eventFilter(watched, event);
}

ColumnFitter::Widths ColumnFitter::measure() const
{
    Widths w;
    const int n = header_->count();
    w.preferred.assign(std::size_t(n), 0);
    w.minimum.assign(std::size_t(n), 0);
    for (int c = 0; c < n; ++c) {
        if (header_->isSectionHidden(c)) continue;
        delegate_->setMeasuredForm(CompactTextDelegate::Form::Exact);
        const int exact = view_->sizeHintForColumn(c);
        delegate_->setMeasuredForm(CompactTextDelegate::Form::Compact);
        const int compact = view_->sizeHintForColumn(c);
        delegate_->setMeasuredForm(CompactTextDelegate::Form::Exact);
        const int floor = std::max(header_->minimumSectionSize(), header_->sectionSizeHint(c));
        w.preferred[std::size_t(c)] = std::max(exact + kSlack, floor);
        w.minimum[std::size_t(c)] = std::min(w.preferred[std::size_t(c)], std::max(compact + kSlack, floor));
        for (const auto& [column, width] : elidable_)
            if (column == c) w.minimum[std::size_t(c)] = std::min(w.minimum[std::size_t(c)], std::max(width, floor));
    }
    return w;
}

void ColumnFitter::setElidableColumn(int column, int width)
{
    elidable_.emplace_back(column, width);
    fit();
}

void ColumnFitter::fit()
{
    if (fitting_ || !view_->model()) return;
    fitting_ = true;  // resizing sections can resize the viewport (scroll bars) and call back
    const Widths w = measure();
    const int available = view_->viewport()->width();
    const int preferred = std::accumulate(w.preferred.begin(), w.preferred.end(), 0);
    const int minimum = std::accumulate(w.minimum.begin(), w.minimum.end(), 0);
    std::vector<int> widths = w.preferred;
    if (preferred > available) {
        widths = w.minimum;
        const int room = available - minimum;
        const int lacking = preferred - minimum;
        if (room > 0 && lacking > 0)
            for (std::size_t c = 0; c < widths.size(); ++c)
                widths[c] += int(std::int64_t(room) * (w.preferred[c] - w.minimum[c]) / lacking);
    }
    // Whatever is left (rounding, or room beyond the preferred widths) goes to the last column.
    const int used = std::accumulate(widths.begin(), widths.end(), 0);
    for (int c = header_->count() - 1; c >= 0; --c) {
        if (header_->isSectionHidden(c)) continue;
        if (used < available) widths[std::size_t(c)] += available - used;
        break;
    }
    for (int c = 0; c < header_->count(); ++c)
        if (!header_->isSectionHidden(c)) header_->resizeSection(c, widths[std::size_t(c)]);
    fitting_ = false;
}

int ColumnFitter::viewChrome() const
{
    const QScrollBar* bar = view_->verticalScrollBar();
    return 2 * view_->frameWidth() + (bar->isVisible() ? bar->sizeHint().width() : 0);
}

int ColumnFitter::preferredViewWidth() const
{
    const Widths w = measure();
    return std::accumulate(w.preferred.begin(), w.preferred.end(), 0) + viewChrome();
}

int ColumnFitter::minimumViewWidth() const
{
    const Widths w = measure();
    return std::accumulate(w.minimum.begin(), w.minimum.end(), 0) + viewChrome();
}

} // namespace nestor::widgets
