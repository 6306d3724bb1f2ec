#include "ProjectChange.h"

#include <utility>

namespace nestor::app {

ProjectChange ProjectChange::workload(Kind kind, QString name, QString previousName)
{
    ProjectChange c;
    c.subject = Subject::Workload;
    c.kind = kind;
    c.name = std::move(name);
    c.previousName = std::move(previousName);
    return c;
}

ProjectChange ProjectChange::mapping(Kind kind, QString name, int level, QString field)
{
    ProjectChange c;
    c.subject = Subject::Mapping;
    c.kind = kind;
    c.name = std::move(name);
    c.level = level;
    c.field = std::move(field);
    return c;
}

ProjectChange ProjectChange::architecture(int level, QString field)
{
    ProjectChange c;
    c.subject = Subject::Architecture;
    c.level = level;
    c.field = std::move(field);
    return c;
}

ProjectChange ProjectChange::network(Kind kind, QString name)
{
    ProjectChange c;
    c.subject = Subject::Network;
    c.kind = kind;
    c.name = std::move(name);
    return c;
}

ProjectChange ProjectChange::inverse() const
{
    ProjectChange c = *this;
    switch (kind) {
    case Kind::Added: c.kind = Kind::Removed; break;
    case Kind::Removed: c.kind = Kind::Added; break;
    case Kind::Renamed: std::swap(c.name, c.previousName); break;
    case Kind::Edited: break;
    }
    return c;
}

bool ProjectChange::touchesNetworks() const
{
    // A network lists layers by name and is evaluated on the architecture; mappings play no part.
    return subject != Subject::Mapping;
}

bool ProjectChange::touchesEvaluationOf(const QString& mappingName, const QString& workloadName) const
{
    switch (subject) {
    case Subject::Project:
    case Subject::Architecture: return true;
    case Subject::Workload: return name == workloadName || previousName == workloadName;
    case Subject::Mapping: return name == mappingName;
    case Subject::Network: return false;
    }
    return true;
}

bool ProjectChange::touchesObject(const QString& kind, const QString& objectName) const
{
    switch (subject) {
    case Subject::Project: return true;
    // Level properties and a mapping's per-level loops name the levels.
    case Subject::Architecture: return kind != QLatin1String("workload");
    // A mapping's properties name its workload's dimensions.
    case Subject::Workload:
        return kind == QLatin1String("mapping") ||
               (kind == QLatin1String("workload") && (objectName == name || objectName == previousName));
    case Subject::Mapping: return kind == QLatin1String("mapping") && objectName == name;
    case Subject::Network: return kind == QLatin1String("network") && objectName == name;
    }
    return true;
}

} // namespace nestor::app
