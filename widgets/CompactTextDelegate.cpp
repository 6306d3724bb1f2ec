#include "CompactTextDelegate.h"

#include "ItemRoles.h"

#include <QApplication>
#include <QPainter>

namespace nestor::widgets {

namespace {

const QStyle* styleOf(const QStyleOptionViewItem& option)
{
    return option.widget ? option.widget->style() : QApplication::style();
}

QSize contentSize(const QStyleOptionViewItem& option)
{
    return styleOf(option)->sizeFromContents(QStyle::CT_ItemViewItem, &option, QSize(), option.widget);
}

} // namespace

CompactTextDelegate::CompactTextDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

QSize CompactTextDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index, Form form) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString compact = index.data(CompactTextRole).toString();
    if (form == Form::Compact && !compact.isEmpty()) opt.text = compact;
    return contentSize(opt);
}

QSize CompactTextDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    return sizeHint(option, index, measured_);
}

bool CompactTextDelegate::showsCompact(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    if (index.data(CompactTextRole).toString().isEmpty()) return false;
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    // The room the style elides the text to (QCommonStyle: the text rect less a margin each side).
    const QStyle* style = styleOf(opt);
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, opt.widget) + 1;
    const int room = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, opt.widget).width() - 2 * margin;
    return opt.fontMetrics.horizontalAdvance(opt.text) > room;
}

void CompactTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    if (showsCompact(option, index)) opt.text = index.data(CompactTextRole).toString();
    styleOf(opt)->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
}

} // namespace nestor::widgets
