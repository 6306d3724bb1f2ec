#pragma once
// Closed-form stage analysis for temporal remainders above the children (Ruby-T, Ruby), and for
// every other stage with remainders the residual-context form declines. A temporal loop with a
// remainder runs `residual` trips in its dimension's residual context (every loop of the
// dimension above it at its last iteration) and `bound` trips otherwise; remainders below the
// children shrink the children's tiles in the same contexts.
//
// The context is one bit per dimension that matters (a remainder above, or a shape change
// below), so a sweep of the loops from position p inward, run in context c, is a fixed
// sequence of steps: its step count, the translation from its first to its last step, and the
// tile shapes of its first and last steps follow by recursion from the inside out; every move
// between two steps is a carry of one loop from a sweep in context c0 (the loop's own bit
// clear: not its last iteration) into one in c0 or c, whose translation and overlap are thus
// known in advance. The reuse rule is the usual state machine over translation classes; each
// loop's sweep per context is a composition of transforms raised to the trip count.
// Spatial loops above the children clear context bits (an instance not at the loop's last
// index) or, with a remainder, idle an instance beyond the residual in the residual context:
// sweeps record their first and last busy steps, and a carry joins two busy steps.
// Instances are told apart by their categories as the walker does. With remainders on the
// fanout, or a shape dimension split by it (children of different tile shapes), children of
// several kinds are swept through the fanout kind by kind and summed; at an offset they share,
// kinds that work and change shape in the same contexts receive one delta per step, and kinds
// that differ are counted together on their joint reuse states (each distinct delta among them,
// compared as word sets, once per step; their joint states numbered as met).
// Links, with one kind of child: all children are in lockstep, so a child takes its delta from
// the mesh neighbour whose offset differs by the difference between its delta and that
// neighbour's previous one (each relative to its step's position); a second sweep per neighbour
// difference follows the reuse state and the previous delta (MeshLinks.h has the mesh side).
// With children of several kinds (tiles of different shapes, kinds that idle apart), each step
// is counted over the mesh as the walker counts it, on the kinds' joint state (per kind its
// reuse state and its delta in the previous step). MAC operands are one-word tiles read in every
// busy step: the same sweeps with that reuse rule.
// Declines (the stage is then walked, within the walker's budgets): more than 8 context
// dimensions or 6 shape dimensions, more than 2,047 translations, more than 256 kinds behaving
// differently at one offset or where links can form, more than 2,048 joint states, joint counts
// whose kinds' carries outgrow their traced room (sized for 64 contexts), kinds that join only
// across an idle iteration, and links under the legacy zero-translation rule (but for MAC
// operands, which it does not touch).
#include "model/StageDecline.h"
#include "model/StageFrame.h"

namespace nestor::model {

StageDecline acceptsTemporalRemainderStage(const StageFrame& frame);
StageDecline analyzeTemporalRemainderStage(const StageFrame& frame, StageResult& out);

} // namespace nestor::model
