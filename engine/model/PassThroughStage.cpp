#include "model/PassThroughStage.h"

namespace nestor::model {

bool isPassThroughStage(const NestLayout& nest, int level)
{
    // (the last level's children are the MACs, which read an operand in every busy step)
    return level >= 1 && level + 1 < nest.numLevels && nest.levelBegin[level] == nest.levelBegin[level + 1];
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

} // namespace nestor::model
