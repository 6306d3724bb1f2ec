#include "ProjectDocument.h"

#include "arch/EnergyModels.h"
#include "io/ProjectYaml.h"

#include <QFileInfo>
#include <QUndoStack>

#include <exception>
#include <utility>

namespace nestor::app {

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent), project_(emptyProject()), undo_(new QUndoStack(this))
{
    connect(undo_, &QUndoStack::cleanChanged, this, [this] { updateModified(); });
}

Project ProjectDocument::emptyProject()
{
    Project p;
    p.name = "untitled";
    p.architecture.name = "architecture";
    StorageLevel dram;
    dram.name = "DRAM";
    dram.technology = "DRAM";
    dram.size_words.reset();
    p.architecture.levels.push_back(dram);
    p.architecture.compute.instances = 1;
    return p;
}

void ProjectDocument::reset(Project project, const QString& path, bool modified)
{
    undo_->clear();
    project_ = std::move(project);
    try {
        // As nestor-cli does before evaluating: a size-aware model's energies and areas.
        applyEnergyModel(project_.architecture, project_.energyModel);
    } catch (const std::exception& e) {
        // The reader checked that the model applies; a project built in code may not: keep its values.
        qWarning("energy model not applied: %s", e.what());
    }
    forcedModified_ = modified;
    if (path_ != path) {
        path_ = path;
        emit pathChanged(path_);
    }
    emit contentReset();
    updateModified();
}

bool ProjectDocument::load(const QString& path, QString* error)
{
    try {
        Project p = readProject(path.toStdString());
        reset(std::move(p), QFileInfo(path).absoluteFilePath());
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

bool ProjectDocument::save(QString* error)
{
    if (path_.isEmpty()) {
        if (error) *error = tr("The project has no file name yet.");
        return false;
    }
    return saveAs(path_, error);
}

bool ProjectDocument::saveAs(const QString& path, QString* error)
{
    try {
        saveProject(project_, path.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    project_.path = absolute.toStdString();
    if (path_ != absolute) {
        path_ = absolute;
        emit pathChanged(path_);
    }
    forcedModified_ = false;
    undo_->setClean();
    updateModified();
    return true;
}

QString ProjectDocument::displayName() const
{
    if (!project_.name.empty()) return QString::fromStdString(project_.name);
    return path_.isEmpty() ? tr("untitled") : QFileInfo(path_).completeBaseName();
}

bool ProjectDocument::isModified() const
{
    return forcedModified_ || !undo_->isClean();
}

void ProjectDocument::notifyChanged(const ProjectChange& change)
{
    if (batchDepth_ > 0) {
        batched_.append(change);
        return;
    }
    emit changed(change);
}

void ProjectDocument::beginChangeBatch()
{
    ++batchDepth_;
}

void ProjectDocument::endChangeBatch()
{
    if (batchDepth_ == 0 || --batchDepth_ > 0) return;
    const ProjectChanges changes = std::exchange(batched_, {});
    for (const ProjectChange& c : changes) emit changed(c);
}

void ProjectDocument::reportCommandFailure(const QString& message)
{
    qWarning("%s", qPrintable(message));
    emit commandFailed(message);
}

void ProjectDocument::updateModified()
{
    const bool now = isModified();
    if (now == lastModified_) return;
    lastModified_ = now;
    emit modifiedChanged(now);
}

} // namespace nestor::app
