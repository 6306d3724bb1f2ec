#pragma once
// A tree view of the mapping's loop nest (see LoopNestModel), kept fully expanded.
// When editable: double-click (or F2) a loop to change its factor ("16" or "16/5" for
// bound/residual), Ctrl+Up / Ctrl+Down move it out / in within its level, a loop row can be
// dragged to another place in the nest (LoopNestModel.h says where a drop puts it), and the
// context menu of a level toggles keep/bypass per tensor. Edits are requests (signals); the
// owner changes the mapping and sets it again.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <QTreeView>

#include <optional>

namespace nestor::widgets {

class ColumnFitter;
class LoopNestModel;

class LoopNestView : public QTreeView {
    Q_OBJECT
public:
    explicit LoopNestView(QWidget* parent = nullptr);

    void setMapping(const Workload& w, const Architecture& a, const Mapping& m);
    void setEvaluation(const Evaluation& e);
    void clear();
    void setEditable(bool editable);

    LoopNestModel* loopNestModel() const { return model_; }
    // Keeps every column inside the viewport (compact counts when the view is narrow).
    ColumnFitter* columnFitter() const { return columns_; }
    // Moves the selected loop; false when no loop is selected.
    bool moveCurrentLoop(int delta);

signals:
    void factorEditRequested(int level, nestor::LoopKind loopKind, int loopIndex, qint64 bound, qint64 residual);
    void loopMoveRequested(int level, nestor::LoopKind loopKind, int loopIndex, int delta);
    void keepChangeRequested(int level, int tensor, bool keep);
    // To another level and/or list (innermost there); the same level's other list switches kind.
    void loopRelocateRequested(int level, nestor::LoopKind loopKind, int loopIndex, int toLevel, nestor::LoopKind toKind);
    // A dragged loop, to position toIndex (its index once moved) of that list: one edit.
    void loopPlaceRequested(int level, nestor::LoopKind loopKind, int loopIndex, int toLevel, nestor::LoopKind toKind, int toIndex);
    void loopAddRequested(int level, nestor::LoopKind loopKind, int dim);
    void loopRemoveRequested(int level, nestor::LoopKind loopKind, int loopIndex);
    void repairRequested();

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void refreshLayout();
    // Remembers the current loop so that it stays selected when the model is rebuilt.
    void rememberCurrentLoop();

    LoopNestModel* model_;
    ColumnFitter* columns_ = nullptr;
    struct Selection {
        int level = -1;
        LoopKind kind = LoopKind::Temporal;
        int index = -1;
    };
    std::optional<Selection> pendingSelection_;
};

} // namespace nestor::widgets
