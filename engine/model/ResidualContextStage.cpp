#include "model/ResidualContextStage.h"

#include "model/ChildPartition.h"
#include "model/PerfectStage.h"
#include "model/ReuseTransform.h"
#include "model/SpatialCategory.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace nestor::model {
namespace {

using walker::Cat;

// Translations: per loop and (previous, next) tile shape, or carries and idle-block exits.
constexpr int kMaxTranslations = 4 * kMaxLoops;
// Reuse state x one bit (idle since the last busy step, or the last tile was the small one).
using ContextTransform = TransformOf<2 * (kMaxTranslations + 1)>;

enum class Predicate { None, Idle, Shape };

// One kind of instance: its spatial categories, how many instances have them, and the one
// residual-context predicate that matters to it (the temporal loops, as indices into the
// stage's temporal list, that are all at their last iteration in its steps).
struct InstanceKind {
    std::vector<Cat> cats;  // per nest position (Any where not spatial)
    std::int64_t count = 1;
    Predicate predicate = Predicate::None;
    std::vector<int> whenLast;
    bool neverBusy = false;           // idle in every step
    std::uint32_t alwaysSmall = 0;    // dimensions whose tile is the residual one in every step
    int shapeDim = -1;                // Predicate::Shape: the dimension that shrinks
    std::uint32_t mayBeResidual = ~std::uint32_t{0};  // per dimension, below the instance's own loops
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

// Translation classes of the reuse rule over a list of translation vectors.
struct TranslationTable {
    int count = 0;
    std::array<Vec, kMaxTranslations> vec;
    std::array<int, kMaxTranslations> stateOf;  // 0 = a zero move that keeps the remembered one
    std::array<bool, kMaxTranslations> zero;
    int states = 1;

    int add(const Vec& v, int nRanks, bool legacy)
    {
        const int t = count++;
        vec[t] = v;
        bool z = true;
        for (int r = 0; r < nRanks; ++r) z = z && v[r] == 0;
        zero[t] = z;
        int same = -1;
        for (int u = 0; u < t && same < 0; ++u)
            if (vec[u] == v) same = u;
        stateOf[t] = (z && !legacy) ? 0 : (same >= 0 ? stateOf[same] : states++);
        return t;
    }
};

std::int64_t boxWords(const Vec& ext, int nRanks)
{
    std::int64_t n = 1;
    for (int r = 0; r < nRanks; ++r) n *= ext[r];
    return n;
}

// Words of a tile of extents `cur` at base displacement d that a tile of extents `prev` at
// displacement 0 already held.
std::int64_t overlapWords(const Vec& prev, const Vec& cur, const Vec& d, int nRanks)
{
    std::int64_t n = 1;
    for (int r = 0; r < nRanks; ++r) n *= std::max<std::int64_t>(0, std::min(prev[r], d[r] + cur[r]) - std::max<std::int64_t>(0, d[r]));
    return n;
}

// Timeloop's translation between the two tiles: the rounded move of their centroids.
Vec centroidMove(const Vec& prev, const Vec& cur, const Vec& d, int nRanks)
{
    Vec t{};
    for (int r = 0; r < nRanks; ++r)
        t[r] = static_cast<std::int64_t>(std::llround(static_cast<double>(2 * d[r] + cur[r] - prev[r]) / 2.0));
    return t;
}

} // namespace

bool analyzeResidualContextStage(const StageSpec& spec, StageResult& out)
{
    const NestLayout& nest = *spec.nest;
    const Workload& w = *spec.workload;
    const int leafPos = nest.spatialBegin[spec.level];
    const int boundary = nest.levelBegin[spec.level + 1];
    const int nLoops = static_cast<int>(nest.loops.size());
    if (nest.imperfectDims == 0 || leafPos > 64 || boundary - leafPos > kMaxLoops) return false;
    std::uint32_t shapeDims = 0;  // dimensions whose remainders below make the children's tiles shrink
    bool childRemainders = false; // remainders on the stage's own fanout: children of several kinds
    for (int p = 0; p < nLoops; ++p) {
        const NestLoop& l = nest.loops[p];
        if (l.residual == l.bound) continue;
        if (p < leafPos && !l.spatial()) return false;  // a temporal remainder above
        if (p >= leafPos && p < boundary) childRemainders = true;
        if (p >= boundary && !spec.macStage && w.dependsOn(spec.tensor, l.dim)) shapeDims |= 1u << l.dim;
    }
    for (int p = leafPos; p < boundary; ++p)
        if ((shapeDims >> nest.loops[p].dim) & 1u) return false;  // children of different shapes
    std::int64_t children = 1;
    for (int p = leafPos; p < boundary; ++p) children *= nest.loops[p].bound;
    // Children of several kinds are summed kind by kind: only when their tiles keep one shape,
    // no links can form and no two kinds share an offset (checked below).
    if (childRemainders && (shapeDims != 0 || (spec.options->linkTransfers && spec.linkStage && children > 1))) return false;

    // Temporal loops above the children.
    std::array<int, kMaxLoops> temporal;
    std::array<int, 64> temporalIndex{};  // nest position -> index in `temporal`
    int k = 0;
    for (int p = 0; p < leafPos; ++p) {
        if (nest.loops[p].spatial()) continue;
        if (k == kMaxLoops) return false;
        temporalIndex[p] = k;
        temporal[k++] = p;
    }
    auto temporalLoopsOf = [&](int dim, int above) {
        std::vector<int> v;
        for (int p = 0; p < above; ++p)
            if (!nest.loops[p].spatial() && nest.loops[p].dim == dim) v.push_back(temporalIndex[p]);
        return v;
    };

    // Kinds of instance and their predicates: the walker's residual-context flags with the
    // temporal loops left symbolic.
    std::vector<InstanceKind> instances = enumerateKinds<InstanceKind>(nest, 0, leafPos, true);
    for (InstanceKind& ik : instances) {
        std::uint32_t mayBeResidual = ~std::uint32_t{0};  // per dimension: no spatial loop above has cleared it
        for (int q = 0; q < leafPos; ++q) {
            const NestLoop& l = nest.loops[q];
            const Cat cat = ik.cats[q];
            if (!l.spatial() || cat == Cat::Any) continue;
            const std::uint32_t bit = 1u << l.dim;
            if ((cat == Cat::Between || cat == Cat::AtBound) && (mayBeResidual & bit)) {
                if (ik.predicate != Predicate::None) return false;  // two predicates: the walker's job
                ik.predicate = Predicate::Idle;
                ik.whenLast = temporalLoopsOf(l.dim, q);
                ik.neverBusy = ik.whenLast.empty();
            }
            if (cat == Cat::Between || cat == Cat::AtBound || cat == Cat::BelowRes) mayBeResidual &= ~bit;
        }
        ik.mayBeResidual = mayBeResidual;
        for (int d = 0; d < w.numDims(); ++d) {
            if (!((shapeDims >> d) & 1u) || !((mayBeResidual >> d) & 1u)) continue;
            std::vector<int> loops = temporalLoopsOf(d, leafPos);
            if (loops.empty()) {
                ik.alwaysSmall |= 1u << d;
                continue;
            }
            if (ik.predicate != Predicate::None && !ik.neverBusy) return false;
            ik.predicate = ik.neverBusy ? ik.predicate : Predicate::Shape;
            ik.whenLast = ik.neverBusy ? ik.whenLast : loops;
            ik.shapeDim = d;
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
    // Tile extents per rank when the dimensions in `small` are in their residual context.
    auto extents = [&](std::uint32_t small) {
        Vec ext{};
        for (int r = 0; r < nRanks; ++r) {
            ext[r] = 1;
            for (const auto& term : w.tensors[spec.tensor].ranks[r])
                ext[r] += term.coef * ((spec.macStage ? 1 : nest.innerExtent(boundary, term.dim, (small >> term.dim) & 1u)) - 1);
        }
        return ext;
    };
    if (spec.options->linkTransfers && spec.linkStage && children > 1) {
        // Links need two mesh neighbours whose offsets differ by the move between two
        // consecutive busy steps (as in the perfect closed form): decline when that can happen.
        auto isMove = [&](const Vec& d) {
            bool zero = true;
            for (int r = 0; r < nRanks; ++r) zero = zero && d[r] == 0;
            if (zero) return spec.macStage && k > 0;
            for (int j = 0; j < k; ++j) {
                if (carry[j] == d) return true;
                for (int i = 0; i < k; ++i) {  // an idle block's exit: a carry plus one step
                    Vec e = carry[j];
                    for (int r = 0; r < nRanks; ++r) e[r] += steps[temporal[i]][r];
                    if (e == d) return true;
                }
            }
            return false;
        };
        if (anyNeighbourDifference(spec, leafPos, boundary, nRanks, isMove)) return false;
    }
    std::int64_t allSteps = 1;
    for (int j = 0; j < k; ++j) allSteps *= nest.loops[temporal[j]].bound;
    const std::int64_t groups = distinctOffsets(spec, leafPos, boundary, nRanks);
    const bool legacy = spec.options->legacyZeroTranslationRule;

    // Composes the sweeps of the temporal loops, innermost first, for a predicate over the loops
    // S; carryInto(j, special) is the transform of a carry of loop j into a step that is (or
    // is not) in the predicate's steps. Returns the transform of the whole nest.
    auto composeNest = [&](const std::vector<int>& S, auto&& carryInto, int n) {
        std::array<bool, kMaxLoops> inS{};
        for (int j : S) inS[j] = true;
        // sweep[c]: the sub-nest from loop j inward, c = "every loop of S above j is at its last
        // iteration" (vacuously true above S).
        std::array<ContextTransform, 2> sweep{ContextTransform::identity(n), ContextTransform::identity(n)};
        bool sBelow = false;
        for (int j = k - 1; j >= 0; --j) {
            const std::int64_t trips = nest.loops[temporal[j]].bound;
            std::array<ContextTransform, 2> next;
            for (int c = 0; c < 2; ++c) {
                const bool specialLast = !S.empty() && c == 1 && !sBelow;  // the next step is in the predicate
                if (!inS[j]) {
                    next[c] = sweep[c].then(carryInto(j, specialLast).then(sweep[c]).power(trips - 1));
                } else {
                    const ContextTransform g = carryInto(j, false).then(sweep[0]);
                    next[c] = sweep[0].then(g.power(trips - 2)).then(carryInto(j, specialLast).then(sweep[c]));
                }
            }
            sweep = next;
            sBelow = sBelow || inS[j];
        }
        return sweep[1];
    };

    struct Figures {
        std::int64_t moved = 0, active = 0, maxTile = 0;
    };
    auto figuresOf = [&](const InstanceKind& ik) {
        Figures f;
        const std::vector<int>& S = ik.whenLast;
        std::int64_t predicateSteps = 0;  // steps in which every loop of S is at its last iteration
        if (ik.predicate != Predicate::None) {
            predicateSteps = 1;
            for (int j = 0; j < k; ++j)
                if (std::find(S.begin(), S.end(), j) == S.end()) predicateSteps *= nest.loops[temporal[j]].bound;
        }
        f.active = ik.predicate == Predicate::Idle ? allSteps - predicateSteps : allSteps;
        const Vec full = extents(ik.alwaysSmall);
        const Vec small = ik.predicate == Predicate::Shape ? extents(ik.alwaysSmall | (1u << ik.shapeDim)) : full;
        const std::int64_t fullWords = boxWords(full, nRanks), smallWords = boxWords(small, nRanks);
        f.maxTile = std::max(fullWords, ik.predicate == Predicate::Shape ? smallWords : 0);
        if (spec.macStage) {
            f.moved = f.active;  // every busy step reads its operand
            return f;
        }
        TranslationTable tt;
        const int innermost = S.empty() ? -1 : *std::max_element(S.begin(), S.end());
        // Idle: carries, then the exits of an idle block (carry + one step of S's innermost loop).
        // Shape: per loop, the move between each pair of shapes.
        std::array<std::array<std::array<int, 2>, 2>, kMaxLoops> moveOf{};
        std::array<std::array<std::array<std::int64_t, 2>, 2>, kMaxLoops> diffWords{};
        for (int j = 0; j < k; ++j)
            for (int b = 0; b < 2; ++b)
                for (int c = 0; c < 2; ++c) {
                    const bool shape = ik.predicate == Predicate::Shape;
                    if (!shape && (c == 1 || (b == 1 && j >= innermost))) continue;
                    const Vec& prevExt = shape && b ? small : full;
                    const Vec& curExt = shape && c ? small : full;
                    Vec d = carry[j];
                    if (!shape && b == 1)
                        for (int r = 0; r < nRanks; ++r) d[r] += steps[temporal[innermost]][r];
                    moveOf[j][b][c] = tt.add(centroidMove(prevExt, curExt, d, nRanks), nRanks, legacy);
                    diffWords[j][b][c] = boxWords(curExt, nRanks) - overlapWords(prevExt, curExt, d, nRanks);
                }
        const int n = 2 * tt.states;  // reuse state s and the bit b -> 2s + b
        auto carryInto = [&](int j, bool special) {
            ContextTransform t;
            t.n = n;
            for (int s = 0; s < tt.states; ++s)
                for (int b = 0; b < 2; ++b) {
                    const int from = 2 * s + b;
                    if (ik.predicate == Predicate::Idle && special) {  // into an idle step: nothing moves
                        t.next[from] = static_cast<std::uint16_t>(2 * s + 1);
                        t.cost[from] = 0;
                        continue;
                    }
                    const int c = ik.predicate == Predicate::Shape && special ? 1 : 0;
                    if (ik.predicate != Predicate::Shape && b == 1 && j >= innermost) {
                        t.next[from] = static_cast<std::uint16_t>(2 * s);  // unreachable: idle blocks end above
                        t.cost[from] = 0;
                        continue;
                    }
                    const int m = moveOf[j][b][c];
                    const std::int64_t whole = c ? smallWords : fullWords;
                    int to;
                    std::int64_t words;
                    if (tt.zero[m] && !legacy) to = s, words = diffWords[j][b][c];
                    else if (s == 0 || s == tt.stateOf[m]) to = tt.stateOf[m], words = diffWords[j][b][c];
                    else to = 0, words = whole;
                    t.next[from] = static_cast<std::uint16_t>(2 * to + c);
                    t.cost[from] = words;
                }
            return t;
        };
        // The first step is busy and full-sized: every loop of S is at index 0 then.
        f.moved = fullWords + composeNest(ik.predicate == Predicate::None ? std::vector<int>{} : S, carryInto, n).cost[0];
        return f;
    };

    if (childRemainders) {
        // Per child: its offset and kind. Kinds must not share offsets: then no delta of one kind
        // can equal one of another, and the parent's accesses are sums over kinds.
        const int nChildLoops = boundary - leafPos;
        std::vector<std::pair<Vec, int>> placed;
        std::array<std::int64_t, kMaxLoops> idx{};
        std::vector<Cat> cats(static_cast<std::size_t>(nChildLoops));
        for (std::int64_t c = 0; c < children; ++c) {
            Vec off{};
            for (int i = 0; i < nChildLoops; ++i) {
                const NestLoop& l = nest.loops[leafPos + i];
                for (int r = 0; r < nRanks; ++r) off[r] += idx[i] * steps[leafPos + i][r];
                cats[i] = nest.dimImperfect(l.dim) ? walker::categorize(idx[i], l.bound, l.residual) : Cat::Any;
            }
            int kind = 0;
            while (childKinds[kind].cats != cats) ++kind;
            placed.push_back({off, kind});
            for (int i = nChildLoops; i-- > 0;) {
                if (++idx[i] < nest.loops[leafPos + i].bound) break;
                idx[i] = 0;
            }
        }
        std::sort(placed.begin(), placed.end());
        placed.erase(std::unique(placed.begin(), placed.end()), placed.end());
        std::vector<std::int64_t> groups(childKinds.size(), 0);  // distinct offsets per kind
        for (std::size_t i = 0; i < placed.size(); ++i) {
            if (i > 0 && placed[i].first == placed[i - 1].first) return false;  // two kinds share an offset
            ++groups[static_cast<std::size_t>(placed[i].second)];
        }
        // Each (instance kind, child kind) pair with its one predicate.
        std::vector<std::vector<InstanceKind>> pairs(instances.size());
        for (std::size_t i = 0; i < instances.size(); ++i)
            for (const ChildKind& ck : childKinds) {
                InstanceKind kk = instances[i];
                std::uint32_t mayBeResidual = kk.mayBeResidual;
                for (int q = 0; q < nChildLoops; ++q) {
                    const NestLoop& l = nest.loops[leafPos + q];
                    const Cat cat = ck.cats[static_cast<std::size_t>(q)];
                    const std::uint32_t bit = 1u << l.dim;
                    if ((cat == Cat::Between || cat == Cat::AtBound) && (mayBeResidual & bit) && !kk.neverBusy) {
                        if (kk.predicate != Predicate::None) return false;
                        kk.predicate = Predicate::Idle;
                        kk.whenLast = temporalLoopsOf(l.dim, leafPos);
                        kk.neverBusy = kk.whenLast.empty();
                    }
                    if (cat == Cat::Between || cat == Cat::AtBound || cat == Cat::BelowRes) mayBeResidual &= ~bit;
                }
                pairs[i].push_back(std::move(kk));
            }
        clearStageResult(out);
        for (std::size_t i = 0; i < instances.size(); ++i) {
            Signature isig;
            for (int p = 0; p < leafPos; ++p)
                if (nest.loops[p].spatial()) isig.push_back(static_cast<std::uint8_t>(instances[i].cats[p]));
            std::int64_t accesses = 0, weighted = 0, macs = 0;
            bool used = false;
            for (std::size_t c = 0; c < childKinds.size(); ++c) {
                const InstanceKind& kk = pairs[i][c];
                if (kk.neverBusy) continue;
                used = true;
                const Figures f = figuresOf(kk);
                accesses += groups[c] * f.moved;
                weighted += childKinds[c].count * f.moved;
                macs += childKinds[c].count * f.active;
                StageChildResult cr;
                cr.signature = isig;
                for (Cat cat : childKinds[c].cats) cr.signature.push_back(static_cast<std::uint8_t>(cat));
                cr.count = instances[i].count * childKinds[c].count;
                cr.perParent = childKinds[c].count;
                cr.received = f.moved;
                cr.activeSteps = f.active;
                cr.maxTile = f.maxTile;
                cr.everActive = true;
                if (spec.needDistinct) {
                    const ChildPlace place{leafPos, boundary, spec.macStage, &instances[i].cats, &childKinds[c].cats};
                    cr.distinctWords = childDistinctWords(w, nest, spec.tensor, place);
                }
                out.children.push_back(cr);
            }
            if (!used) continue;
            out.instances.push_back({isig, instances[i].count, accesses, weighted});
            out.parentAccesses += instances[i].count * accesses;
            out.weighted += instances[i].count * weighted;
            if (spec.macStage) out.macs += instances[i].count * macs;
        }
        return true;
    }

    clearStageResult(out);
    for (const InstanceKind& ik : instances) {
        if (ik.neverBusy) continue;
        const Figures f = figuresOf(ik);
        Signature isig;
        for (int p = 0; p < leafPos; ++p)
            if (nest.loops[p].spatial()) isig.push_back(static_cast<std::uint8_t>(ik.cats[p]));
        const std::int64_t accesses = groups * f.moved, weighted = children * f.moved;
        out.instances.push_back({isig, ik.count, accesses, weighted});
        out.parentAccesses += ik.count * accesses;
        out.weighted += ik.count * weighted;
        if (spec.macStage) out.macs += ik.count * children * f.active;
        for (const ChildKind& ck : childKinds) {
            StageChildResult c;
            c.signature = isig;
            for (Cat cat : ck.cats) c.signature.push_back(static_cast<std::uint8_t>(cat));
            c.count = ik.count * ck.count;
            c.perParent = ck.count;
            c.received = f.moved;
            c.activeSteps = f.active;
            c.maxTile = f.maxTile;
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
