// Dragging a loop row of the loop nest to another place (see LoopNestModel.h for where a drop
// puts it). The model never changes itself: a drop becomes a loopPlaceRequested the owner carries
// out (and may refuse, saying why), as for factor edits.
#include "models/LoopNestModel.h"

#include <QDataStream>
#include <QIODevice>

namespace nestor::widgets {

const QString LoopNestModel::kLoopMimeType = QStringLiteral("application/x-nestor-loop");

QStringList LoopNestModel::mimeTypes() const
{
    return {kLoopMimeType};
}

QMimeData* LoopNestModel::mimeData(const QModelIndexList& indexes) const
{
    if (!mapping_) return nullptr;
    for (const QModelIndex& index : indexes) {
        const Row* row = rowAt(index);
        if (!row || row->kind != RowKind::Loop) continue;
        QByteArray bytes;
        QDataStream out(&bytes, QIODevice::WriteOnly);
        out << QString::fromStdString(mapping_->name) << qint32(row->level) << qint32(row->loopKind) << qint32(row->loopIndex);
        auto* data = new QMimeData;
        data->setData(kLoopMimeType, bytes);
        return data;
    }
    return nullptr;
}

std::optional<LoopNestModel::LoopPlace> LoopNestModel::draggedLoop(const QMimeData* data) const
{
    if (!data || !mapping_ || !data->hasFormat(kLoopMimeType)) return std::nullopt;
    QDataStream in(data->data(kLoopMimeType));
    QString mapping;
    qint32 level = -1, kind = -1, index = -1;
    in >> mapping >> level >> kind >> index;
    // A loop of another mapping (the drag outlived a switch) or of an older version of this one.
    if (in.status() != QDataStream::Ok || mapping.toStdString() != mapping_->name) return std::nullopt;
    const std::optional<LoopKind> loopKind = loopKindFromInt(kind);
    if (!loopKind || index < 0 || index >= listSize(level, *loopKind)) return std::nullopt;
    return LoopPlace{level, *loopKind, index};
}

int LoopNestModel::listSize(int level, LoopKind kind) const
{
    if (!mapping_ || level < 0 || std::size_t(level) >= mapping_->levels.size()) return 0;
    return int(mapping_->levels[std::size_t(level)].loops(kind).size());
}

std::optional<LoopNestModel::LoopMove> LoopNestModel::dropMove(const QMimeData* data, int row, const QModelIndex& parent) const
{
    if (!editable_) return std::nullopt;
    const std::optional<LoopPlace> from = draggedLoop(data);
    const Row* target = rowAt(parent);
    // Between two level rows there is no list to drop into; errors and compute rows hold no loops.
    if (!from || !target) return std::nullopt;
    LoopPlace to;
    bool between = false;  // to.index is the slot before the loop there, not a place to take
    if (target->kind == RowKind::Loop) {
        if (row != -1) return std::nullopt;
        to = {target->level, target->loopKind, target->loopIndex};
    } else if (target->kind == RowKind::Level) {
        const std::vector<Row>& loops = target->children;
        between = row >= 0;
        if (row < 0 || loops.empty()) {
            to = {target->level, LoopKind::Temporal, row < 0 ? -1 : 0};
        } else if (std::size_t(row) < loops.size()) {
            const Row& below = loops[std::size_t(row)];
            to = {below.level, below.loopKind, below.loopIndex};
        } else {
            const Row& above = loops.back();
            to = {above.level, above.loopKind, above.loopIndex + 1};
        }
    } else {
        return std::nullopt;
    }
    const bool sameList = to.level == from->level && to.kind == from->kind;
    const int sizeOnceLeft = listSize(to.level, to.kind) - (sameList ? 1 : 0);
    if (to.index < 0) to.index = sizeOnceLeft;                     // innermost
    else if (between && sameList && from->index < to.index) --to.index;  // the slots below close up
    if (to.index > sizeOnceLeft || (sameList && to.index == from->index)) return std::nullopt;
    return LoopMove{*from, to};
}

bool LoopNestModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int, const QModelIndex& parent) const
{
    return action == Qt::MoveAction && dropMove(data, row, parent).has_value();
}

bool LoopNestModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column, const QModelIndex& parent)
{
    if (!canDropMimeData(data, action, row, column, parent)) return false;
    const LoopMove move = *dropMove(data, row, parent);
    emit loopPlaceRequested(move.from.level, move.from.kind, move.from.index, move.to.level, move.to.kind, move.to.index);
    return true;
}

} // namespace nestor::widgets
