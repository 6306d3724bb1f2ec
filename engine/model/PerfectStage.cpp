#include "model/PerfectStage.h"

#include "model/DistinctWords.h"
#include "model/TileGeometry.h"

#include <algorithm>
#include <cstdlib>

namespace nestor::model {
namespace {

constexpr int kMaxLoops = 23;

// Effect of a stretch of steps on the reuse state: state 0 = no remembered translation,
// state j = the translation of carry class j. cost = words moved.
struct Transform {
    int n = 0;
    std::array<std::uint8_t, kMaxLoops + 1> next;  // only [0, n) is meaningful
    std::array<std::int64_t, kMaxLoops + 1> cost;

    static Transform identity(int n)
    {
        Transform t;
        t.n = n;
        for (int s = 0; s < n; ++s) {
            t.next[s] = static_cast<std::uint8_t>(s);
            t.cost[s] = 0;
        }
        return t;
    }
    // this, then b
    Transform then(const Transform& b) const
    {
        Transform r;
        r.n = n;
        for (int s = 0; s < n; ++s) {
            r.next[s] = b.next[next[s]];
            r.cost[s] = cost[s] + b.cost[next[s]];
        }
        return r;
    }
    // this applied e times. Each state's trajectory enters a cycle (almost always a fixed
    // point) within n steps, so follow it and skip whole cycles.
    Transform power(std::int64_t e) const
    {
        Transform r;
        r.n = n;
        std::array<std::int64_t, kMaxLoops + 1> seenAt;
        std::array<std::int64_t, kMaxLoops + 1> costAt;
        for (int s0 = 0; s0 < n; ++s0) {
            for (int s = 0; s < n; ++s) seenAt[s] = -1;
            int s = s0;
            std::int64_t c = 0, i = 0;
            while (i < e) {
                if (seenAt[s] >= 0) {  // cycle: skip as many whole turns as fit
                    const std::int64_t len = i - seenAt[s], turnCost = c - costAt[s];
                    const std::int64_t turns = (e - i) / len;
                    c += turns * turnCost;
                    i += turns * len;
                    for (int x = 0; x < n; ++x) seenAt[x] = -1;
                    if (i >= e) break;
                }
                seenAt[s] = i;
                costAt[s] = c;
                c += cost[s];
                s = next[s];
                ++i;
            }
            r.next[s0] = static_cast<std::uint8_t>(s);
            r.cost[s0] = c;
        }
        return r;
    }
};


Vec negate(const Vec& v, int n)
{
    Vec r{};
    for (int i = 0; i < n; ++i) r[i] = -v[i];
    return r;
}

// Children of one instance whose tiles coincide share one delta; count the distinct offsets.
// Per rank the offsets are a Minkowski sum of the spatial progressions touching it; a loop
// touching several ranks couples them, and then the offsets are enumerated.
std::int64_t distinctOffsets(const StageSpec& spec, int leafPos, int boundary, int nRanks)
{
    const NestLayout& nest = *spec.nest;
    const auto& steps = *spec.stepVectors;
    bool coupled = false;
    for (int p = leafPos; p < boundary; ++p) {
        int touched = 0;
        for (int r = 0; r < nRanks; ++r) touched += steps[p][r] != 0;
        coupled = coupled || touched > 1;
    }
    if (coupled) {
        thread_local std::vector<Vec> offsets;
        offsets.clear();
        std::array<std::int64_t, kMaxLoops> idx{};
        while (true) {
            Vec off{};
            for (int p = leafPos; p < boundary; ++p)
                for (int r = 0; r < nRanks; ++r) off[r] += idx[p - leafPos] * steps[p][r];
            offsets.push_back(off);
            int k = boundary - leafPos;
            while (k-- > 0) {
                if (++idx[k] < nest.loops[leafPos + k].bound) break;
                idx[k] = 0;
            }
            if (k < 0) break;
        }
        std::sort(offsets.begin(), offsets.end());
        return std::unique(offsets.begin(), offsets.end()) - offsets.begin();
    }
    std::int64_t distinct = 1;
    thread_local std::vector<std::uint8_t> values, next;
    for (int r = 0; r < nRanks; ++r) {
        values.assign(1, 1);
        for (int p = leafPos; p < boundary; ++p) {
            const std::int64_t step = steps[p][r];
            if (step == 0) continue;
            const std::int64_t n = nest.loops[p].bound;
            next.assign(values.size() + static_cast<std::size_t>((n - 1) * step), 0);
            for (std::size_t v = 0; v < values.size(); ++v)
                if (values[v])
                    for (std::int64_t i = 0; i < n; ++i) next[v + static_cast<std::size_t>(i * step)] = 1;
            values.swap(next);
        }
        std::int64_t count = 0;
        for (auto v : values) count += v;
        distinct *= count;
    }
    return distinct;
}

} // namespace

bool analyzePerfectStage(const StageSpec& spec, StageResult& out)
{
    const NestLayout& nest = *spec.nest;
    const Workload& w = *spec.workload;
    if (nest.imperfectDims != 0) return false;
    const int nRanks = static_cast<int>(w.tensors[spec.tensor].ranks.size());
    const int leafPos = nest.spatialBegin[spec.level];
    const int boundary = nest.levelBegin[spec.level + 1];

    // Children of one instance: offsets and mesh positions (as the walker lays them out).
    std::int64_t fanX = 1, fanY = 1;
    for (int p = leafPos; p < boundary; ++p)
        (nest.loops[p].kind == LoopKind::SpatialX ? fanX : fanY) *= nest.loops[p].bound;
    const std::int64_t children = fanX * fanY;
    if (boundary - leafPos > kMaxLoops) return false;
    // Temporal loops above the children and the translation of each carry.
    std::array<int, kMaxLoops> temporal;
    int k = 0;
    std::int64_t instances = 1;
    for (int p = 0; p < leafPos; ++p) {
        if (nest.loops[p].spatial()) instances *= nest.loops[p].bound;
        else if (k == kMaxLoops) return false;
        else temporal[k++] = p;
    }
    const std::int64_t groups = distinctOffsets(spec, leafPos, boundary, nRanks);
    std::size_t spatialAbove = 0;
    for (int p = 0; p < leafPos; ++p) spatialAbove += nest.loops[p].spatial() ? 1 : 0;
    if (spec.ratioOnly && !spec.linkStage) {
        // A bypassing level only passes its multicast ratio on (children per distinct delta).
        clearStageResult(out);
        out.complete = false;
        out.parentAccesses = groups;
        out.weighted = children;
        out.instances.push_back({Signature(spatialAbove), instances, groups, children});
        StageChildResult c;
        c.signature = Signature(spatialAbove + static_cast<std::size_t>(boundary - leafPos));
        c.count = instances * children;
        c.perParent = children;
        out.children.push_back(c);
        return true;
    }

    std::array<Vec, kMaxLoops> carry;
    for (int j = 0; j < k; ++j) carry[j] = Vec{};
    {
        Vec innerSpan{};
        for (int j = k - 1; j >= 0; --j) {
            const NestLoop& l = nest.loops[temporal[j]];
            const Vec& v = (*spec.stepVectors)[temporal[j]];
            for (int r = 0; r < nRanks; ++r) carry[j][r] = v[r] - innerSpan[r];
            for (int r = 0; r < nRanks; ++r) innerSpan[r] += (l.bound - 1) * v[r];
        }
    }

    // Link transfers need a neighbour whose offset differs by a carry; leave those to the walker.
    if (spec.options->linkTransfers && spec.linkStage && children > 1) {
        auto isCarry = [&](const Vec& d) {
            bool zero = true;
            for (int r = 0; r < nRanks; ++r) zero = zero && d[r] == 0;
            if (zero) return spec.macStage && k > 0;
            for (int j = 0; j < k; ++j)
                if (carry[j] == d) return true;
            return false;
        };
        // Mesh neighbours differ by a carry of the X (or Y) spatial odometer.
        thread_local std::vector<Vec> displacements;
        displacements.clear();
        for (LoopKind kind : {LoopKind::SpatialX, LoopKind::SpatialY}) {
            Vec innerSpan{};
            for (int p = boundary - 1; p >= leafPos; --p) {
                const NestLoop& l = nest.loops[p];
                if (l.kind != kind) continue;
                const Vec& v = (*spec.stepVectors)[p];
                Vec d{};
                for (int r = 0; r < nRanks; ++r) d[r] = v[r] - innerSpan[r];
                displacements.push_back(d);
                for (int r = 0; r < nRanks; ++r) innerSpan[r] += (l.bound - 1) * v[r];
            }
        }
        for (const Vec& d : displacements) {
            if (isCarry(d) || isCarry(negate(d, nRanks))) return false;
        }
    }

    // Tile of one child.
    Vec ext{};
    std::int64_t tileWords = 1;
    const auto& ranks = w.tensors[spec.tensor].ranks;
    std::array<std::int64_t, 32> extDim;
    for (int d = 0; d < w.numDims(); ++d) extDim[d] = spec.macStage ? 1 : nest.innerExtent(boundary, d, false);
    for (int r = 0; r < nRanks; ++r) {
        ext[r] = 1;
        for (const auto& term : ranks[r]) ext[r] += term.coef * (extDim[term.dim] - 1);
        tileWords *= ext[r];
    }

    std::int64_t steps = 1;
    for (int j = 0; j < k; ++j) steps *= nest.loops[temporal[j]].bound;

    std::int64_t moved = 0;  // words delivered to one child over all steps
    if (spec.macStage) {
        moved = steps;
    } else {
        std::array<int, kMaxLoops> canon;
        std::array<std::int64_t, kMaxLoops> partial;
        std::array<std::uint8_t, kMaxLoops> zero;
        for (int j = 0; j < k; ++j) {
            canon[j] = j;
            for (int m = 0; m < j; ++m)
                if (carry[m] == carry[j]) {
                    canon[j] = m;
                    break;
                }
            std::int64_t overlap = 1;
            bool z = true;
            for (int r = 0; r < nRanks; ++r) {
                overlap *= std::max<std::int64_t>(0, ext[r] - std::llabs(carry[j][r]));
                z = z && carry[j][r] == 0;
            }
            zero[j] = z;
            partial[j] = tileWords - overlap;
        }
        // States: no remembered translation, or one per distinct non-zero carry.
        std::array<int, kMaxLoops> stateOf;
        int states = 1;
        for (int j = 0; j < k; ++j) stateOf[j] = zero[j] ? 0 : (canon[j] == j ? states++ : stateOf[canon[j]]);
        if (spec.options->legacyZeroTranslationRule)
            for (int j = 0; j < k; ++j)
                if (zero[j]) stateOf[j] = canon[j] == j ? states++ : stateOf[canon[j]];
        auto carryTransform = [&](int j) {
            Transform t;
            t.n = states;
            const int cls = stateOf[j];
            for (int s = 0; s < states; ++s) {
                if (zero[j] && !spec.options->legacyZeroTranslationRule) {
                    t.next[s] = static_cast<std::uint8_t>(s);
                    t.cost[s] = 0;
                } else if (s == 0 || s == cls) {
                    t.next[s] = static_cast<std::uint8_t>(cls);
                    t.cost[s] = partial[j];
                } else {
                    t.next[s] = 0;
                    t.cost[s] = tileWords;
                }
            }
            return t;
        };
        Transform sweep = Transform::identity(states);  // one step: no internal carries
        bool stationary = true;  // sweep so far moves nothing and keeps the state
        for (int j = k - 1; j >= 0; --j) {
            const std::int64_t n = nest.loops[temporal[j]].bound;
            if (stationary && zero[j] && !spec.options->legacyZeroTranslationRule) continue;
            stationary = false;
            const Transform g = carryTransform(j).then(sweep);
            sweep = sweep.then(g.power(n - 1));
        }
        moved = tileWords + sweep.cost[0];
    }

    // Distinct words a child ever holds: per dimension the inner extent replicated by the
    // temporal loops above (spatial loops above are fixed for one child).
    std::int64_t distinct = 0;
    if (spec.needDistinct) {
        // Positions of different temporal loops never coincide (mixed-radix digits), so a rank of
        // one dimension covers extent x trips; ranks mixing dimensions need the Minkowski sum.
        std::array<std::int64_t, 32> covered;
        for (int d = 0; d < w.numDims(); ++d) covered[d] = extDim[d];
        for (int j = 0; j < k; ++j) covered[nest.loops[temporal[j]].dim] *= nest.loops[temporal[j]].bound;
        distinct = 1;
        for (int r = 0; r < nRanks; ++r) {
            if (ranks[r].size() == 1) {
                distinct *= covered[ranks[r][0].dim];
                continue;
            }
            std::vector<Intervals> positions(static_cast<std::size_t>(w.numDims()));
            for (const auto& term : ranks[r]) {
                Intervals iv{{0, extDim[term.dim]}};
                for (int j = k - 1; j >= 0; --j) {
                    const NestLoop& l = nest.loops[temporal[j]];
                    if (l.dim == term.dim) iv = replicate(iv, l.stride, l.bound);
                }
                positions[term.dim] = std::move(iv);
            }
            distinct *= countRankValues(ranks[r], positions);
        }
    }

    clearStageResult(out);
    out.parentAccesses = instances * groups * moved;
    out.weighted = instances * children * moved;
    out.accessesMin = out.accessesMax = groups * moved;
    out.usedInstances = instances;
    out.macs = spec.macStage ? instances * children * steps : 0;
    out.instances.push_back({Signature(spatialAbove), instances, groups * moved, children * moved});
    StageChildResult c;
    c.signature = Signature(spatialAbove + static_cast<std::size_t>(boundary - leafPos));
    c.count = instances * children;
    c.perParent = children;
    c.received = moved;
    c.activeSteps = steps;
    c.maxTile = tileWords;
    c.distinctWords = distinct;
    c.everActive = true;
    out.children.push_back(c);
    return true;
}

} // namespace nestor::model
