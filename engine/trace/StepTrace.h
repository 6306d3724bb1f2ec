#pragma once
// A lazy, windowed step trace of a mapping, for teaching: what every instance of one storage
// level holds at one time step, and what moved into and out of it at that step.
//
// A time step is one iteration of the whole temporal nest (every temporal loop of every level,
// outermost first), so a conv layer has about as many steps as compute cycles. Imperfect
// factors follow Mapping.h: a loop runs `residual` trips on the last iteration of the outer
// loops of its dimension, so steps are counted exactly (no padding steps). Nothing is
// materialized: frame(step) and countWindow(begin, end) are computed from the loop indices of
// the steps themselves, so a 10^9-step nest is browsed in constant memory.
//
// The counting rules are the cost model's (docs/model.md; Timeloop's semantics): fills when a
// tile changes (only the new words of a translated tile), reads by the children's fills and the
// MACs' operand reads, updates of the read-write tensor, multicast groups (one read, many
// receivers), spatial-reduction groups, link transfers between mesh neighbours, first-read
// elision of outputs. Summed over all steps, the counts equal nestor::evaluate()'s totals at
// the traced level; tests/engine/tst_step_trace.cpp checks that (and against the brute force).
//
// Cost: a frame is O(instances x tensors x loops). A child's delta depends on its memory of the
// last translation (Timeloop's rule), which is recovered without history: with perfect factors
// by counting moves from the indices, otherwise by walking back over the child's own earlier
// moves until two equal translations in a row (usually a few moves; where translations
// alternate, e.g. an innermost loop of 2 trips under imperfect factors, the walk can reach far
// back; it is cached per class of instances: bench/bench_step_trace measures it).
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace nestor::trace {

struct Range {
    std::int64_t lo = 0, hi = 0;   // half-open [lo, hi) in the tensor rank's coordinates
    bool operator==(const Range&) const = default;
};

// The box one instance holds of one tensor at one step (dense, like the model's tiles).
struct TensorTile {
    bool held = false;              // the level keeps the tensor and the instance is active
    std::vector<Range> ranks;       // per rank of the tensor (Workload::tensors[t].ranks)
    std::int64_t words = 0;         // product of the rank extents
};

enum class MoveKind : std::uint8_t {
    Fill,          // words written into the traced level from its parent (or from a neighbour, see Link)
    Read,          // words read out of the traced level by its children or the MACs
    Update,        // read-write tensor: partial sums written back into the traced level
    Link,          // words a child of the traced level received over a neighbour link
};
// Instance ids in a Move: `group` holds instances of the traced level, except for Link moves,
// which happen between the traced level's children (instances of the level below, or MACs):
// there `group` is the receiving child and `fromInstance` the sending child, and the words are
// counted at the traced level like evaluate()'s link_transfers. A Fill that a traced instance
// got from a mesh neighbour instead of its parent has `fromInstance` = that neighbour.


// One transfer at one step. A multicast (one read delivered to several receivers) or a
// spatial reduction (several senders merged into one update) is ONE Move whose `group` lists
// the instances of the traced level involved; `words` is counted once per the model's rule for
// that kind (the figure countWindow adds).
struct Move {
    MoveKind kind = MoveKind::Fill;
    int tensor = 0;
    std::int64_t words = 0;         // words the model counts for this move at this level
    std::vector<int> group;         // instances of the traced level taking part (receivers of a
                                    // fill or link, readers of a read, writers of an update)
    int fromInstance = -1;          // Link: the neighbour instance that sent; else -1
    // Read / Update: the children (instances of the level below, or MACs) that receive this
    // read or merge into this update; for a level whose children bypass the tensor, the
    // instances of the next level that keeps it (or MACs).
    std::vector<int> receivers;
};

struct InstanceFrame {
    bool active = false;            // does work at this step (idle PEs and residual passes: false)
    std::vector<TensorTile> tiles;  // per tensor
};

struct StepFrame {
    std::int64_t step = 0;
    // Current index of every temporal loop of the flattened nest, outermost first (same order as
    // StepTrace::loops()); 0-based.
    std::vector<std::int64_t> loopIndex;
    std::vector<InstanceFrame> instances;   // per instance of the traced level, row-major (x fastest)
    std::vector<Move> moves;
};

struct TensorCounts {
    std::int64_t reads = 0, fills = 0, updates = 0, linkTransfers = 0;
    bool operator==(const TensorCounts&) const = default;
};

// One loop of the flattened nest (all levels, outermost first; temporal and spatial), for the
// loop-nest display beside the picture.
struct NestLoop {
    int level = 0;                  // storage level index (Architecture::levels)
    LoopKind kind = LoopKind::Temporal;
    int indexInLevel = 0;           // position in LevelMapping::loops(kind)
    Loop loop;
    int temporalIndex = -1;         // position in StepFrame::loopIndex; -1 for spatial loops
};

class StepTrace {
public:
    // Throws NestorError (with field paths) when the mapping is invalid for the workload and
    // architecture, or `level` is out of range.
    // A tensor charged through bypassing levels with a fanout is scaled by each parent's
    // whole-run multicast ratio (Timeloop's masking). On imperfect nests the trace measures it by
    // walking the stage when that takes at most `bypassWalkLimit` positions, else it takes the
    // model's stage analysis (the same exact ratio): the counts are exact either way.
    StepTrace(const Workload& w, const Architecture& a, const Mapping& m, int level,
              std::int64_t bypassWalkLimit = 100000);

    std::int64_t numSteps() const;
    int level() const;
    int numInstances() const;       // instances of the traced level (Architecture::levels[level].instances)
    int meshX() const;
    int meshY() const;
    const std::vector<NestLoop>& loops() const;

    // The frame at `step` (0 <= step < numSteps()); throws NestorError otherwise.
    StepFrame frame(std::int64_t step) const;
    // Counts at the traced level, per tensor, summed over steps [begin, end) and all instances.
    std::vector<TensorCounts> countWindow(std::int64_t begin, std::int64_t end) const;
    // The first step after `step` at which the tile of `tensor` changes in any instance of the
    // traced level; -1 when it never changes again.
    std::int64_t nextTileChange(std::int64_t step, int tensor) const;
    // False when per-step figures are rounded: in those chains (imperfect factors) a step's
    // share of a scaled count is fractional, so a frame shows it rounded and countWindow rounds
    // each instance's sum at the end of the window (as the model rounds the whole run): windows
    // then add up to within one word per instance. True: countWindow(a, c) == countWindow(a, b)
    // + countWindow(b, c) == the sum of the frames' move words, exactly.
    bool framesAdditive() const;

private:
    struct Impl;
    std::shared_ptr<const Impl> impl_;
};

} // namespace nestor::trace
