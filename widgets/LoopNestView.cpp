#include "LoopNestView.h"

#include "models/LoopNestModel.h"

#include <QHeaderView>

namespace nestor::widgets {

LoopNestView::LoopNestView(QWidget* parent) : QTreeView(parent), model_(new LoopNestModel(this))
{
    setModel(model_);
    setUniformRowHeights(false);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setTextElideMode(Qt::ElideRight);
    setIndentation(14);
    header()->setStretchLastSection(true);
    connect(model_, &QAbstractItemModel::modelReset, this, &LoopNestView::refreshLayout);
}

void LoopNestView::setMapping(const Workload& w, const Architecture& a, const Mapping& m)
{
    model_->setMapping(w, a, m);
}

void LoopNestView::setEvaluation(const Evaluation& e)
{
    model_->setEvaluation(e);
}

void LoopNestView::clear()
{
    model_->clear();
}

void LoopNestView::refreshLayout()
{
    expandAll();
    for (int r = 0; r < model_->rowCount(); ++r) {
        const QModelIndex top = model_->index(r, 0);
        if (top.data(LoopNestModel::RowKindRole).toInt() != int(LoopNestModel::RowKind::Errors)) continue;
        setFirstColumnSpanned(r, {}, true);
        for (int c = 0; c < model_->rowCount(top); ++c) setFirstColumnSpanned(c, top, true);
    }
    for (int c = 0; c < LoopNestModel::ColumnCount - 1; ++c) resizeColumnToContents(c);
}

} // namespace nestor::widgets
