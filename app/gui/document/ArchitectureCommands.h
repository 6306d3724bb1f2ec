#pragma once
// Whole-architecture edits (after ProjectCommands.h): resize the PE array, add, remove,
// duplicate and reorder storage levels. Each is one undo step that changes the architecture and,
// where the level list changes, every mapping with it (engine/mapping/MappingLevelEdits.h), so a
// mapping keeps one level per storage level. The new architecture is validated as a whole before
// anything changes; a rejected edit returns the reason and leaves the document untouched.
#include "core/Project.h"

#include <QString>

#include <cstdint>

namespace nestor::app {

class ProjectDocument;

namespace commands {

// Every level that follows the PE array (the compute instances, or one row of it) is resized,
// as engine/search/ArchitectureSweep's resizePeArray does; the architecture keeps its name.
QString resizePeArray(ProjectDocument& doc, std::int64_t columns, std::int64_t rows);
// Inserts `level` at `index` (0 = outermost, numLevels() = innermost); in every mapping it
// holds nothing at first (it bypasses every tensor).
QString insertLevel(ProjectDocument& doc, int index, const StorageLevel& level);
// The level's loops go to its parent (MappingLevelEdits.h).
QString removeLevel(ProjectDocument& doc, int index);
// A copy named "<name>_2" (or the next free number) just inside the original, with no loops.
QString duplicateLevel(ProjectDocument& doc, int index);
// Swaps the level with its neighbour outward (delta < 0) or inward (delta > 0).
QString moveLevel(ProjectDocument& doc, int index, int delta);

// A design found elsewhere (a co-design, a sweep point) taken into the project as one undo step:
// the architecture replaced by `design` (same storage levels by name and order, so every
// mapping keeps its levels) and `mapping` added for `workload` under `name` or a free name
// derived from it (*added receives it). Refused, with the reason, when the levels differ or
// the design is invalid.
QString adoptDesign(ProjectDocument& doc, const Architecture& design, const QString& workload, const Mapping& mapping,
                    const QString& name, QString* added = nullptr);

// One line per diagnostic ("file:line:col: field: message"), as edits report rejections.
QString diagnosticsText(const Diagnostics& d);

// Validates `candidate` as a whole and applies the project's energy model to it (sizes set the
// energies and areas); returns the reason it is rejected, or "".
QString checkArchitecture(const Project& project, Architecture& candidate);

// A storage level to add just inside level `index` (per instance of that level: the same
// instances and mesh): 64 words of SRAM with the parent's word width and the energies of its
// nearest on-chip neighbour.
StorageLevel newLevelInside(const Architecture& a, int index);

} // namespace commands
} // namespace nestor::app
