#include "model/ResidualContextStage.h"

#include "model/ChildPartition.h"
#include "model/PerfectStage.h"
#include "model/ReuseTransform.h"
#include "model/SpatialCategory.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace nestor::model {
namespace {

using walker::Cat;

// Idle predicates one kind of instance may have (their union is its idle steps).
constexpr int kMaxIdleSets = 3;
// Translations: per loop and (previous, next) tile shape, or per loop and set of idle
// predicates in force before it (a carry plus the skipped steps). Sized for two predicates
// (larger transforms slow every stage down); three decline when they need more.
constexpr int kMaxTranslations = 4 * kMaxLoops;
// Reuse state x one bit (the last tile was the small one).
using ContextTransform = TransformOf<2 * (kMaxTranslations + 1)>;
// Contexts: per predicate, whether every loop of its set above the current one is at its last iteration.
constexpr int kMaxContexts = 1 << kMaxIdleSets;

// One kind of instance: its spatial categories, how many instances have them, and the
// residual-context predicates that matter to it, each a set of temporal loops (indices into the
// stage's temporal list) that are all at their last iteration in its steps.
struct InstanceKind {
    std::vector<Cat> cats;  // per nest position (Any where not spatial)
    std::int64_t count = 1;
    // The predicates, each the steps where every loop of its set is at its last iteration: the
    // kind is idle in any of them, or (shapeDim >= 0, then a single predicate) the tile of
    // shapeDim is the residual one in it. The sets belong to different dimensions: disjoint.
    std::vector<std::vector<int>> whenLast;
    int shapeDim = -1;
    bool neverBusy = false;           // idle in every step
    std::uint32_t alwaysSmall = 0;    // dimensions whose tile is the residual one in every step
    std::uint32_t mayBeResidual = ~std::uint32_t{0};  // per dimension, below the instance's own loops

    void addIdle(std::vector<int> loops)
    {
        neverBusy = neverBusy || loops.empty();
        whenLast.push_back(std::move(loops));
    }
    bool tooManyPredicates() const { return !neverBusy && static_cast<int>(whenLast.size()) > kMaxIdleSets; }
};

// Where the predicates' loop sets sit among the temporal loops.
struct LoopSets {
    int count = 0;
    std::array<int, kMaxLoops> setOf;              // per loop: its set, or -1
    std::array<std::uint32_t, kMaxLoops> inside{};  // per loop: the sets with a loop inside it
    std::array<int, kMaxIdleSets> innermost{};      // per set: its innermost loop

    explicit LoopSets(const std::vector<std::vector<int>>& sets) : count(static_cast<int>(sets.size()))
    {
        setOf.fill(-1);
        for (int i = 0; i < count; ++i) {
            innermost[i] = *std::max_element(sets[i].begin(), sets[i].end());
            for (int j : sets[i]) setOf[j] = i;
            for (int j = 0; j < innermost[i]; ++j) inside[j] |= 1u << i;
        }
    }
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
                ik.addIdle(temporalLoopsOf(l.dim, q));
                if (ik.tooManyPredicates()) return false;  // the walker's job
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
            if (ik.neverBusy) continue;
            if (!ik.whenLast.empty()) return false;  // two predicates: the walker's job
            ik.shapeDim = d;
            ik.whenLast.push_back(std::move(loops));
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
        // (an idle block of several predicates ends with a carry plus several steps: not checked)
        for (const InstanceKind& ik : instances)
            if (!ik.neverBusy && ik.whenLast.size() > 1) return false;
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

    // Composes the sweeps of the temporal loops, innermost first, under predicates over the
    // disjoint loop sets `sets`. A context has one bit per set: every loop of the set above the
    // current one is at its last iteration (vacuously true above the outermost loop). A
    // predicate holds in a step when its bit is set and no loop of its set lies further in (they
    // all sit at index 0 in the first step of a sweep, at their last index in its last step).
    // carryInto(j, before, after) is the transform of a carry of loop j from an iteration in
    // context `before` into one in context `after`. Returns the transform of the whole nest.
    auto composeNest = [&](const LoopSets& sets, auto&& carryInto, int n) {
        const int contexts = 1 << sets.count;
        const auto& setOf = sets.setOf;
        std::array<ContextTransform, kMaxContexts> sweep, next;  // per context: the sub-nest from loop j inward
        for (int c = 0; c < contexts; ++c) sweep[c] = ContextTransform::identity(n);
        for (int j = k - 1; j >= 0; --j) {
            const std::int64_t trips = nest.loops[temporal[j]].bound;
            for (int c = 0; c < contexts; ++c) {
                if (setOf[j] < 0) {
                    next[c] = sweep[c].then(carryInto(j, c, c).then(sweep[c]).power(trips - 1));
                } else {  // the predicate's bit holds in the last iteration of loop j only
                    const int c0 = c & ~(1 << setOf[j]);
                    const ContextTransform g = carryInto(j, c0, c0).then(sweep[c0]);
                    next[c] = sweep[c0].then(g.power(trips - 2)).then(carryInto(j, c0, c).then(sweep[c]));
                }
            }
            std::swap(sweep, next);
        }
        return sweep[contexts - 1];
    };
    // The reuse rule on a move of translation class m delivering `words` (whole: the full tile).
    auto reuseStep = [&](const TranslationTable& tt, int s, int m, std::int64_t words, std::int64_t whole) {
        if (tt.zero[m] && !legacy) return std::pair<int, std::int64_t>{s, words};
        if (s == 0 || s == tt.stateOf[m]) return std::pair<int, std::int64_t>{tt.stateOf[m], words};
        return std::pair<int, std::int64_t>{0, whole};
    };

    struct Figures {
        std::int64_t moved = 0, active = 0, maxTile = 0;
    };
    // Idle predicates (or none): a kind's busy steps all hold full tiles. Moving into a busy step
    // after idle ones starts from the last busy step, where the innermost loop of each predicate
    // in force was one short of its last index and every other loop inside at its last.
    auto idleFigures = [&](const InstanceKind& ik) -> std::optional<Figures> {
        Figures f;
        const LoopSets sets(ik.whenLast);
        const int nSets = sets.count;
        // Busy steps by inclusion-exclusion over the predicates (their loop sets are disjoint).
        for (int T = 0; T < (1 << nSets); ++T) {
            std::int64_t stepsInAll = 1;
            for (int j = 0; j < k; ++j)
                if (sets.setOf[j] < 0 || !((T >> sets.setOf[j]) & 1)) stepsInAll *= nest.loops[temporal[j]].bound;
            f.active += (std::popcount(static_cast<unsigned>(T)) % 2 ? -1 : 1) * stepsInAll;
        }
        const Vec full = extents(ik.alwaysSmall);
        const std::int64_t fullWords = boxWords(full, nRanks);
        f.maxTile = fullWords;
        if (spec.macStage) {
            f.moved = f.active;  // every busy step reads its operand
            return f;
        }
        const auto& inner = sets.inside;
        TranslationTable tt;
        std::array<std::array<int, kMaxContexts>, kMaxLoops> moveOf{};
        std::array<std::array<std::int64_t, kMaxContexts>, kMaxLoops> diffWords{};
        for (int j = 0; j < k; ++j)
            for (std::uint32_t before = 0; before < (1u << nSets); ++before) {
                if ((before & ~inner[j]) != 0) continue;  // then the next step is idle as well
                if (tt.count == kMaxTranslations) return std::nullopt;
                Vec d = carry[j];
                for (int i = 0; i < nSets; ++i)
                    if ((before >> i) & 1u)
                        for (int r = 0; r < nRanks; ++r) d[r] += steps[temporal[sets.innermost[i]]][r];
                moveOf[j][before] = tt.add(d, nRanks, legacy);
                diffWords[j][before] = fullWords - overlapWords(full, full, d, nRanks);
            }
        const int n = tt.states;
        auto carryInto = [&](int j, int before, int after) {
            ContextTransform t = ContextTransform::identity(n);  // into an idle step: nothing moves
            if ((static_cast<std::uint32_t>(after) & ~inner[j]) != 0) return t;
            const int m = moveOf[j][before];
            for (int s = 0; s < n; ++s) {
                const auto [to, words] = reuseStep(tt, s, m, diffWords[j][before], fullWords);
                t.next[s] = static_cast<std::uint16_t>(to);
                t.cost[s] = words;
            }
            return t;
        };
        // The first step is busy: every loop of every set is at index 0 then.
        f.moved = fullWords + composeNest(sets, carryInto, n).cost[0];
        return f;
    };
    // A shape predicate: the reuse state gains one bit, "the last tile was the small one".
    auto shapeFigures = [&](const InstanceKind& ik) {
        Figures f;
        f.active = allSteps;
        const Vec full = extents(ik.alwaysSmall);
        const Vec small = extents(ik.alwaysSmall | (1u << ik.shapeDim));
        const std::int64_t fullWords = boxWords(full, nRanks), smallWords = boxWords(small, nRanks);
        f.maxTile = std::max(fullWords, smallWords);
        if (spec.macStage) {
            f.moved = f.active;
            return f;
        }
        const LoopSets sets(ik.whenLast);
        const auto& inner = sets.inside;
        TranslationTable tt;
        std::array<std::array<std::array<int, 2>, 2>, kMaxLoops> moveOf{};  // [loop][previous small][next small]
        std::array<std::array<std::array<std::int64_t, 2>, 2>, kMaxLoops> diffWords{};
        for (int j = 0; j < k; ++j)
            for (int b = 0; b < 2; ++b)
                for (int c = 0; c < 2; ++c) {
                    const Vec& prevExt = b ? small : full;
                    const Vec& curExt = c ? small : full;
                    moveOf[j][b][c] = tt.add(centroidMove(prevExt, curExt, carry[j], nRanks), nRanks, legacy);
                    diffWords[j][b][c] = boxWords(curExt, nRanks) - overlapWords(prevExt, curExt, carry[j], nRanks);
                }
        const int n = 2 * tt.states;  // reuse state s and the bit b -> 2s + b
        auto carryInto = [&](int j, int, int after) {
            const int c = (static_cast<std::uint32_t>(after) & ~inner[j]) != 0 ? 1 : 0;  // into a small tile
            ContextTransform t;
            t.n = n;
            for (int s = 0; s < tt.states; ++s)
                for (int b = 0; b < 2; ++b) {
                    const int m = moveOf[j][b][c];
                    const auto [to, words] = reuseStep(tt, s, m, diffWords[j][b][c], c ? smallWords : fullWords);
                    t.next[2 * s + b] = static_cast<std::uint16_t>(2 * to + c);
                    t.cost[2 * s + b] = words;
                }
            return t;
        };
        // The first step is full-sized: every loop of the set is at index 0 then.
        f.moved = fullWords + composeNest(sets, carryInto, n).cost[0];
        return f;
    };
    auto figuresOf = [&](const InstanceKind& ik) -> std::optional<Figures> {
        return ik.shapeDim >= 0 ? shapeFigures(ik) : idleFigures(ik);
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
        // Each (instance kind, child kind) pair with its predicates.
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
                        kk.addIdle(temporalLoopsOf(l.dim, leafPos));
                        if (kk.tooManyPredicates()) return false;
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
                const std::optional<Figures> figures = figuresOf(kk);
                if (!figures) {
                    clearStageResult(out);
                    return false;
                }
                const Figures& f = *figures;
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
        const std::optional<Figures> figures = figuresOf(ik);
        if (!figures) {
            clearStageResult(out);
            return false;
        }
        const Figures& f = *figures;
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
