#pragma once
// The mapping as a loop nest: one top-level row per storage level (outermost first) with
// its loops as children, then a row for the compute level. Loop text is indented by its
// depth in the whole nest so the levels read as one program:
//   DRAM                          37 / unbounded       W 3, I 18, O 16
//     for P in [0:4)
//   Buffer                        13 / 64 (20.3 %)     W 3, I 6, O 4
//       for R in [0:3)
//       par-for P in [0:4) (X)
// Level rows carry the capacity use and the tile (utilized capacity, words) of each kept
// tensor (tensor initials when they are distinct) once an Evaluation is set; both have a
// compact form with "12.29 k" counts (CompactTextRole) and the exact text in the tooltip. An invalid evaluation adds an error row on top
// whose children are the diagnostics.
// When editable, loop rows can be dragged (LoopNestModelDragDrop.cpp): dropped on a level row a
// loop goes innermost in its temporal list; on a loop row it takes that loop's place in its list
// (same list: reorder; the level's other list: switch temporal / spatial); between two loop rows
// it goes in between, in the list of the row below (after the last row: of the row above).
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <QAbstractItemModel>
#include <QMimeData>
#include <QStringList>

#include <optional>
#include <vector>

namespace nestor::widgets {

class LoopNestModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NestColumn, CapacityColumn, TilesColumn, ColumnCount };
    enum class RowKind { Errors, Diagnostic, Level, Loop, Compute };
    enum Role {
        RowKindRole = Qt::UserRole + 1,  // int(RowKind)
        LevelRole,                       // storage level index of a Level or Loop row (-1 otherwise)
        LoopKindRole,                    // Loop rows: int(nestor::LoopKind); read it with loopKindAt()
        LoopIndexRole,                   // Loop rows: index within its level and kind, outermost first
    };

    explicit LoopNestModel(QObject* parent = nullptr);

    // Shows the loops of `m`; any previous evaluation is dropped.
    void setMapping(const Workload& w, const Architecture& a, const Mapping& m);
    // Annotates the current mapping with `e` (tiles, capacity use, errors).
    void setEvaluation(const Evaluation& e);
    void clear();
    // Loop rows become editable: the factor text is "bound" or "bound/residual". An edit
    // does not change the model; it emits factorEditRequested and the owner decides.
    void setEditable(bool editable) { editable_ = editable; }
    bool isEditable() const { return editable_; }
    const Workload* workload() const { return workload_ ? &*workload_ : nullptr; }
    const Mapping* mapping() const { return mapping_ ? &*mapping_ : nullptr; }
    const Architecture* architecture() const { return architecture_ ? &*architecture_ : nullptr; }
    bool keeps(int level, int tensor) const;
    // The index of the row of a loop (column 0), or an invalid index.
    QModelIndex loopIndex(int level, LoopKind kind, int index) const;
    // The loop kind of a Loop row (checked conversion of LoopKindRole); nullopt for other rows.
    static std::optional<LoopKind> loopKindAt(const QModelIndex& index);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // Drag and drop of loop rows (MIME type kLoopMimeType: mapping name, level, kind, index).
    static const QString kLoopMimeType;
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    Qt::DropActions supportedDragActions() const override { return Qt::MoveAction; }
    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    // Does not change the model: emits loopPlaceRequested and the owner decides.
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column, const QModelIndex& parent) override;

    // "16" -> (16, 16); "16/5" or "16,5" -> (16, 5); false when the text is not a factor.
    static bool parseFactor(const QString& text, qint64* bound, qint64* residual);

signals:
    void factorEditRequested(int level, nestor::LoopKind loopKind, int loopIndex, qint64 bound, qint64 residual);
    // A dropped loop: to position toIndex (its index once moved) of list toKind at toLevel.
    void loopPlaceRequested(int level, nestor::LoopKind loopKind, int loopIndex, int toLevel, nestor::LoopKind toKind, int toIndex);

private:
    struct LoopPlace {
        int level = -1;
        LoopKind kind = LoopKind::Temporal;
        int index = -1;
    };
    struct LoopMove {
        LoopPlace from, to;
    };
    struct Row {
        RowKind kind = RowKind::Loop;
        QString text[ColumnCount];
        QString compact[ColumnCount];  // CompactTextRole (ItemRoles.h): counts as "12.29 k"; empty: none
        QString toolTip;
        bool muted = false;     // trivial loop (bound 1)
        bool alarming = false;  // error or capacity overflow
        int level = -1;
        LoopKind loopKind = LoopKind::Temporal;  // Loop rows only
        int loopIndex = -1;
        qint64 bound = 0, residual = 0;
        std::vector<Row> children;
    };

    void rebuild();
    Row levelRow(int level, int& depth) const;
    Row computeRow() const;
    Row errorsRow() const;
    const Row* rowAt(const QModelIndex& index) const;
    // The move a drop of `data` at (row, parent) stands for; nullopt when it is not a loop of this
    // mapping, lands nowhere a loop can go, or leaves the loop where it is.
    std::optional<LoopMove> dropMove(const QMimeData* data, int row, const QModelIndex& parent) const;
    std::optional<LoopPlace> draggedLoop(const QMimeData* data) const;
    int listSize(int level, LoopKind kind) const;

    std::optional<Workload> workload_;
    std::optional<Architecture> architecture_;
    std::optional<Mapping> mapping_;
    std::optional<Evaluation> evaluation_;
    std::vector<Row> rows_;
    bool editable_ = false;
};

} // namespace nestor::widgets
