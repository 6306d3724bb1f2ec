#pragma once
// What one edit changed, carried by every undo command and by ProjectDocument::changed, so that
// a view updates only what the edit touched (a mapping's loop edit does not rebuild the layer
// table or the network view). Undo reports the inverse change (an addition undone is a removal).
#include <QList>
#include <QMetaType>
#include <QString>

namespace nestor::app {

struct ProjectChange {
    enum class Subject { Workload, Mapping, Architecture, Network, Project };
    enum class Kind { Edited, Added, Removed, Renamed };

    Subject subject = Subject::Project;
    Kind kind = Kind::Edited;
    QString name;          // the workload, mapping or network (after the change); empty for the architecture
    QString previousName;  // renames: the name before
    int level = -1;        // architecture level or mapping level edited; -1: several or none
    QString field;         // the property edited ("size_words", "loops", "keep"); empty: several

    static ProjectChange whole() { return {}; }
    static ProjectChange workload(Kind kind, QString name, QString previousName = {});
    static ProjectChange mapping(Kind kind, QString name, int level = -1, QString field = {});
    static ProjectChange architecture(int level, QString field = {});
    static ProjectChange network(Kind kind, QString name);

    // The change that undoing this one makes.
    ProjectChange inverse() const;

    // Adds, removes or renames something the project tree lists (edits of values do not).
    bool changesStructure() const { return kind != Kind::Edited || subject == Subject::Project; }
    bool touchesArchitecture() const { return subject == Subject::Architecture || subject == Subject::Project; }
    bool touchesWorkloads() const { return subject == Subject::Workload || subject == Subject::Project; }
    bool touchesNetworks() const;
    // Whether the evaluation of mapping `mappingName` of workload `workloadName` may differ after it.
    bool touchesEvaluationOf(const QString& mappingName, const QString& workloadName) const;
    // Whether the object the properties dock shows (kind "workload", "mapping", "level", ...) may differ.
    bool touchesObject(const QString& kind, const QString& name) const;
};

using ProjectChanges = QList<ProjectChange>;

} // namespace nestor::app

Q_DECLARE_METATYPE(nestor::app::ProjectChange)
