#pragma once
// The open project as a document: the Project value, its undo stack, file path and
// modified state. Every edit is an undo command (see ChangeValueCommand.h and
// ProjectCommands.h) that changes the project through editableProject() and calls
// notifyChanged() with what it changed; views listen to changed() and update only what the
// change touches (ProjectChange.h).
#include "ProjectChange.h"
#include "core/Project.h"

#include <QObject>
#include <QString>

class QUndoStack;

namespace nestor::app {

class ProjectDocument : public QObject {
    Q_OBJECT
public:
    explicit ProjectDocument(QObject* parent = nullptr);

    // An empty project with a one-level architecture, ready to be filled in.
    static Project emptyProject();

    // Replaces the content (New, Open, Restore); clears the undo history. The project's energy
    // model (energy_model: interstellar-28nm, thistle-45nm) fills its energies and areas here and
    // after every architecture edit (ArchitectureCommands.h), so figures follow sizes.
    void reset(Project project, const QString& path, bool modified = false);
    // Reads `path`; on failure returns false with the located error in *error and keeps the content.
    bool load(const QString& path, QString* error = nullptr);
    // Atomic write (temporary file + rename) to the current path / to `path`.
    bool save(QString* error = nullptr);
    bool saveAs(const QString& path, QString* error = nullptr);

    const Project& project() const { return project_; }
    QString path() const { return path_; }
    QString displayName() const;
    bool isModified() const;
    QUndoStack* undoStack() const { return undo_; }

    // For undo commands only.
    Project& editableProject() { return project_; }
    void notifyChanged(const ProjectChange& change);
    // Between begin and end, changes are collected and emitted once all have been applied, so
    // that listeners never see a half-done compound edit (a layer renamed, its mappings not yet).
    void beginChangeBatch();
    void endChangeBatch();
    // A command could not find what it changes (a bug, never a user error): emits commandFailed.
    void reportCommandFailure(const QString& message);

signals:
    void changed(const nestor::app::ProjectChange& change);  // content edited (by a command, undo or redo)
    void commandFailed(const QString& message);  // an undo/redo step found nothing to change
    void contentReset();         // new content (New, Open, Restore)
    void modifiedChanged(bool modified);
    void pathChanged(const QString& path);

private:
    void updateModified();

    Project project_;
    QString path_;
    QUndoStack* undo_;
    bool forcedModified_ = false;  // restored from a recovery file: unsaved until saved
    bool lastModified_ = false;
    int batchDepth_ = 0;
    ProjectChanges batched_;
};

} // namespace nestor::app
