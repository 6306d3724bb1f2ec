#pragma once
// Closed-form stage analysis for perfectly factorized nests: every instance and every child
// behaves alike, so the sequence of tile moves is the odometer of the temporal loops above
// the children. The reuse rule is a small state machine over "last translation"; each loop's
// sweep is a transform of that state, composed and raised to the trip count by squaring.
// Link transfers are handled here too: per carry class the served children and their senders,
// and the steps whose previous delta matched in shape (a joint state machine). Declines only
// when a residual can matter to the stage (a remainder above the children's level or on a
// dimension of the tensor) or the joint state machine outgrows its table.
#include "model/StageFrame.h"
#include "model/StageDecline.h"

namespace nestor::model {

StageDecline acceptsPerfectStage(const StageFrame& frame);
StageDecline analyzePerfectStage(const StageFrame& frame, StageResult& out);

} // namespace nestor::model
