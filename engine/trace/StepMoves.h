#pragma once
// One stage (a level delivering one tensor to its children: the next level's instances or the
// MACs) at one time step, computed from the loop indices alone: every child's delta under the
// translation rule (its memory of the last translation recovered by looking back over its own
// previous moves, never from stored history), multicast / reduction groups of identical deltas,
// and link transfers from mesh neighbours. Internal to trace/.
#include "trace/NestOdometer.h"
#include "trace/TileBoxes.h"

#include <vector>

namespace nestor::trace::detail {

struct ChildMove {
    int child = 0;       // index in the parent's fanout
    Delta delta;
    int sender = -1;     // fanout index of the neighbour that forwarded it over a link
    bool first = false;  // its words enter the parent's partition here (read-write tensor)
};

struct Group {
    std::vector<int> members;  // indices into StageStep::moves
    i64 words = 0;             // one access for the whole group
    bool first = false;
};

struct StageStep {
    bool moved = false;            // the stage moves at this step (its children's loops restart)
    std::vector<ChildMove> moves;  // children with a non-empty delta
    std::vector<Group> groups;     // groups of the moves not served over a link
    i64 childSum = 0, noLink = 0, used = 0, linkWords = 0, firstWords = 0;
};

class StageView {
public:
    StageView(const Workload& w, const NestOdometer& nest, int stage, int tensor, bool linkStage, bool perfect);

    int stage() const { return j_; }
    bool macStage() const { return mac_; }
    // The stage moves at a step when every temporal loop below its children is at index 0.
    bool movesAt(const std::vector<i64>& idx) const;
    // Sets the stage's spatial indices of child c in idx; false when c is outside the used fanout.
    bool placeChild(int c, std::vector<i64>& idx) const;
    Box tile(const std::vector<i64>& idx) const;
    // Delta of the child whose indices are in idx (it must be active there).
    Delta delta(const std::vector<i64>& idx) const;
    // The children's positions where all loops of dimensions the tensor ignores are at 0: the
    // first time their words are held (read-write tensors have one-dimension ranks).
    bool firstHeld(const std::vector<i64>& idx) const;
    // Everything the stage does for parent instance `parent` (of level stage()) at the temporal
    // indices in idx (spatial indices are filled here).
    StageStep step(i64 parent, std::vector<i64> idx) const;

private:
    bool translationWasRemembered(std::vector<i64> p, const Ranks& tr) const;
    bool rememberedCached(const std::vector<i64>& prev, const Ranks& tr) const;
    void skipIgnored(std::vector<i64>& idx) const;

    const Workload& w_;
    const NestOdometer& nest_;
    int j_, t_;
    bool mac_, link_;
    int end_;
    i64 id_ = 0;                   // unique per view: the key of its cached walks
    std::vector<char> relevant_;   // per dim: appears in the tensor
    std::vector<int> ignoredSuffix_;
    // Perfect factors with the innermost moving loop of 2 trips: the translations alternate
    // forever (no two equal in a row), so the memory is the parity of the moves so far, which
    // is counted from the indices instead of walked back over (that walk would be O(step)).
    bool alternating_ = false;
    std::vector<int> coarse_;          // temporal flat positions above the children, outermost first
    std::vector<char> moving_;         // per entry of coarse_: its carry has a non-zero translation
    bool alternatingWhole(const std::vector<i64>& prev) const;  // temporal flat positions inside the innermost relevant temporal loop above end_
};

} // namespace nestor::trace::detail
