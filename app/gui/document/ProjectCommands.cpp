#include "ProjectCommands.h"

#include "ChangeValueCommand.h"
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

QString joined(const Diagnostics& d)
{
    QStringList lines;
    for (const Diagnostic& x : d) lines << QString::fromStdString(x.toString());
    return lines.join(QLatin1Char('\n'));
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

// Loops of one dimension in nest order (outermost first), as pointers into `m`.
std::vector<Loop*> loopsOfDim(Mapping& m, int dim)
{
    std::vector<Loop*> out;
    for (LevelMapping& lm : m.levels)
        for (std::vector<Loop>* list : {&lm.temporal, &lm.spatialX, &lm.spatialY})
            for (Loop& l : *list)
                if (l.dim == dim) out.push_back(&l);
    return out;
}

// Makes the outermost loop of `dim` (unless it is `edited`) cover what the inner loops leave.
void rebalance(Mapping& m, int dim, std::int64_t size, const Loop* edited)
{
    std::vector<Loop*> loops = loopsOfDim(m, dim);
    if (loops.size() < 2 || loops.front() == edited) return;
    std::vector<Loop> inner;
    std::int64_t innerProduct = 1;
    for (std::size_t i = 1; i < loops.size(); ++i) {
        inner.push_back(*loops[i]);
        innerProduct *= loops[i]->bound;
    }
    const std::int64_t innerCover = coveredSize(inner);
    // size = (r - 1) * innerProduct + innerCover for the outermost loop's residual r;
    // the outermost loop of a dimension always runs its residual, so bound = residual.
    if (size < innerCover || (size - innerCover) % innerProduct != 0) return;
    const std::int64_t r = 1 + (size - innerCover) / innerProduct;
    loops.front()->bound = r;
    loops.front()->residual = r;
}

// Validates `candidate` for the mapping's workload and pushes it as one undo step, merged
// with the previous step when both carry the same non-empty mergeKey.
QString pushMapping(ProjectDocument& doc, const QString& name, Mapping candidate, const QString& text,
                    int mergeId = ChangeValueCommand<Mapping>::kNoMerge, const QString& mergeKey = {})
{
    const Project& p = doc.project();
    const ProjectMapping* pm = p.findMapping(name.toStdString());
    if (!pm) return tr("No mapping named \"%1\".").arg(name);
    const ProjectWorkload* pw = p.findWorkload(pm->workload);
    if (!pw) return tr("The mapping's workload \"%1\" does not exist.").arg(QString::fromStdString(pm->workload));
    const Diagnostics errors = candidate.validate(pw->workload, p.architecture, "mapping");
    if (!errors.empty()) return joined(errors);
    const std::string key = name.toStdString();
    doc.undoStack()->push(new ChangeValueCommand<Mapping>(
        &doc, text, [key](Project& pr) -> Mapping* { ProjectMapping* m = findMapping(pr, key); return m ? &m->mapping : nullptr; },
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

QString pushProject(ProjectDocument& doc, Project candidate, const QString& text)
{
    doc.undoStack()->push(new ChangeValueCommand<Project>(&doc, text, [](Project& pr) { return &pr; }, std::move(candidate)));
    return {};
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
        rebalance(m, loop.dim, pw->workload.bounds[std::size_t(loop.dim)], &loop);
    // No "from" in the text: repeated edits of this loop merge into one step.
    const QString text = QObject::tr("Set %1 at %2 to %3")
                             .arg(dimName(doc.project(), ref.mapping, loop.dim), levelName(doc.project(), ref.level),
                                  bound == residual ? QString::number(bound) : QStringLiteral("%1 (residual %2)").arg(bound).arg(residual));
    const QString mergeKey = QStringLiteral("%1/%2/%3/%4").arg(ref.mapping).arg(ref.level).arg(int(ref.kind)).arg(ref.index);
    return pushMapping(doc, ref.mapping, std::move(m), text, LoopFactorMerge, mergeKey);
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
    return pushMapping(doc, ref.mapping, std::move(m), text);
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
    return pushMapping(doc, mapping, std::move(m), text);
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
    Project candidate = p;
    candidate.workloads[std::size_t(index)] = pw;
    if (oldName != pw.workload.name) {
        for (ProjectMapping& m : candidate.mappings)
            if (m.workload == oldName) m.workload = pw.workload.name;
        for (ProjectNetwork& n : candidate.networks)
            for (auto& layer : n.layers)
                if (layer.first == oldName) layer.first = pw.workload.name;
        if (candidate.jobWorkload == oldName) candidate.jobWorkload = pw.workload.name;
    }
    return pushProject(doc, std::move(candidate), QObject::tr("Edit layer %1").arg(name));
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
    Project candidate = doc.project();
    candidate.workloads.push_back(std::move(pw));
    return pushProject(doc, std::move(candidate), QObject::tr("Add layer %1").arg(name));
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
    Project candidate = p;
    candidate.workloads.erase(candidate.workloads.begin() + index);
    if (candidate.jobWorkload == name) candidate.jobWorkload.clear();
    return pushProject(doc, std::move(candidate), QObject::tr("Remove layer %1").arg(QString::fromStdString(name)));
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
    Project candidate = p;
    candidate.workloads.insert(candidate.workloads.begin() + index + 1, std::move(copy));
    return pushProject(doc, std::move(candidate), QObject::tr("Duplicate layer as %1").arg(name));
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
    const QString unique = uniqueMappingName(p, name);
    Project candidate = p;
    ProjectMapping pm;
    pm.workload = workload.toStdString();
    pm.mapping = mapping;
    pm.mapping.name = unique.toStdString();
    candidate.mappings.push_back(std::move(pm));
    if (added) *added = unique;
    return pushProject(doc, std::move(candidate), QObject::tr("Add mapping %1").arg(unique));
}

QString setStorageLevel(ProjectDocument& doc, int index, const StorageLevel& level, const QString& field)
{
    Architecture candidate = doc.project().architecture;
    if (index < 0 || index >= candidate.numLevels()) return tr("No such level.");
    const QString oldName = QString::fromStdString(candidate.levels[std::size_t(index)].name);
    candidate.levels[std::size_t(index)] = level;
    const Diagnostics errors = candidate.validate("architecture");
    if (!errors.empty()) return joined(errors);
    // The level is found by its index: a rename (one of the edits) keeps its place.
    auto accessor = [index](Project& pr) -> StorageLevel* {
        return index < pr.architecture.numLevels() ? &pr.architecture.levels[std::size_t(index)] : nullptr;
    };
    const QString text = field.isEmpty() ? QObject::tr("Edit level %1").arg(oldName)
                                         : QObject::tr("Edit %1 of level %2").arg(field, oldName);
    const QString mergeKey = field.isEmpty() ? QString() : QStringLiteral("%1/%2").arg(index).arg(field);
    doc.undoStack()->push(new ChangeValueCommand<StorageLevel>(&doc, text, accessor, level, StorageLevelMerge, mergeKey));
    return {};
}

QString setCompute(ProjectDocument& doc, const ComputeLevel& compute, const QString& field)
{
    Architecture candidate = doc.project().architecture;
    candidate.compute = compute;
    const Diagnostics errors = candidate.validate("architecture");
    if (!errors.empty()) return joined(errors);
    const QString name = QString::fromStdString(doc.project().architecture.compute.name);
    const QString text = field.isEmpty() ? QObject::tr("Edit compute %1").arg(name)
                                         : QObject::tr("Edit %1 of compute %2").arg(field, name);
    doc.undoStack()->push(new ChangeValueCommand<ComputeLevel>(
        &doc, text, [](Project& pr) { return &pr.architecture.compute; }, compute, ComputeMerge, field));
    return {};
}

} // namespace nestor::app::commands
