#pragma once
// Closed-form stage analysis for nests whose only imperfect factors sit on spatial loops
// (Ruby-S). A dimension is in its residual context when every loop of it above is at its last
// iteration; with perfect temporal loops that is a predicate "these temporal loops are all at
// their last iteration". It matters to a stage in two ways:
//   - an instance (or child) whose index lies beyond a spatial loop's residual sits out those
//     steps (idle);
//   - a remainder below the children shrinks their tile in those steps (shape).
// Per kind of instance (and child) up to three predicates, idle ones (their union is the idle
// steps) and shape ones (the tile of each dimension whose predicate holds is the residual one).
// The reuse state machine gains the shape of the last busy tile and, through the contexts, the
// idle predicates in force. The predicates' steps
// form whole last iterations of their innermost loops, so every move between modes is a carry
// of one loop, plus one step of each predicate's innermost loop when an idle block ends; all
// translations and overlaps are known in advance. Children of several kinds (remainders on the
// fanout) are summed kind by kind; where kinds of different predicates share an offset, the
// parent sends each distinct delta among them once, counted on the kinds' joint reuse states.
// Declines (see StageDecline): temporal remainders, children of different shapes, more than
// three predicates, child kinds with shape changes or links, more than four kinds (or three
// predicate sets) at one offset, MAC operands shared by kinds, several predicates where links
// are possible, and mesh neighbours placed so that link transfers could occur. The
// temporal-remainder form (TemporalRemainderStage.h) takes every stage declined here.
#include "model/StageFrame.h"
#include "model/StageDecline.h"

namespace nestor::model {

StageDecline acceptsResidualContextStage(const StageFrame& frame);
StageDecline analyzeResidualContextStage(const StageFrame& frame, StageResult& out);

} // namespace nestor::model
