#include "model/ResidualContextStage.h"

#include "model/ChildPartition.h"
#include "model/MeshLinks.h"
#include "model/ChildPlacement.h"
#include "model/KindEnumeration.h"
#include "model/ReachableSweep.h"
#include "model/ReuseGeometry.h"
#include "model/ReuseTransform.h"
#include "model/SpatialCategory.h"
#include "model/ZeroedTable.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace nestor::model {
namespace {

using walker::Cat;

// Predicates one kind of instance may have: idle ones (their union is its idle steps) and
// shape ones, three in all.
constexpr int kMaxIdleSets = 3;
// Distinct translations: per loop, set of idle predicates in force before it (a carry plus the
// skipped steps) and (previous, next) tile shape; kinds needing more decline.
constexpr int kMaxTranslations = 4 * kMaxLoops;
// Reuse state x the shape of the last busy tile (which shape predicates held): sized for two
// shape predicates with every translation, or three with fewer translations. (Only the states a
// stage reaches are followed: the capacity costs memory, not time.)
constexpr int kMaxContextStates = 4 * (kMaxTranslations + 1);
static_assert(kMaxContextStates <= ReachableStates::kMaxStates);
// Contexts: per predicate, whether every loop of its set above the current one is at its last iteration.
constexpr int kMaxContexts = 1 << kMaxIdleSets;
// Kinds of child with different predicates at one offset (their joint reuse states must fit
// kMaxContextStates as well).
constexpr int kMaxSharingKinds = 4;

// The residual-context predicates that matter to one kind of instance (and child), each a set
// of temporal loops (a mask of indices into the stage's temporal list) that are all at their
// last iteration in its steps: the kind is idle in any of the idle sets, and the tile of
// shapeDims[i] is the residual one in shapeSets[i]. The sets belong to different dimensions:
// disjoint. Fixed-size: kinds are formed and copied for every stage analysed.
struct Predicates {
    std::array<std::uint32_t, kMaxIdleSets> whenLast{};
    std::array<std::uint32_t, kMaxIdleSets> shapeSets{};
    std::array<int, kMaxIdleSets> shapeDims{};
    int nIdle = 0, nShape = 0;
    bool neverBusy = false;           // idle in every step
    std::uint32_t alwaysSmall = 0;    // dimensions whose tile is the residual one in every step
    std::uint32_t mayBeResidual = ~std::uint32_t{0};  // per dimension, below the instance's own loops

    // False when the kind would need more predicates than the form handles.
    bool addIdle(std::uint32_t loops)
    {
        neverBusy = neverBusy || loops == 0;
        if (neverBusy) return true;  // (its figures are never asked for)
        if (predicates() == kMaxIdleSets) return false;
        whenLast[static_cast<std::size_t>(nIdle++)] = loops;
        return true;
    }
    bool addShape(int dim, std::uint32_t loops)
    {
        if (predicates() == kMaxIdleSets) return false;
        shapeDims[static_cast<std::size_t>(nShape)] = dim;
        shapeSets[static_cast<std::size_t>(nShape++)] = loops;
        return true;
    }
    int predicates() const { return nIdle + nShape; }
};

// One kind of instance: its spatial categories, how many instances have them, its predicates.
struct InstanceKind {
    std::vector<Cat> cats;  // per nest position (Any where not spatial)
    std::int64_t count = 1;
    Predicates pred;
};

// Where the predicates' loop sets sit among the temporal loops.
struct LoopSets {
    int count = 0;
    std::array<int, kMaxLoops> setOf;              // per loop: its set, or -1
    std::array<std::uint32_t, kMaxLoops> inside{};  // per loop: the sets with a loop inside it
    std::array<int, kMaxIdleSets> innermost{};      // per set: its innermost loop

    LoopSets(const std::uint32_t* sets, int n) : count(n)
    {
        setOf.fill(-1);
        for (int i = 0; i < count; ++i) {
            innermost[i] = 31 - std::countl_zero(sets[i]);
            for (std::uint32_t m = sets[i]; m != 0; m &= m - 1) setOf[std::countr_zero(m)] = i;
            for (int j = 0; j < innermost[i]; ++j) inside[j] |= 1u << i;
        }
    }
};

struct ChildKind {
    std::vector<Cat> cats;  // per child spatial loop
    std::int64_t count = 1;
};

} // namespace

StageDecline acceptsResidualContextStage(const StageFrame& f)
{
    if (f.nest->imperfectDims == 0) return StageDecline::NotApplicable;
    if (f.temporalRemainderAbove) return StageDecline::TemporalRemainder;
    // Children of several kinds (remainders on the fanout, or a shape dimension split by it:
    // tiles of different shapes) are summed kind by kind, each with its own predicates: only
    // where no links can form (checked by the analysis where the tiles keep one shape).
    if (f.shapeOnFanout && f.linkCandidate) return StageDecline::ShapeOnFanout;
    return StageDecline::None;
}

StageDecline analyzeResidualContextStage(const StageFrame& frame, StageResult& out)
{
    const StageSpec& spec = *frame.spec;
    const NestLayout& nest = *frame.nest;
    const Workload& w = *frame.workload;
    const int leafPos = frame.leafPos;
    const int boundary = frame.boundary;
    const std::uint32_t shapeDims = frame.shapeDims;
    // Children of several kinds, each analysed with its own predicates.
    const bool perChildKind = frame.childRemainders || frame.shapeOnFanout;
    const std::int64_t children = frame.children;
    const int k = frame.k;
    const auto& temporal = frame.temporal;
    const auto& temporalIndex = frame.temporalIndex;
    const auto& carry = frame.carry;
    auto temporalLoopsOf = [&](int dim, int above) {
        std::uint32_t v = 0;
        for (int p = 0; p < above; ++p)
            if (!nest.loops[p].spatial() && nest.loops[p].dim == dim) v |= 1u << temporalIndex[p];
        return v;
    };

    // The shape predicates of a kind whose dimensions in `mayBeResidual` may still be in their
    // residual context at the children's boundary; false when they are too many.
    auto addShapePredicates = [&](Predicates& ik, std::uint32_t mayBeResidual) {
        for (int d = 0; d < w.numDims(); ++d) {
            if (!((shapeDims >> d) & 1u) || !((mayBeResidual >> d) & 1u)) continue;
            const std::uint32_t loops = temporalLoopsOf(d, leafPos);
            if (loops == 0) {
                ik.alwaysSmall |= 1u << d;
                continue;
            }
            if (ik.neverBusy) continue;
            if (!ik.addShape(d, loops)) return false;
        }
        return true;
    };

    // Kinds of instance and their predicates: the walker's residual-context flags with the
    // temporal loops left symbolic.
    thread_local std::vector<InstanceKind> instances;
    enumerateKinds(nest, 0, leafPos, true, instances);
    for (InstanceKind& kind : instances) {
        Predicates& ik = kind.pred;
        std::uint32_t mayBeResidual = ~std::uint32_t{0};  // per dimension: no spatial loop above has cleared it
        for (int q = 0; q < leafPos; ++q) {
            const NestLoop& l = nest.loops[q];
            const Cat cat = kind.cats[q];
            if (!l.spatial() || cat == Cat::Any) continue;
            const std::uint32_t bit = 1u << l.dim;
            if ((cat == Cat::Between || cat == Cat::AtBound) && (mayBeResidual & bit) && !ik.addIdle(temporalLoopsOf(l.dim, q)))
                return StageDecline::TooManyPredicates;
            if (cat == Cat::Between || cat == Cat::AtBound || cat == Cat::BelowRes) mayBeResidual &= ~bit;
        }
        ik.mayBeResidual = mayBeResidual;
        // (with children of several kinds, their own fanout loops decide their tiles' shapes)
        if (!perChildKind && !addShapePredicates(ik, mayBeResidual)) return StageDecline::TooManyPredicates;
    }
    thread_local std::vector<ChildKind> childKinds;
    enumerateKinds(nest, leafPos, boundary, false, childKinds);

    const int nRanks = frame.nRanks;
    const auto& steps = *spec.stepVectors;
    auto extents = [&](std::uint32_t small) { return frame.extents(small); };
    // Whether link transfers could occur between the children, given the predicates of every
    // kind (of instance, or of instance and child) that works.
    // With kinds of child that idle apart, two children at one offset can also serve each other
    // (one resumes with the delta the other just had): then `sharedOffsetsMatter`.
    thread_local std::vector<const Predicates*> busyKinds;
    auto linksPossible = [&](bool sharedOffsetsMatter) {
        // An idle block of several predicates ends with a carry plus one step of the innermost
        // loop of each: those sums of steps, per kind and set of two or more predicates.
        thread_local std::vector<Vec> severalSteps;
        severalSteps.clear();
        for (const Predicates* kind : busyKinds) {
            const Predicates& ik = *kind;
            // Where tiles change shape, the canonical deltas (slabs) of consecutive steps may
            // match under other differences than the moves: any neighbour may then serve.
            if (ik.nShape > 0) return true;
            for (std::uint32_t subset = 1; subset < (1u << ik.nIdle); ++subset) {
                if (std::popcount(subset) < 2) continue;
                Vec sum{};
                for (int i = 0; i < ik.nIdle; ++i) {
                    if (!((subset >> i) & 1u)) continue;
                    const int innermost = 31 - std::countl_zero(ik.whenLast[static_cast<std::size_t>(i)]);
                    for (int r = 0; r < nRanks; ++r) sum[r] += steps[temporal[innermost]][r];
                }
                severalSteps.push_back(sum);
            }
        }
        // Links need two mesh neighbours whose offsets differ by the move between two
        // consecutive busy steps (as in the perfect closed form): decline when that can happen.
        // A move of nothing matters only to the MACs, or under the legacy rule (which delivers
        // the same tile again: identical consecutive deltas).
        auto isMove = [&](const Vec& d) {
            if (frame.isZero(d) && sharedOffsetsMatter) return true;
            if (frame.isZero(d) && spec.macStage && k > 0) return true;
            if (frame.isZero(d) && !spec.options->legacyZeroTranslationRule) return false;
            for (int j = 0; j < k; ++j) {
                if (carry[j] == d) return true;
                auto exitIs = [&](const Vec& stepsTaken) {
                    for (int r = 0; r < nRanks; ++r)
                        if (carry[j][r] + stepsTaken[r] != d[r]) return false;
                    return true;
                };
                for (int i = 0; i < k; ++i)  // an idle block's exit: a carry plus one step
                    if (exitIs(steps[temporal[i]])) return true;
                for (const Vec& several : severalSteps)
                    if (exitIs(several)) return true;
            }
            return false;
        };
        return frame.anyNeighbourDifference(isMove);
    };
    // With one kind of child and tiles of one shape, links are counted (below); otherwise the
    // stage declines where they could form.
    bool countLinks = false;
    if (frame.linkCandidate && !perChildKind) {
        busyKinds.clear();
        for (const InstanceKind& kind : instances)
            if (!kind.pred.neverBusy) busyKinds.push_back(&kind.pred);
        if (linksPossible(false)) {
            // (MAC operands and the legacy rule's repeated tiles are not counted here)
            if (spec.macStage || spec.options->legacyZeroTranslationRule) return StageDecline::LinksPossible;
            for (const Predicates* kind : busyKinds)
                if (kind->nShape > 0) return StageDecline::LinksPossible;
            countLinks = true;
        }
    }
    const bool legacy = spec.options->legacyZeroTranslationRule;

    // The words the whole nest moves after its first step, from the empty reuse state, under
    // predicates over the disjoint loop sets `sets` (ReachableSweep.h). step(j, before, after, s):
    // a carry of loop j from an iteration in context `before` into one in context `after`.
    thread_local std::array<std::int64_t, kMaxLoops> trips;
    for (int j = 0; j < k; ++j) trips[static_cast<std::size_t>(j)] = nest.loops[temporal[j]].bound;
    thread_local ReachableSweep reachable;
    auto composeNest = [&](const LoopSets& sets, auto&& step) {
        return reachable.run(k, trips.data(), sets.setOf.data(), 1 << sets.count, 0, step);
    };

    using Figures = ChildFigures;
    // The figures of one kind: its busy steps are those outside every idle predicate; its tile is
    // the residual one in the dimensions whose shape predicates hold. The reuse state machine
    // gains the shape of the last busy tile (which shape predicates held). Moving into a busy
    // step after idle ones starts from the last busy step, where the innermost loop of each
    // idle predicate in force was one short of its last index and every other loop inside at its last.
    // Links (PerfectStage's rule): a child is served by the mesh neighbour whose offset differs
    // by the step's move when that neighbour's previous delta was of the same kind (the whole
    // tile, or the new words of a move of the same class); an idle step keeps the previous delta.
    // Per move vector asked for, the words of the busy steps with that move whose delta matches.
    struct LinkQuery {
        std::vector<Vec> moves;
        std::vector<std::int64_t> matched;  // per move
    };
    auto kindFigures = [&](const Predicates& ik, LinkQuery* links) -> std::optional<Figures> {
        Figures f;
        const int nIdle = ik.nIdle;
        const int nShape = ik.nShape;
        std::array<std::uint32_t, kMaxIdleSets> setList;  // the idle sets first, then the shape sets
        std::copy_n(ik.whenLast.begin(), nIdle, setList.begin());
        std::copy_n(ik.shapeSets.begin(), nShape, setList.begin() + nIdle);
        const LoopSets sets(setList.data(), nIdle + nShape);
        const std::uint32_t idleBits = (1u << nIdle) - 1;
        // Busy steps by inclusion-exclusion over the idle predicates (their loop sets are disjoint).
        for (int T = 0; T < (1 << nIdle); ++T) {
            std::int64_t stepsInAll = 1;
            for (int j = 0; j < k; ++j) {
                const int set = sets.setOf[j];
                if (set < 0 || set >= nIdle || !((T >> set) & 1)) stepsInAll *= nest.loops[temporal[j]].bound;
            }
            f.active += (std::popcount(static_cast<unsigned>(T)) % 2 ? -1 : 1) * stepsInAll;
        }
        // Tile extents per subset of the shape predicates holding.
        const int shapes = 1 << nShape;
        std::array<Vec, kMaxContexts> ext;
        std::array<std::int64_t, kMaxContexts> words;
        for (int m = 0; m < shapes; ++m) {
            std::uint32_t small = ik.alwaysSmall;
            for (int i = 0; i < nShape; ++i)
                if ((m >> i) & 1) small |= 1u << ik.shapeDims[static_cast<std::size_t>(i)];
            ext[m] = extents(small);
            words[m] = boxWords(ext[m], nRanks);
            f.maxTile = std::max(f.maxTile, words[m]);  // every subset holds in some busy step
        }
        const std::int64_t fullWords = words[0];
        if (spec.macStage) {
            f.moved = f.active;  // every busy step reads its operand
            return f;
        }
        const auto& inner = sets.inside;
        // The moves are classified as the sweep reaches them (most combinations never occur).
        thread_local IndexedTranslationTable<kMaxTranslations> tt;  // (hashed: lives across stages)
        tt.clear();
        struct Move {
            std::uint32_t stamp = 0;
            int m = 0;                 // translation class
            std::int64_t newWords = 0;  // words of the next tile the previous one did not hold
        };
        // [loop][idle predicates in force before][previous shape][next shape], valid where stamp == analysis
        // (zeroed pages: a stage touches the rows of its loops, not the whole table)
        thread_local ZeroedTable<Move> moves(static_cast<std::size_t>(kMaxLoops) * kMaxContexts * kMaxContexts * kMaxContexts);
        thread_local std::uint32_t analysis = 0;
        if (++analysis == 0) {
            for (Move& mv : moves) mv.stamp = 0;
            analysis = 1;
        }
        auto moveOf = [&](int j, std::uint32_t before, int b, int c) -> const Move* {
            Move& mv = moves[((static_cast<std::size_t>(j) * kMaxContexts + before) * kMaxContexts + static_cast<std::size_t>(b)) * kMaxContexts + static_cast<std::size_t>(c)];
            if (mv.stamp == analysis) return &mv;
            Vec d = carry[j];
            for (int i = 0; i < nIdle; ++i)
                if ((before >> i) & 1u)
                    for (int r = 0; r < nRanks; ++r) d[r] += steps[temporal[sets.innermost[i]]][r];
            const Vec& prevExt = ext[b];
            const Vec& curExt = ext[c];
            const Vec move = nShape > 0 ? centroidMove(prevExt, curExt, d, nRanks) : d;
            const auto [m, added] = tt.findOrAdd(move, nRanks, legacy);
            if (m < 0 || (added && shapes * tt.states > kMaxContextStates)) return nullptr;
            mv = {analysis, m, words[c] - overlapWords(prevExt, curExt, d, nRanks)};
            return &mv;
        };
        // Reuse state s and the last busy tile's shape b are the state shapes * s + b.
        auto carryStep = [&](int j, int before, int after, int state) -> std::pair<int, std::int64_t> {
            const std::uint32_t a = static_cast<std::uint32_t>(after) & ~inner[j];  // predicates holding after the carry
            if ((a & idleBits) != 0) return {state, 0};  // into an idle step: nothing moves
            const int c = static_cast<int>(a >> nIdle);  // the shape predicates holding in the next step
            const std::uint32_t bi = static_cast<std::uint32_t>(before) & idleBits;
            const int s = state / shapes, b = state % shapes;
            const Move* mv = moveOf(j, bi, b, c);
            if (!mv) return {-1, 0};
            const auto [to, moved] = tt.reuse(s, mv->m, mv->newWords, words[c], legacy);
            return {shapes * to + c, moved};
        };
        // The first step is busy and full-sized: every loop of every set is at index 0 then.
        const std::optional<std::int64_t> after = composeNest(sets, carryStep);
        if (!after) return std::nullopt;
        f.moved = fullWords + *after;
        if (!links) return f;
        // The sweep above met every move the kind makes: the joint state is the reuse state and
        // the kind of the last delta (0 none or empty, 1 the whole tile, 1 + the reuse state of
        // its class for new words), the first step's a whole tile.
        const int translations = tt.states, Q = tt.states + 1;
        if (translations * Q > ReachableStates::kMaxStates) return std::nullopt;
        links->matched.assign(links->moves.size(), 0);
        for (std::size_t i = 0; i < links->moves.size(); ++i) {
            const int wanted = tt.find(links->moves[i], nRanks);
            if (wanted < 0) continue;  // never a move of this kind
            auto linkStep = [&](int j, int before, int after2, int state) -> std::pair<int, std::int64_t> {
                const std::uint32_t a = static_cast<std::uint32_t>(after2) & ~inner[j];
                if ((a & idleBits) != 0) return {state, 0};  // an idle step keeps the last delta
                const Move* mv = moveOf(j, static_cast<std::uint32_t>(before) & idleBits, 0, 0);
                if (!mv || tt.states != translations) return {-1, 0};
                const int s = state / Q, q = state % Q;
                const auto [to, moved] = tt.reuse(s, mv->m, mv->newWords, fullWords, legacy);
                const int kind = moved == 0 ? 0 : moved == fullWords ? 1 : 1 + tt.stateOf[mv->m];
                return {to * Q + kind, kind != 0 && kind == q && mv->m == wanted ? moved : 0};
            };
            const std::optional<std::int64_t> matched = reachable.run(k, trips.data(), sets.setOf.data(), 1 << sets.count, 1, linkStep);
            if (!matched) return std::nullopt;
            links->matched[i] = *matched;
        }
        return f;
    };
    // Kinds of instance (and child) with the same predicates and residual dimensions see the same
    // figures (often dozens of kinds share a few): each distinct set is analysed once per stage.
    struct FiguresKey {
        std::array<std::uint32_t, kMaxIdleSets + 1> sets{};  // loop masks of the predicates, sorted
        std::uint32_t shapeDims = 0;
        std::uint32_t alwaysSmall = 0;
        bool operator==(const FiguresKey&) const = default;
    };
    auto keyOf = [](const Predicates& ik) {
        FiguresKey key;
        for (int i = 0; i < ik.nShape; ++i) key.shapeDims |= 1u << ik.shapeDims[static_cast<std::size_t>(i)];
        key.alwaysSmall = ik.alwaysSmall;
        for (int i = 0; i < ik.nIdle; ++i) {
            const std::uint32_t mask = ik.whenLast[static_cast<std::size_t>(i)];
            int at = i;  // insertion sort: a handful of sets
            for (; at > 0 && key.sets[at - 1] > mask; --at) key.sets[at] = key.sets[at - 1];
            key.sets[at] = mask;
        }
        return key;
    };
    thread_local std::vector<std::pair<FiguresKey, std::optional<Figures>>> known;
    known.clear();
    // Across stages (annealing's neighbours share many), a kind's figures are kept per thread,
    // keyed on everything kindFigures reads: the temporal loops' trips and carries, the
    // predicates' loop sets, the steps that end idle blocks, and the tile extents per shape.
    // The key is written into a fixed buffer and hashed as it is written (building it in a vector
    // showed in Ruby-S's profile); the temporal loops' part is the same for every kind of the stage.
    constexpr std::size_t kMaxKey = 5 + kMaxLoops * (1 + kMaxRanks) + kMaxIdleSets * (1 + kMaxRanks) + kMaxIdleSets +
                                    kMaxContexts * kMaxRanks;
    struct FiguresCacheKey {
        std::array<std::int64_t, kMaxKey> v;
        std::size_t n = 0;
        std::uint64_t hash = 0x9e3779b97f4a7c15ull;
        void put(std::int64_t x)
        {
            v[n++] = x;
            hash = (hash ^ static_cast<std::uint64_t>(x)) * 0xff51afd7ed558ccdull + (hash >> 31);
        }
        void put(const Vec& x, int ranks)
        {
            for (int r = 0; r < ranks; ++r) put(x[static_cast<std::size_t>(r)]);
        }
    };
    // The loops' part is written once per stage and stays at the front of the key: each kind
    // truncates the key back to it and appends its own part.
    thread_local FiguresCacheKey cacheKey;
    std::size_t loopsKeyEnd = 0;
    std::uint64_t loopsKeyHash = 0;
    auto crossStageKey = [&](const Predicates& ik) {
        FiguresCacheKey& key = cacheKey;
        if (loopsKeyEnd == 0) {
            key.n = 0;
            key.hash = 0x9e3779b97f4a7c15ull;
            for (std::int64_t x : {std::int64_t{k}, std::int64_t{nRanks}, std::int64_t{legacy} | std::int64_t{spec.macStage} << 1}) key.put(x);
            for (int j = 0; j < k; ++j) {
                key.put(nest.loops[temporal[j]].bound);
                key.put(carry[j], nRanks);
            }
            loopsKeyEnd = key.n;
            loopsKeyHash = key.hash;
        }
        key.n = loopsKeyEnd;
        key.hash = loopsKeyHash;
        key.put(ik.nIdle);
        key.put(ik.nShape);
        for (int i = 0; i < ik.nIdle; ++i) {
            const std::uint32_t set = ik.whenLast[static_cast<std::size_t>(i)];
            key.put(set);
            key.put(steps[temporal[31 - std::countl_zero(set)]], nRanks);
        }
        for (int i = 0; i < ik.nShape; ++i) key.put(ik.shapeSets[static_cast<std::size_t>(i)]);
        for (int m = 0; m < (1 << ik.nShape); ++m) {
            std::uint32_t small = ik.alwaysSmall;
            for (int i = 0; i < ik.nShape; ++i)
                if ((m >> i) & 1) small |= 1u << ik.shapeDims[static_cast<std::size_t>(i)];
            key.put(extents(small), nRanks);
        }
    };
    struct CachedFigures {
        std::uint64_t hash = 0;
        std::vector<std::int64_t> key;  // empty: unused
        std::optional<Figures> figures;
    };
    constexpr std::size_t kCachedKinds = 4096;  // direct-mapped: a collision only recomputes
    // Per slot its entry's number in `cache` plus one (0: empty). Entries are made as slots fill:
    // all 4096 made at once wrote 64 pages in a thread's first evaluation.
    thread_local ZeroedTable<std::uint16_t> cacheIndex(kCachedKinds);
    thread_local std::vector<CachedFigures> cache = [] {
        std::vector<CachedFigures> v;
        v.reserve(kCachedKinds);  // (never moved: growing it rewrote every entry made so far)
        return v;
    }();
    auto figuresOf = [&](const Predicates& ik) -> std::optional<Figures> {
        const FiguresKey key = keyOf(ik);
        for (const auto& [k2, figures] : known)
            if (k2 == key) return figures;
        crossStageKey(ik);
        const std::uint64_t h = cacheKey.hash;
        std::uint16_t& entry = cacheIndex[h % kCachedKinds];
        if (entry == 0) {
            cache.emplace_back();
            entry = static_cast<std::uint16_t>(cache.size());
        }
        CachedFigures& slot = cache[entry - 1u];
        const auto keyEnd = cacheKey.v.begin() + static_cast<std::ptrdiff_t>(cacheKey.n);
        if (slot.hash != h || !std::equal(slot.key.begin(), slot.key.end(), cacheKey.v.begin(), keyEnd)) {
            slot.figures = kindFigures(ik, nullptr);
            slot.hash = h;
            slot.key.assign(cacheKey.v.begin(), keyEnd);
        }
        known.push_back({key, slot.figures});
        return slot.figures;
    };

    // The parent's words for children of g different kinds at one offset (no shape predicates
    // here: the kinds differ only in their idle steps). Each kind keeps its own reuse state and
    // last busy tile; in a step the parent sends each distinct delta among the busy kinds once.
    // With tiles of one shape a delta is the whole tile, nothing, or the new words of one move
    // (the move fixes the previous tile), so the joint state is the kinds' reuse states and a
    // step's words are those of its distinct (whole or move) deltas.
    auto sharedOffsetWords = [&](const Predicates* const* group, int g) -> std::optional<std::int64_t> {
        for (int x = 0; x < g; ++x)  // tiles of one shape only
            if (group[x]->nShape > 0 || group[x]->alwaysSmall != group[0]->alwaysSmall) return std::nullopt;
        std::array<std::uint32_t, kMaxIdleSets> setList;
        int nSets = 0;
        std::array<std::uint32_t, kMaxSharingKinds> kindSets{};  // per kind: its sets' bits
        for (int x = 0; x < g; ++x)
            for (int i = 0; i < group[x]->nIdle; ++i) {
                const std::uint32_t set = group[x]->whenLast[static_cast<std::size_t>(i)];
                int found = -1;
                for (int u = 0; u < nSets && found < 0; ++u) {
                    if (setList[static_cast<std::size_t>(u)] == set) found = u;
                    // sets of one dimension are nested: only equal ones can share loops
                    else if ((setList[static_cast<std::size_t>(u)] & set) != 0) return std::nullopt;
                }
                if (found < 0) {
                    if (nSets == kMaxIdleSets) return std::nullopt;
                    found = nSets;
                    setList[static_cast<std::size_t>(nSets++)] = set;
                }
                kindSets[static_cast<std::size_t>(x)] |= 1u << found;
            }
        const LoopSets sets(setList.data(), nSets);
        const auto& inner = sets.inside;
        const Vec ext = extents(group[0]->alwaysSmall);
        const std::int64_t whole = boxWords(ext, nRanks);
        const std::uint32_t allBits = (1u << sets.count) - 1;
        thread_local IndexedTranslationTable<kMaxTranslations> tt;  // (hashed: lives across stages)
        tt.clear();
        // [loop][idle predicates in force before][kind]: the kind's move into the next busy step
        thread_local std::array<std::array<std::array<int, kMaxSharingKinds>, kMaxContexts>, kMaxLoops> moveOf;
        thread_local std::array<std::int64_t, kMaxTranslations> moveWords;
        for (int j = 0; j < k; ++j)
            for (std::uint32_t before = 0; before <= allBits; ++before)
                for (int x = 0; x < g; ++x) {
                    const std::uint32_t mine = before & kindSets[static_cast<std::size_t>(x)];
                    if ((mine & ~inner[j]) != 0) continue;  // then the kind's next step is idle as well
                    Vec d = carry[j];
                    for (int i = 0; i < sets.count; ++i)
                        if ((mine >> i) & 1u)
                            for (int r = 0; r < nRanks; ++r) d[r] += steps[temporal[sets.innermost[i]]][r];
                    const auto [m, added] = tt.findOrAdd(d, nRanks, legacy);
                    if (m < 0) return std::nullopt;
                    if (added) moveWords[static_cast<std::size_t>(m)] = whole - overlapWords(ext, ext, d, nRanks);
                    moveOf[j][before][x] = m;
                }
        int n = 1;
        for (int x = 0; x < g; ++x) {
            n *= tt.states;
            if (n > kMaxContextStates) return std::nullopt;
        }
        // The joint state: the kinds' reuse states, kind x's the digit of weight tt.states^x.
        auto carryStep = [&](int j, int before, int after, int state) -> std::pair<int, std::int64_t> {
            const std::uint32_t a = static_cast<std::uint32_t>(after) & ~inner[j];  // predicates holding after the carry
            int rest = state, next = 0, scale = 1;
            std::array<int, kMaxSharingKinds> sent;  // distinct deltas of this step: -1 whole, else the move
            int nSent = 0;
            std::int64_t cost = 0;
            for (int x = 0; x < g; ++x, scale *= tt.states) {
                int sx = rest % tt.states;
                rest /= tt.states;
                if ((a & kindSets[static_cast<std::size_t>(x)]) == 0) {  // busy after the carry
                    const int m = moveOf[j][before][x];
                    const auto [to, moved] = tt.reuse(sx, m, moveWords[static_cast<std::size_t>(m)], whole, legacy);
                    sx = to;
                    if (moved > 0) {
                        const int id = moved == whole ? -1 : m;
                        if (std::find(sent.begin(), sent.begin() + nSent, id) == sent.begin() + nSent) {
                            sent[static_cast<std::size_t>(nSent++)] = id;
                            cost += moved;
                        }
                    }
                }
                next += sx * scale;
            }
            return {next, cost};
        };
        // The first step: every kind busy, each sent the whole tile (one delta).
        const std::optional<std::int64_t> after = composeNest(sets, carryStep);
        if (!after) return std::nullopt;
        return whole + *after;
    };

    if (perChildKind) {
        // Per child: its offset and kind. The parent sends the children of one offset each
        // distinct delta among them once: kinds with the same predicates (the same busy steps and
        // tiles) always agree, kinds that differ are counted together (sharedOffsetWords).
        const int nChildLoops = boundary - leafPos;
        thread_local ChildPlacement placement;
        placement.build(frame, true);
        const std::vector<std::pair<int, int>>& placed = placement.placed;
        // Each (instance kind, child kind) pair with its predicates.
        const std::size_t nKinds = childKinds.size();
        thread_local std::vector<Predicates> pairs;  // [instance kind * nKinds + child kind]
        pairs.resize(instances.size() * nKinds);
        for (std::size_t i = 0; i < instances.size(); ++i)
            for (std::size_t c = 0; c < nKinds; ++c) {
                Predicates& kk = pairs[i * nKinds + c];
                kk = instances[i].pred;
                std::uint32_t mayBeResidual = kk.mayBeResidual;
                for (int q = 0; q < nChildLoops; ++q) {
                    const NestLoop& l = nest.loops[leafPos + q];
                    const Cat cat = childKinds[c].cats[static_cast<std::size_t>(q)];
                    const std::uint32_t bit = 1u << l.dim;
                    if ((cat == Cat::Between || cat == Cat::AtBound) && (mayBeResidual & bit) && !kk.addIdle(temporalLoopsOf(l.dim, leafPos)))
                        return StageDecline::TooManyPredicates;
                    if (cat == Cat::Between || cat == Cat::AtBound || cat == Cat::BelowRes) mayBeResidual &= ~bit;
                }
                if (!addShapePredicates(kk, mayBeResidual)) return StageDecline::TooManyPredicates;
            }
        auto pairOf = [&](std::size_t i, std::size_t c) -> const Predicates& { return pairs[i * nKinds + c]; };
        if (frame.linkCandidate) {
            busyKinds.clear();
            for (std::size_t i = 0; i < instances.size(); ++i) {
                const Predicates* first = nullptr;  // siblings of different tile shapes: slabs again
                for (std::size_t c = 0; c < nKinds; ++c) {
                    const Predicates& kind = pairOf(i, c);
                    if (kind.neverBusy) continue;
                    if (first && first->alwaysSmall != kind.alwaysSmall) return StageDecline::ChildKindsAndLinks;
                    if (!first) first = &kind;
                    busyKinds.push_back(&kind);
                }
            }
            if (linksPossible(true)) return StageDecline::ChildKindsAndLinks;
        }
        clearStageResult(out);
        thread_local std::vector<std::int64_t> groups;  // per kind: the offsets it alone serves
        thread_local std::vector<FiguresKey> keys;
        groups.resize(nKinds);
        keys.resize(nKinds);
        // Offsets served by kinds of different predicates: their kinds (one per predicate set)
        // and the words the parent sends them.
        struct Sharing {
            std::array<FiguresKey, kMaxSharingKinds> keys;
            int g = 0;
            std::int64_t words = 0;
        };
        thread_local std::vector<Sharing> sharings;
        sharings.clear();
        auto declineShared = [&] {
            clearStageResult(out);
            return StageDecline::ChildKindsShareOffset;
        };
        for (std::size_t i = 0; i < instances.size(); ++i) {
            for (std::size_t c = 0; c < nKinds; ++c)
                if (!pairOf(i, c).neverBusy) keys[c] = keyOf(pairOf(i, c));
            std::fill(groups.begin(), groups.end(), 0);
            std::int64_t sharedAccesses = 0;
            for (std::size_t a = 0; a < placed.size();) {
                std::array<const Predicates*, kMaxSharingKinds> group{};
                std::array<FiguresKey, kMaxSharingKinds> groupKeys{};
                int g = 0, first = -1;
                std::size_t b = a;
                for (; b < placed.size() && placed[b].first == placed[a].first; ++b) {
                    const std::size_t c = static_cast<std::size_t>(placed[b].second);
                    if (pairOf(i, c).neverBusy) continue;
                    if (first < 0) first = static_cast<int>(c);
                    if (std::find(groupKeys.begin(), groupKeys.begin() + g, keys[c]) != groupKeys.begin() + g) continue;
                    if (g == kMaxSharingKinds) return declineShared();
                    groupKeys[static_cast<std::size_t>(g)] = keys[c];
                    group[static_cast<std::size_t>(g++)] = &pairOf(i, c);
                }
                a = b;
                if (g == 1) ++groups[static_cast<std::size_t>(first)];
                if (g < 2) continue;
                // (MAC operands are not deltas of tiles: left to the walker)
                if (spec.macStage) return declineShared();
                auto known2 = std::find_if(sharings.begin(), sharings.end(), [&](const Sharing& sh) {
                    return std::equal(sh.keys.begin(), sh.keys.begin() + sh.g, groupKeys.begin(), groupKeys.begin() + g);
                });
                if (known2 == sharings.end()) {
                    const std::optional<std::int64_t> words = sharedOffsetWords(group.data(), g);
                    if (!words) return declineShared();
                    sharings.push_back({groupKeys, g, *words});
                    known2 = sharings.end() - 1;
                }
                sharedAccesses += known2->words;
            }
            const Signature isig = instanceSignature(frame, instances[i].cats);
            std::int64_t accesses = sharedAccesses, weighted = 0, macs = 0;
            bool used = false;
            for (std::size_t c = 0; c < childKinds.size(); ++c) {
                const Predicates& kk = pairOf(i, c);
                if (kk.neverBusy) continue;
                used = true;
                const std::optional<Figures> figures = figuresOf(kk);
                if (!figures) {
                    clearStageResult(out);
                    return StageDecline::Capacity;
                }
                const Figures& fig = *figures;
                accesses += groups[c] * fig.moved;
                weighted += childKinds[c].count * fig.moved;
                macs += childKinds[c].count * fig.active;
                std::int64_t distinct = 0;
                if (spec.needDistinct) {
                    const ChildPlace place{leafPos, boundary, spec.macStage, &instances[i].cats, &childKinds[c].cats};
                    distinct = childDistinctWords(w, nest, spec.tensor, place);
                }
                appendChild(out, childSignature(isig, childKinds[c].cats), instances[i].count * childKinds[c].count,
                            childKinds[c].count, fig, distinct);
            }
            if (!used) continue;
            out.instances.push_back({isig, instances[i].count, accesses, weighted});
            out.parentAccesses += instances[i].count * accesses;
            out.weighted += instances[i].count * weighted;
            if (spec.macStage) out.macs += instances[i].count * macs;
        }
        return StageDecline::None;
    }

    // Links: per neighbour difference, the children it serves and the distinct offsets of the
    // rest (MeshLinks.h); a move of that difference uses the links when they lower the accesses.
    thread_local LinkQuery query;
    thread_local MeshLinks links;
    thread_local std::vector<std::int64_t> sent;
    const std::int64_t groups = frame.groups();
    query.moves.clear();
    if (countLinks) {
        thread_local ChildPlacement placement;
        placement.build(frame, false);
        links.build(frame, MeshLinks::Moves::NonZero, placement.kindOf);
        query.moves = links.moves;
    }

    clearStageResult(out);
    for (const InstanceKind& ik : instances) {
        if (ik.pred.neverBusy) continue;
        const std::optional<Figures> figures = countLinks ? kindFigures(ik.pred, &query) : figuresOf(ik.pred);
        if (!figures) {
            clearStageResult(out);
            return countLinks ? StageDecline::LinksPossible : StageDecline::Capacity;
        }
        const Figures& fig = *figures;
        const Signature isig = instanceSignature(frame, ik.cats);
        const MeshLinks::Savings saved = countLinks ? links.apply(query.matched, groups, sent) : MeshLinks::Savings{};
        if (!countLinks) sent.clear();
        const std::int64_t accesses = groups * fig.moved - saved.accesses, weighted = children * fig.moved - saved.weighted;
        const std::int64_t linkWords = saved.linkWords;
        out.instances.push_back({isig, ik.count, accesses, weighted});
        out.parentAccesses += ik.count * accesses;
        out.weighted += ik.count * weighted;
        out.linkTransfers += ik.count * linkWords;
        if (spec.macStage) out.macs += ik.count * children * fig.active;
        for (const ChildKind& ck : childKinds) {
            std::int64_t distinct = 0;
            if (spec.needDistinct) {
                const ChildPlace place{leafPos, boundary, spec.macStage, &ik.cats, &ck.cats};
                distinct = childDistinctWords(w, nest, spec.tensor, place);
            }
            appendChild(out, childSignature(isig, ck.cats), ik.count * ck.count, ck.count, fig, distinct);
        }
        // Forwarded words per child, as the walker lists them.
        for (std::size_t c = 0; c < sent.size(); ++c)
            out.peers.push_back({childSignature(isig, childKinds[static_cast<std::size_t>(links.childKindOf[c])].cats), ik.count, sent[c]});
    }
    return StageDecline::None;
}

} // namespace nestor::model
