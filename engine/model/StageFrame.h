#pragma once
// What every closed-form stage analysis needs about a stage, computed once per stage: the
// loops around the children (temporal loops above and the translation each carry makes, the
// children's fanout and mesh), where the remainders sit, the link check and the helpers that
// write the result. The closed forms (ClosedStageForms.h) read it; none recomputes it.
#include "model/ReuseTransform.h"
#include "model/SpatialCategory.h"
#include "model/StageAnalysis.h"

#include <array>
#include <cstdint>
#include <vector>

namespace nestor::model {

struct StageFrame {
    const StageSpec* spec = nullptr;
    const NestLayout* nest = nullptr;
    const Workload* workload = nullptr;
    int leafPos = 0;    // first spatial loop of the stage's level (its fanout)
    int boundary = 0;   // first loop of the children's level
    int nRanks = 0;

    // (The tables below are filled by buildStageFrame up to k, and left uninitialized past it.)
    // Temporal loops above the children, outermost first (nest positions), and per nest
    // position above leafPos its index in that list.
    int k = 0;
    std::array<int, kMaxLoops> temporal;
    std::array<int, 64> temporalIndex;
    // The translation of a carry of temporal loop j: its step minus the span of the loops inside.
    std::array<Vec, kMaxLoops> carry;
    std::int64_t allSteps = 1;   // product of the temporal bounds above

    // Per dimension, the children's extent (NestLayout::innerExtent from the boundary), outside
    // and in the residual context (filled for nests with remainders only).
    std::array<std::int64_t, 32> innerFull, innerLast;

    std::int64_t instances = 1;  // instances of the stage's level (spatial bounds above leafPos)
    std::int64_t fanX = 1, fanY = 1, children = 1;  // children of one instance

    // Where the remainders sit (residual < bound).
    bool temporalRemainderAbove = false;  // on a temporal loop above the children
    bool childRemainders = false;         // on the stage's own fanout: children of several kinds
    bool residualMatters = false;         // anywhere the perfect closed form cannot ignore it
    std::uint32_t shapeDims = 0;          // dims whose remainders below shrink the children's tiles
    bool shapeOnFanout = false;           // a shape dimension is also split by the fanout

    // Link transfers are enabled and could reach this stage's children.
    bool linkCandidate = false;

    // Children whose tiles coincide share one delta: distinct offsets among one instance's children.
    std::int64_t groups() const;
    // Tile extents of a child per rank when the dimensions in `small` are in their residual context.
    Vec extents(std::uint32_t small) const;
    bool isZero(const Vec& v) const;

    // Whether `test` holds for the offset difference of some pair of mesh neighbours among the
    // children (the carries of the X and of the Y spatial odometer, each with both signs). Link
    // transfers need such a difference to equal the move between two consecutive steps.
    template <class Test>
    bool anyNeighbourDifference(Test&& test) const;

    // Calls visit(c, offset, x, y, idx) for every child of one instance, row-major over the
    // fanout loops (as the walker lays them out): its offset in the tensor's ranks, its mesh
    // coordinates and its index in each fanout loop (idx[p - leafPos]).
    template <class Visit>
    void forEachChild(Visit&& visit) const;

private:
    friend bool buildStageFrame(const StageSpec& spec, StageFrame& f);
    mutable std::int64_t groups_ = -1;
};

// Fills `f` for spec; false when the nest exceeds the frame's fixed tables (then the walker).
bool buildStageFrame(const StageSpec& spec, StageFrame& f);
// StageFrame::residualMatters without the frame (the perfect form declines such a stage).
bool stageResidualMatters(const StageSpec& spec);

// The instance signature of per-position categories `cats` over the spatial loops above leafPos.
Signature instanceSignature(const StageFrame& f, const std::vector<walker::Cat>& cats);
// `isig` extended by one category per fanout loop.
Signature childSignature(const Signature& isig, const std::vector<walker::Cat>& childCats);

// What one kind of child sees over the stage: the words it receives, its busy steps, its largest tile.
struct ChildFigures {
    std::int64_t moved = 0, active = 0, maxTile = 0;
};
// Appends the result entry of `count` children (`perParent` per instance) of one kind.
void appendChild(StageResult& out, const Signature& sig, std::int64_t count, std::int64_t perParent,
                 const ChildFigures& figures, std::int64_t distinctWords);

template <class Test>
bool StageFrame::anyNeighbourDifference(Test&& test) const
{
    for (LoopKind kind : {LoopKind::SpatialX, LoopKind::SpatialY}) {
        Vec innerSpan{};
        for (int p = boundary - 1; p >= leafPos; --p) {
            const NestLoop& l = nest->loops[p];
            if (l.kind != kind) continue;
            const Vec& v = (*spec->stepVectors)[p];
            Vec d{}, minusD{};
            for (int r = 0; r < nRanks; ++r) {
                d[r] = v[r] - innerSpan[r];
                minusD[r] = -d[r];
                innerSpan[r] += (l.bound - 1) * v[r];
            }
            if (test(d) || test(minusD)) return true;
        }
    }
    return false;
}

template <class Visit>
void StageFrame::forEachChild(Visit&& visit) const
{
    const auto& steps = *spec->stepVectors;
    const int nChildLoops = boundary - leafPos;
    std::array<std::int64_t, kMaxLoops> idx{};
    for (std::int64_t c = 0; c < children; ++c) {
        Vec off{};
        std::int64_t x = 0, y = 0;
        for (int i = 0; i < nChildLoops; ++i) {
            const NestLoop& l = nest->loops[leafPos + i];
            for (int r = 0; r < nRanks; ++r) off[r] += idx[i] * steps[leafPos + i][r];
            if (l.kind == LoopKind::SpatialX) x = x * l.bound + idx[i];
            else y = y * l.bound + idx[i];
        }
        visit(c, off, x, y, idx);
        for (int i = nChildLoops; i-- > 0;) {
            if (++idx[i] < nest->loops[leafPos + i].bound) break;
            idx[i] = 0;
        }
    }
}

} // namespace nestor::model
