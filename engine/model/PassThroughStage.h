#pragma once
// A stage whose level has no loops of its own (no temporal loop, no fanout: one child per
// instance, as a scratchpad the mapping leaves empty) follows from the stage above it: that
// stage's children are this one's instances, and each passes on exactly what it received, in
// the same steps, to its single child, whose tile is its own (no loop lies between them). No
// multicast, no links; the children's kinds, counts, busy steps, tiles and partitions carry over.
#include "model/NestLayout.h"
#include "model/StageAnalysis.h"

namespace nestor::model {

// Whether stage `level` (the level delivering to its children; not the MACs' stage) has no
// loops of its own and a stage above it to follow from.
bool isPassThroughStage(const NestLayout& nest, int level);

// Stage `level`'s result from `above`, the result of stage level - 1 for the same tensor (with
// partitions where this one needs them).
void passThroughStage(const StageResult& above, StageResult& out);

} // namespace nestor::model
