#pragma once
// Closed-form stage analysis for nests whose only imperfect factors that matter to the stage
// sit on spatial loops above it (Ruby-S). Instances then differ only in *when* they are idle:
// an instance whose index lies beyond a spatial loop's residual sits out the steps in which
// the loop's dimension is in its residual context, i.e. in which every temporal loop of that
// dimension above it is at its last iteration. Per kind of instance that is at most one idle
// predicate. The reuse state machine gains a bit "idle since the last active step"; a step
// that ends an idle block moves the tile by the exiting loop's carry plus one step of the
// predicate's innermost loop (the idle block is that loop's last iteration).
// Declines (returns false) otherwise, e.g. remainders on temporal loops or on the stage's own
// fanout, two idle predicates for one kind of instance, or possible link transfers.
#include "model/StageAnalysis.h"

namespace nestor::model {

bool analyzeIdleAwareStage(const StageSpec& spec, StageResult& out);

} // namespace nestor::model
