#pragma once
// The one undo command for every edit (after Tiled's ChangeValue): it swaps one value of
// the project, found by an accessor, with a new one. Undo swaps it back. The accessor is
// asked again on every redo/undo, so it must locate the value by a stable key (a name or
// an index), never keep a pointer. Edits with the same non-negative merge id and key
// (e.g. typing in one cell) merge into one undo step.
#include "ProjectDocument.h"

#include <QString>
#include <QUndoCommand>

#include <functional>
#include <utility>

namespace nestor::app {

template <typename T>
class ChangeValueCommand : public QUndoCommand {
public:
    using Accessor = std::function<T*(Project&)>;

    ChangeValueCommand(ProjectDocument* document, const QString& text, Accessor accessor, T value, int mergeId = -1,
                       QString mergeKey = {})
        : QUndoCommand(text), document_(document), accessor_(std::move(accessor)), value_(std::move(value)),
          mergeId_(mergeId), mergeKey_(std::move(mergeKey))
    {
    }

    void redo() override { swap(); }
    void undo() override { swap(); }
    int id() const override { return mergeId_; }

    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = dynamic_cast<const ChangeValueCommand<T>*>(other);
        if (!o || o->mergeKey_ != mergeKey_) return false;
        // This command keeps the value from before the first edit; the document already
        // holds the newest one.
        setText(o->text());
        return true;
    }

private:
    void swap()
    {
        if (T* target = accessor_(document_->editableProject())) {
            std::swap(*target, value_);
            document_->notifyChanged();
        }
    }

    ProjectDocument* document_;
    Accessor accessor_;
    T value_;
    int mergeId_;
    QString mergeKey_;
};

} // namespace nestor::app
