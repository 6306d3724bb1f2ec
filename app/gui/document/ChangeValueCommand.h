#pragma once
// The one undo command for every edit (after Tiled's ChangeValue): it swaps one value of
// the project, found by an accessor, with a new one. Undo swaps it back. The accessor is
// asked again on every redo/undo, so it must locate the value by a stable key (a name or
// an index), never keep a pointer.
//
// Merging: consecutive edits with the same merge id and the same non-empty merge key (one
// field: typing in one cell or spin box) become one undo step that goes back to the value
// before the first of them. When the burst ends where it began the step disappears
// (obsolete). QUndoStack never merges across a save (its clean state).
//
// An accessor that finds nothing is an error: the command reports it through
// ProjectDocument::commandFailed and becomes obsolete, so the stack drops it instead of
// keeping a step that does nothing.
//
// Each command carries the ProjectChange it makes; redo reports it, undo its inverse.
#include "ProjectDocument.h"

#include <QObject>
#include <QString>
#include <QUndoCommand>

#include <concepts>
#include <functional>
#include <utility>

namespace nestor::app {

template <typename T>
class ChangeValueCommand : public QUndoCommand {
public:
    using Accessor = std::function<T*(Project&)>;
    static constexpr int kNoMerge = -1;

    ChangeValueCommand(ProjectDocument* document, const QString& text, ProjectChange change, Accessor accessor,
                       T value, int mergeId = kNoMerge, QString mergeKey = {}, QUndoCommand* parent = nullptr)
        : QUndoCommand(text, parent), document_(document), change_(std::move(change)), accessor_(std::move(accessor)),
          value_(std::move(value)), mergeId_(mergeKey.isEmpty() ? kNoMerge : mergeId), mergeKey_(std::move(mergeKey))
    {
    }

    void redo() override { swap(QObject::tr("redo"), change_); }
    void undo() override { swap(QObject::tr("undo"), change_.inverse()); }
    int id() const override { return mergeId_; }

    // `other` is the newer edit, already applied: this command keeps the value from before
    // the first edit and takes the newer one's text.
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* newer = dynamic_cast<const ChangeValueCommand<T>*>(other);
        if (!newer || newer->document_ != document_ || newer->mergeKey_ != mergeKey_) return false;
        setText(newer->text());
        if constexpr (std::equality_comparable<T>) {
            const T* current = accessor_(document_->editableProject());
            if (current && *current == value_) setObsolete(true);
        }
        return true;
    }

private:
    void swap(const QString& action, const ProjectChange& change)
    {
        T* target = accessor_(document_->editableProject());
        if (!target) {
            setObsolete(true);
            document_->reportCommandFailure(
                QObject::tr("Could not %1 \"%2\": what it changes is no longer in the project.").arg(action, text()));
            return;
        }
        std::swap(*target, value_);
        document_->notifyChanged(change);
    }

    ProjectDocument* document_;
    ProjectChange change_;
    Accessor accessor_;
    T value_;
    int mergeId_;
    QString mergeKey_;
};

} // namespace nestor::app
