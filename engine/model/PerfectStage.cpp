#include "model/PerfectStage.h"

#include "model/DistinctWords.h"
#include "model/ReuseTransform.h"
#include "model/TileGeometry.h"

#include <algorithm>
#include <cstdlib>

namespace nestor::model {
namespace {

// The reuse state alone: no remembered translation, or one per distinct non-zero carry.
using Transform = TransformOf<kMaxLoops + 1>;
// Reuse state x kind of the previous delta (none/empty, whole tile, or partial per carry).
constexpr int kMaxJointStates = (kMaxLoops + 1) * (kMaxLoops + 2);
using JointTransform = TransformOf<kMaxJointStates>;

// The walker tells instances apart by the category of their index in each spatial loop of a
// dimension that has residuals somewhere (below / at the last index); here they all behave
// alike, but entries are split the same way so that both paths' results can be joined.
using SignatureKinds = std::vector<std::pair<Signature, std::int64_t>>;

void signatureKinds(const NestLayout& nest, int from, int to, SignatureKinds& kinds)
{
    kinds.assign(1, {Signature(), 1});
    thread_local SignatureKinds next;
    for (int p = from; p < to; ++p) {
        const NestLoop& l = nest.loops[p];
        if (!l.spatial()) continue;
        if (!nest.dimImperfect(l.dim)) {  // every index alike: the kinds stay, in place
            for (auto& [sig, mult] : kinds) {
                sig.push_back(0);  // any index
                mult *= l.bound;
            }
            continue;
        }
        next.clear();
        for (const auto& [sig, mult] : kinds) {
            Signature below = sig, last = sig;
            below.push_back(1);  // below the last index
            last.push_back(5);   // at the last index (bound == residual)
            next.push_back({below, mult * (l.bound - 1)});
            next.push_back({last, mult});
        }
        kinds.swap(next);
    }
}

// Instance and child kinds of a stage, in per-thread buffers.
struct StageKinds {
    const SignatureKinds& instances;
    const SignatureKinds& children;
};
StageKinds stageKinds(const NestLayout& nest, int leafPos, int boundary)
{
    thread_local SignatureKinds instances, children;
    signatureKinds(nest, 0, leafPos, instances);
    signatureKinds(nest, leafPos, boundary, children);
    return {instances, children};
}

} // namespace

// Children of one instance whose tiles coincide share one delta; count the distinct offsets.
// Per rank the offsets are a Minkowski sum of the spatial progressions touching it; a loop
// touching several ranks couples them, and then the offsets are enumerated.
std::int64_t distinctOffsets(const StageSpec& spec, int leafPos, int boundary, int nRanks)
{
    const NestLayout& nest = *spec.nest;
    const auto& steps = *spec.stepVectors;
    bool coupled = false;
    std::int64_t children = 1;
    for (int p = leafPos; p < boundary; ++p) {
        int touched = 0;
        for (int r = 0; r < nRanks; ++r) touched += steps[p][r] != 0;
        coupled = coupled || touched > 1;
        children *= nest.loops[p].bound;
    }
    // The per-rank bitmaps span the offsets' range, which a large coefficient makes far wider
    // than the children (up to 2^62): then enumerating the children is the smaller job.
    for (int r = 0; r < nRanks && !coupled; ++r) {
        std::int64_t span = 1;
        for (int p = leafPos; p < boundary; ++p) span += (nest.loops[p].bound - 1) * steps[p][r];
        coupled = span / 64 > children + 64;
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

bool analyzePerfectStage(const StageSpec& spec, StageResult& out)
{
    const NestLayout& nest = *spec.nest;
    const Workload& w = *spec.workload;
    // Exact here unless a residual can matter to this stage: it may only sit in the children's
    // loops and on a dimension this tensor does not depend on.
    for (int p = 0; p < static_cast<int>(nest.loops.size()); ++p) {
        const NestLoop& l = nest.loops[p];
        if (l.residual != l.bound && (p < nest.levelBegin[spec.level + 1] || w.dependsOn(spec.tensor, l.dim))) return false;
    }
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
    if (spec.ratioOnly && !spec.linkStage) {
        // A bypassing level only passes its multicast ratio on (children per distinct delta).
        clearStageResult(out);
        out.complete = false;
        out.parentAccesses = groups;
        out.weighted = children;
        const StageKinds kinds = stageKinds(nest, leafPos, boundary);
        for (const auto& [isig, imult] : kinds.instances) {
            out.instances.push_back({isig, imult, groups, children});
            for (const auto& [csig, cmult] : kinds.children) {
                StageChildResult c;
                c.signature = isig;
                for (int q = 0; q < csig.size; ++q) c.signature.push_back(csig.cat[q]);
                c.count = imult * cmult;
                c.perParent = cmult;
                out.children.push_back(c);
            }
        }
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

    // Link transfers need a neighbour whose offset differs by the carry of the step.
    bool linksPossible = false;
    if (spec.options->linkTransfers && spec.linkStage && children > 1) {
        auto isCarry = [&](const Vec& d) {
            bool zero = true;
            for (int r = 0; r < nRanks; ++r) zero = zero && d[r] == 0;
            if (zero) return spec.macStage && k > 0;
            for (int j = 0; j < k; ++j)
                if (carry[j] == d) return true;
            return false;
        };
        linksPossible = anyNeighbourDifference(spec, leafPos, boundary, nRanks, isCarry);
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

    // Carry classes: equal translations behave alike. partial = words a move by the carry brings.
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
    const bool legacy = spec.options->legacyZeroTranslationRule;
    // Reuse states: no remembered translation, or one per distinct (non-zero) carry.
    std::array<int, kMaxLoops> stateOf;
    int states = 1;
    for (int j = 0; j < k; ++j)
        stateOf[j] = (zero[j] && !legacy) ? 0 : (canon[j] == j ? states++ : stateOf[canon[j]]);
    if (spec.macStage) states = 1;

    // One step with carry j from reuse state s: the next state and the words delivered.
    struct Move {
        int next;
        std::int64_t words;
    };
    auto reuse = [&](int s, int j) -> Move {
        if (spec.macStage) return {0, 1};  // every MAC step reads its operand
        if (zero[j] && !legacy) return {s, 0};
        if (s == 0 || s == stateOf[j]) return {stateOf[j], partial[j]};
        return {0, tileWords};
    };

    std::int64_t moved = 0;  // words delivered to one child over all steps
    if (spec.macStage) {
        moved = steps;
    } else {
        auto carryTransform = [&](int j) {
            Transform t;
            t.n = states;
            for (int s = 0; s < states; ++s) {
                const Move mv = reuse(s, j);
                t.next[s] = static_cast<std::uint16_t>(mv.next);
                t.cost[s] = mv.words;
            }
            return t;
        };
        Transform sweep = Transform::identity(states);  // one step: no internal carries
        bool stationary = true;  // sweep so far moves nothing and keeps the state
        for (int j = k - 1; j >= 0; --j) {
            const std::int64_t n = nest.loops[temporal[j]].bound;
            if (stationary && zero[j] && !legacy) continue;
            stationary = false;
            const Transform g = carryTransform(j).then(sweep);
            sweep = sweep.then(g.power(n - 1));
        }
        moved = tileWords + sweep.cost[0];
    }

    // Links: a step with carry c lets a child take its delta from the neighbour at offset
    // difference c, when that neighbour's previous delta had the same shape. Per carry class,
    // find the served children and their senders (Timeloop's order: from above, below, left,
    // right), then count the words moved in steps whose previous delta had the same shape.
    std::int64_t linkWords = 0, accessSaving = 0, weightSaving = 0;
    std::vector<std::int64_t> sent;
    if (linksPossible) {
        if (states * (states + 1) > kMaxJointStates) return false;
        // children: row-major over (Y loops, X loops); x, y their mesh coordinates
        std::vector<Vec> offs(static_cast<std::size_t>(children));
        std::vector<std::int64_t> xs(offs.size()), ys(offs.size());
        {
            std::array<std::int64_t, kMaxLoops> idx{};
            for (std::int64_t c = 0; c < children; ++c) {
                Vec off{};
                std::int64_t x = 0, y = 0;
                for (int p = leafPos; p < boundary; ++p) {
                    const NestLoop& l = nest.loops[p];
                    const std::int64_t i = idx[p - leafPos];
                    for (int r = 0; r < nRanks; ++r) off[r] += i * (*spec.stepVectors)[p][r];
                    if (l.kind == LoopKind::SpatialX) x = x * l.bound + i;
                    else y = y * l.bound + i;
                }
                offs[static_cast<std::size_t>(c)] = off;
                xs[static_cast<std::size_t>(c)] = x;
                ys[static_cast<std::size_t>(c)] = y;
                for (int q = boundary - leafPos; q-- > 0;) {
                    if (++idx[q] < nest.loops[leafPos + q].bound) break;
                    idx[q] = 0;
                }
            }
        }
        auto childAt = [&](std::int64_t x, std::int64_t y) -> std::int64_t {
            return (x < 0 || y < 0 || x >= fanX || y >= fanY) ? -1 : y * fanX + x;
        };
        const int Q = states + 1;  // previous delta: 0 none/empty, 1 whole tile, 1+s partial of class s
        const int n = states * Q;
        for (int J = 0; J < k; ++J) {
            if (canon[J] != J) continue;
            std::vector<std::int64_t> sender(offs.size(), -1);
            std::int64_t served = 0;
            for (std::int64_t c = 0; c < children; ++c) {
                const std::int64_t x = xs[static_cast<std::size_t>(c)], y = ys[static_cast<std::size_t>(c)];
                const std::int64_t nbs[4] = {childAt(x, y - 1), childAt(x, y + 1), childAt(x - 1, y), childAt(x + 1, y)};
                for (std::int64_t nb : nbs) {
                    if (nb < 0) continue;
                    Vec d{};
                    for (int r = 0; r < nRanks; ++r) d[r] = offs[static_cast<std::size_t>(nb)][r] - offs[static_cast<std::size_t>(c)][r];
                    if (d == carry[J]) {
                        sender[static_cast<std::size_t>(c)] = nb;
                        ++served;
                        break;
                    }
                }
            }
            if (served == 0) continue;
            std::vector<Vec> rest;
            for (std::int64_t c = 0; c < children; ++c)
                if (sender[static_cast<std::size_t>(c)] < 0) rest.push_back(offs[static_cast<std::size_t>(c)]);
            std::sort(rest.begin(), rest.end());
            const std::int64_t groupsWith = std::unique(rest.begin(), rest.end()) - rest.begin();
            if (groupsWith >= groups) continue;  // links would not lower the parent's accesses
            // Words moved, per child, in steps of this carry class whose delta matches the
            // neighbour's previous one in shape.
            auto stepTransform = [&](int j) {
                JointTransform t;
                t.n = n;
                for (int s = 0; s < states; ++s)
                    for (int q = 0; q < Q; ++q) {
                        const Move mv = reuse(s, j);
                        const int cls = spec.macStage ? 0 : stateOf[j];
                        int kind;  // 0 empty, 1 whole, 1 + cls partial
                        if (mv.words == 0) kind = 0;
                        else if (mv.words == tileWords || spec.macStage) kind = 1;
                        else kind = 1 + cls;
                        t.next[s * Q + q] = static_cast<std::uint16_t>(mv.next * Q + kind);
                        t.cost[s * Q + q] = (kind != 0 && kind == q && canon[j] == J) ? mv.words : 0;
                    }
                return t;
            };
            JointTransform sweep = JointTransform::identity(n);
            for (int j = k - 1; j >= 0; --j) {
                const std::int64_t trips = nest.loops[temporal[j]].bound;
                const JointTransform g = stepTransform(j).then(sweep);
                sweep = sweep.then(g.power(trips - 1));
            }
            const std::int64_t matched = sweep.cost[1];  // after the first step: state 0, a whole tile
            if (matched == 0) continue;
            linkWords += served * matched;
            accessSaving += (groups - groupsWith) * matched;
            weightSaving += served * matched;
            sent.resize(offs.size(), 0);
            for (std::int64_t c = 0; c < children; ++c)
                if (sender[static_cast<std::size_t>(c)] >= 0) sent[static_cast<std::size_t>(sender[static_cast<std::size_t>(c)])] += matched;
        }
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
    const std::int64_t accesses = groups * moved - accessSaving;  // per instance
    const std::int64_t weighted = children * moved - weightSaving;
    out.parentAccesses = instances * accesses;
    out.weighted = instances * weighted;
    out.linkTransfers = instances * linkWords;
    out.macs = spec.macStage ? instances * children * steps : 0;
    const StageKinds kinds = stageKinds(nest, leafPos, boundary);
    const SignatureKinds& childKinds = kinds.children;
    for (const auto& [isig, imult] : kinds.instances) {
        out.instances.push_back({isig, imult, accesses, weighted});
        for (const auto& [csig, cmult] : childKinds) {
            StageChildResult c;
            c.signature = isig;
            for (int q = 0; q < csig.size; ++q) c.signature.push_back(csig.cat[q]);
            c.count = imult * cmult;
            c.perParent = cmult;
            c.received = moved;
            c.activeSteps = steps;
            c.maxTile = tileWords;
            c.distinctWords = distinct;
            c.everActive = true;
            out.children.push_back(c);
        }
        // Forwarded words per child; a child's signature holds its own index categories.
        for (std::size_t c = 0; c < sent.size(); ++c) {
            Signature sig = isig;
            std::int64_t rest = static_cast<std::int64_t>(c);
            std::array<std::int64_t, kMaxLoops> idx{};
            for (int p = boundary - 1; p >= leafPos; --p) {
                idx[p - leafPos] = rest % nest.loops[p].bound;
                rest /= nest.loops[p].bound;
            }
            for (int p = leafPos; p < boundary; ++p) {
                const NestLoop& l = nest.loops[p];
                sig.push_back(!nest.dimImperfect(l.dim) ? 0 : (idx[p - leafPos] == l.bound - 1 ? 5 : 1));
            }
            out.peers.push_back({sig, imult, sent[c]});
        }
    }
    return true;
}

} // namespace nestor::model
