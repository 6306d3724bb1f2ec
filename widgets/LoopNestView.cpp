#include "LoopNestView.h"

#include "ColumnFitter.h"
#include "models/LoopNestModel.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QMenu>

namespace nestor::widgets {

LoopNestView::LoopNestView(QWidget* parent) : QTreeView(parent), model_(new LoopNestModel(this))
{
    setModel(model_);
    setUniformRowHeights(false);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setTextElideMode(Qt::ElideRight);
    setIndentation(14);
    connect(model_, &QAbstractItemModel::modelReset, this, &LoopNestView::refreshLayout);
    columns_ = new ColumnFitter(this, header());  // after refreshLayout: it measures the expanded rows
    connect(model_, &LoopNestModel::factorEditRequested, this, &LoopNestView::factorEditRequested);
    connect(model_, &LoopNestModel::loopPlaceRequested, this,
            [this](int level, LoopKind kind, int index, int toLevel, LoopKind toKind, int toIndex) {
                pendingSelection_ = Selection{toLevel, toKind, toIndex};  // the dropped loop stays selected
                emit loopPlaceRequested(level, kind, index, toLevel, toKind, toIndex);
                pendingSelection_.reset();  // used by the rebuild the accepted edit caused, if any
            });
    setDropIndicatorShown(true);
    setDefaultDropAction(Qt::MoveAction);

    auto* up = new QAction(tr("Move loop out"), this);
    up->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Up));
    up->setShortcutContext(Qt::WidgetShortcut);
    connect(up, &QAction::triggered, this, [this] { moveCurrentLoop(-1); });
    auto* down = new QAction(tr("Move loop in"), this);
    down->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Down));
    down->setShortcutContext(Qt::WidgetShortcut);
    connect(down, &QAction::triggered, this, [this] { moveCurrentLoop(1); });
    addAction(up);
    addAction(down);
}

void LoopNestView::setEditable(bool editable)
{
    model_->setEditable(editable);
    setEditTriggers(editable ? QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                             : QAbstractItemView::NoEditTriggers);
    // Not InternalMove: that mode ignores drops whose source is not a live QDrag of this view.
    // The model refuses payloads of another mapping, so DragDrop accepts nothing foreign.
    setDragDropMode(editable ? QAbstractItemView::DragDrop : QAbstractItemView::NoDragDrop);
}

void LoopNestView::rememberCurrentLoop()
{
    if (pendingSelection_) return;
    const QModelIndex current = currentIndex();
    if (const std::optional<LoopKind> kind = LoopNestModel::loopKindAt(current))
        pendingSelection_ = Selection{current.data(LoopNestModel::LevelRole).toInt(), *kind,
                                      current.data(LoopNestModel::LoopIndexRole).toInt()};
}

void LoopNestView::setMapping(const Workload& w, const Architecture& a, const Mapping& m)
{
    rememberCurrentLoop();
    model_->setMapping(w, a, m);
}

void LoopNestView::setEvaluation(const Evaluation& e)
{
    rememberCurrentLoop();
    model_->setEvaluation(e);
}

void LoopNestView::clear()
{
    pendingSelection_.reset();
    model_->clear();
}

bool LoopNestView::moveCurrentLoop(int delta)
{
    const QModelIndex current = currentIndex();
    const std::optional<LoopKind> kind = LoopNestModel::loopKindAt(current);
    if (!kind) return false;  // not a loop row
    const int level = current.data(LoopNestModel::LevelRole).toInt();
    const int index = current.data(LoopNestModel::LoopIndexRole).toInt();
    pendingSelection_ = Selection{level, *kind, index + delta};
    emit loopMoveRequested(level, *kind, index, delta);
    return true;
}

void LoopNestView::contextMenuEvent(QContextMenuEvent* event)
{
    if (!model_->isEditable()) return;
    const QModelIndex at = indexAt(event->pos());
    if (!at.isValid()) return;
    const auto kind = LoopNestModel::RowKind(at.data(LoopNestModel::RowKindRole).toInt());
    const int level = at.data(LoopNestModel::LevelRole).toInt();
    QMenu menu(this);
    const Architecture* arch = model_->architecture();
    const LoopKind kinds[] = {LoopKind::Temporal, LoopKind::SpatialX, LoopKind::SpatialY};
    const QString kindNames[] = {tr("temporal"), tr("spatial X"), tr("spatial Y")};
    if (kind == LoopNestModel::RowKind::Loop) {
        setCurrentIndex(at.siblingAtColumn(0));
        const std::optional<LoopKind> loopKind = model_->loopKindAt(at);
        const int index = at.data(LoopNestModel::LoopIndexRole).toInt();
        menu.addAction(tr("Edit factor…"), this, [this, at] { edit(at.siblingAtColumn(0)); });
        menu.addAction(tr("Move loop out\tCtrl+Up"), this, [this] { moveCurrentLoop(-1); });
        menu.addAction(tr("Move loop in\tCtrl+Down"), this, [this] { moveCurrentLoop(1); });
        if (loopKind && arch) {
            QMenu* make = menu.addMenu(tr("Make it"));
            for (int k = 0; k < 3; ++k)
                if (kinds[k] != *loopKind)
                    make->addAction(kindNames[k], this, [=, this] { emit loopRelocateRequested(level, *loopKind, index, level, kinds[k]); });
            QMenu* move = menu.addMenu(tr("Move to level"));
            for (int l = 0; l < arch->numLevels(); ++l)
                if (l != level)
                    move->addAction(QString::fromStdString(arch->levels[std::size_t(l)].name), this,
                                    [=, this] { emit loopRelocateRequested(level, *loopKind, index, l, *loopKind); });
            menu.addAction(tr("Remove loop"), this, [=, this] { emit loopRemoveRequested(level, *loopKind, index); });
        }
    }
    if (kind == LoopNestModel::RowKind::Level && model_->workload()) {
        const Workload& w = *model_->workload();
        for (int k = 0; k < 3; ++k) {
            QMenu* add = menu.addMenu(tr("Add %1 loop").arg(kindNames[k]));
            for (int d = 0; d < w.numDims(); ++d)
                add->addAction(QString::fromStdString(w.dimNames[std::size_t(d)]), this,
                               [=, this] { emit loopAddRequested(level, kinds[k], d); });
        }
        menu.addSeparator();
    }
    if (kind == LoopNestModel::RowKind::Level && model_->workload()) {
        const Workload& w = *model_->workload();
        for (int t = 0; t < w.numTensors(); ++t) {
            QAction* a = menu.addAction(tr("Keep %1").arg(QString::fromStdString(w.tensors[std::size_t(t)].name)));
            a->setCheckable(true);
            a->setChecked(model_->keeps(level, t));
            connect(a, &QAction::toggled, this, [this, level, t](bool keep) { emit keepChangeRequested(level, t, keep); });
        }
    }
    if (model_->mapping()) {
        menu.addSeparator();
        menu.addAction(tr("Repair factors (after a layer change)"), this, [this] { emit repairRequested(); });
    }
    if (!menu.isEmpty()) menu.exec(event->globalPos());
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
    if (pendingSelection_) {
        const QModelIndex sel = model_->loopIndex(pendingSelection_->level, pendingSelection_->kind, pendingSelection_->index);
        if (sel.isValid()) setCurrentIndex(sel);
        pendingSelection_.reset();
    }
}

} // namespace nestor::widgets
