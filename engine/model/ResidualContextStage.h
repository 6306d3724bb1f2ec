#pragma once
// Closed-form stage analysis for nests whose only imperfect factors sit on spatial loops
// (Ruby-S) and not on the stage's own fanout. A dimension is in its residual context when every
// loop of it above is at its last iteration; with perfect temporal loops that is a predicate
// "these temporal loops are all at their last iteration". It matters to a stage in two ways:
//   - an instance whose index lies beyond a spatial loop's residual sits out those steps (idle);
//   - a remainder below the children shrinks their tile in those steps (shape).
// Per kind of instance at most one such predicate may matter (else the walker handles it). The
// reuse state machine gains one bit: "idle since the last active step" or "the last tile was
// the small one". The predicate's steps form whole last iterations of its innermost loop, so
// every move between the two modes is a carry of one loop, plus one step of that innermost
// loop when an idle block ends; all translations and overlaps are known in advance.
// Declines (returns false) otherwise: temporal remainders, remainders on the stage's fanout,
// two predicates for one kind of instance, children of different shapes, or mesh neighbours
// placed so that link transfers could occur.
#include "model/StageAnalysis.h"

namespace nestor::model {

bool analyzeResidualContextStage(const StageSpec& spec, StageResult& out);

} // namespace nestor::model
