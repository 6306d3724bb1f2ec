#pragma once
// The undo command that adds an element to one of the project's lists (layers, mappings) or
// removes one; undo does the opposite. Like ChangeValueCommand, the list is located by an
// accessor asked again at every step, and a list that is gone, or an index outside it, is a
// reported failure that drops the step, never a silent no-op.
#include "ProjectDocument.h"

#include <QObject>
#include <QString>
#include <QUndoCommand>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace nestor::app {

template <typename T>
class ListElementCommand : public QUndoCommand {
public:
    using Accessor = std::function<std::vector<T>*(Project&)>;
    enum class Action { Insert, Remove };

    // Insert: `element` goes to position `index`. Remove: the element at `index` leaves.
    ListElementCommand(ProjectDocument* document, const QString& text, ProjectChange change, Accessor list,
                       Action action, int index, std::optional<T> element = std::nullopt,
                       QUndoCommand* parent = nullptr)
        : QUndoCommand(text, parent), document_(document), change_(std::move(change)), list_(std::move(list)),
          action_(action), index_(index), element_(std::move(element))
    {
    }

    void redo() override { apply(action_, change_, QObject::tr("redo")); }
    void undo() override
    {
        apply(action_ == Action::Insert ? Action::Remove : Action::Insert, change_.inverse(), QObject::tr("undo"));
    }

private:
    void apply(Action action, const ProjectChange& change, const QString& verb)
    {
        std::vector<T>* list = list_(document_->editableProject());
        const bool fits = list && index_ >= 0 &&
                          (action == Action::Insert ? std::size_t(index_) <= list->size() && element_
                                                    : std::size_t(index_) < list->size());
        if (!fits) {
            setObsolete(true);
            document_->reportCommandFailure(
                QObject::tr("Could not %1 \"%2\": what it changes is no longer in the project.").arg(verb, text()));
            return;
        }
        if (action == Action::Insert) {
            list->insert(list->begin() + index_, std::move(*element_));
            element_.reset();
        } else {
            element_ = std::move((*list)[std::size_t(index_)]);
            list->erase(list->begin() + index_);
        }
        document_->notifyChanged(change);
    }

    ProjectDocument* document_;
    ProjectChange change_;
    Accessor list_;
    Action action_;
    int index_;
    std::optional<T> element_;  // held while it is out of the list
};

// Runs its child commands as one undo step whose changes listeners see only once all children
// have been applied (ProjectDocument::beginChangeBatch).
class CompoundCommand : public QUndoCommand {
public:
    CompoundCommand(ProjectDocument* document, const QString& text) : QUndoCommand(text), document_(document) {}
    void redo() override
    {
        document_->beginChangeBatch();
        QUndoCommand::redo();
        document_->endChangeBatch();
    }
    void undo() override
    {
        document_->beginChangeBatch();
        QUndoCommand::undo();
        document_->endChangeBatch();
    }

private:
    ProjectDocument* document_;
};

} // namespace nestor::app
