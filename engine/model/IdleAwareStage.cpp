#include "model/IdleAwareStage.h"

#include "model/ChildPartition.h"
#include "model/PerfectStage.h"
#include "model/ReuseTransform.h"
#include "model/SpatialCategory.h"

#include <algorithm>
#include <cstdlib>

namespace nestor::model {
namespace {

using walker::Cat;

// Reuse states x "idle since the last active step".
constexpr int kMaxTranslations = 2 * kMaxLoops;  // carries and idle-exit translations
using IdleTransform = TransformOf<2 * (kMaxTranslations + 1)>;

// One kind of instance: its spatial categories, how many instances have them, and the temporal
// loops (indices into the temporal list) that must all be at their last iteration for it to
// be idle. `never`: idle throughout (the predicate has no temporal loop).
struct InstanceKind {
    std::vector<Cat> cats;  // per nest position (Any where not spatial)
    std::int64_t count = 1;
    std::vector<int> idleWhenLast;
    bool hasPredicate = false;
    bool never = false;
};

struct ChildKind {
    std::vector<Cat> cats;  // per child spatial loop
    std::int64_t count = 1;
};

// Every combination of categories over the spatial loops in [from, to), as the walker forms them.
template <class Kind>
std::vector<Kind> enumerateKinds(const NestLayout& nest, int from, int to, bool perPosition)
{
    std::vector<Kind> kinds(1);
    if (perPosition) kinds[0].cats.assign(nest.loops.size(), Cat::Any);
    for (int p = from; p < to; ++p) {
        const NestLoop& l = nest.loops[p];
        if (!l.spatial()) continue;
        std::vector<Kind> next;
        for (const Kind& k : kinds)
            for (const auto& [cat, n] : walker::categoriesOf(l, nest.dimImperfect(l.dim))) {
                Kind x = k;
                if (perPosition) x.cats[p] = cat;
                else x.cats.push_back(cat);
                x.count *= n;
                next.push_back(std::move(x));
            }
        kinds.swap(next);
    }
    return kinds;
}

} // namespace

bool analyzeIdleAwareStage(const StageSpec& spec, StageResult& out)
{
    const NestLayout& nest = *spec.nest;
    const Workload& w = *spec.workload;
    const int leafPos = nest.spatialBegin[spec.level];
    const int boundary = nest.levelBegin[spec.level + 1];
    const int nLoops = static_cast<int>(nest.loops.size());
    if (nest.imperfectDims == 0) return false;
    for (int p = 0; p < nLoops; ++p) {
        const NestLoop& l = nest.loops[p];
        if (l.residual == l.bound) continue;
        if (p < leafPos && !l.spatial()) return false;  // a temporal remainder above
        if (p >= leafPos && p < boundary) return false; // children of different behaviour
        if (p >= boundary && w.dependsOn(spec.tensor, l.dim)) return false;  // tiles change shape
    }
    if (boundary - leafPos > kMaxLoops) return false;
    std::int64_t children = 1;
    for (int p = leafPos; p < boundary; ++p) children *= nest.loops[p].bound;
    if (spec.options->linkTransfers && spec.linkStage && children > 1) return false;

    // Temporal loops above the children, their carries and trip counts.
    std::array<int, kMaxLoops> temporal;
    int k = 0;
    for (int p = 0; p < leafPos; ++p) {
        if (nest.loops[p].spatial()) continue;
        if (k == kMaxLoops) return false;
        temporal[k++] = p;
    }
    std::array<int, 64> temporalIndex;  // nest position -> index in `temporal`
    for (int j = 0; j < k; ++j)
        if (temporal[j] < 64) temporalIndex[temporal[j]] = j;
    if (leafPos > 64) return false;

    // Kinds of instance and their idle predicates (the walker's residual-context flags, with
    // the temporal loops left symbolic).
    std::vector<InstanceKind> instances = enumerateKinds<InstanceKind>(nest, 0, leafPos, true);
    for (InstanceKind& ik : instances) {
        std::uint32_t mayBeResidual = ~std::uint32_t{0};  // per dimension: no spatial loop above has cleared it
        for (int q = 0; q < leafPos; ++q) {
            const NestLoop& l = nest.loops[q];
            const Cat cat = ik.cats[q];
            if (!l.spatial() || cat == Cat::Any) continue;
            const std::uint32_t bit = 1u << l.dim;
            if (cat == Cat::Between || cat == Cat::AtBound) {
                if (mayBeResidual & bit) {
                    if (ik.hasPredicate) return false;  // two predicates: the walker handles it
                    ik.hasPredicate = true;
                    for (int p = 0; p < q; ++p)
                        if (!nest.loops[p].spatial() && nest.loops[p].dim == l.dim) ik.idleWhenLast.push_back(temporalIndex[p]);
                    ik.never = ik.idleWhenLast.empty();
                }
                mayBeResidual &= ~bit;
            } else if (cat == Cat::BelowRes) {
                mayBeResidual &= ~bit;
            }
        }
    }
    const std::vector<ChildKind> childKinds = enumerateKinds<ChildKind>(nest, leafPos, boundary, false);

    const int nRanks = static_cast<int>(w.tensors[spec.tensor].ranks.size());
    const auto& steps = *spec.stepVectors;
    std::array<Vec, kMaxLoops> carry;
    {
        Vec innerSpan{};
        for (int j = k - 1; j >= 0; --j) {
            const Vec& v = steps[temporal[j]];
            carry[j] = Vec{};
            for (int r = 0; r < nRanks; ++r) carry[j][r] = v[r] - innerSpan[r];
            for (int r = 0; r < nRanks; ++r) innerSpan[r] += (nest.loops[temporal[j]].bound - 1) * v[r];
        }
    }
    Vec ext{};
    std::int64_t tileWords = 1;
    const auto& ranks = w.tensors[spec.tensor].ranks;
    for (int r = 0; r < nRanks; ++r) {
        ext[r] = 1;
        for (const auto& term : ranks[r])
            ext[r] += term.coef * ((spec.macStage ? 1 : nest.innerExtent(boundary, term.dim, false)) - 1);
        tileWords *= ext[r];
    }
    std::int64_t allSteps = 1;
    for (int j = 0; j < k; ++j) allSteps *= nest.loops[temporal[j]].bound;
    const std::int64_t groups = distinctOffsets(spec, leafPos, boundary, nRanks);
    const bool legacy = spec.options->legacyZeroTranslationRule;

    // Words delivered to one child, and its busy steps, for an instance idle exactly when the
    // temporal loops `S` are all at their last iteration (never, when S is empty).
    auto sweepFor = [&](const std::vector<int>& S, std::int64_t& moved, std::int64_t& active) {
        std::array<bool, kMaxLoops> inS{};
        int innermost = -1;
        std::int64_t idleSteps = 1;
        for (int j : S) {
            inS[j] = true;
            innermost = std::max(innermost, j);
        }
        for (int j = 0; j < k; ++j)
            if (!inS[j]) idleSteps *= nest.loops[temporal[j]].bound;
        active = S.empty() ? allSteps : allSteps - idleSteps;
        if (spec.macStage) {
            moved = active;  // every busy step reads its operand
            return;
        }
        // Translations: the carry of each loop, then (ending an idle block) carry + one step of
        // the predicate's innermost loop, for the loops above it.
        std::array<Vec, kMaxTranslations> tr;
        int nt = 0;
        for (int j = 0; j < k; ++j) tr[nt++] = carry[j];
        for (int j = 0; j < innermost; ++j) {
            tr[nt] = carry[j];
            for (int r = 0; r < nRanks; ++r) tr[nt][r] += steps[temporal[innermost]][r];
            ++nt;
        }
        std::array<int, kMaxTranslations> stateOf;
        std::array<std::int64_t, kMaxTranslations> partial;
        std::array<bool, kMaxTranslations> zero;
        int states = 1;
        for (int t = 0; t < nt; ++t) {
            std::int64_t overlap = 1;
            bool z = true;
            for (int r = 0; r < nRanks; ++r) {
                overlap *= std::max<std::int64_t>(0, ext[r] - std::llabs(tr[t][r]));
                z = z && tr[t][r] == 0;
            }
            zero[t] = z;
            partial[t] = tileWords - overlap;
            int same = -1;
            for (int u = 0; u < t && same < 0; ++u)
                if (tr[u] == tr[t]) same = u;
            stateOf[t] = (z && !legacy) ? 0 : (same >= 0 ? stateOf[same] : states++);
        }
        struct Move {
            int next;
            std::int64_t words;
        };
        auto reuse = [&](int s, int t) -> Move {
            if (zero[t] && !legacy) return {s, 0};
            if (s == 0 || s == stateOf[t]) return {stateOf[t], partial[t]};
            return {0, tileWords};
        };
        const int n = 2 * states;  // state s, idle bit b -> 2s + b
        // A carry of loop j into a step that is busy (or, destIdle, one that is idle).
        auto carryInto = [&](int j, bool destIdle) {
            IdleTransform t;
            t.n = n;
            for (int s = 0; s < states; ++s)
                for (int b = 0; b < 2; ++b) {
                    const int from = 2 * s + b;
                    if (destIdle) {
                        t.next[from] = static_cast<std::uint16_t>(2 * s + 1);
                        t.cost[from] = 0;
                        continue;
                    }
                    if (b == 1 && j >= innermost) {  // unreachable: an idle block ends above it
                        t.next[from] = static_cast<std::uint16_t>(2 * s);
                        t.cost[from] = 0;
                        continue;
                    }
                    const Move mv = reuse(s, b == 0 ? j : k + j);
                    t.next[from] = static_cast<std::uint16_t>(2 * mv.next);
                    t.cost[from] = mv.words;
                }
            return t;
        };
        // sweep[c]: the sub-nest from loop j inward, where c = "every loop of S above j is at
        // its last iteration" (vacuously true above S).
        std::array<IdleTransform, 2> sweep{IdleTransform::identity(n), IdleTransform::identity(n)};
        bool sBelow = false;
        for (int j = k - 1; j >= 0; --j) {
            const std::int64_t trips = nest.loops[temporal[j]].bound;
            std::array<IdleTransform, 2> next;
            for (int c = 0; c < 2; ++c) {
                const bool destIdleLast = !S.empty() && c == 1 && !sBelow;
                if (!inS[j]) {
                    const IdleTransform g = carryInto(j, destIdleLast).then(sweep[c]);
                    next[c] = sweep[c].then(g.power(trips - 1));
                } else {
                    const IdleTransform g = carryInto(j, false).then(sweep[0]);
                    const IdleTransform last = carryInto(j, destIdleLast).then(sweep[c]);
                    next[c] = sweep[0].then(g.power(trips - 2)).then(last);
                }
            }
            sweep = next;
            sBelow = sBelow || inS[j];
        }
        moved = tileWords + sweep[1].cost[0];  // the first step is busy (every loop of S at 0)
    };

    clearStageResult(out);
    for (const InstanceKind& ik : instances) {
        if (ik.never) continue;
        std::int64_t moved = 0, active = 0;
        sweepFor(ik.idleWhenLast, moved, active);
        Signature isig;
        for (int p = 0; p < leafPos; ++p)
            if (nest.loops[p].spatial()) isig.push_back(static_cast<std::uint8_t>(ik.cats[p]));
        const std::int64_t accesses = groups * moved, weighted = children * moved;
        out.instances.push_back({isig, ik.count, accesses, weighted});
        out.parentAccesses += ik.count * accesses;
        out.weighted += ik.count * weighted;
        if (spec.macStage) out.macs += ik.count * children * active;
        for (const ChildKind& ck : childKinds) {
            StageChildResult c;
            c.signature = isig;
            for (Cat cat : ck.cats) c.signature.push_back(static_cast<std::uint8_t>(cat));
            c.count = ik.count * ck.count;
            c.perParent = ck.count;
            c.received = moved;
            c.activeSteps = active;
            c.maxTile = tileWords;
            c.everActive = true;
            if (spec.needDistinct) {
                const ChildPlace place{leafPos, boundary, spec.macStage, &ik.cats, &ck.cats};
                c.distinctWords = childDistinctWords(w, nest, spec.tensor, place);
            }
            out.children.push_back(c);
        }
    }
    return true;
}

} // namespace nestor::model
