#pragma once
// Edits of a mapping's loops that keep each dimension covered (engine counterpart of the loop
// nest's editing in the GUI; plain values, no validation against an architecture):
//   - the outermost loop of a dimension absorbs what its inner loops leave ("absorb"); under the
//     residual rule the outermost loop runs its residual, so it gets bound = residual = r with
//     size = (r - 1) * innerProduct + innerCover, which needs (size - innerCover) divisible by
//     innerProduct;
//   - moving a loop to another level or list puts it innermost there, or at a given position;
//   - a new loop has bound 1 (a no-op until its factor is set);
//   - repairing (after a layer's sizes changed) absorbs each uncovered dimension, and where that
//     is impossible gives the whole size to the dimension's outermost loop and 1 to the others.
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <cstdint>

namespace nestor {

// Nest order: levels outermost first, in each level temporal, then spatial X, then spatial Y.
std::vector<Loop*> loopsOfDimension(Mapping& m, int dim);

// Makes the outermost loop of `dim` (unless it is `edited`) cover what the others leave of
// `size`; false (nothing changes) when it cannot.
bool absorbIntoOutermost(Mapping& m, int dim, std::int64_t size, const Loop* edited = nullptr);

// Throw NestorError("mapping.levels...", ...) for a level, list or index that does not exist.
// `toIndex` is the loop's position in the destination list once moved (outermost 0); -1 puts it
// innermost. The same list with another index reorders it.
void relocateLoop(Mapping& m, int level, LoopKind kind, int index, int toLevel, LoopKind toKind, int toIndex = -1);
void appendLoop(Mapping& m, int level, LoopKind kind, int dim);
// The dimension's outermost remaining loop absorbs the removed factor (when it can).
void eraseLoop(Mapping& m, int level, LoopKind kind, int index, std::int64_t dimSize);

// Dimensions whose loops do not cover their size get covered again; returns the dimensions changed.
std::vector<int> repairFactors(Mapping& m, const Workload& w);

} // namespace nestor
