#include "model/PassThroughStage.h"

namespace nestor::model {

namespace {

// (the last level's children are the MACs, which read an operand in every busy step)
bool hasStageAbove(const NestLayout& nest, int level)
{
    return level >= 1 && level + 1 < nest.numLevels;
}

} // namespace

bool isPassThroughStage(const NestLayout& nest, int level)
{
    return hasStageAbove(nest, level) && nest.levelBegin[level] == nest.levelBegin[level + 1];
}

void passThroughStage(const StageResult& above, StageResult& out)
{
    clearStageResult(out);
    for (const StageChildResult& c : above.children) {
        // Each instance of this kind has one child of the same signature (no fanout loops to
        // add to it), which receives what the instance received.
        StageChildResult child = c;
        child.perParent = 1;
        out.children.push_back(child);
        out.instances.push_back({c.signature, c.count, c.received, c.received});
        out.parentAccesses += c.count * c.received;
        out.weighted += c.count * c.received;
    }
    out.complete = above.complete;
}

bool isSingleChildStage(const NestLayout& nest, int level)
{
    return hasStageAbove(nest, level) && nest.spatialBegin[level] == nest.levelBegin[level + 1];
}

void singleChildRatioStage(const StageResult& above, StageResult& out)
{
    clearStageResult(out);
    // An instance is busy in some step exactly where it was as the stage above's child: its own
    // temporal loops idle no one (accesses 0 here: a ratio of 1 without figures).
    for (const StageChildResult& c : above.children) {
        StageChildResult child;
        child.signature = c.signature;
        child.count = c.count;
        child.perParent = 1;
        child.everActive = true;
        out.children.push_back(child);
        out.instances.push_back({c.signature, c.count, 0, 0});
    }
    out.complete = false;
}

} // namespace nestor::model
