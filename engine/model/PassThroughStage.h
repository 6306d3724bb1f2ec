#pragma once
// Stages that follow from the stage above them (the stage of level i - 1 for the same tensor,
// whose children are level i's instances):
//  - a level with no loops of its own (no temporal loop, no fanout: one child per instance, as a
//    scratchpad the mapping leaves empty) passes on what each instance received, in the same
//    steps, to its single child, whose tile is its own (no loop lies between them): no
//    multicast, no links; the children's kinds, counts, busy steps, tiles and partitions carry over;
//  - a level with no fanout (temporal loops allowed) has, per instance, one child of the
//    instance's signature and a multicast ratio of exactly 1 (one child: no delta is shared, no
//    neighbour forwards): all a bypassing chain asks of it (Model.cpp, accessesThroughBypass).
#include "model/NestLayout.h"
#include "model/StageAnalysis.h"

namespace nestor::model {

// Whether stage `level` (the level delivering to its children; not the MACs' stage) has no
// loops of its own and a stage above it to follow from.
bool isPassThroughStage(const NestLayout& nest, int level);
// Stage `level`'s result from `above`, the result of stage level - 1 for the same tensor (with
// partitions where this one needs them).
void passThroughStage(const StageResult& above, StageResult& out);

// Whether stage `level` has no fanout (one child per instance) and a stage above it.
bool isSingleChildStage(const NestLayout& nest, int level);
// Its ratio-only result from `above`: the instances and children (signatures, counts, one child
// per instance) of the busy ones, multicast ratio 1; no figures (complete = false).
void singleChildRatioStage(const StageResult& above, StageResult& out);

} // namespace nestor::model
