#include "ArchitectureCommands.h"

#include "ChangeValueCommand.h"
#include "ListElementCommand.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "arch/EnergyModels.h"
#include "mapping/MappingLevelEdits.h"
#include "search/ArchitectureSweep.h"

#include <QObject>
#include <QStringList>
#include <QUndoStack>

#include <exception>
#include <functional>

namespace nestor::app::commands {

QString diagnosticsText(const Diagnostics& d)
{
    QStringList lines;
    for (const Diagnostic& x : d) lines << QString::fromStdString(x.toString());
    return lines.join(QLatin1Char('\n'));
}

QString checkArchitecture(const Project& project, Architecture& candidate)
{
    if (const Diagnostics errors = candidate.validate("architecture"); !errors.empty()) return diagnosticsText(errors);
    if (project.energyModel == "table-scaled") {
        // Each level whose size, word width or block changed moves along the scaling laws from
        // its current figures (levels are matched by name; a new level keeps what it was given).
        for (StorageLevel& l : candidate.levels) {
            const int i = project.architecture.levelIndex(l.name);
            if (i < 0) continue;
            const StorageLevel& current = project.architecture.levels[std::size_t(i)];
            if (current.size_words != l.size_words || current.word_bits != l.word_bits || current.block_size != l.block_size)
                rescaleForSize(current, l);
        }
    }
    try {
        applyEnergyModel(candidate, project.energyModel);  // "table" and "table-scaled" change nothing
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

namespace {

using MappingEdit = std::function<void(Mapping&, int numTensors)>;

// Validates `candidate` and pushes it, with `editMapping` applied to every mapping, as one step.
QString pushArchitecture(ProjectDocument& doc, const QString& text, Architecture candidate, const QString& field,
                         const MappingEdit& editMapping = {})
{
    if (const QString error = checkArchitecture(doc.project(), candidate); !error.isEmpty()) return error;
    const ProjectChange change = ProjectChange::architecture(-1, field);
    auto architecture = [](Project& pr) { return &pr.architecture; };
    if (!editMapping) {
        doc.undoStack()->push(new ChangeValueCommand<Architecture>(&doc, text, change, architecture, std::move(candidate)));
        return {};
    }
    auto* compound = new CompoundCommand(&doc, text);
    new ChangeValueCommand<Architecture>(&doc, text, change, architecture, std::move(candidate),
                                         ChangeValueCommand<Architecture>::kNoMerge, {}, compound);
    for (const ProjectMapping& pm : doc.project().mappings) {
        Mapping edited = pm.mapping;
        try {
            const ProjectWorkload* pw = doc.project().findWorkload(pm.workload);
            editMapping(edited, pw ? pw->workload.numTensors() : 0);
        } catch (const std::exception& e) {
            delete compound;
            return QString::fromStdString(e.what());
        }
        const std::string key = pm.mapping.name;
        new ChangeValueCommand<Mapping>(
            &doc, text, ProjectChange::mapping(ProjectChange::Kind::Edited, QString::fromStdString(key), -1, QStringLiteral("levels")),
            [key](Project& pr) -> Mapping* {
                for (ProjectMapping& m : pr.mappings)
                    if (m.mapping.name == key) return &m.mapping;
                return nullptr;
            },
            std::move(edited), ChangeValueCommand<Mapping>::kNoMerge, {}, compound);
    }
    doc.undoStack()->push(compound);
    return {};
}

QString levelName(const Architecture& a, int index)
{
    return QString::fromStdString(a.levels[std::size_t(index)].name);
}

bool hasLevel(const Architecture& a, int index)
{
    return index >= 0 && index < a.numLevels();
}

std::string freeLevelName(const Architecture& a, const std::string& stem)
{
    for (int n = 2;; ++n) {
        std::string name = stem + "_" + std::to_string(n);
        if (a.levelIndex(name) < 0) return name;
    }
}

} // namespace

QString resizePeArray(ProjectDocument& doc, std::int64_t columns, std::int64_t rows)
{
    if (columns < 1 || rows < 1) return QObject::tr("A PE array has at least one row and one column.");
    const Architecture& a = doc.project().architecture;
    if (a.compute.meshX == columns && a.compute.meshY() == rows)
        return QObject::tr("The PE array is already %1 x %2.").arg(columns).arg(rows);
    Architecture resized;
    try {
        resized = nestor::resizePeArray(a, columns, rows);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    resized.name = a.name;
    return pushArchitecture(doc, QObject::tr("Resize the PE array to %1 x %2").arg(columns).arg(rows), std::move(resized),
                            QStringLiteral("pe_array"));
}

QString insertLevel(ProjectDocument& doc, int index, const StorageLevel& level)
{
    Architecture a = doc.project().architecture;
    if (index < 0 || index > a.numLevels()) return QObject::tr("No such place for a level.");
    if (level.name.empty()) return QObject::tr("A level needs a name.");
    if (a.levelIndex(level.name) >= 0) return QObject::tr("There is already a level named \"%1\".").arg(QString::fromStdString(level.name));
    a.levels.insert(a.levels.begin() + index, level);
    return pushArchitecture(doc, QObject::tr("Add level %1").arg(QString::fromStdString(level.name)), std::move(a),
                            QStringLiteral("levels"), [index](Mapping& m, int tensors) { insertPassThroughLevel(m, index, tensors); });
}

QString removeLevel(ProjectDocument& doc, int index)
{
    Architecture a = doc.project().architecture;
    if (!hasLevel(a, index)) return QObject::tr("No such level.");
    if (a.numLevels() == 1) return QObject::tr("An architecture needs at least one storage level.");
    const QString name = levelName(a, index);
    a.levels.erase(a.levels.begin() + index);
    return pushArchitecture(doc, QObject::tr("Remove level %1").arg(name), std::move(a), QStringLiteral("levels"),
                            [index](Mapping& m, int) { removeLevelKeepingLoops(m, index); });
}

QString duplicateLevel(ProjectDocument& doc, int index)
{
    Architecture a = doc.project().architecture;
    if (!hasLevel(a, index)) return QObject::tr("No such level.");
    StorageLevel copy = a.levels[std::size_t(index)];
    copy.name = freeLevelName(a, copy.name);
    return insertLevel(doc, index + 1, copy);
}

QString moveLevel(ProjectDocument& doc, int index, int delta)
{
    Architecture a = doc.project().architecture;
    const int to = index + (delta < 0 ? -1 : 1);
    if (!hasLevel(a, index)) return QObject::tr("No such level.");
    if (!hasLevel(a, to)) return QObject::tr("The level is already the %1 one.").arg(delta < 0 ? QObject::tr("outermost") : QObject::tr("innermost"));
    const QString name = levelName(a, index);
    std::swap(a.levels[std::size_t(index)], a.levels[std::size_t(to)]);
    return pushArchitecture(doc, QObject::tr("Move level %1 %2").arg(name, delta < 0 ? QObject::tr("out") : QObject::tr("in")),
                            std::move(a), QStringLiteral("levels"), [index, to](Mapping& m, int) { swapLevels(m, index, to); });
}

StorageLevel newLevelInside(const Architecture& a, int index)
{
    StorageLevel l;
    l.name = freeLevelName(a, "buffer");
    l.technology = "SRAM";
    l.size_words = 64;
    if (!hasLevel(a, index)) return l;
    const StorageLevel& parent = a.levels[std::size_t(index)];
    l.word_bits = parent.word_bits;
    l.instances = parent.instances;
    l.meshX = parent.meshX;
    // Energies of the nearest on-chip neighbour (the level it goes above, else its parent); a
    // project with a size-aware energy model recomputes them from the size anyway.
    l.energy = hasLevel(a, index + 1) ? a.levels[std::size_t(index + 1)].energy : parent.energy;
    return l;
}

QString adoptDesign(ProjectDocument& doc, const Architecture& design, const QString& workload, const Mapping& mapping,
                    const QString& name, QString* added)
{
    const Project& p = doc.project();
    bool sameLevels = design.numLevels() == p.architecture.numLevels();
    for (int i = 0; sameLevels && i < design.numLevels(); ++i)
        sameLevels = design.levels[std::size_t(i)].name == p.architecture.levels[std::size_t(i)].name;
    if (!sameLevels) return QObject::tr("The design's storage levels differ from the project's: pin it in Compare instead.");
    const ProjectWorkload* pw = p.findWorkload(workload.toStdString());
    if (!pw) return QObject::tr("The project has no layer %1.").arg(workload);
    Architecture candidate = design;
    candidate.name = p.architecture.name;
    if (const QString error = checkArchitecture(p, candidate); !error.isEmpty()) return error;
    if (const Diagnostics errors = mapping.validate(pw->workload, candidate); !errors.empty()) return diagnosticsText(errors);

    auto* compound = new CompoundCommand(&doc, QObject::tr("Use the design for %1").arg(workload));
    new ChangeValueCommand<Architecture>(&doc, compound->text(), ProjectChange::architecture(-1, QStringLiteral("design")),
                                         [](Project& pr) { return &pr.architecture; }, std::move(candidate),
                                         ChangeValueCommand<Architecture>::kNoMerge, {}, compound);
    addMappingCommand(doc, workload, mapping, name, added, compound);
    doc.undoStack()->push(compound);
    return {};
}

} // namespace nestor::app::commands
