#pragma once
// Every edit of the project, as plain functions (after Subsurface's commands layer):
// widgets call these and never build undo commands themselves. Each checks the edit on a
// copy first; a rejected edit returns the reason and leaves the document untouched,
// an accepted one is pushed on the document's undo stack and returns an empty string.
#include "core/Project.h"

#include <QString>

#include <cstdint>

class QUndoCommand;

namespace nestor::app {

class ProjectDocument;

namespace commands {

// A loop of a mapping: its level, which of the level's loop lists (LoopKind, from
// mapping/Mapping.h) and its position there, outermost first.
struct LoopRef {
    QString mapping;
    int level = 0;
    LoopKind kind = LoopKind::Temporal;
    int index = 0;
};

// Sets a loop's bound and residual. When the dimension's loops no longer cover its size,
// the outermost loop of that dimension (if it is not the edited one) absorbs the change.
// Consecutive edits of the same loop merge into one undo step.
QString setLoopFactor(ProjectDocument& doc, const LoopRef& loop, std::int64_t bound, std::int64_t residual);
// Moves a loop up (delta < 0, outward) or down within its level and kind.
QString moveLoop(ProjectDocument& doc, const LoopRef& loop, int delta);
QString setKeep(ProjectDocument& doc, const QString& mapping, int level, int tensor, bool keep);
// Moves a loop to another level and/or list, innermost there or at position `toIndex` (its index
// once moved); to the same level's other list it switches temporal / spatial X / spatial Y, within
// its own list it reorders (engine/mapping/MappingLoopEdits.h). One undo step.
QString relocateLoop(ProjectDocument& doc, const LoopRef& loop, int toLevel, LoopKind toKind, int toIndex = -1);
// A loop of bound 1 for dimension `dim`, innermost in the level's list.
QString addLoop(ProjectDocument& doc, const QString& mapping, int level, LoopKind kind, int dim);
// The dimension's outermost remaining loop absorbs the removed factor when it can.
QString removeLoop(ProjectDocument& doc, const LoopRef& loop);
// After a layer's sizes changed: every dimension the loops no longer cover is covered again;
// *repaired lists them ("P, Q"). Refused when nothing needs it.
QString repairMapping(ProjectDocument& doc, const QString& mapping, QString* repaired = nullptr);

// Workloads (layers). A rename also renames the mappings' and networks' references.
QString setWorkload(ProjectDocument& doc, int index, const QString& name, const LayerSpec& spec);
QString addWorkload(ProjectDocument& doc, const QString& name, const LayerSpec& spec);
QString removeWorkload(ProjectDocument& doc, int index);
QString duplicateWorkload(ProjectDocument& doc, int index);

// Mappings. Adds `mapping` (for the workload named `workload`) under `name`, or under a free
// name derived from it ("name-2", ...) when it is taken; *added receives the name used.
QString addMapping(ProjectDocument& doc, const QString& workload, const Mapping& mapping, const QString& name,
                   QString* added = nullptr);
// The undo command addMapping pushes (the workload must exist), built as a child of `parent`
// for an edit of several parts; *added receives the name used.
QUndoCommand* addMappingCommand(ProjectDocument& doc, const QString& workload, const Mapping& mapping, const QString& name,
                                QString* added, QUndoCommand* parent = nullptr);
QString uniqueMappingName(const Project& p, const QString& base);

// Architecture. `field` names the property edited (e.g. "size_words"); consecutive edits of
// the same field of the same level merge into one undo step. Empty: the step never merges.
QString setStorageLevel(ProjectDocument& doc, int index, const StorageLevel& level, const QString& field = {});
QString setCompute(ProjectDocument& doc, const ComputeLevel& compute, const QString& field = {});

// The workload a layer description stands for (throws NestorError on bad sizes).
Workload buildWorkload(const std::string& name, const LayerSpec& spec);

} // namespace commands
} // namespace nestor::app
