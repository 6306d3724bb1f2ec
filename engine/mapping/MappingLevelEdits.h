#pragma once
// How a mapping follows an edit of its architecture's level list, so that every mapping keeps
// one LevelMapping per storage level (outermost first):
//   - a level inserted at `index` gets no loops and bypasses every tensor, so the mapping means
//     what it meant before (the designer then chooses what the new level keeps);
//   - a removed level hands its loops to its parent (the next level out), as that parent's
//     innermost loops, which keeps the order of the whole nest; the outermost level hands them
//     to the level below it, as its outermost loops;
//   - two neighbouring levels swapped take their loops with them.
// The result is not validated here: a loop that no longer fits its new place is the mapping's
// validation's to report, like any other edit.
#include "mapping/Mapping.h"

namespace nestor {

// Throws NestorError("mapping.levels", ...) when `index` is out of range.
void insertPassThroughLevel(Mapping& m, int index, int numTensors);
void removeLevelKeepingLoops(Mapping& m, int index);
void swapLevels(Mapping& m, int a, int b);

} // namespace nestor
