#include "OnnxImportCommand.h"

#include "ProjectDocument.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace nestor::app {

namespace {

// Swaps the project's workload and network lists with the stored ones: redo adds the imported
// layers and network, undo restores the lists as they were. (ChangeValueCommand needs a value
// type it can compare for merging; these lists are swapped whole and never merge.)
class ImportNetworkCommand : public QUndoCommand {
public:
    ImportNetworkCommand(ProjectDocument& doc, const Project& edited, const QString& network)
        : QUndoCommand(QObject::tr("Import ONNX network %1").arg(network)), doc_(doc), workloads_(edited.workloads),
          networks_(edited.networks), network_(network)
    {
    }
    void redo() override { swap(ProjectChange::Kind::Added); }
    void undo() override { swap(ProjectChange::Kind::Removed); }

private:
    void swap(ProjectChange::Kind kind)
    {
        Project& p = doc_.editableProject();
        std::swap(p.workloads, workloads_);
        std::swap(p.networks, networks_);
        doc_.notifyChanged(ProjectChange::whole());
        doc_.notifyChanged(ProjectChange::network(kind, network_));
    }
    ProjectDocument& doc_;
    std::vector<ProjectWorkload> workloads_;
    std::vector<ProjectNetwork> networks_;
    QString network_;
};

} // namespace

QString commands::addImportedNetwork(ProjectDocument& doc, const OnnxImportResult& imported)
{
    Project edited = doc.project();
    try {
        addOnnxImportToProject(edited, imported);
    } catch (const NestorError& e) {
        return QString::fromStdString(e.what());
    }
    doc.undoStack()->push(new ImportNetworkCommand(doc, edited, QString::fromStdString(imported.network.name)));
    return {};
}

} // namespace nestor::app
