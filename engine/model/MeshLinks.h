#pragma once
// The mesh geometry of link transfers among one instance's children, shared by the closed forms
// that count links (PerfectStage's rule, as the walker applies it): a child whose delta in a
// step equals the one its mesh neighbour had in the previous step takes it from that neighbour.
// With the children in lockstep (one kind of child, tiles of one shape) that needs the
// neighbour's offset to differ by the step's move and the two deltas to be of one kind; which
// children a move serves, and from whom, is geometry alone, computed here once per stage.
#include "model/StageFrame.h"

#include <array>
#include <cstdint>
#include <vector>

namespace nestor::model {

struct MeshLinks {
    // Every offset difference between mesh neighbours that links may serve (as build() asks:
    // the non-zero ones, or zero too where tiles change shape and a neighbour at the same offset
    // may hold the delta a child gets next; none for countStep alone).
    enum class Moves { None, NonZero, WithZero };
    std::vector<Vec> moves;
    // Per move: each child's sender (the first neighbour with that difference in Timeloop's order:
    // above, below, left, right) or -1, the children served, and the distinct offsets of the rest.
    std::vector<std::vector<int>> senders;
    std::vector<std::int64_t> served, groupsWith;
    // Per child: the index of its kind (its categories in the fanout loops) in the form's list.
    std::vector<int> childKindOf;

    // Fills the geometry for the children of one instance of f's stage, whose kinds are
    // `kindOf` (per child, as ChildPlacement finds them).
    void build(const StageFrame& f, Moves which, const std::vector<int>& kindOf);

    // What links save for one kind of instance whose busy steps with move i deliver matched[i]
    // words that match the previous step's delta in kind: the parent's accesses and the
    // weighted accesses (`groups` distinct offsets without links) lowered, the words children
    // take over links added, and per child the words it forwards (`sent`, sized on first use).
    struct Savings {
        std::int64_t accesses = 0, weighted = 0, linkWords = 0;
    };
    Savings apply(const std::vector<std::int64_t>& matched, std::int64_t groups, std::vector<std::int64_t>& sent) const;

    // One step of the children counted explicitly, as the walker's leaf counts it, for children
    // of several kinds in lockstep: `*now[k]` is the delta of a child of slot k (slotOf[child])
    // relative to the step's base, `*before[k]` the one it had in the previous step relative to
    // that step's base (size 0: none; moved by `back` it is relative to this one's). The parent
    // sends each distinct delta once; a child whose delta a neighbour (in Timeloop's order) had
    // in the previous step takes it over the link when that lowers the parent's accesses. `sent` (per child, sized here) gets the words each
    // child forwards in this step.
    struct StepFigures {
        std::int64_t accesses = 0, weighted = 0, linkWords = 0;
        bool linked = false;
    };
    StepFigures countStep(const std::vector<int>& slotOf, const Delta* const* now, const Delta* const* before, const Vec& back,
                          std::vector<std::int64_t>& sent) const;

private:
    void buildGeometry(const StageFrame& f, Moves which);
    void buildLinkGeometry();  // countStep's tables
    std::array<std::int64_t, 4> neighbours(std::size_t c) const;
    void countDistinct(const std::vector<std::pair<std::uint64_t, int>>& keyed, const std::vector<int>& slotOf, const Delta* const* now,
                       const std::vector<int>* skip, std::int64_t& accesses, std::int64_t& weighted) const;
    int nRanks_ = 0;
    std::int64_t fanX_ = 1, fanY_ = 1;
    std::vector<Vec> offs_;
    std::vector<std::int64_t> xs_, ys_;
    // Per child: its neighbours (Timeloop's order, -1 off the mesh), the index of each one's
    // offset difference in differences_, and a hash of its offset (countStep).
    std::vector<std::array<std::int64_t, 4>> neighbourOf_;
    std::vector<std::array<int, 4>> neighbourMove_;
    std::vector<Vec> differences_;
    std::vector<std::uint64_t> offsetHash_;
};

} // namespace nestor::model
