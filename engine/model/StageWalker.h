#pragma once
// The exact stage analysis for nests that the closed form declines (imperfect factors, possible
// link transfers): a memoized walk over (loop, residual context, reuse state) with cycle
// skipping. It applies Timeloop's delta rule per class of children, groups identical deltas
// across the children of an instance and finds link transfers.
#include "model/ExactBudget.h"
#include "model/StageAnalysis.h"

namespace nestor::model {

// Throws ExactBudgetExceeded past the memo memory or work that ModelOptions allows; otherwise exact.
void walkStage(const StageSpec& spec, StageResult& out);

} // namespace nestor::model
