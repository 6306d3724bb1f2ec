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

// Whether `test` holds for the offset difference of some pair of mesh neighbours among the
// children (the carries of the X and of the Y spatial odometer, each with both signs). Link
// transfers need such a difference to equal the move between two consecutive steps.
template <class Test>
bool anyNeighbourDifference(const StageSpec& spec, int leafPos, int boundary, int nRanks, Test&& test)
{
    const NestLayout& nest = *spec.nest;
    for (LoopKind kind : {LoopKind::SpatialX, LoopKind::SpatialY}) {
        Vec innerSpan{};
        for (int p = boundary - 1; p >= leafPos; --p) {
            const NestLoop& l = nest.loops[p];
            if (l.kind != kind) continue;
            const Vec& v = (*spec.stepVectors)[p];
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

} // namespace nestor::model
