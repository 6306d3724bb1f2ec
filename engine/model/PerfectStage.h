#pragma once
// Closed-form stage analysis for perfectly factorized nests: every instance and every child
// behaves alike, so the sequence of tile moves is the odometer of the temporal loops above
// the children. The reuse rule is a small state machine over "last translation"; each loop's
// sweep is a transform of that state, composed and raised to the trip count by squaring.
// Declines (returns false) where link transfers could occur; the general walker handles those.
#include "model/StageAnalysis.h"

namespace nestor::model {

bool analyzePerfectStage(const StageSpec& spec, StageResult& out);

// Children of one instance whose tiles coincide share one delta: the number of distinct child
// offsets among the spatial loops [leafPos, boundary) (all children alike).
std::int64_t distinctOffsets(const StageSpec& spec, int leafPos, int boundary, int nRanks);

} // namespace nestor::model
