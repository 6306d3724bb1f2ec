#include "model/TemporalRemainderStage.h"

#include "model/ChildPartition.h"
#include "model/HashedIds.h"
#include "model/ChildPlacement.h"
#include "model/KindEnumeration.h"
#include "model/MeshLinks.h"
#include "model/ReachableSweep.h"
#include "model/ReuseGeometry.h"
#include "model/ReuseRuleEffect.h"
#include "model/ReuseTransform.h"
#include "model/SpatialCategory.h"
#include "model/ZeroedTable.h"

#include <algorithm>
#include <bit>
#include <bitset>
#include <limits>
#include <memory>
#include <optional>
#include <tuple>

namespace nestor::model {
namespace {

using walker::Cat;

// Context dimensions: a convolution's seven (a batch N > 1 with remainders on every dimension,
// which took the walker with room for six: 0.1-0.25 s an evaluation) and one more (groups).
constexpr int kMaxBits = 8;
constexpr int kMaxContexts = 1 << kMaxBits;
constexpr int kMaxShapeDims = 6;  // (Ruby's remainders below the children reach six of a convolution's dimensions)
constexpr int kMaxShapes = 1 << kMaxShapeDims;
// A carry's two tile shapes, packed: the previous one's in the low kMaxShapeDims bits.
using CarryShapes = std::uint16_t;
// A temporal loop's carry into its next iteration, from the last busy step of a non-last one to
// the first busy step of the next (registerCarries): its move class in the translation table,
// the new words it brings, its translation, and its two tiles' shapes.
struct CarryInfo {
    int move = 0;
    CarryShapes shapes = 0;
    std::int64_t diff = 0;
    Vec d{};
};
// A kind's carries: per temporal loop, context and into a non-last (0) or the last (1)
// iteration, at the index carrySlot() gives (laid out densely for the stage at hand).
constexpr std::size_t kMaxCarries = std::size_t{kMaxLoops} * kMaxContexts * 2;
constexpr int kMaxPositions = 64 + kMaxLoops + 1;  // loops above the children and their fanout (as the frame allows), and the leaf
// Distinct translations (per kind at most two per loop and context: into a non-last or the last
// iteration), as many as the sweeps' memo has reuse states (one per translation, and none
// remembered). Kinds of child counted jointly share the table: with room for 160, two kinds of
// an unconstrained Ruby stage on 14x12 filled it, and the walker took the stage.
constexpr int kMaxTranslations = ReachableStates::kMaxStates - 1;
// Kinds of child that behave differently at one offset or where links form (remainders on
// several fanout loops of an unconstrained 14x12 array make 5-48, of a 32x32 or 64x64 one up to
// 144; with room for 64, the walker took such stages where links form, for 270-320 ms), and
// their joint reuse states, numbered as met (two kinds of 25-30 reuse states each, as Ruby's
// Inputs on a fanout of M and Q reach, walk for 50 ms; kinds that idle apart reach few of their
// combinations).
constexpr int kMaxSharingKinds = 256;
// A set of small numbers below n (kinds of child, contexts): a bit each.
template <int n>
class BitSet {
public:
    void add(int x) { w_[static_cast<std::size_t>(x >> 6)] |= std::uint64_t{1} << (x & 63); }
    bool has(int x) const { return (w_[static_cast<std::size_t>(x >> 6)] >> (x & 63)) & 1u; }
    bool empty() const
    {
        return std::all_of(w_.begin(), w_.end(), [](std::uint64_t v) { return v == 0; });
    }
    bool several() const
    {
        // (no popcount: the baseline x86-64 build calls libgcc for it, which showed in Ruby's profile)
        bool one = false;
        for (std::uint64_t v : w_) {
            if (v == 0) continue;
            if (one || (v & (v - 1)) != 0) return true;
            one = true;
        }
        return false;
    }
    bool operator==(const BitSet&) const = default;
    const std::uint64_t* begin() const { return w_.data(); }
    const std::uint64_t* end() const { return w_.data() + w_.size(); }

private:
    std::array<std::uint64_t, (n + 63) / 64> w_{};
};
using KindSet = BitSet<kMaxSharingKinds>;
using ContextSet = BitSet<kMaxContexts>;
constexpr int kMaxJointStates = ReachableStates::kMaxStates;
// The joint counts' kinds' carries side by side (a stage's carries per kind, carryStride_, times
// its kinds): room for 256 kinds of stages with six context bits (64 contexts), about 60 MB of
// address space; sized for eight, the table would take four times as much.
constexpr int kTracedContexts = 64;
constexpr std::size_t kTraceCarries = std::size_t{kMaxSharingKinds} * kMaxLoops * kTracedContexts * 2;
static_assert(kMaxTranslations + 1 <= ReachableStates::kMaxStates);
// Per kind of child, its reuse state: the joint state of kinds sharing an offset.
using JointReuse = std::array<std::int16_t, kMaxSharingKinds>;
// A sweep of the loops from one position inward, in one context, for one kind of instance:
// what follows from the loops alone. Positions are relative to the sweep's first step.
struct Sweep {
    bool busy = true;         // the instance works in some step of it
    // Positions of its first and last busy steps (ranks [0, nRanks) only: left uninitialised in
    // the sweeps built for every position and context, where zeroing them showed in the profile).
    // A sweep without carries (sweepLoopsOf) sets none of them, nor its first and last shapes,
    // and its reuse is empty: only busy, startsBusy, steps and seen are read.
    Vec firstPos, lastPos;
    std::int64_t steps = 1;   // busy steps
    std::uint8_t first = 0;   // tile shape (which shape dimensions are residual) of its first busy step
    std::uint8_t last = 0;    // ... and of its last
    std::uint64_t seen = 0;   // every shape some busy step has (bit per shape)
    bool startsBusy = true;   // the instance works in its first step
    // The reuse rule over the sweep's carries (after its first busy step), in constant size:
    // pass 1 composes it where it registers the carries.
    ReuseRuleEffect reuse;
};

struct Kind {
    std::vector<Cat> cats;
    std::int64_t count = 1;
};

// Children of several kinds, each swept through the fanout with its own categories: remainders
// on the fanout (kinds that idle apart), or a shape dimension split by it (tiles of different
// shapes: only the child at a fanout loop's last index can see its dimension's residual tile).
bool perChildKind(const StageFrame& f)
{
    return f.childRemainders || f.shapeOnFanout;
}

// What tells one kind of child from another at the fanout, per (canonical) context c that
// reaches it: bit c of `busy` when the kind works there, bit c of residual[i] when its tile is
// then residual in shape dimension i. Kinds alike here are alike in every step.
struct ChildBehaviour {
    ContextSet busy;
    std::array<ContextSet, kMaxShapeDims> residual{};
    bool operator==(const ChildBehaviour&) const = default;
};

// The category at nest position p of one kind of instance (per position above the fanout) and
// of child (per fanout loop).
struct KindCategories {
    int leafPos;
    const std::vector<Cat>* instanceCats;
    const std::vector<Cat>* childCats;
    Cat operator()(int p) const
    {
        return p < leafPos ? (*instanceCats)[static_cast<std::size_t>(p)] : (*childCats)[static_cast<std::size_t>(p - leafPos)];
    }
};

// Figures summed eight to a sweep: the words served under each of eight moves (linkMatches), how
// often each of eight outcomes of a joint step occurs (jointLinks).
constexpr std::size_t kSumsPerSweep = 8;
using SweepSums = FigureSums<kSumsPerSweep>;
// jointLinks' three figures of a joint step (parent accesses, weighted accesses, link words).
using LinkFigures = FigureSums<3>;

class TemporalRemainderAnalysis {
public:
    // Binds the analysis to a stage and assigns the context bits and tile shapes; Capacity when
    // there are too many.
    StageDecline prepare(const StageFrame& f)
    {
        f_ = &f;
        macStage_ = f.spec->macStage;
        nBits_ = nShape_ = 0;
        bitOf_.fill(-1);
        end_ = perChildKind(f) ? f.boundary : f.leafPos;  // with several kinds of child the fanout is swept too
        for (int p = 0; p < end_; ++p) {  // remainders above: temporal (trips) and spatial (idle instances or children)
            const NestLoop& l = f_->nest->loops[p];
            if (l.residual != l.bound && bitOf_[l.dim] < 0) bitOf_[l.dim] = nBits_++;
        }
        for (int d = 0; d < 32; ++d) {
            if (!((f_->shapeDims >> d) & 1u)) continue;
            if (bitOf_[d] < 0) bitOf_[d] = nBits_++;
            if (nShape_ == kMaxShapeDims) return StageDecline::Capacity;
            shapeDim_[nShape_++] = d;
        }
        if (nBits_ > kMaxBits) return StageDecline::Capacity;
        // Per position, the bits that matter from there inward (a remainder there or below, or a
        // shape dimension) and, of those, the ones some loop above may have cleared: only these
        // vary, the others stay set. Contexts are kept in this canonical form.
        const int leafPos = end_;
        std::uint32_t shapeBits = 0;
        for (int i = 0; i < nShape_; ++i) shapeBits |= 1u << bitOf_[shapeDim_[i]];
        relevant_[leafPos] = shapeBits;
        for (int p = leafPos - 1; p >= 0; --p) {
            const NestLoop& l = f_->nest->loops[p];
            relevant_[p] = relevant_[p + 1] | (l.residual != l.bound ? 1u << bitOf_[l.dim] : 0u);
        }
        std::uint32_t seenAbove = 0;
        for (int p = 0; p <= leafPos; ++p) {
            free_[p] = relevant_[p] & seenAbove;
            fixed_[p] = relevant_[p] & ~seenAbove;
            if (p < leafPos && bitOf_[f_->nest->loops[p].dim] >= 0) seenAbove |= 1u << bitOf_[f_->nest->loops[p].dim];
        }
        // (dense layouts: a stage's sweeps and carries fill consecutive entries, not a page of
        // their own per position or loop, which a thread's first stages faulted in one by one)
        int sweepSlots = 0;
        for (int p = 0; p <= leafPos; ++p)
            for (std::uint32_t sub = free_[p];; sub = (sub - 1) & free_[p]) {
                sweepSlot_[static_cast<std::size_t>(p)][fixed_[p] | sub] = static_cast<std::uint16_t>(sweepSlots++);
                if (sub == 0) break;
            }
        carryStride_ = 0;
        for (int j = 0; j < f.k; ++j) {
            const int p = f.temporal[static_cast<std::size_t>(j)];
            for (std::uint32_t sub = free_[p];; sub = (sub - 1) & free_[p]) {
                carrySlot_[static_cast<std::size_t>(j)][fixed_[p] | sub] = static_cast<std::uint16_t>(carryStride_);
                carryStride_ += 2;
                if (sub == 0) break;
            }
        }
        for (int m = 0; m < (1 << nShape_); ++m) {
            std::uint32_t small = 0;
            for (int i = 0; i < nShape_; ++i)
                if ((m >> i) & 1) small |= 1u << shapeDim_[i];
            ext_[m] = f_->extents(small);
            words_[m] = boxWords(ext_[m], f_->nRanks);
        }
        return StageDecline::None;
    }

    // Pass 1, inside out, for one kind of instance and of child: the sweeps (infoAt) and, with
    // `carries`, every carry's translation, added to the translation table, the carries
    // written to `into` (which the passes after read as carries_) and each sweep's reuse-rule
    // effect over them; Capacity when the table is full.
    StageDecline sweepLoops(const std::vector<Cat>& instanceCats, const std::vector<Cat>& childCats, bool carries, CarryInfo* into)
    {
        carries_ = into;
        // (the per-rank loops unrolled for the common four-rank tensors: a fifth of Ruby's instructions)
        if (!carries) return sweepLoopsOf<0, false>(instanceCats, childCats);
        return f_->nRanks == 4 ? sweepLoopsOf<4, true>(instanceCats, childCats) : sweepLoopsOf<0, true>(instanceCats, childCats);
    }
    // kRanks: the tensor's ranks, or 0 for any number. Without kCarries (a MAC operand, read in
    // every busy step, where no links form) a sweep needs only where it works and its tile shapes
    // (sweptFigures reads no more): its positions and first and last shapes are not set, its
    // reuse is empty.
    template <int kRanks, bool kCarries>
    StageDecline sweepLoopsOf(const std::vector<Cat>& instanceCats, const std::vector<Cat>& childCats)
    {
        const int leafPos = end_;
        const auto cats = KindCategories{f_->leafPos, &instanceCats, &childCats};
        const int nRanks = kRanks > 0 ? kRanks : f_->nRanks;
        const bool legacy = f_->spec->options->legacyZeroTranslationRule;
        const auto& steps = *f_->spec->stepVectors;
        for (std::uint32_t sub = free_[leafPos];; sub = (sub - 1) & free_[leafPos]) {
            const int c = static_cast<int>(fixed_[leafPos] | sub);
            Sweep& s = infoAt(leafPos, c);
            s = Sweep{};
            s.first = s.last = shapeOf(c);
            s.seen = std::uint64_t{1} << s.first;
            sweeps_[leafPos][c] = &s;
            if (sub == 0) break;
        }
        for (int p = leafPos - 1; p >= 0; --p) {
            const NestLoop& l = f_->nest->loops[p];
            const int bit = bitOf_[l.dim];
            // What every context at p shares (read once, not per context: the tables written in
            // the loop could alias them for all the compiler knows). `& inner` is canon(p + 1, .)
            // and `(c & own) ? residual : bound` tripsOf(l, bit, c), on these copies.
            const std::uint32_t fixed = fixed_[p], free = free_[p], inner = relevant_[p + 1];
            const std::uint32_t own = bit >= 0 ? 1u << bit : 0u;  // the loop's own bit (none without a context)
            const Sweep* const* below = sweeps_[p + 1].data();
            const Sweep** here = sweeps_[p].data();
            if (l.spatial()) {
                for (std::uint32_t sub = free;; sub = (sub - 1) & free) {
                    const int c = static_cast<int>(fixed | sub);
                    const Spatial sp = spatialEffect(cats(p), bit, c);
                    const Sweep* in = below[static_cast<std::uint32_t>(sp.inner) & inner];
                    if (sp.active) {  // the same sweep as below
                        here[c] = in;
                    } else {  // idle throughout: the loops still move the base
                        Sweep& s = infoAt(p, c);
                        s = *in;
                        s.busy = false;
                        s.startsBusy = false;
                        s.steps = 0;
                        s.seen = 0;
                        s.reuse = ReuseRuleEffect{};
                        here[c] = &s;
                    }
                    if (sub == 0) break;
                }
                continue;
            }
            const std::int64_t bound = l.bound, residual = l.residual;
            const std::uint16_t* slots = sweepSlot_[static_cast<std::size_t>(p)].data();
            const Vec& step = steps[static_cast<std::size_t>(p)];
            const int j = f_->temporalIndex[p];
            // Where the loop's own bit is free, a context c with it clear sweeps a non-last
            // iteration as c | own does (in c, its bit clear), so its carry into a non-last
            // iteration is the one c | own registered just before (contexts come in descending
            // order); and in c the last iteration sweeps as the others. (With one trip there,
            // c | own registered none.)
            const bool sharesCarries = (free & own) != 0 && residual > 1;
            for (std::uint32_t sub = free;; sub = (sub - 1) & free) {
                const std::uint32_t c = fixed | sub;
                const std::int64_t trips = (c & own) ? residual : bound;
                const Sweep& s1 = *below[c & inner];
                if (trips == 1) {
                    here[c] = &s1;
                    if (sub == 0) break;
                    continue;
                }
                const Sweep& s0 = *below[c & ~own & inner];
                Sweep& s = tables_->info[slots[c]];  // (s0 and s1 are further in: never this one)
                const std::int64_t before = trips - 1;  // iterations before the last
                s.busy = s0.busy || s1.busy;
                s.startsBusy = s0.startsBusy;
                s.steps = before * s0.steps + s1.steps;
                s.seen = (s0.busy ? s0.seen : 0) | (s1.busy ? s1.seen : 0);
                here[c] = &s;
                if constexpr (kCarries) {
                    if (s0.busy) {
                        s.firstPos = s0.firstPos;
                        s.first = s0.first;
                    } else {
                        for (int r = 0; r < nRanks; ++r) s.firstPos[r] = before * step[r] + s1.firstPos[r];
                        s.first = s1.first;
                    }
                    if (s1.busy) {
                        for (int r = 0; r < nRanks; ++r) s.lastPos[r] = before * step[r] + s1.lastPos[r];
                        s.last = s1.last;
                    } else {
                        for (int r = 0; r < nRanks; ++r) s.lastPos[r] = (before - 1) * step[r] + s0.lastPos[r];
                        s.last = s0.last;
                    }
                    if (s0.busy && sharesCarries && !(c & own)) {
                        copyCarry(j, static_cast<int>(c | own), 0, static_cast<int>(c), 0);
                        copyCarry(j, static_cast<int>(c), 0, static_cast<int>(c), 1);  // (s1 is s0: the last iteration sweeps as the others)
                    } else if (s0.busy && registerCarries<kRanks>(p, static_cast<int>(c), s0, s1, legacy) != StageDecline::None) {
                        return StageDecline::Capacity;
                    }
                    s.reuse = reuseOfLoop(p, static_cast<int>(c), trips, s0, s1);
                } else {
                    s.reuse = ReuseRuleEffect{};
                }
                if (sub == 0) break;
            }
        }
        return StageDecline::None;
    }

    // The figures of one kind of instance (its category in each spatial loop above the children)
    // and, with remainders on the fanout, of one kind of child (its category in each fanout
    // loop); Capacity or LinksPossible when declining. A kind never busy has out.active == 0.
    // `linked`: links may form and linkMatches() counts them (next, while the tables hold this kind).
    StageDecline figures(const std::vector<Cat>& instanceCats, const std::vector<Cat>& childCats, ChildFigures& out, bool& linked)
    {
        tt_.clear();
        // A MAC operand is read in every busy step: its count needs no carries, but where links
        // may form (linksPossible looks at every carry).
        const bool carries = !f_->spec->macStage || f_->linkCandidate;
        if (sweepLoops(instanceCats, childCats, carries, tables_->carries.data()) != StageDecline::None) return StageDecline::Capacity;
        return sweptFigures(out, &linked);
    }
    // figures() of the kind sweepLoops() last swept (with carries); `linked` null where the
    // caller counts links itself.
    StageDecline sweptFigures(ChildFigures& out, bool* linked)
    {
        if (linked) *linked = false;
        const bool legacy = f_->spec->options->legacyZeroTranslationRule;
        const int top = static_cast<int>(fixed_[0]);  // above the outermost loop every context holds vacuously
        const Sweep& whole = sweepAt(0, top);
        out = ChildFigures{};
        if (!whole.busy) return StageDecline::None;
        out.active = whole.steps;
        for (int m = 0; m < (1 << nShape_); ++m)
            if ((whole.seen >> m) & 1u) out.maxTile = std::max(out.maxTile, words_[m]);
        if (linked && f_->linkCandidate && linksPossible()) {
            // (the legacy rule's repeated tiles are not counted here, but MAC operands are, which
            // it does not touch; the caller has one kind of child)
            if (legacy && !f_->spec->macStage) return StageDecline::LinksPossible;
            *linked = true;
        }
        if (f_->spec->macStage) {
            out.moved = whole.steps;  // every busy step reads its operand
            return StageDecline::None;
        }

        // The first busy step's whole tile and, from the empty reuse state, the moves after it:
        // the reuse rule's effect over the sweep's carries, which pass 1 composed (where a second
        // pass followed the reachable states, a sixth of Ruby's random search's instructions).
        out.moved = words_[whole.first] + whole.reuse.from(0).words;
        return StageDecline::None;
    }

    // Links for the kind figures() last analysed: per move `moves[i]`, the words of the busy steps
    // that the mesh neighbour at offset difference moves[i] can serve. A child's delta in a step
    // equals the one that neighbour had in the previous step (MeshLinks.h: all children of the
    // kind in lockstep) when the two deltas, each taken relative to its step's position, differ by
    // that difference less the step's move. So the joint state is the reuse state and the
    // previous step's delta relative to its position (the deltas met are numbered as they come;
    // 0: none or empty), from the first step's whole tile. False when the states do not fit.
    bool linkMatches(const std::vector<Vec>& moves, const std::vector<Cat>& instanceCats, const std::vector<Cat>& childCats,
                     std::vector<std::int64_t>& matched)
    {
        const int nRanks = f_->nRanks;
        const int S = tt_.states;
        const int top = static_cast<int>(fixed_[0]);
        const KindCategories cats{f_->leafPos, &instanceCats, &childCats};
        beginLinkDeltas();
        const int start = linkDeltaId(wholeDelta(tileAtOrigin(sweepAt(0, top).first), nRanks)) * S;
        bool overflow = false;
        matched.assign(moves.size(), 0);
        // A sweep per kSumsPerSweep moves, summing the words served under each of them.
        for (std::size_t from = 0; from < moves.size(); from += kSumsPerSweep) {
            const std::size_t until = std::min(moves.size(), from + kSumsPerSweep);
            auto linkStep = [&](int j, int c, int into, std::int64_t wholeWords, int state) -> StateStepOf<SweepSums> {
                const int s = state % S, q = state / S;
                const CarryInfo& k = carryOf(carries_, j, c, into);
                const auto [to, moved] = reuse(s, k.move, k.diff, wholeWords);
                if (moved == 0) return {to, SweepSums{}};
                const Delta now = carryDelta(carryTiles(k.shapes, k.d), moved);
                const int id = linkDeltaId(now);
                if ((id + 1) * S > ReachableStates::kMaxStates) {  // (the sweep goes on; its figures are dropped)
                    overflow = true;
                    return {to, SweepSums{}};
                }
                SweepSums served;
                if (q != 0) {
                    const Delta& before = linkDeltas_[static_cast<std::size_t>(q)];
                    Vec shift{};
                    for (int r = 0; r < nRanks; ++r) shift[r] = now.outer.lo[r] - before.outer.lo[r];
                    if (before.shiftedBy(shift, nRanks) == now) {
                        Vec difference{};  // the neighbour's offset less this child's
                        for (int r = 0; r < nRanks; ++r) difference[r] = shift[r] + k.d[r];
                        for (std::size_t i = from; i < until; ++i)
                            if (difference == moves[i]) {  // (the moves are distinct)
                                served.v[i - from] = moved;
                                break;
                            }
                    }
                }
                return {id * S + to, served};
            };
            reachableStates<SweepSums>().begin();
            const SweepSums total = followSweep<SweepSums>(0, top, start, cats, linkStep).second;
            if (overflow) return false;
            for (std::size_t i = from; i < until; ++i) matched[i] = total.v[i - from];
        }
        return true;
    }

    // Children of several kinds where links can form (tiles of different shapes, remainders on
    // the fanout: kinds that idle apart), for one kind of instance: its parent accesses, weighted
    // accesses and link words over all its steps, and the words each child forwards (`sent`).
    // Each step is counted over the mesh as the walker counts it (MeshLinks::countStep); what a
    // step counts follows from the kinds' joint state, per kind its reuse state and its delta in
    // the instance's previous step relative to that step (none where it idled), the carry into
    // the step and the kinds busy in it. The joint states met are numbered as they come, and so
    // are the steps' outcomes; a joint sweep per figure (and per outcome that uses links,
    // counting its occurrences) adds them up. Kinds join at carries as in sharedOffsetWords (a
    // kind that works after a carry worked before it in the same loop, and from the sweep's first
    // step). Kind x is swept with categories `kindCats[x]`; slotOf gives each child's kind, and
    // child 0 (index 0 in every fanout loop) works whenever the instance does: its moves are the
    // instance's. False when declining (a table too small, or kinds that do not join).
    // sweepJointKinds() swept the kinds first.
    struct InstanceLinks {
        std::int64_t accesses = 0, weighted = 0, linkWords = 0;
    };
    // Kinds of child for the joint counts (jointLinks, sharedOffsetWords): kind x swept with
    // categories kindCats[x], all with one translation table (the joint counts compare their
    // moves), its figures (as figures() gives them, without links) in (*figs)[x] where asked, and
    // with `traces` what the joint counts need of it kept in trace slot x. False when a table is
    // too small. (A kind is swept once for its figures and every joint count it takes part in.)
    bool sweepKinds(const std::vector<Cat>& instanceCats, const std::vector<Cat>* const* kindCats, int g, std::vector<ChildFigures>* figs,
                    bool traces)
    {
        if (g > kMaxSharingKinds) return false;
        if (traces && static_cast<std::size_t>(g) * static_cast<std::size_t>(carryStride_) > kTraceCarries) return false;
        const int top = static_cast<int>(fixed_[0]);
        tt_.clear();
        if (figs) figs->resize(static_cast<std::size_t>(g));
        const bool carries = traces || !f_->spec->macStage || f_->linkCandidate;  // (as figures() has them)
        for (int x = 0; x < g; ++x) {
            const auto ux = static_cast<std::size_t>(x);
            // (carries the joint counts read go straight into the kind's trace)
            CarryInfo* into = traces ? traceCarries(x) : tables_->carries.data();
            if (sweepLoops(instanceCats, *kindCats[ux], carries, into) != StageDecline::None) return false;
            if (figs) sweptFigures((*figs)[ux], nullptr);
            if (!traces) continue;
            const Sweep& whole = sweepAt(0, top);
            opening_[ux] = {whole.busy, whole.startsBusy, whole.first};
            captureTrace(x);
        }
        return true;
    }
    bool jointLinks(const std::vector<Cat>& instanceCats, int g, const MeshLinks& mesh, const std::vector<int>& slotOf, InstanceLinks& out,
                    std::vector<std::int64_t>& sent)
    {
        const int nRanks = f_->nRanks;
        const int top = static_cast<int>(fixed_[0]);
        const int base = slotOf[0];
        // (members, not made afresh: kMaxSharingKinds deltas; the first g are set here) Per kind
        // its delta in the step at hand: one of these, or an earlier kind's, or none.
        std::array<Delta, kMaxSharingKinds>& deltas = jointNow_;
        std::array<const Delta*, kMaxSharingKinds>& now = jointNowOf_;
        std::array<const Delta*, kMaxSharingKinds>& before = jointBeforeOf_;
        for (int x = 0; x < g; ++x) traceSlot_[static_cast<std::size_t>(x)] = static_cast<std::uint8_t>(x);
        for (int x = 0; x < g; ++x) {
            const Opening& whole = opening_[static_cast<std::size_t>(x)];
            if (whole.busy && !whole.startsBusy) return false;
            deltas[static_cast<std::size_t>(x)] = whole.busy ? wholeDelta(tileAtOrigin(whole.first), nRanks) : Delta{};
            now[static_cast<std::size_t>(x)] = &deltas[static_cast<std::size_t>(x)];
            before[static_cast<std::size_t>(x)] = &kNoDelta;
        }
        beginJoint();
        beginLinkDeltas();
        // (states, and the scratch ones, are read and written in their first 2g entries only)
        const auto width = static_cast<std::size_t>(2 * g);
        jointStatePool_.clear();
        jointStateIds_.clear();
        auto stateId = [&](const JointState& js) {
            const std::uint64_t h = hashMore(kHashSeed, js.v.begin(), js.v.begin() + 2 * g);
            const int known = jointStateIds_.find(h, [&](int id) {
                return std::equal(js.v.begin(), js.v.begin() + 2 * g, jointStatePool_.begin() + static_cast<std::ptrdiff_t>(id * width));
            });
            if (known >= 0) return known;
            const auto states = static_cast<int>(jointStatePool_.size() / width);
            if (states == ReachableStates::kMaxStates) return -1;
            jointStatePool_.insert(jointStatePool_.end(), js.v.begin(), js.v.begin() + 2 * g);
            jointStateIds_.add(h);
            return states;
        };
        // The first step: every kind busy sent its whole tile; no previous deltas.
        JointState first;
        for (int x = 0; x < g; ++x)
            first.v[static_cast<std::size_t>(2 * x + 1)] = static_cast<std::int16_t>(linkDeltaId(*now[static_cast<std::size_t>(x)]));
        const MeshLinks::StepFigures opening = mesh.countStep(slotOf, now.data(), before.data(), Vec{}, stepSent_);
        out = InstanceLinks{opening.accesses, opening.weighted, 0};
        const int start = stateId(first);
        outcomes_.clear();
        outcomeIds_.clear();
        countedSteps_.clear();
        countedDeltaPool_.clear();
        countedStepIds_.clear();
        linkOutcomeSent_.clear();
        bool overflow = false;
        auto outcomeOf = [&](int j, int c, int into, const KindSet& busyAfter, int state) -> const StepOutcome& {
            const std::uint64_t key = ((static_cast<std::uint64_t>(j) * kMaxContexts + static_cast<std::uint64_t>(c)) * 2 +
                                       static_cast<std::uint64_t>(into)) * ReachableStates::kMaxStates + static_cast<std::uint64_t>(state);
            const std::uint64_t hash = hashMore(kHashSeed, &key, &key + 1);
            const int known = outcomeIds_.find(hash, [&](int id) { return outcomes_[static_cast<std::size_t>(id)].first == key; });
            if (known >= 0) return outcomes_[static_cast<std::size_t>(known)].second;
            // (js is read until countedStep returns; only stateId, after it, adds states)
            const std::int16_t* js = jointStatePool_.data() + static_cast<std::size_t>(state) * width;
            JointState& next = jointNextState_;
            std::copy(js, js + 2 * g, next.v.begin());
            // The instance's move into this step (child 0's), taking the previous deltas along.
            Vec back{};
            for (int r = 0; r < nRanks; ++r) back[r] = -traceCarry(base, j, c, into).d[r];
            if (!busyAfter.has(base)) overflow = true;  // (cannot be: child 0 works whenever the instance does)
            const std::int16_t* alike = kindsAlikeAt(j, c, into, busyAfter, g);
            for (int x = 0; x < g; ++x) {
                const auto ux = static_cast<std::size_t>(x);
                next.v[2 * ux + 1] = 0;
                if (!busyAfter.has(x)) {  // idle: its reuse memory kept, no delta
                    now[ux] = &kNoDelta;
                    continue;
                }
                // (kinds that only idle apart mostly move alike: the delta of an earlier one)
                const auto same = static_cast<std::size_t>(alike[ux]);
                if (same != ux && js[2 * same] == js[2 * ux]) {
                    now[ux] = now[same];
                    next.v[2 * ux] = next.v[2 * same];
                    next.v[2 * ux + 1] = next.v[2 * same + 1];
                    continue;
                }
                const CarryInfo& k = traceCarry(x, j, c, into);
                const CarryTiles tiles = carryTiles(k.shapes, k.d);
                const auto [to, moved] = reuse(js[2 * ux], k.move, k.diff, tiles.cur.size(nRanks));
                deltas[ux] = carryDelta(tiles, moved);
                now[ux] = &deltas[ux];
                next.v[2 * ux] = static_cast<std::int16_t>(to);
                next.v[2 * ux + 1] = static_cast<std::int16_t>(linkDeltaId(deltas[ux]));
            }
            const CountedStep& step = countedStep(js, next, back, g, mesh, slotOf, now, before, overflow);
            StepOutcome o{stateId(next), step.figures.accesses, step.figures.weighted, step.figures.linkWords, step.linkOutcome};
            if (o.next < 0 || linkDeltas_.size() > static_cast<std::size_t>(std::numeric_limits<std::int16_t>::max())) {
                overflow = true;  // (the sweep goes on from this state; its figures are dropped)
                o.next = state;
            }
            outcomeIds_.add(hash);
            outcomes_.push_back({key, o});
            return outcomes_.back().second;
        };
        // The figures of the steps after the first, all three in one joint sweep; then how often
        // each outcome that uses links occurs, eight outcomes a sweep.
        auto sum = [&](auto&& figure) -> std::optional<decltype(figure(StepOutcome{}))> {
            using Cost = decltype(figure(StepOutcome{}));
            auto step = [&](int j, int c, int into, int entry, int inner, const KindSet& busyBefore, const KindSet& busyAfter,
                            int state) -> StateStepOf<Cost> {
                if (!jointPossible(entry, inner, busyBefore, busyAfter, g)) return {-1, Cost{}};
                const StepOutcome& o = outcomeOf(j, c, into, busyAfter, state);
                return {o.next, figure(o)};
            };
            reachableStates<Cost>().begin();
            const StateStepOf<Cost> total = followJoint<Cost>(0, top, start, instanceCats, g, step);
            if (total.first < 0 || overflow) return std::nullopt;
            return total.second;
        };
        const auto after = sum([](const StepOutcome& o) { return LinkFigures{{o.accesses, o.weighted, o.linkWords}}; });
        if (!after) return false;
        out.accesses += after->v[0];
        out.weighted += after->v[1];
        out.linkWords = after->v[2];
        sent.assign(static_cast<std::size_t>(f_->children), 0);
        for (std::size_t from = 0; from < linkOutcomeSent_.size(); from += kSumsPerSweep) {
            const auto times = sum([&](const StepOutcome& o) {
                SweepSums once;
                const auto t = static_cast<std::size_t>(o.linkOutcome);
                if (o.linkOutcome >= 0 && t >= from && t < from + kSumsPerSweep) once.v[t - from] = 1;
                return once;
            });
            if (!times) return false;
            for (std::size_t t = from; t < std::min(linkOutcomeSent_.size(), from + kSumsPerSweep); ++t)
                for (std::size_t c = 0; c < sent.size(); ++c) sent[c] += times->v[t - from] * linkOutcomeSent_[t][c];
        }
        return true;
    }

    // Per kind busy after the carry of loop j in context c into a non-last (0) or the last (1)
    // iteration, the first busy kind whose carry has the same tiles (itself if none): its move
    // and new words follow from them, so from the same reuse state the two get the same delta.
    // Found once per carry and analysis.
    // (the pointer holds until the next call that finds a carry not yet described)
    const std::int16_t* kindsAlikeAt(int j, int c, int into, const KindSet& busyAfter, int g)
    {
        KindsAlike& out = carryOf(tables_->kindsAlike.data(), j, c, into);
        if (out.stamp == jointRun_) return alikePool_.data() + out.at;
        out.stamp = jointRun_;
        out.at = static_cast<std::uint32_t>(alikePool_.size());
        alikePool_.resize(alikePool_.size() + static_cast<std::size_t>(g));
        std::int16_t* first = alikePool_.data() + out.at;
        for (int x = 0; x < g; ++x) {
            const auto ux = static_cast<std::size_t>(x);
            first[ux] = static_cast<std::int16_t>(x);
            if (!busyAfter.has(x)) continue;
            const CarryInfo& kt = traceCarry(x, j, c, into);
            for (int y = 0; y < x; ++y) {
                const CarryInfo& ko = traceCarry(y, j, c, into);
                if (busyAfter.has(y) && ko.shapes == kt.shapes && ko.d == kt.d) {
                    first[ux] = static_cast<std::int16_t>(y);
                    break;
                }
            }
        }
        return first;
    }

    // The reuse rule on a carry of move class m (its new words `diff`) from reuse state s, into a
    // tile of `whole` words: the next state and the words delivered. A MAC reads its operand (its
    // whole one-word tile) in every busy step, whatever moved.
    std::pair<int, std::int64_t> reuse(int s, int m, std::int64_t diff, std::int64_t whole, bool legacy = false) const
    {
        if (macStage_) return {0, whole};
        return tt_.reuse(s, m, diff, whole, legacy);
    }

    // The two tiles of a carry, relative to the position after it: the previous one (shape
    // the low bits of `shapes`, based at minus the carry) and the current one (the high bits, at the
    // origin).
    struct CarryTiles {
        Box prev, cur;
    };
    CarryTiles carryTiles(CarryShapes shapes, const Vec& carry) const
    {
        // (built in place: two tiles made apart and copied in showed in the joint counts' profile)
        CarryTiles t;
        const Vec& prev = ext_[static_cast<std::size_t>(shapes & (kMaxShapes - 1))];
        const Vec& cur = ext_[static_cast<std::size_t>(shapes >> kMaxShapeDims)];
        for (int r = 0; r < f_->nRanks; ++r) {
            t.prev.lo[r] = -carry[r];
            t.prev.ext[r] = prev[r];
            t.cur.ext[r] = cur[r];
        }
        return t;
    }
    // The walker's delta of a carry that moved `moved` words: nothing, the whole current tile (a
    // move out of the remembered class, or no overlap), or the words the previous tile lacked.
    Delta carryDelta(const CarryTiles& t, std::int64_t moved) const
    {
        const int nRanks = f_->nRanks;
        if (moved == 0) return Delta{};
        return moved == t.cur.size(nRanks) ? wholeDelta(t.cur, nRanks) : difference(t.cur, t.prev, nRanks);
    }

    // The number of delta d among those met by the analysis (linkDeltas_, from 1 in the order
    // met; 0 for none or an empty one).
    void beginLinkDeltas()
    {
        linkDeltas_.assign(1, Delta{});
        linkDeltaIds_.clear();
        linkDeltaIds_.add(0);  // (id 0, never matched: only non-empty deltas are looked up)
    }
    int linkDeltaId(const Delta& d)
    {
        if (d.size == 0) return 0;
        const std::uint64_t h = hashOf(d, f_->nRanks);
        const int known = linkDeltaIds_.find(h, [&](int id) { return id > 0 && linkDeltas_[static_cast<std::size_t>(id)] == d; });
        if (known > 0) return known;
        linkDeltas_.push_back(d);
        linkDeltaIds_.add(h);
        return static_cast<int>(linkDeltas_.size()) - 1;
    }

    // The link sweeps (linkMatches) for the kind of figures(), whose category at each spatial
    // position `cats` gives: the sweep at position p in (canonical) context c from state s,
    // following only the states reached (ReachableSweep.h). step(j, c, into, wholeWords, s): a
    // carry of temporal loop j in context c into a non-last (0) or the last (1) iteration whose
    // first tile has wholeWords.
    template <class Cost, class Cats, class Step>
    StateStepOf<Cost> followSweep(int p, int c, int s, const Cats& cats, Step& step)
    {
        if (p == end_) return {s, Cost{}};
        if (const StateStepOf<Cost>* known = reachableStates<Cost>().find(p, c, s)) return *known;
        return followNewSweep<Cost>(p, c, s, cats, step);
    }
    // (followSweep's check inlined at each call: most sweeps followed were followed before, and
    // the call of this large function cost more than the lookup)
    template <class Cost, class Cats, class Step>
    StateStepOf<Cost> followNewSweep(int p, int c, int s, const Cats& cats, Step& step)
    {
        ReachableStatesOf<Cost>& reachable = reachableStates<Cost>();
        const NestLoop& l = f_->nest->loops[p];
        const int bit = bitOf_[l.dim];
        StateStepOf<Cost> result{s, Cost{}};
        if (l.spatial()) {
            const Spatial sp = spatialEffect(cats(p), bit, c);
            if (sp.active) result = followSweep<Cost>(p + 1, canon(p + 1, sp.inner), s, cats, step);
        } else {
            const int c0 = canon(p + 1, bit >= 0 ? c & ~(1 << bit) : c), c1 = canon(p + 1, c);
            const std::int64_t trips = tripsOf(l, bit, c);
            const Sweep& s0 = sweepAt(p + 1, c0);
            const Sweep& s1 = sweepAt(p + 1, c1);
            if (trips == 1 || !s0.busy) {  // only the last iteration can work
                result = followSweep<Cost>(p + 1, c1, s, cats, step);
            } else {
                const int j = f_->temporalIndex[p];
                // A carry into a non-last (0) or the last (1) iteration, then its sweep.
                auto iteration = [&](int into, int& x, Cost& words) {
                    const int shape = into ? s1.first : s0.first;
                    const auto [to, moved] = step(j, c, into, words_[shape], x);
                    const StateStepOf<Cost> inner = followSweep<Cost>(p + 1, into ? c1 : c0, to, cats, step);
                    x = inner.first;
                    words += moved + inner.second;
                    return true;
                };
                result = followSweep<Cost>(p + 1, c0, s, cats, step);
                reachable.repeat(j, trips - 2, result.first, result.second, [&](int& x, Cost& w) { return iteration(0, x, w); });
                if (s1.busy) iteration(1, result.first, result.second);
            }
        }
        reachable.store(p, c, s, result);
        return result;
    }

    // What a spatial loop above the children does to an instance of category `cat`: per
    // (canonical) context there, the context below it, or kIdle where the instance idles. The
    // analysis reads an instance's categories only so (spatialEffect, in contexts among these),
    // so kinds of equal effects on every loop have equal figures.
    using LoopEffect = std::array<std::uint16_t, kMaxContexts>;
    static constexpr std::uint16_t kIdle = 0xffff;
    LoopEffect loopEffect(int p, Cat cat) const
    {
        const NestLoop& l = f_->nest->loops[static_cast<std::size_t>(p)];
        LoopEffect out{};
        for (std::uint32_t sub = free_[p];; sub = (sub - 1) & free_[p]) {
            const int c = static_cast<int>(fixed_[p] | sub);
            const Spatial sp = spatialEffect(cat, bitOf_[l.dim], c);
            out[static_cast<std::size_t>(c)] = sp.active ? static_cast<std::uint16_t>(canon(p + 1, sp.inner)) : kIdle;
            if (sub == 0) break;
        }
        return out;
    }
    // Numbers the effects of the spatial loops above the children: per loop, its categories of
    // the same effect (loopEffect) one class, the classes of a kind of instance read as a
    // mixed-radix number (effectsKey): kinds of equal keys have equal effects. (Numbered once per
    // stage: each kind's effects built context by context showed in the profile of MAC stages
    // with 96 kinds of instance, about 7% of the slowest unconstrained Ruby evaluation.)
    void numberEffects()
    {
        effectDigits_.clear();
        for (int p = 0; p < f_->leafPos; ++p) {
            const NestLoop& l = f_->nest->loops[static_cast<std::size_t>(p)];
            if (!l.spatial()) continue;
            EffectDigit d;
            d.pos = p;
            std::array<LoopEffect, walker::kCatCount> seen;
            for (const auto& [cat, count] : walker::categoriesOf(l, f_->nest->dimImperfect(l.dim))) {
                const LoopEffect e = loopEffect(p, cat);
                int cls = 0;
                while (cls < d.classes && seen[static_cast<std::size_t>(cls)] != e) ++cls;
                if (cls == d.classes) seen[static_cast<std::size_t>(d.classes++)] = e;
                d.classOf[static_cast<std::size_t>(cat)] = static_cast<std::uint8_t>(cls);
            }
            if (d.classes > 1) effectDigits_.push_back(d);  // (one class: no kind differs there)
        }
    }
    std::uint64_t effectsKey(const std::vector<Cat>& cats) const
    {
        std::uint64_t key = 0;
        for (const EffectDigit& d : effectDigits_) key = key * static_cast<std::uint64_t>(d.classes) + d.classOf[static_cast<std::size_t>(cats[static_cast<std::size_t>(d.pos)])];
        return key;
    }

    // With several kinds of child, per kind (in enumerateKinds' order over the fanout loops)
    // where it works and the shape of its tile in each context that reaches the fanout. Followed
    // loop by loop over the kinds' common prefixes (the enumeration varies the last loop
    // fastest), so each fanout loop is applied once per prefix, not once per kind.
    void behavioursOfKinds(std::vector<ChildBehaviour>& out) const
    {
        const int fanout = f_->leafPos;
        // Per entry context at the fanout, the context reached so far (-1: idle there).
        std::array<std::int16_t, kMaxContexts> start{};
        int nEntries = 0;
        std::array<std::uint8_t, kMaxContexts> entries{};
        for (std::uint32_t sub = free_[fanout];; sub = (sub - 1) & free_[fanout]) {
            entries[static_cast<std::size_t>(nEntries)] = static_cast<std::uint8_t>(fixed_[fanout] | sub);
            start[static_cast<std::size_t>(nEntries++)] = static_cast<std::int16_t>(fixed_[fanout] | sub);
            if (sub == 0) break;
        }
        out.clear();
        auto follow = [&](auto&& self, int p, const std::array<std::int16_t, kMaxContexts>& reached) -> void {
            if (p == end_) {
                ChildBehaviour b;
                for (int e = 0; e < nEntries; ++e) {
                    const int c = reached[static_cast<std::size_t>(e)];
                    if (c < 0) continue;
                    const int entry = entries[static_cast<std::size_t>(e)];
                    b.busy.add(entry);
                    const std::uint8_t shape = shapeOf(c);
                    for (int i = 0; i < nShape_; ++i)
                        if ((shape >> i) & 1u) b.residual[static_cast<std::size_t>(i)].add(entry);
                }
                out.push_back(b);
                return;
            }
            const NestLoop& l = f_->nest->loops[static_cast<std::size_t>(p)];
            if (!l.spatial()) return self(self, p + 1, reached);  // (no category: enumerateKinds skips it too)
            const int bit = bitOf_[l.dim];
            for (const auto& [cat, count] : walker::categoriesOf(l, f_->nest->dimImperfect(l.dim))) {
                std::array<std::int16_t, kMaxContexts> next;
                for (int e = 0; e < nEntries; ++e) {
                    const int c = reached[static_cast<std::size_t>(e)];
                    std::int16_t to = -1;
                    if (c >= 0) {
                        const Spatial sp = spatialEffect(cat, bit, c);
                        if (sp.active) to = static_cast<std::int16_t>(canon(p + 1, sp.inner));
                    }
                    next[static_cast<std::size_t>(e)] = to;
                }
                self(self, p + 1, next);
            }
        };
        follow(follow, fanout, start);
    }

    // The words the parent sends the children of g kinds that behave differently at one offset,
    // for one kind of instance (every kind busy somewhere; no MAC stage). Each kind keeps its own
    // reuse state; in a step the parent sends each distinct delta among the busy kinds once: a
    // delta is the whole tile, nothing, or the new words of one move, fixed by the move and the
    // shapes of the two tiles (all kinds at the offset are at the same position), so the joint
    // state is the kinds' reuse states. The sweeps' transforms join the kinds' moves at the
    // carries, which needs every kind busy in a sweep to be busy in its first step, and, where it
    // works after a carry, before it in the same loop (as the categories' monotone effects make
    // it; declines otherwise).
    // The kinds were swept together (sweepKinds), kind x into trace slot slots[x].
    std::optional<std::int64_t> sharedOffsetWords(const std::vector<Cat>& instanceCats, const int* slots, int g)
    {
        const int top = static_cast<int>(fixed_[0]);
        std::array<Box, kMaxSharingKinds>& firstTiles = firstTiles_;  // (the first g set below)
        for (int x = 0; x < g; ++x) {
            const auto ux = static_cast<std::size_t>(x);
            traceSlot_[ux] = static_cast<std::uint8_t>(slots[x]);
            const Opening& whole = opening_[static_cast<std::size_t>(slots[x])];
            if (!whole.startsBusy) return std::nullopt;
            firstTiles[ux] = tileAtOrigin(whole.first);
        }
        const bool legacy = f_->spec->options->legacyZeroTranslationRule;
        beginJoint();
        beginJointReuse(g);
        auto shareStep = [&](int j, int c, int into, int entry, int inner, const KindSet& before, const KindSet& after, int x) -> StateStep {
            const JointCarry& carry = jointCarry(j, c, into, entry, inner, before, after, g);
            if (!carry.possible) return {-1, 0};
            // (the first g entries only: the rest are never read, and copying all showed in the profile)
            JointReuse& from = jointFrom_;
            JointReuse& next = jointNext_;
            jointReuse(x, g, from);
            const std::int64_t words = jointStep(carry, j, c, into, from, next, g, legacy);
            return {jointReuseId(next, g), words};
        };
        const StateStep after = followJoint<std::int64_t>(0, top, 0, instanceCats, g, shareStep);
        if (after.first < 0) return std::nullopt;
        // The first step: every kind busy, each sent its whole tile (one delta per distinct shape).
        std::int64_t firstWords = 0;
        for (int x = 0; x < g; ++x)
            if (std::find(firstTiles.begin(), firstTiles.begin() + x, firstTiles[static_cast<std::size_t>(x)]) == firstTiles.begin() + x)
                firstWords += firstTiles[static_cast<std::size_t>(x)].size(f_->nRanks);
        return firstWords + after.second;
    }

    // The joint pass over the kinds swept (captureTrace): the sweep at position p in (canonical)
    // context c from joint state s, following only the states reached (ReachableSweep.h).
    // step(j, c, into, entry, inner, busyBefore, busyAfter, s): a carry of temporal loop j in
    // context c into a non-last (0) or the last (1) iteration, whose sweep starts at position
    // `inner` in context `entry`, with the kinds busy in the iteration before and after it (bit
    // per kind); a negative state gives up (as does this, then).
    template <class Cost, class Step>
    StateStepOf<Cost> followJoint(int p, int c, int s, const std::vector<Cat>& instanceCats, int g, Step& step)
    {
        ReachableStatesOf<Cost>& reachable = reachableStates<Cost>();
        if (p == f_->leafPos) return {s, Cost{}};
        if (const StateStepOf<Cost>* known = reachable.find(p, c, s)) return *known;
        const NestLoop& l = f_->nest->loops[p];
        const int bit = bitOf_[l.dim];
        StateStepOf<Cost> result{s, Cost{}};
        if (l.spatial()) {  // an instance loop: the same for every kind of child
            const Spatial sp = spatialEffect(instanceCats[static_cast<std::size_t>(p)], bit, c);
            if (sp.active) result = followJoint<Cost>(p + 1, canon(p + 1, sp.inner), s, instanceCats, g, step);
        } else {
            const int c0 = canon(p + 1, bit >= 0 ? c & ~(1 << bit) : c), c1 = canon(p + 1, c);
            const std::int64_t trips = tripsOf(l, bit, c);
            KindSet busy0, busy1;  // the kinds busy in a non-last iteration, in the last
            for (int x = 0; x < g; ++x) {
                const auto& b = traceOf(x).busy[p + 1];
                if (b[c0] & 1) busy0.add(x);
                if (b[c1] & 1) busy1.add(x);
            }
            if (trips == 1 || busy0.empty()) {  // only the last iteration can work
                result = followJoint<Cost>(p + 1, c1, s, instanceCats, g, step);
            } else {
                const int j = f_->temporalIndex[p];
                // A joint carry into a non-last (0) or the last (1) iteration, then its sweep.
                auto iteration = [&](int into, int& x, Cost& words) {
                    const StateStepOf<Cost> moved = step(j, c, into, into ? c1 : c0, p + 1, busy0, into ? busy1 : busy0, x);
                    if (moved.first < 0) return false;
                    const StateStepOf<Cost> inner = followJoint<Cost>(p + 1, into ? c1 : c0, moved.first, instanceCats, g, step);
                    x = inner.first;
                    words += moved.second + inner.second;
                    return x >= 0;
                };
                result = followJoint<Cost>(p + 1, c0, s, instanceCats, g, step);
                if (result.first < 0 ||
                    !reachable.repeat(j, trips - 2, result.first, result.second, [&](int& x, Cost& w) { return iteration(0, x, w); }) ||
                    (!busy1.empty() && !iteration(1, result.first, result.second)))
                    return {-1, Cost{}};
            }
        }
        reachable.store(p, c, s, result);
        return result;
    }
    // The memo of the sweeps that sum one figure (the words moved), jointLinks' three figures,
    // or eight sums.
    template <class Cost>
    ReachableStatesOf<Cost>& reachableStates()
    {
        return std::get<ReachableStatesOf<Cost>>(reachables_);
    }

    // A new joint analysis: the joint carries (and kinds alike) described for the last one are forgotten.
    void beginJoint()
    {
        if (++jointRun_ == 0) {  // stamps wrapped: forget every carry
            tables_->jointCarries.fill(JointCarry{});
            tables_->kindsAlike.fill(KindsAlike{});
            jointRun_ = 1;
        }
        kindDeltasPool_.clear();
        alikePool_.clear();
        reachableStates<std::int64_t>().begin();
    }

    // Keeps what the joint count needs of the kind just swept (sweepLoops), but for its carries,
    // which the sweep wrote into the trace: per position and context whether it works there and
    // in the sweep's first step.
    void captureTrace(int x)
    {
        KindTrace& trace = traces_[static_cast<std::size_t>(x)];
        const int fanout = f_->leafPos;
        for (int p = 0; p <= fanout; ++p)
            for (std::uint32_t sub = free_[p];; sub = (sub - 1) & free_[p]) {
                const int c = static_cast<int>(fixed_[p] | sub);
                const Sweep& sw = sweepAt(p, c);
                trace.busy[p][c] = static_cast<std::uint8_t>((sw.busy ? 1 : 0) | (sw.startsBusy ? 2 : 0));
                if (sub == 0) break;
            }
    }

    // A tile of shape `shape` based at the origin.
    Box tileAtOrigin(int shape) const
    {
        Box b;
        for (int r = 0; r < f_->nRanks; ++r) b.ext[r] = ext_[static_cast<std::size_t>(shape)][r];
        return b;
    }

    // The joint carry of temporal loop j in context c into the next iteration (context `entry` at
    // position `inner`): the kinds busy there move from their last busy step, each distinct delta
    // sent once (possible as jointPossible says). Described once per analysis (jointStep applies
    // it to a state).
    // Per-kind records live in pools filled as the analysis describes carries (the first g
    // entries from `at`): sized for every kind in each carry's entry, the tables were 14 MB, and
    // a carry's first description touched a page of its own (a fifth of a thread's first-touch
    // page faults, each a millisecond pause early in a search).
    struct KindsAlike {
        std::uint32_t stamp = 0;
        std::uint32_t at = 0;  // in alikePool_: per kind, the first kind alike (itself if none)
    };
    struct JointCarry {
        std::uint32_t stamp = 0;
        bool possible = false;
        std::uint32_t at = 0;  // in kindDeltasPool_: per kind, its KindDeltas
        KindSet busyAfter;
        // Per kind busy after the carry: the ids of its two possible deltas (its whole tile and
        // the new words of its move), equal ids for equal deltas, and its whole tile's words.
        // (a record per kind: the first few kinds' figures then share a cache line)
        struct KindDeltas {
            int wholeId = 0, newWordsId = 0;
            std::int64_t wholeWords = 0;
        };
    };
    // Whether the kinds can join at a carry into context `entry` at position `inner`: none busy
    // after it was idle before it or idles in its first step.
    bool jointPossible(int entry, int inner, const KindSet& busyBefore, const KindSet& busyAfter, int g) const
    {
        for (int x = 0; x < g; ++x)
            if (busyAfter.has(x))
                if (!busyBefore.has(x) || !(traceOf(x).busy[inner][entry] & 2)) return false;
        return true;
    }
    const JointCarry& jointCarry(int j, int c, int into, int entry, int inner, const KindSet& busyBefore, const KindSet& busyAfter, int g)
    {
        JointCarry& out = carryOf(tables_->jointCarries.data(), j, c, into);
        if (out.stamp == jointRun_) return out;
        // (the per-kind figures are written, and read, for the kinds busy after the carry only)
        out.stamp = jointRun_;
        out.possible = false;
        out.busyAfter = busyAfter;
        if (!jointPossible(entry, inner, busyBefore, busyAfter, g)) return out;
        out.possible = true;
        out.at = static_cast<std::uint32_t>(kindDeltasPool_.size());
        kindDeltasPool_.resize(kindDeltasPool_.size() + static_cast<std::size_t>(g));
        JointCarry::KindDeltas* kinds = kindDeltasPool_.data() + out.at;
        // With one kind busy its delta is sent whichever it is: the deltas need not be told apart.
        const bool several = busyAfter.several();
        int nDeltas = 0;
        auto idOf = [&](const Delta& d) {
            const int at = static_cast<int>(std::find(jointDeltas_.begin(), jointDeltas_.begin() + nDeltas, d) - jointDeltas_.begin());
            if (at == nDeltas) jointDeltas_[static_cast<std::size_t>(nDeltas++)] = d;
            return at;
        };
        for (int x = 0; x < g; ++x) {
            if (!busyAfter.has(x)) continue;
            // A kind whose carry has the same tiles as an earlier one's (kinds that only idle
            // apart, the usual case) has the same deltas: no need to build them again.
            const int same = kindsAlikeAt(j, c, into, busyAfter, g)[static_cast<std::size_t>(x)];
            if (same < x) {
                const auto ux = static_cast<std::size_t>(x), us = static_cast<std::size_t>(same);
                kinds[ux] = kinds[us];
                continue;
            }
            const CarryInfo& k = traceCarry(x, j, c, into);
            const CarryTiles tiles = carryTiles(k.shapes, k.d);
            JointCarry::KindDeltas& mine = kinds[static_cast<std::size_t>(x)];
            mine.wholeWords = tiles.cur.size(f_->nRanks);
            if (!several) {
                mine.wholeId = 0;
                mine.newWordsId = 1;
                continue;
            }
            mine.wholeId = idOf(wholeDelta(tiles.cur, f_->nRanks));
            mine.newWordsId = idOf(difference(tiles.cur, tiles.prev, f_->nRanks));
        }
        return out;
    }
    // The joint carry from joint reuse state `from`: the next one and the words of its distinct deltas.
    std::int64_t jointStep(const JointCarry& carry, int j, int c, int into, const JointReuse& from, JointReuse& next, int g,
                           bool legacy) const
    {
        std::bitset<2 * kMaxSharingKinds> sent;  // the ids of the distinct deltas of this step
        std::int64_t cost = 0;
        const JointCarry::KindDeltas* kinds = kindDeltasPool_.data() + carry.at;
        for (int x = 0; x < g; ++x) {
            int sx = from[static_cast<std::size_t>(x)];
            if (carry.busyAfter.has(x)) {
                const JointCarry::KindDeltas& deltas = kinds[static_cast<std::size_t>(x)];
                const std::int64_t whole = deltas.wholeWords;
                const CarryInfo& k = traceCarry(x, j, c, into);
                const auto [to, moved] = reuse(sx, k.move, k.diff, whole, legacy);
                sx = to;
                // (new words as many as the whole tile: no overlap, the whole tile as delta)
                const int id = moved == whole ? deltas.wholeId : deltas.newWordsId;
                if (moved > 0 && !sent.test(static_cast<std::size_t>(id))) {
                    sent.set(static_cast<std::size_t>(id));
                    cost += moved;
                }
            }
            next[static_cast<std::size_t>(x)] = static_cast<std::int16_t>(sx);
        }
        return cost;
    }
    // The joint reuse states of g kinds are numbered in mixed radix (each kind a digit) where all
    // their combinations fit the sweeps' tables, as they do for two or three kinds; else as they
    // are met (reuseStatePool_, g values each), up to the tables' room. 0 is every kind's empty state.
    void beginJointReuse(int g)
    {
        radix_ = tt_.states;
        for (int x = 0, n = 1; x < g && radix_ > 0; ++x) {
            n *= tt_.states;
            if (n > kMaxJointStates) radix_ = 0;
        }
        reuseStatePool_.clear();
        reuseIds_.clear();
        if (radix_ == 0) jointReuseId(JointReuse{}, g);
    }
    // Joint reuse state `id` into the first g entries of r.
    void jointReuse(int id, int g, JointReuse& r) const
    {
        if (radix_ == 0) {
            const auto met = reuseStatePool_.begin() + static_cast<std::ptrdiff_t>(id) * g;
            std::copy(met, met + g, r.begin());
            return;
        }
        for (int x = 0; x < g; ++x, id /= radix_) r[static_cast<std::size_t>(x)] = static_cast<std::int16_t>(id % radix_);
    }
    // The number of joint reuse state r; -1 past the tables' room.
    int jointReuseId(const JointReuse& r, int g)
    {
        if (radix_ > 0) {
            int id = 0;
            for (int x = g - 1; x >= 0; --x) id = id * radix_ + r[static_cast<std::size_t>(x)];
            return id;
        }
        const std::uint64_t h = hashMore(kHashSeed, r.begin(), r.begin() + g);
        const int known = reuseIds_.find(h, [&](int id) {
            return std::equal(r.begin(), r.begin() + g, reuseStatePool_.begin() + static_cast<std::ptrdiff_t>(id) * g);
        });
        if (known >= 0) return known;
        const auto states = static_cast<int>(reuseStatePool_.size() / static_cast<std::size_t>(g));
        if (states == kMaxJointStates) return -1;
        reuseStatePool_.insert(reuseStatePool_.end(), r.begin(), r.begin() + g);
        reuseIds_.add(h);
        return states;
    }

    // Loop j's carry into a non-last (0) or the last (1) iteration, copied between contexts.
    void copyCarry(int j, int fromContext, int fromInto, int toContext, int toInto)
    {
        carryOf(carries_, j, toContext, toInto) = carryOf(carries_, j, fromContext, fromInto);
    }
    // The reuse rule over temporal loop p in context c (its carries registered): the first
    // iteration, trips - 2 times a carry into a non-last one and its sweep, and where the last
    // works a carry into it and its sweep (as followNewSweep follows them).
    ReuseRuleEffect reuseOfLoop(int p, int c, std::int64_t trips, const Sweep& s0, const Sweep& s1) const
    {
        if (!s0.busy) return s1.reuse;  // only the last iteration works
        const int j = f_->temporalIndex[p];
        auto carryInto = [&](int into, const Sweep& next) {
            const CarryInfo& k = carryOf(carries_, j, c, into);
            return ReuseRuleEffect::carry(tt_.stateOf[k.move], k.diff, words_[next.first]).then(next.reuse);
        };
        ReuseRuleEffect r = s0.reuse;
        if (trips > 2) r = r.then(carryInto(0, s0).repeated(trips - 2));
        if (s1.busy) r = r.then(carryInto(1, s1));
        return r;
    }

    // The translations of the carries of loop p in context c: from the last busy step of a
    // non-last iteration to the first busy step of the next iteration, a non-last one or the last.
    template <int kRanks>
    StageDecline registerCarries(int p, int c, const Sweep& s0, const Sweep& s1, bool legacy)
    {
        const int nRanks = kRanks > 0 ? kRanks : f_->nRanks;
        const auto& steps = *f_->spec->stepVectors;
        const int j = f_->temporalIndex[p];
        for (int into = 0; into < 2; ++into) {
            const Sweep& next = into ? s1 : s0;
            if (!next.busy) continue;
            if (into == 1 && &s1 == &s0) {  // the last iteration sweeps as the others: the same carry
                copyCarry(j, c, 0, c, 1);
                continue;
            }
            Vec d{};
            for (int r = 0; r < nRanks; ++r) d[r] = steps[p][r] + next.firstPos[r] - s0.lastPos[r];
            const int prev = s0.last, cur = next.first;
            const Vec move = nShape_ > 0 ? centroidMove(ext_[prev], ext_[cur], d, nRanks) : d;
            const int m = tt_.findOrAdd(move, nRanks, legacy).first;
            if (m < 0) return StageDecline::Capacity;
            CarryInfo& k = carryOf(carries_, j, c, into);
            k.move = m;
            k.diff = words_[cur] - overlapWords(ext_[prev], ext_[cur], d, nRanks);
            k.d = d;
            k.shapes = static_cast<CarryShapes>(prev | (cur << kMaxShapeDims));
        }
        return StageDecline::None;
    }

private:
    const StageFrame* f_ = nullptr;
    bool macStage_ = false;  // f_'s children are MACs
    int end_ = 0;  // the leaf's position: leafPos, or boundary when the fanout has remainders
    std::array<int, 32> bitOf_{};  // per dimension: its context bit, or -1
    std::array<std::uint32_t, kMaxPositions> relevant_{}, free_{}, fixed_{};  // see prepare()
    int nBits_ = 0;
    std::array<int, kMaxShapeDims> shapeDim_{};
    int nShape_ = 0;
    std::array<Vec, kMaxShapes> ext_{};
    std::array<std::int64_t, kMaxShapes> words_{};
    IndexedTranslationTable<kMaxTranslations> tt_;
    // What the joint count of kinds sharing an offset keeps of each kind's pass 1: per position
    // and context whether it works there (bit 0) and in the sweep's first step (bit 1), and its
    // carries (in traceCarries: sweepKinds has sweepLoops write them there straight away; copied
    // after the sweep, they were a fifth of the sweeps' time on 48 kinds of child).
    struct KindTrace {
        std::array<std::array<std::uint8_t, kMaxContexts>, kMaxPositions> busy;
    };
    // The large tables (about 63 MB of address space, sized for the worst stage, of which
    // a stage touches what its loops, contexts and kinds use; a stage writes an entry before it
    // reads it, but for the joint carries' stamps, which start at zero, below any run).
    struct Tables {
        std::array<Sweep, kMaxPositions * kMaxContexts> info;  // at sweepSlot_
        std::array<std::array<const Sweep*, kMaxContexts>, kMaxPositions> sweeps;
        std::array<CarryInfo, kMaxCarries> carries;  // the kind swept alone (figures())
        std::array<KindTrace, kMaxSharingKinds> traces;
        // Per trace slot, its kind's carries, carryStride_ entries a slot (the stage's carries
        // side by side: a stage touches the pages of the slots it fills, not 235 KB a slot).
        std::array<CarryInfo, kTraceCarries> traceCarries;
        std::array<JointCarry, kMaxCarries> jointCarries;  // at a carry's slot (carryOf), valid where stamp == jointRun_
        std::array<KindsAlike, kMaxCarries> kindsAlike;    // likewise
        std::array<Delta, 2 * kMaxSharingKinds> jointDeltas;  // jointCarry's scratch (not made afresh per carry: they are large)
        std::array<Delta, kMaxSharingKinds> jointNow;          // jointLinks' deltas of a step
        std::array<Box, kMaxSharingKinds> firstTiles;          // sharedOffsetWords' first tiles
    };
    ZeroedTable<Tables> tables_{1};
    // Per position and context its sweep: built in the info table (at sweepSlot_) where the
    // loop changes it, else the one further in (sweeps_ points at it: a spatial loop or a loop of
    // one trip copies nothing).
    std::array<std::array<std::uint16_t, kMaxContexts>, kMaxPositions> sweepSlot_{};
    Sweep& infoAt(int p, int c) { return tables_->info[sweepSlot_[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)]]; }
    decltype(Tables::sweeps)& sweeps_ = tables_->sweeps;
    const Sweep& sweepAt(int p, int c) const { return *sweeps_[static_cast<std::size_t>(p)][static_cast<std::size_t>(c)]; }
    // The carries of the kind sweepLoops swept last: tables_->carries, or its trace's in sweepKinds.
    CarryInfo* carries_ = tables_->carries.data();
    // Per temporal loop and (canonical) context there, where its two carries sit in a kind's
    // carries; the entries a kind's carries take (prepare()).
    std::array<std::array<std::uint16_t, kMaxContexts>, kMaxLoops> carrySlot_{};
    int carryStride_ = 0;
    template <class Info>  // a carry's entry in a table laid out as a kind's carries (CarryInfo, JointCarry, KindsAlike)
    Info& carryOf(Info* table, int j, int c, int into) const
    {
        return table[carrySlot_[static_cast<std::size_t>(j)][static_cast<std::size_t>(c)] + static_cast<std::size_t>(into)];
    }
    CarryInfo* traceCarries(int slot) { return tables_->traceCarries.data() + static_cast<std::size_t>(slot) * static_cast<std::size_t>(carryStride_); }
    const CarryInfo& traceCarry(int x, int j, int c, int into) const
    {
        const std::size_t slot = traceSlot_[static_cast<std::size_t>(x)];
        return carryOf(tables_->traceCarries.data() + slot * static_cast<std::size_t>(carryStride_), j, c, into);
    }
    decltype(Tables::traces)& traces_ = tables_->traces;
    std::uint32_t jointRun_ = 0;
    std::vector<JointCarry::KindDeltas> kindDeltasPool_;  // the joint carries' per-kind records (this run's)
    std::vector<std::int16_t> alikePool_;                 // the kinds-alike lists (this run's)
    decltype(Tables::jointDeltas)& jointDeltas_ = tables_->jointDeltas;
    decltype(Tables::jointNow)& jointNow_ = tables_->jointNow;
    // Per trace slot (sweepKinds): whether its kind works, and from its first step, and that step's tile shape.
    struct Opening {
        bool busy = false, startsBusy = false;
        std::uint8_t first = 0;
    };
    std::array<Opening, kMaxSharingKinds> opening_;
    // Per kind of the joint count at hand, its trace slot.
    std::array<std::uint8_t, kMaxSharingKinds> traceSlot_{};
    const KindTrace& traceOf(int x) const { return traces_[traceSlot_[static_cast<std::size_t>(x)]]; }
    std::array<const Delta*, kMaxSharingKinds> jointNowOf_{}, jointBeforeOf_{};  // ... per kind, and of the step before
    static inline const Delta kNoDelta{};
    decltype(Tables::firstTiles)& firstTiles_ = tables_->firstTiles;
    JointReuse jointFrom_{}, jointNext_{};  // sharedOffsetWords' scratch: a step's joint reuse state, and the next
    std::tuple<ReachableStates, ReachableStatesOf<LinkFigures>, ReachableStatesOf<SweepSums>> reachables_;
    // linkMatches(): the deltas met (relative to their step's position; 0 none).
    std::vector<Delta> linkDeltas_;
    HashedIds linkDeltaIds_;
    // jointLinks(): the joint states met (per kind its reuse state and its last delta's id),
    // the steps' outcomes by (loop, context, into, joint state), and per outcome that uses links
    // the words each child forwards in it.
    // (the states met are kept 2g values each in jointStatePool_: records sized for every kind
    // took a kilobyte each, and a stage of a thousand states grew its table page by page)
    struct JointState {
        std::array<std::int16_t, 2 * kMaxSharingKinds> v{};
    };
    JointState jointNextState_;  // jointLinks' scratch: the next joint state of a step
    struct StepOutcome {
        int next = 0;
        std::int64_t accesses = 0, weighted = 0, linkWords = 0;
        int linkOutcome = -1;
    };
    // jointLinks' count of a step over the mesh (MeshLinks::countStep), which follows from the
    // kinds' deltas alone: per kind the id of its delta in this step (in `next`) and in the
    // previous one (in `js`), and the instance's move back to that step where some kind had one.
    // Counted once per distinct set (a joint sweep meets each three or four times over, in other
    // loops, contexts or reuse states), as are the words each child forwards in it.
    struct CountedStep {
        std::uint32_t deltasAt = 0;  // in countedDeltaPool_, 2g values: per kind this step's delta id, then the previous one's
        Vec back{};
        MeshLinks::StepFigures figures;
        int linkOutcome = -1;  // where links serve: its index in linkOutcomeSent_
    };
    const CountedStep& countedStep(const std::int16_t* js, const JointState& next, const Vec& back, int g, const MeshLinks& mesh,
                                   const std::vector<int>& slotOf, const std::array<const Delta*, kMaxSharingKinds>& now,
                                   std::array<const Delta*, kMaxSharingKinds>& before, bool& overflow)
    {
        CountedStep key;
        JointState& keyDeltas = countedKeyDeltas_;  // (its first 2g values set here, the rest never read)
        bool anyBefore = false;
        for (int x = 0; x < g; ++x) {
            const auto ux = static_cast<std::size_t>(x);
            keyDeltas.v[2 * ux] = next.v[2 * ux + 1];
            keyDeltas.v[2 * ux + 1] = js[2 * ux + 1];
            anyBefore = anyBefore || js[2 * ux + 1] != 0;
        }
        if (anyBefore) key.back = back;  // (without previous deltas the move changes nothing)
        const std::uint64_t hash = hashMore(hashMore(kHashSeed, keyDeltas.v.begin(), keyDeltas.v.begin() + 2 * g), key.back.begin(),
                                            key.back.begin() + f_->nRanks);
        // (hashed: a joint sweep with many states may count thousands of steps)
        const int known = countedStepIds_.find(hash, [&](int id) {
            const CountedStep& k = countedSteps_[static_cast<std::size_t>(id)];
            return k.back == key.back &&
                   std::equal(keyDeltas.v.begin(), keyDeltas.v.begin() + 2 * g, countedDeltaPool_.begin() + static_cast<std::ptrdiff_t>(k.deltasAt));
        });
        if (known >= 0) return countedSteps_[static_cast<std::size_t>(known)];
        countedStepIds_.add(hash);
        key.deltasAt = static_cast<std::uint32_t>(countedDeltaPool_.size());
        countedDeltaPool_.insert(countedDeltaPool_.end(), keyDeltas.v.begin(), keyDeltas.v.begin() + 2 * g);
        for (int x = 0; x < g; ++x) {
            const auto ux = static_cast<std::size_t>(x);
            const int had = js[2 * ux + 1];
            before[ux] = had == 0 ? &kNoDelta : &linkDeltas_[static_cast<std::size_t>(had)];
        }
        key.figures = mesh.countStep(slotOf, now.data(), before.data(), back, stepSent_);
        if (key.figures.linked) {
            if (linkOutcomeSent_.size() == kMaxLinkOutcomes) overflow = true;
            key.linkOutcome = static_cast<int>(linkOutcomeSent_.size());
            linkOutcomeSent_.push_back(stepSent_);
        }
        countedSteps_.push_back(key);
        return countedSteps_.back();
    }
    static constexpr std::size_t kMaxLinkOutcomes = 64;  // steps counted that use links (a sweep per kSumsPerSweep)
    std::vector<std::int16_t> jointStatePool_;  // the joint states met, 2g values each
    HashedIds jointStateIds_;
    // sharedOffsetWords(): the radix of its joint reuse states' numbers, or 0 where they are
    // numbered as met (beginJointReuse): then the states met and their numbers.
    int radix_ = 0;
    std::vector<std::int16_t> reuseStatePool_;
    HashedIds reuseIds_;
    // (numbered through HashedIds: a map's node per outcome, hundreds a stage, showed in the profile)
    std::vector<std::pair<std::uint64_t, StepOutcome>> outcomes_;
    HashedIds outcomeIds_;
    std::vector<CountedStep> countedSteps_;
    std::vector<std::int16_t> countedDeltaPool_;  // their delta ids
    JointState countedKeyDeltas_;  // countedStep's scratch key
    HashedIds countedStepIds_;  // countedSteps_ by the hash of their keys
    std::vector<std::vector<std::int64_t>> linkOutcomeSent_;
    std::vector<std::int64_t> stepSent_;  // countStep's scratch

    // numberEffects(): per spatial loop above the children where categories act differently,
    // its number of classes and each category's class.
    struct EffectDigit {
        int pos = 0;
        int classes = 0;
        std::array<std::uint8_t, walker::kCatCount> classOf{};
    };
    std::vector<EffectDigit> effectDigits_;

    std::uint8_t shapeOf(int context) const
    {
        std::uint8_t m = 0;
        for (int i = 0; i < nShape_; ++i)
            if ((context >> bitOf_[shapeDim_[i]]) & 1) m |= static_cast<std::uint8_t>(1u << i);
        return m;
    }
    // A spatial loop above the children, for an instance of category `cat`, in context c: whether
    // the instance works in the sweep below it, and the context there (its dimension's bit
    // cleared where the index is not the last one).
    struct Spatial {
        bool active;
        int inner;
    };
    static Spatial spatialEffect(Cat cat, int bit, int c)
    {
        if (bit < 0) return {true, c};  // a loop without remainder on a dimension without context
        const walker::CatEffect e = walker::effectOf(cat, ((c >> bit) & 1) != 0);
        return {e.active, e.last ? c : c & ~(1 << bit)};
    }
    int canon(int p, int context) const { return static_cast<int>(static_cast<std::uint32_t>(context) & relevant_[p]); }
    static std::int64_t tripsOf(const NestLoop& l, int bit, int context)
    {
        return bit >= 0 && ((context >> bit) & 1) ? l.residual : l.bound;
    }
    // Links need two mesh neighbours whose offsets differ by the move between two consecutive
    // steps (a carry's translation, or none for the MACs): decline when that can happen.
    bool linksPossible() const
    {
        // (Unlike in the perfect form, a carry may move nothing in some contexts only, e.g. over
        // an inner loop cut to one trip; neighbours holding the same words may then pass them on.
        // Where tiles change shape, the canonical deltas (slabs) of consecutive steps may match
        // under other differences than the moves: any neighbour may then serve.)
        auto isMove = [&](const Vec& d) {
            if (nShape_ > 0) return true;
            if (f_->isZero(d) && f_->spec->macStage && f_->k > 0) return true;
            for (int p = 0; p < f_->leafPos; ++p) {
                const NestLoop& l = f_->nest->loops[p];
                if (l.spatial()) continue;
                const int j = f_->temporalIndex[p];
                const int bit = bitOf_[l.dim];
                for (std::uint32_t sub = free_[p];; sub = (sub - 1) & free_[p]) {
                    const int c = static_cast<int>(fixed_[p] | sub);
                    const Sweep& s0 = sweepAt(p + 1, canon(p + 1, bit >= 0 ? c & ~(1 << bit) : c));
                    const Sweep& s1 = sweepAt(p + 1, canon(p + 1, c));
                    if (tripsOf(l, bit, c) > 1 && s0.busy)
                        for (int into = 0; into < 2; ++into)
                            if ((into ? s1 : s0).busy && carryOf(carries_, j, c, into).d == d) return true;
                    if (sub == 0) break;
                }
            }
            for (int t = 0; t < tt_.count; ++t)
                if (tt_.vec[t] == d) return true;
            return false;
        };
        return f_->anyNeighbourDifference(isMove);
    }
};

// Offsets where child kinds of different busy contexts meet: one kind of each, and how many
// offsets of an instance have those kinds.
struct Sharing {
    std::array<int, kMaxSharingKinds> kinds{};
    int g = 0;
    std::int64_t offsets = 0;
};

// With children of several kinds: per kind, the first kind of the same behaviour at the fanout
// (alike in every step, so at one offset they receive one delta, and their figures are the same:
// that kind stands for them), the offsets it serves, and the offsets where kinds of different
// behaviours meet. False when more kinds meet at one offset than the joint count takes.
bool placeChildren(const TemporalRemainderAnalysis& analysis, const std::vector<Kind>& children, const ChildPlacement& placement,
                   std::vector<int>& standsFor, std::vector<std::int64_t>& groups, std::vector<Sharing>& sharings)
{
    thread_local std::vector<ChildBehaviour> behaviours;
    standsFor.resize(children.size());
    thread_local HashedIds behaviourIds;  // the first kind of each behaviour (hashed: up to a few hundred kinds)
    thread_local std::vector<int> firstOfBehaviour;
    behaviourIds.clear();
    firstOfBehaviour.clear();
    analysis.behavioursOfKinds(behaviours);
    for (std::size_t c = 0; c < children.size(); ++c) {
        const ChildBehaviour& b = behaviours[c];
        std::uint64_t h = hashMore(kHashSeed, b.busy.begin(), b.busy.end());
        for (const ContextSet& r : b.residual) h = hashMore(h, r.begin(), r.end());
        int id = behaviourIds.find(h, [&](int i) { return behaviours[static_cast<std::size_t>(firstOfBehaviour[static_cast<std::size_t>(i)])] == b; });
        if (id < 0) {
            id = static_cast<int>(firstOfBehaviour.size());
            firstOfBehaviour.push_back(static_cast<int>(c));
            behaviourIds.add(h);
        }
        standsFor[c] = firstOfBehaviour[static_cast<std::size_t>(id)];
    }
    const std::vector<std::pair<int, int>>& placed = placement.placed;
    groups.assign(children.size(), 0);
    sharings.clear();
    Sharing here;  // the kinds standing for those at the offset at hand, ascending (made once: they are many)
    for (std::size_t a = 0, b = 0; a < placed.size(); a = b) {
        here.g = 0;
        for (b = a; b < placed.size() && placed[b].first == placed[a].first; ++b) {
            const std::size_t c = static_cast<std::size_t>(placed[b].second);
            if (behaviours[c].busy.empty()) continue;  // never busy
            const int kind = standsFor[c];
            if (std::find(here.kinds.begin(), here.kinds.begin() + here.g, kind) != here.kinds.begin() + here.g) continue;
            if (here.g == kMaxSharingKinds) return false;
            int at = here.g++;
            for (; at > 0 && here.kinds[static_cast<std::size_t>(at - 1)] > kind; --at)
                here.kinds[static_cast<std::size_t>(at)] = here.kinds[static_cast<std::size_t>(at - 1)];
            here.kinds[static_cast<std::size_t>(at)] = kind;
        }
        if (here.g == 1) ++groups[static_cast<std::size_t>(here.kinds[0])];
        if (here.g < 2) continue;
        auto same = std::find_if(sharings.begin(), sharings.end(), [&](const Sharing& sh) {
            return sh.g == here.g && std::equal(sh.kinds.begin(), sh.kinds.begin() + sh.g, here.kinds.begin());
        });
        if (same == sharings.end()) same = sharings.insert(sharings.end(), here);
        ++same->offsets;
    }
    return true;
}

} // namespace

StageDecline acceptsTemporalRemainderStage(const StageFrame& f)
{
    // Every stage with remainders the residual-context form declines comes here (more shapes or
    // predicates than its tables hold, children of several kinds where links can form, MAC
    // operands shared or forwarded).
    if (f.nest->imperfectDims == 0) return StageDecline::NotApplicable;
    // Children of several kinds (remainders on the fanout, or a shape dimension split by it:
    // tiles of different shapes) are summed kind by kind, as in the residual-context form, where
    // no links can form; where they can, counted step by step over the mesh on their joint state
    // (but not under the legacy zero-translation rule, whose repeated tiles MAC operands escape).
    const bool linksUncounted = !f.spec->macStage && f.spec->options->legacyZeroTranslationRule;
    if (f.shapeOnFanout && f.linkCandidate && linksUncounted) return StageDecline::ShapeOnFanout;
    if (f.childRemainders && f.linkCandidate && linksUncounted) return StageDecline::ChildKindsAndLinks;
    return StageDecline::None;
}

StageDecline analyzeTemporalRemainderStage(const StageFrame& f, StageResult& out)
{
    const NestLayout& nest = *f.nest;
    const StageSpec& spec = *f.spec;
    // Once per thread, on the heap (its large tables in pages zeroed on first touch). Default-
    // initialised, not value-initialised: every member that needs a value has an initialiser, and
    // zeroing the whole object (the translation table's 2047 moves) wrote 54 pages in a thread's
    // first evaluation.
    thread_local const std::unique_ptr<TemporalRemainderAnalysis> tables(new TemporalRemainderAnalysis);
    TemporalRemainderAnalysis& analysis = *tables;
    if (const StageDecline d = analysis.prepare(f); d != StageDecline::None) return d;

    thread_local std::vector<Kind> instances, children;
    enumerateKinds(nest, 0, f.leafPos, true, instances);
    enumerateKinds(nest, f.leafPos, f.boundary, false, children);
    // Distinct offsets per kind of child, and where kinds of different behaviours share one.
    thread_local std::vector<std::int64_t> groups;
    thread_local std::vector<Sharing> sharings;
    thread_local std::vector<int> standsFor;
    groups.assign(children.size(), 0);
    sharings.clear();
    standsFor.assign(children.size(), 0);  // children all alike: their kinds' figures are the same, the offsets shared
    groups[0] = f.groups();
    thread_local ChildPlacement placement;
    if (perChildKind(f)) {
        placement.build(f, true);
        if (!placeChildren(analysis, children, placement, standsFor, groups, sharings)) return StageDecline::ChildKindsShareOffset;
    }
    // Kinds of instance whose spatial loops act alike (numberEffects; in Ruby's searches on
    // VGG-16 conv3_1 two kinds in three have another kind's effects, on AlexNet conv2 one in
    // two) with children of the same behaviour, where they are of several kinds, see the same
    // figures.
    struct Key {
        std::size_t effects = 0;  // the number of the instance's effects among those met
        std::size_t child = 0;
        bool operator==(const Key&) const = default;
    };
    thread_local std::vector<std::uint64_t> effectsMet;  // the effects keys met, by number
    thread_local HashedIds effectsIds;  // (hashed: up to 144 kinds of instance a stage)
    effectsMet.clear();
    effectsIds.clear();
    analysis.numberEffects();
    auto effectsNumber = [&](const Kind& ik) -> std::size_t {
        const std::uint64_t key = analysis.effectsKey(ik.cats);
        const std::uint64_t h = hashMore(kHashSeed, &key, &key + 1);
        const int known = effectsIds.find(h, [&](int id) { return effectsMet[static_cast<std::size_t>(id)] == key; });
        if (known >= 0) return static_cast<std::size_t>(known);
        effectsIds.add(h);
        effectsMet.push_back(key);
        return effectsMet.size() - 1;
    };
    thread_local std::vector<std::pair<Key, ChildFigures>> known;
    known.clear();
    // The joint words of a sharing (Key::child: its index) and the subset of its kinds busy.
    thread_local std::vector<std::pair<std::pair<Key, KindSet>, std::int64_t>> knownShared;
    knownShared.clear();
    // The distinct words of a kind of child (its index) under an instance of a number of effects.
    thread_local std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::int64_t>> knownDistinct;
    knownDistinct.clear();
    thread_local std::vector<ChildFigures> figs;
    figs.resize(children.size());
    // Links with one kind of child: per known entry the words its moves match (MeshLinks.h; empty
    // where none can form), the mesh built on first need.
    thread_local std::vector<std::vector<std::int64_t>> knownMatched;
    thread_local MeshLinks links;
    thread_local std::vector<std::int64_t> sent;
    bool linksBuilt = false;
    std::size_t linkEntry = 0;  // the known entry of the instance kind at hand
    // Children of several kinds where links can form (accepts() took them): counted over the
    // mesh per kind of instance (jointLinks), on one kind of child per behaviour.
    const bool jointKinds = perChildKind(f) && f.linkCandidate;
    const StageDecline linksDecline = f.childRemainders ? StageDecline::ChildKindsAndLinks : StageDecline::ShapeOnFanout;
    thread_local std::vector<const std::vector<Cat>*> kindsOfChild;
    thread_local std::vector<int> slotOfKind, slotOfChild, kindInSlot;
    auto buildMesh = [&] {
        if (linksBuilt) return;
        // (with several kinds of child each step is counted over the mesh: no moves needed)
        // (a MAC reads its operand again after a carry that moves nothing: a neighbour at its own
        // offset may have just read it)
        const MeshLinks::Moves moves = jointKinds                          ? MeshLinks::Moves::None
                                       : f.shapeDims != 0 || spec.macStage ? MeshLinks::Moves::WithZero
                                                                           : MeshLinks::Moves::NonZero;
        if (!perChildKind(f)) placement.build(f, false);
        links.build(f, moves, placement.kindOf);
        linksBuilt = true;
    };
    // Children of several kinds: the kinds that stand for others, numbered (their slots), swept
    // together once per kind of instance where the joint counts take them (up to
    // kMaxSharingKinds; past that each kind alone, and the kinds of each sharing again).
    kindsOfChild.clear();
    kindInSlot.clear();
    slotOfKind.assign(children.size(), -1);
    for (std::size_t c = 0; c < children.size() && perChildKind(f); ++c) {
        const auto stands = static_cast<std::size_t>(standsFor[c]);
        if (slotOfKind[stands] < 0) {
            slotOfKind[stands] = static_cast<int>(kindsOfChild.size());
            kindsOfChild.push_back(&children[stands].cats);
            kindInSlot.push_back(static_cast<int>(stands));
        }
        slotOfKind[c] = slotOfKind[stands];
    }
    const bool sweptTogether = jointKinds || (perChildKind(f) && kindsOfChild.size() <= static_cast<std::size_t>(kMaxSharingKinds));
    if (jointKinds) {
        buildMesh();
        slotOfChild.resize(links.childKindOf.size());
        for (std::size_t m = 0; m < slotOfChild.size(); ++m) slotOfChild[m] = slotOfKind[static_cast<std::size_t>(links.childKindOf[m])];
    }
    clearStageResult(out);
    auto decline = [&](StageDecline d) {
        clearStageResult(out);
        return d;
    };
    // With several kinds of child where links form: per number of effects, its counts over the
    // mesh (jointLinks) once known.
    thread_local std::vector<std::optional<TemporalRemainderAnalysis::InstanceLinks>> jointKnown;
    thread_local std::vector<std::vector<std::int64_t>> jointSent;
    jointKnown.clear();
    thread_local std::vector<ChildFigures> slotFigures;
    std::size_t effectsSeen = 0;  // (effectsNumber numbers them as met: a new one is the next number)
    for (const Kind& ik : instances) {
        Key key;
        key.effects = effectsNumber(ik);
        const bool newEffects = key.effects == effectsSeen;
        if (newEffects) ++effectsSeen;
        if (sweptTogether && newEffects) {
            // The kinds' figures from the sweeps the joint counts need (below, while these are
            // still the ones swept).
            const bool traces = jointKinds || !sharings.empty();
            if (!analysis.sweepKinds(ik.cats, kindsOfChild.data(), static_cast<int>(kindsOfChild.size()), &slotFigures, traces))
                return decline(StageDecline::Capacity);
            for (std::size_t x = 0; x < kindsOfChild.size(); ++x) {
                if (knownMatched.size() <= known.size()) knownMatched.resize(known.size() + 1);
                knownMatched[known.size()].clear();
                known.push_back({Key{key.effects, static_cast<std::size_t>(kindInSlot[x])}, slotFigures[x]});
            }
        }
        for (std::size_t c = 0; c < children.size(); ++c) {
            key.child = static_cast<std::size_t>(standsFor[c]);
            auto hit = std::find_if(known.begin(), known.end(), [&](const auto& e) { return e.first == key; });
            if (hit == known.end()) {
                ChildFigures fig;
                bool linked = false;
                if (const StageDecline d = analysis.figures(ik.cats, children[c].cats, fig, linked); d != StageDecline::None)
                    return decline(d);
                if (knownMatched.size() <= known.size()) knownMatched.resize(known.size() + 1);
                std::vector<std::int64_t>& matched = knownMatched[known.size()];
                matched.clear();
                if (linked && !jointKinds) {
                    buildMesh();
                    if (!analysis.linkMatches(links.moves, ik.cats, children[c].cats, matched)) return decline(StageDecline::LinksPossible);
                }
                hit = known.insert(known.end(), {key, fig});
            }
            figs[c] = hit->second;
            linkEntry = static_cast<std::size_t>(hit - known.begin());
        }
        std::int64_t accesses = 0;
        for (std::size_t c = 0; c < children.size(); ++c) accesses += groups[c] * figs[c].moved;
        for (std::size_t i = 0; i < sharings.size() && !jointKinds; ++i) {
            const Sharing& sh = sharings[i];
            std::array<const std::vector<Cat>*, kMaxSharingKinds> busyKinds;  // (the first g set below: not zeroed, they are large)
            std::array<int, kMaxSharingKinds> slots;
            KindSet subset;
            int g = 0, only = 0;
            for (int x = 0; x < sh.g; ++x) {
                const int c = sh.kinds[static_cast<std::size_t>(x)];
                if (figs[static_cast<std::size_t>(c)].active == 0) continue;  // idle throughout for this instance
                subset.add(x);
                only = c;
                slots[static_cast<std::size_t>(g)] = sweptTogether ? slotOfKind[static_cast<std::size_t>(c)] : g;
                busyKinds[static_cast<std::size_t>(g++)] = &children[static_cast<std::size_t>(c)].cats;
            }
            if (g == 1) accesses += sh.offsets * figs[static_cast<std::size_t>(only)].moved;
            if (g < 2) continue;
            key.child = i;
            auto hit = std::find_if(knownShared.begin(), knownShared.end(), [&](const auto& e) { return e.first == std::pair{key, subset}; });
            if (hit == knownShared.end()) {
                if (!sweptTogether && !analysis.sweepKinds(ik.cats, busyKinds.data(), g, nullptr, true))
                    return decline(StageDecline::ChildKindsShareOffset);
                const std::optional<std::int64_t> words = analysis.sharedOffsetWords(ik.cats, slots.data(), g);
                if (!words) return decline(StageDecline::ChildKindsShareOffset);
                hit = knownShared.insert(knownShared.end(), {{key, subset}, *words});
            }
            accesses += sh.offsets * hit->second;
        }
        const Signature isig = instanceSignature(f, ik.cats);
        std::int64_t weighted = 0, macs = 0;
        MeshLinks::Savings saved;
        sent.clear();
        if (!knownMatched[linkEntry].empty()) saved = links.apply(knownMatched[linkEntry], groups[0], sent);
        accesses -= saved.accesses;
        weighted -= saved.weighted;
        bool used = false;
        for (std::size_t c = 0; c < children.size(); ++c) {
            const Kind& ck = children[c];
            const ChildFigures& fig = figs[c];
            if (fig.active == 0) continue;  // never busy: no entry, as the walker
            used = true;
            weighted += ck.count * fig.moved;
            macs += ck.count * fig.active;
            std::int64_t distinct = 0;
            if (spec.needDistinct) {
                // (the instance's categories count only by their effects here too: kinds of equal
                // effects see the same tiles in every step)
                const auto at = std::find_if(knownDistinct.begin(), knownDistinct.end(),
                                             [&](const auto& e) { return e.first == std::pair{key.effects, c}; });
                if (at != knownDistinct.end()) {
                    distinct = at->second;
                } else {
                    const ChildPlace place{f.leafPos, f.boundary, spec.macStage, &ik.cats, &ck.cats};
                    distinct = childDistinctWords(*f.workload, nest, spec.tensor, place);
                    knownDistinct.push_back({{key.effects, c}, distinct});
                }
            }
            appendChild(out, childSignature(isig, ck.cats), ik.count * ck.count, ck.count, fig, distinct);
        }
        if (!used) continue;
        if (jointKinds) {
            if (jointKnown.size() <= key.effects) jointKnown.resize(key.effects + 1);
            if (jointSent.size() <= key.effects) jointSent.resize(key.effects + 1);
            if (!jointKnown[key.effects]) {
                jointKnown[key.effects] = TemporalRemainderAnalysis::InstanceLinks{0, 0, 0};
                if (!analysis.jointLinks(ik.cats, static_cast<int>(kindsOfChild.size()), links, slotOfChild, *jointKnown[key.effects],
                                         jointSent[key.effects]))
                    return decline(linksDecline);
            }
            const TemporalRemainderAnalysis::InstanceLinks& counted = *jointKnown[key.effects];
            sent = jointSent[key.effects];
            accesses = counted.accesses;
            weighted = counted.weighted;
            saved.linkWords = counted.linkWords;
            if (counted.linkWords == 0) sent.clear();
        }
        out.instances.push_back({isig, ik.count, accesses, weighted});
        out.parentAccesses += ik.count * accesses;
        out.weighted += ik.count * weighted;
        out.linkTransfers += ik.count * saved.linkWords;
        // Forwarded words per child, as the walker lists them.
        for (std::size_t c = 0; c < sent.size(); ++c)
            out.peers.push_back({childSignature(isig, children[static_cast<std::size_t>(links.childKindOf[c])].cats), ik.count, sent[c]});
        if (spec.macStage) out.macs += ik.count * macs;
    }
    return StageDecline::None;
}

} // namespace nestor::model
