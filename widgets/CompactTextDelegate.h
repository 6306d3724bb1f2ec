#pragma once
// Paints a cell's CompactTextRole text (ItemRoles.h) instead of its exact DisplayRole text
// when the exact text does not fit the cell, so that a narrow column shows "11.14 M" rather
// than an elided "11,14…". Measures either form, so that ColumnFitter can size columns
// between the two.
#include <QStyledItemDelegate>

namespace nestor::widgets {

class CompactTextDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    enum class Form { Exact, Compact };

    explicit CompactTextDelegate(QObject* parent = nullptr);

    // The size of the cell showing `form` (the exact text where the cell has no compact one).
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index, Form form) const;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    // Whether the cell at option.rect shows the compact text: the exact one would be elided.
    bool showsCompact(const QStyleOptionViewItem& option, const QModelIndex& index) const;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    // What sizeHint(option, index) measures; ColumnFitter switches it to learn both widths.
    void setMeasuredForm(Form form) { measured_ = form; }

private:
    Form measured_ = Form::Exact;
};

} // namespace nestor::widgets
