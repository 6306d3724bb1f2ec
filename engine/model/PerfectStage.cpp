#include "model/PerfectStage.h"

#include "model/DistinctWords.h"
#include "model/ReuseTransform.h"
#include "model/SpatialCategory.h"
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
using walker::Cat;
using SignatureKinds = std::vector<std::pair<Signature, std::int64_t>>;

void signatureKinds(const NestLayout& nest, int from, int to, SignatureKinds& kinds)
{
    if (nest.imperfectDims == 0) {  // no remainder anywhere: one kind, every index alike
        Signature sig;
        std::int64_t mult = 1;
        for (int p = from; p < to; ++p)
            if (nest.loops[p].spatial()) {
                sig.push_back(static_cast<std::uint8_t>(Cat::Any));
                mult *= nest.loops[p].bound;
            }
        kinds.assign(1, {sig, mult});
        return;
    }
    kinds.assign(1, {Signature(), 1});
    thread_local SignatureKinds next;
    for (int p = from; p < to; ++p) {
        const NestLoop& l = nest.loops[p];
        if (!l.spatial()) continue;
        if (!nest.dimImperfect(l.dim)) {  // every index alike: the kinds stay, in place
            for (auto& [sig, mult] : kinds) {
                sig.push_back(static_cast<std::uint8_t>(Cat::Any));
                mult *= l.bound;
            }
            continue;
        }
        next.clear();
        for (const auto& [sig, mult] : kinds) {
            Signature below = sig, last = sig;
            below.push_back(static_cast<std::uint8_t>(Cat::BelowRes));  // below the last index
            last.push_back(static_cast<std::uint8_t>(Cat::AtBoth));     // at the last index (bound == residual)
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

StageDecline acceptsPerfectStage(const StageFrame& f)
{
    // Exact here unless a residual can matter to this stage: it may only sit in the children's
    // loops and on a dimension this tensor does not depend on.
    return f.residualMatters ? StageDecline::NotApplicable : StageDecline::None;
}

StageDecline analyzePerfectStage(const StageFrame& f, StageResult& out)
{
    const StageSpec& spec = *f.spec;
    const NestLayout& nest = *f.nest;
    const Workload& w = *f.workload;
    const int nRanks = f.nRanks;
    const int leafPos = f.leafPos;
    const int boundary = f.boundary;
    const std::int64_t fanX = f.fanX, fanY = f.fanY, children = f.children, instances = f.instances;
    const int k = f.k;
    const auto& temporal = f.temporal;
    const auto& carry = f.carry;
    const std::int64_t groups = f.groups();
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
        return StageDecline::None;
    }

    // Link transfers need a neighbour whose offset differs by the carry of the step.
    bool linksPossible = false;
    if (f.linkCandidate) {
        bool zeroCarryLinks = false;
        auto isCarry = [&](const Vec& d) {
            if (f.isZero(d)) {
                if (spec.macStage && k > 0) return true;
                // Under the legacy rule a carry that moves nothing can deliver the same tile
                // again: identical consecutive deltas, which a neighbour holding the same words
                // may serve. The walker handles that.
                for (int j = 0; j < k && spec.options->legacyZeroTranslationRule; ++j)
                    zeroCarryLinks = zeroCarryLinks || f.isZero(carry[j]);
                return false;
            }
            for (int j = 0; j < k; ++j)
                if (carry[j] == d) return true;
            return false;
        };
        linksPossible = f.anyNeighbourDifference(isCarry);
        if (zeroCarryLinks) return StageDecline::LinksPossible;
    }

    // Tile of one child: per dimension the extent of the loops below (NestLayout::innerExtent,
    // all dimensions in one pass), then per rank (StageFrame::extents).
    const auto& ranks = w.tensors[spec.tensor].ranks;
    std::array<std::int64_t, 32> extDim;
    std::fill_n(extDim.begin(), w.numDims(), 1);
    if (!spec.macStage)
        for (int p = boundary; p < static_cast<int>(nest.loops.size()); ++p)
            extDim[nest.loops[p].dim] += (nest.loops[p].bound - 1) * nest.loops[p].stride;
    Vec ext{};
    std::int64_t tileWords = 1;
    for (int r = 0; r < nRanks; ++r) {
        ext[r] = 1;
        for (const auto& term : ranks[r]) ext[r] += term.coef * (extDim[term.dim] - 1);
        tileWords *= ext[r];
    }

    const std::int64_t steps = f.allSteps;

    // Carry classes: equal translations behave alike. partial = words a move by the carry brings.
    std::array<int, kMaxLoops> canon;
    std::array<std::int64_t, kMaxLoops> partial;
    std::array<std::uint8_t, kMaxLoops> zero;
    // This pairwise search runs for every stage: carries are told apart by a fold of their
    // ranks first, and compared on the tensor's ranks only (the rest are zero).
    std::array<std::uint64_t, kMaxLoops> fold;
    for (int j = 0; j < k; ++j) {
        std::uint64_t h = 0;
        for (int r = 0; r < nRanks; ++r) h = (h ^ static_cast<std::uint64_t>(carry[j][r])) * 0x9e3779b97f4a7c15ull;
        fold[j] = h;
    }
    auto sameCarry = [&](int a, int b) {
        if (fold[a] != fold[b]) return false;
        for (int r = 0; r < nRanks; ++r)
            if (carry[a][r] != carry[b][r]) return false;
        return true;
    };
    for (int j = 0; j < k; ++j) {
        canon[j] = j;
        for (int m = 0; m < j; ++m)
            if (sameCarry(m, j)) {
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
        if (states * (states + 1) > kMaxJointStates) return StageDecline::Capacity;
        // children: row-major over (Y loops, X loops); x, y their mesh coordinates
        std::vector<Vec> offs(static_cast<std::size_t>(children));
        std::vector<std::int64_t> xs(offs.size()), ys(offs.size());
        f.forEachChild([&](std::int64_t c, const Vec& off, std::int64_t x, std::int64_t y, const auto&) {
            offs[static_cast<std::size_t>(c)] = off;
            xs[static_cast<std::size_t>(c)] = x;
            ys[static_cast<std::size_t>(c)] = y;
        });
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
            Signature sig = isig;
            for (int q = 0; q < csig.size; ++q) sig.push_back(csig.cat[q]);
            appendChild(out, sig, imult * cmult, cmult, {moved, steps, tileWords}, distinct);
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
                const Cat cat = !nest.dimImperfect(l.dim) ? Cat::Any : (idx[p - leafPos] == l.bound - 1 ? Cat::AtBoth : Cat::BelowRes);
                sig.push_back(static_cast<std::uint8_t>(cat));
            }
            out.peers.push_back({sig, imult, sent[c]});
        }
    }
    return StageDecline::None;
}

} // namespace nestor::model
