#include "ProjectCommands.h"

#include "ArchitectureCommands.h"
#include "ChangeValueCommand.h"
#include "ListElementCommand.h"
#include "mapping/MappingLoopEdits.h"
#include "ProjectDocument.h"

#include <QObject>
#include <QStringList>
#include <QUndoStack>

#include <algorithm>
#include <exception>

namespace nestor::app::commands {

namespace {

QString tr(const char* text)
{
    return QObject::tr(text);
}

ProjectMapping* findMapping(Project& p, const std::string& name)
{
    for (ProjectMapping& m : p.mappings)
        if (m.mapping.name == name) return &m;
    return nullptr;
}

// Merge ids (QUndoCommand::id) of the edits that merge when repeated on one field.
enum MergeId { LoopFactorMerge = 1, StorageLevelMerge, ComputeMerge };

std::vector<Loop>* loopList(Mapping& m, int level, LoopKind kind)
{
    if (level < 0 || std::size_t(level) >= m.levels.size()) return nullptr;
    return &m.levels[std::size_t(level)].loops(kind);
}

// Validates `candidate` for the mapping's workload and pushes it as one undo step, merged
// with the previous step when both carry the same non-empty mergeKey.
QString pushMapping(ProjectDocument& doc, const QString& name, Mapping candidate, const QString& text,
                    const ProjectChange& change, int mergeId = ChangeValueCommand<Mapping>::kNoMerge,
                    const QString& mergeKey = {})
{
    const Project& p = doc.project();
    const ProjectMapping* pm = p.findMapping(name.toStdString());
    if (!pm) return tr("No mapping named \"%1\".").arg(name);
    const ProjectWorkload* pw = p.findWorkload(pm->workload);
    if (!pw) return tr("The mapping's workload \"%1\" does not exist.").arg(QString::fromStdString(pm->workload));
    const Diagnostics errors = candidate.validate(pw->workload, p.architecture, "mapping");
    if (!errors.empty()) return diagnosticsText(errors);
    const std::string key = name.toStdString();
    doc.undoStack()->push(new ChangeValueCommand<Mapping>(
        &doc, text, change,
        [key](Project& pr) -> Mapping* { ProjectMapping* m = findMapping(pr, key); return m ? &m->mapping : nullptr; },
        std::move(candidate), mergeId, mergeKey));
    return {};
}

QString dimName(const Project& p, const QString& mapping, int dim)
{
    const ProjectMapping* pm = p.findMapping(mapping.toStdString());
    const ProjectWorkload* pw = pm ? p.findWorkload(pm->workload) : nullptr;
    if (!pw || dim < 0 || dim >= pw->workload.numDims()) return QStringLiteral("?");
    return QString::fromStdString(pw->workload.dimNames[std::size_t(dim)]);
}

QString levelName(const Project& p, int level)
{
    if (level < 0 || level >= p.architecture.numLevels()) return QStringLiteral("?");
    return QString::fromStdString(p.architecture.levels[std::size_t(level)].name);
}

auto workloadsOf(Project& pr)
{
    return &pr.workloads;
}

// The layer at `index`, found by its position so that a rename keeps its place.
ProjectWorkload* workloadAt(Project& pr, int index)
{
    return index >= 0 && std::size_t(index) < pr.workloads.size() ? &pr.workloads[std::size_t(index)] : nullptr;
}

// Child commands of `parent` that point every reference to layer `from` at layer `to`.
void retargetLayerReferences(ProjectDocument& doc, QUndoCommand* parent, const ProjectChange& change,
                             const std::string& from, const std::string& to)
{
    const Project& p = doc.project();
    for (const ProjectMapping& m : p.mappings) {
        if (m.workload != from) continue;
        const std::string key = m.mapping.name;
        new ChangeValueCommand<std::string>(
            &doc, parent->text(), ProjectChange::mapping(ProjectChange::Kind::Edited, QString::fromStdString(key), -1, QStringLiteral("workload")),
            [key](Project& pr) -> std::string* { ProjectMapping* pm = findMapping(pr, key); return pm ? &pm->workload : nullptr; },
            to, ChangeValueCommand<std::string>::kNoMerge, {}, parent);
    }
    for (const ProjectNetwork& n : p.networks)
        for (std::size_t i = 0; i < n.layers.size(); ++i) {
            if (n.layers[i].first != from) continue;
            const std::string key = n.name;
            new ChangeValueCommand<std::string>(
                &doc, parent->text(), ProjectChange::network(ProjectChange::Kind::Edited, QString::fromStdString(key)),
                [key, i](Project& pr) -> std::string* {
                    for (ProjectNetwork& net : pr.networks)
                        if (net.name == key && i < net.layers.size()) return &net.layers[i].first;
                    return nullptr;
                },
                to, ChangeValueCommand<std::string>::kNoMerge, {}, parent);
        }
    if (p.jobWorkload == from)
        new ChangeValueCommand<std::string>(&doc, parent->text(), change, [](Project& pr) { return &pr.jobWorkload; }, to,
                                            ChangeValueCommand<std::string>::kNoMerge, {}, parent);
}

QString checkWorkloadName(const Project& p, const QString& name, int except)
{
    if (name.trimmed().isEmpty()) return tr("A layer needs a name.");
    for (std::size_t i = 0; i < p.workloads.size(); ++i)
        if (int(i) != except && p.workloads[i].workload.name == name.toStdString())
            return tr("There is already a layer named \"%1\".").arg(name);
    return {};
}

} // namespace

Workload buildWorkload(const std::string& name, const LayerSpec& spec)
{
    if (spec.type == "conv" || spec.type == "grouped" || spec.type == "depthwise") {
        ConvParams c = spec.conv;
        c.name = name;
        return spec.type == "depthwise" ? makeDepthwise(c) : makeConv2d(c);
    }
    if (spec.type == "gemm") return makeGemm(name, spec.gemmM, spec.gemmN, spec.gemmK);
    if (spec.type == "fc") return makeFullyConnected(name, spec.fcBatch, spec.fcOut, spec.fcIn);
    throw NestorError("type", "layers of type '" + spec.type + "' are edited in the project file");
}

QString setLoopFactor(ProjectDocument& doc, const LoopRef& ref, std::int64_t bound, std::int64_t residual)
{
    if (bound < 1) return tr("A loop bound must be at least 1 (got %1).").arg(bound);
    if (residual < 1 || residual > bound)
        return tr("The residual must be between 1 and the bound %1 (got %2).").arg(bound).arg(residual);
    const ProjectMapping* pm = doc.project().findMapping(ref.mapping.toStdString());
    if (!pm) return tr("No mapping named \"%1\".").arg(ref.mapping);
    const ProjectWorkload* pw = doc.project().findWorkload(pm->workload);
    Mapping m = pm->mapping;
    std::vector<Loop>* list = loopList(m, ref.level, ref.kind);
    if (!list || ref.index < 0 || std::size_t(ref.index) >= list->size()) return tr("No such loop.");
    Loop& loop = (*list)[std::size_t(ref.index)];
    loop.bound = bound;
    loop.residual = residual;
    if (pw && loop.dim >= 0 && loop.dim < pw->workload.numDims())
        absorbIntoOutermost(m, loop.dim, pw->workload.bounds[std::size_t(loop.dim)], &loop);
    // No "from" in the text: repeated edits of this loop merge into one step.
    const QString text = QObject::tr("Set %1 at %2 to %3")
                             .arg(dimName(doc.project(), ref.mapping, loop.dim), levelName(doc.project(), ref.level),
                                  bound == residual ? QString::number(bound) : QStringLiteral("%1 (residual %2)").arg(bound).arg(residual));
    const QString mergeKey = QStringLiteral("%1/%2/%3/%4").arg(ref.mapping).arg(ref.level).arg(int(ref.kind)).arg(ref.index);
    return pushMapping(doc, ref.mapping, std::move(m), text,
                       ProjectChange::mapping(ProjectChange::Kind::Edited, ref.mapping, ref.level, QStringLiteral("loops")),
                       LoopFactorMerge, mergeKey);
}

QString moveLoop(ProjectDocument& doc, const LoopRef& ref, int delta)
{
    const ProjectMapping* pm = doc.project().findMapping(ref.mapping.toStdString());
    if (!pm) return tr("No mapping named \"%1\".").arg(ref.mapping);
    Mapping m = pm->mapping;
    std::vector<Loop>* list = loopList(m, ref.level, ref.kind);
    const int to = ref.index + delta;
    if (!list || ref.index < 0 || std::size_t(ref.index) >= list->size()) return tr("No such loop.");
    if (to < 0 || std::size_t(to) >= list->size()) return tr("The loop is already at the edge of its level.");
    const int dim = (*list)[std::size_t(ref.index)].dim;
    std::swap((*list)[std::size_t(ref.index)], (*list)[std::size_t(to)]);
    const QString text = QObject::tr("Move %1 loop %2 at %3")
                             .arg(dimName(doc.project(), ref.mapping, dim), delta < 0 ? QObject::tr("out") : QObject::tr("in"),
                                  levelName(doc.project(), ref.level));
    return pushMapping(doc, ref.mapping, std::move(m), text,
                       ProjectChange::mapping(ProjectChange::Kind::Edited, ref.mapping, ref.level, QStringLiteral("loops")));
}

QString setKeep(ProjectDocument& doc, const QString& mapping, int level, int tensor, bool keep)
{
    const ProjectMapping* pm = doc.project().findMapping(mapping.toStdString());
    if (!pm) return tr("No mapping named \"%1\".").arg(mapping);
    const ProjectWorkload* pw = doc.project().findWorkload(pm->workload);
    if (!pw || tensor < 0 || tensor >= pw->workload.numTensors()) return tr("No such tensor.");
    Mapping m = pm->mapping;
    if (level < 0 || std::size_t(level) >= m.levels.size()) return tr("No such level.");
    std::vector<bool>& k = m.levels[std::size_t(level)].keep;
    if (k.empty()) k.assign(std::size_t(pw->workload.numTensors()), true);
    k[std::size_t(tensor)] = keep;
    const QString text = QObject::tr("%1 %2 at %3")
                             .arg(keep ? QObject::tr("Keep") : QObject::tr("Bypass"),
                                  QString::fromStdString(pw->workload.tensors[std::size_t(tensor)].name),
                                  levelName(doc.project(), level));
    return pushMapping(doc, mapping, std::move(m), text,
                       ProjectChange::mapping(ProjectChange::Kind::Edited, mapping, level, QStringLiteral("keep")));
}

QString setWorkload(ProjectDocument& doc, int index, const QString& name, const LayerSpec& spec)
{
    const Project& p = doc.project();
    if (index < 0 || std::size_t(index) >= p.workloads.size()) return tr("No such layer.");
    if (QString error = checkWorkloadName(p, name, index); !error.isEmpty()) return error;
    ProjectWorkload pw;
    pw.spec = spec;
    try {
        pw.workload = buildWorkload(name.toStdString(), spec);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    const std::string oldName = p.workloads[std::size_t(index)].workload.name;
    const QString text = QObject::tr("Edit layer %1").arg(name);
    const bool renamed = oldName != pw.workload.name;
    const ProjectChange change = renamed ? ProjectChange::workload(ProjectChange::Kind::Renamed, name, QString::fromStdString(oldName))
                                         : ProjectChange::workload(ProjectChange::Kind::Edited, name);
    auto accessor = [index](Project& pr) { return workloadAt(pr, index); };
    if (!renamed) {
        doc.undoStack()->push(new ChangeValueCommand<ProjectWorkload>(&doc, text, change, accessor, std::move(pw)));
        return {};
    }
    auto* compound = new CompoundCommand(&doc, text);
    new ChangeValueCommand<ProjectWorkload>(&doc, text, change, accessor, std::move(pw),
                                            ChangeValueCommand<ProjectWorkload>::kNoMerge, {}, compound);
    retargetLayerReferences(doc, compound, change, oldName, name.toStdString());
    doc.undoStack()->push(compound);
    return {};
}

QString addWorkload(ProjectDocument& doc, const QString& name, const LayerSpec& spec)
{
    if (QString error = checkWorkloadName(doc.project(), name, -1); !error.isEmpty()) return error;
    ProjectWorkload pw;
    pw.spec = spec;
    try {
        pw.workload = buildWorkload(name.toStdString(), spec);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    const int at = int(doc.project().workloads.size());
    doc.undoStack()->push(new ListElementCommand<ProjectWorkload>(
        &doc, QObject::tr("Add layer %1").arg(name), ProjectChange::workload(ProjectChange::Kind::Added, name), workloadsOf,
        ListElementCommand<ProjectWorkload>::Action::Insert, at, std::move(pw)));
    return {};
}

QString removeWorkload(ProjectDocument& doc, int index)
{
    const Project& p = doc.project();
    if (index < 0 || std::size_t(index) >= p.workloads.size()) return tr("No such layer.");
    const std::string name = p.workloads[std::size_t(index)].workload.name;
    for (const ProjectMapping& m : p.mappings)
        if (m.workload == name)
            return tr("Mapping \"%1\" maps layer \"%2\"; remove or re-target it first.")
                .arg(QString::fromStdString(m.mapping.name), QString::fromStdString(name));
    for (const ProjectNetwork& n : p.networks)
        for (const auto& layer : n.layers)
            if (layer.first == name)
                return tr("Network \"%1\" uses layer \"%2\".").arg(QString::fromStdString(n.name), QString::fromStdString(name));
    const QString text = QObject::tr("Remove layer %1").arg(QString::fromStdString(name));
    const ProjectChange change = ProjectChange::workload(ProjectChange::Kind::Removed, QString::fromStdString(name));
    auto* compound = new CompoundCommand(&doc, text);
    new ListElementCommand<ProjectWorkload>(&doc, text, change, workloadsOf, ListElementCommand<ProjectWorkload>::Action::Remove,
                                            index, std::nullopt, compound);
    retargetLayerReferences(doc, compound, change, name, std::string());  // only the job's default can name it
    doc.undoStack()->push(compound);
    return {};
}

QString duplicateWorkload(ProjectDocument& doc, int index)
{
    const Project& p = doc.project();
    if (index < 0 || std::size_t(index) >= p.workloads.size()) return tr("No such layer.");
    ProjectWorkload copy = p.workloads[std::size_t(index)];
    QString name;
    for (int n = 2;; ++n) {
        name = QStringLiteral("%1_%2").arg(QString::fromStdString(copy.workload.name)).arg(n);
        if (!p.findWorkload(name.toStdString())) break;
    }
    copy.workload.name = name.toStdString();
    copy.spec.conv.name = copy.workload.name;
    doc.undoStack()->push(new ListElementCommand<ProjectWorkload>(
        &doc, QObject::tr("Duplicate layer as %1").arg(name), ProjectChange::workload(ProjectChange::Kind::Added, name), workloadsOf,
        ListElementCommand<ProjectWorkload>::Action::Insert, index + 1, std::move(copy)));
    return {};
}

namespace {

// The mapping named `name` and its workload, or the reason there are none.
QString locate(const ProjectDocument& doc, const QString& name, Mapping* mapping, const Workload** workload)
{
    const ProjectMapping* pm = doc.project().findMapping(name.toStdString());
    if (!pm) return QObject::tr("No mapping named \"%1\".").arg(name);
    const ProjectWorkload* pw = doc.project().findWorkload(pm->workload);
    if (!pw) return QObject::tr("The mapping's workload \"%1\" does not exist.").arg(QString::fromStdString(pm->workload));
    *mapping = pm->mapping;
    *workload = &pw->workload;
    return {};
}

QString kindName(LoopKind kind)
{
    switch (kind) {
    case LoopKind::Temporal: return QObject::tr("temporal");
    case LoopKind::SpatialX: return QObject::tr("spatial X");
    case LoopKind::SpatialY: return QObject::tr("spatial Y");
    }
    return {};
}

} // namespace

QString relocateLoop(ProjectDocument& doc, const LoopRef& ref, int toLevel, LoopKind toKind, int toIndex)
{
    Mapping m;
    const Workload* w = nullptr;
    if (QString error = locate(doc, ref.mapping, &m, &w); !error.isEmpty()) return error;
    int dim = -1;
    try {
        const std::vector<Loop>* list = ref.level >= 0 && std::size_t(ref.level) < m.levels.size()
                                            ? &m.levels[std::size_t(ref.level)].loops(ref.kind) : nullptr;
        if (list && ref.index >= 0 && std::size_t(ref.index) < list->size()) dim = (*list)[std::size_t(ref.index)].dim;
        nestor::relocateLoop(m, ref.level, ref.kind, ref.index, toLevel, toKind, toIndex);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    if (m == doc.project().findMapping(ref.mapping.toStdString())->mapping) return tr("The loop is already there.");
    const QString text = toLevel == ref.level && toKind == ref.kind
                             ? QObject::tr("Move %1 loop within %2").arg(dimName(doc.project(), ref.mapping, dim), levelName(doc.project(), ref.level))
                         : toLevel == ref.level
                             ? QObject::tr("Make %1 at %2 %3").arg(dimName(doc.project(), ref.mapping, dim), levelName(doc.project(), ref.level), kindName(toKind))
                             : QObject::tr("Move %1 loop from %2 to %3").arg(dimName(doc.project(), ref.mapping, dim), levelName(doc.project(), ref.level),
                                                                            levelName(doc.project(), toLevel));
    return pushMapping(doc, ref.mapping, std::move(m), text,
                       ProjectChange::mapping(ProjectChange::Kind::Edited, ref.mapping, -1, QStringLiteral("loops")));
}

QString addLoop(ProjectDocument& doc, const QString& mapping, int level, LoopKind kind, int dim)
{
    Mapping m;
    const Workload* w = nullptr;
    if (QString error = locate(doc, mapping, &m, &w); !error.isEmpty()) return error;
    if (dim < 0 || dim >= w->numDims()) return QObject::tr("No such dimension.");
    try {
        appendLoop(m, level, kind, dim);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return pushMapping(doc, mapping, std::move(m),
                       QObject::tr("Add a %1 loop at %2").arg(dimName(doc.project(), mapping, dim), levelName(doc.project(), level)),
                       ProjectChange::mapping(ProjectChange::Kind::Edited, mapping, level, QStringLiteral("loops")));
}

QString removeLoop(ProjectDocument& doc, const LoopRef& ref)
{
    Mapping m;
    const Workload* w = nullptr;
    if (QString error = locate(doc, ref.mapping, &m, &w); !error.isEmpty()) return error;
    std::vector<Loop>* list = loopList(m, ref.level, ref.kind);
    if (!list || ref.index < 0 || std::size_t(ref.index) >= list->size()) return tr("No such loop.");
    const int dim = (*list)[std::size_t(ref.index)].dim;
    if (dim < 0 || dim >= w->numDims()) return tr("No such loop.");
    eraseLoop(m, ref.level, ref.kind, ref.index, w->bounds[std::size_t(dim)]);
    return pushMapping(doc, ref.mapping, std::move(m),
                       QObject::tr("Remove a %1 loop at %2").arg(dimName(doc.project(), ref.mapping, dim), levelName(doc.project(), ref.level)),
                       ProjectChange::mapping(ProjectChange::Kind::Edited, ref.mapping, ref.level, QStringLiteral("loops")));
}

QString repairMapping(ProjectDocument& doc, const QString& mapping, QString* repaired)
{
    Mapping m;
    const Workload* w = nullptr;
    if (QString error = locate(doc, mapping, &m, &w); !error.isEmpty()) return error;
    const std::vector<int> changed = repairFactors(m, *w);
    if (changed.empty()) return QObject::tr("Every dimension of \"%1\" is already covered.").arg(mapping);
    QStringList dims;
    for (int d : changed) dims << QString::fromStdString(w->dimNames[std::size_t(d)]);
    if (repaired) *repaired = dims.join(QStringLiteral(", "));
    return pushMapping(doc, mapping, std::move(m), QObject::tr("Repair %1 of %2").arg(dims.join(QStringLiteral(", ")), mapping),
                       ProjectChange::mapping(ProjectChange::Kind::Edited, mapping, -1, QStringLiteral("loops")));
}

QString uniqueMappingName(const Project& p, const QString& base)
{
    const QString stem = base.trimmed().isEmpty() ? QStringLiteral("mapping") : base.trimmed();
    QString name = stem;
    for (int k = 2; p.findMapping(name.toStdString()); ++k) name = QStringLiteral("%1-%2").arg(stem).arg(k);
    return name;
}

QString addMapping(ProjectDocument& doc, const QString& workload, const Mapping& mapping, const QString& name,
                   QString* added)
{
    const Project& p = doc.project();
    if (!p.findWorkload(workload.toStdString())) return tr("There is no layer named \"%1\".").arg(workload);
    if (mapping.levels.size() != p.architecture.levels.size())
        return tr("The mapping has %1 levels; the architecture has %2.").arg(mapping.levels.size()).arg(p.architecture.levels.size());
    doc.undoStack()->push(addMappingCommand(doc, workload, mapping, name, added));
    return {};
}

QUndoCommand* addMappingCommand(ProjectDocument& doc, const QString& workload, const Mapping& mapping, const QString& name,
                                QString* added, QUndoCommand* parent)
{
    const QString unique = uniqueMappingName(doc.project(), name);
    ProjectMapping pm;
    pm.workload = workload.toStdString();
    pm.mapping = mapping;
    pm.mapping.name = unique.toStdString();
    if (added) *added = unique;
    return new ListElementCommand<ProjectMapping>(&doc, QObject::tr("Add mapping %1").arg(unique),
                                                  ProjectChange::mapping(ProjectChange::Kind::Added, unique),
                                                  [](Project& pr) { return &pr.mappings; },
                                                  ListElementCommand<ProjectMapping>::Action::Insert, int(doc.project().mappings.size()),
                                                  std::move(pm), parent);
}

QString setStorageLevel(ProjectDocument& doc, int index, const StorageLevel& level, const QString& field)
{
    Architecture candidate = doc.project().architecture;
    if (index < 0 || index >= candidate.numLevels()) return tr("No such level.");
    const QString oldName = QString::fromStdString(candidate.levels[std::size_t(index)].name);
    candidate.levels[std::size_t(index)] = level;
    if (const QString error = checkArchitecture(doc.project(), candidate); !error.isEmpty()) return error;
    // The level is found by its index: a rename (one of the edits) keeps its place.
    auto accessor = [index](Project& pr) -> StorageLevel* {
        return index < pr.architecture.numLevels() ? &pr.architecture.levels[std::size_t(index)] : nullptr;
    };
    const QString text = field.isEmpty() ? QObject::tr("Edit level %1").arg(oldName)
                                         : QObject::tr("Edit %1 of level %2").arg(field, oldName);
    const QString mergeKey = field.isEmpty() ? QString() : QStringLiteral("%1/%2").arg(index).arg(field);
    // The checked level: with a size-aware energy model its energies and area follow its size.
    doc.undoStack()->push(new ChangeValueCommand<StorageLevel>(&doc, text, ProjectChange::architecture(index, field), accessor,
                                                               candidate.levels[std::size_t(index)], StorageLevelMerge, mergeKey));
    return {};
}

QString setCompute(ProjectDocument& doc, const ComputeLevel& compute, const QString& field)
{
    Architecture candidate = doc.project().architecture;
    candidate.compute = compute;
    if (const QString error = checkArchitecture(doc.project(), candidate); !error.isEmpty()) return error;
    const QString name = QString::fromStdString(doc.project().architecture.compute.name);
    const QString text = field.isEmpty() ? QObject::tr("Edit compute %1").arg(name)
                                         : QObject::tr("Edit %1 of compute %2").arg(field, name);
    doc.undoStack()->push(new ChangeValueCommand<ComputeLevel>(
        &doc, text, ProjectChange::architecture(-1, field), [](Project& pr) { return &pr.architecture.compute; },
        candidate.compute, ComputeMerge, field));
    return {};
}

} // namespace nestor::app::commands
