#include "model/StageWalker.h"

#include "model/ChildPartition.h"
#include "model/WalkerAccumulator.h"

#include <atomic>
#include <map>
#include <memory_resource>
#include <optional>
#include <unordered_map>

namespace nestor::model {
namespace {

using namespace walker;

class StageWalker {
public:
    explicit StageWalker(const StageSpec& s) : spec_(s), nest_(*s.nest), w_(*s.workload)
    {
        const auto& t = w_.tensors[spec_.tensor];
        nRanks_ = static_cast<int>(t.ranks.size());
        leafPos_ = nest_.spatialBegin[spec_.level];
        boundary_ = nest_.levelBegin[spec_.level + 1];
        stepVec_ = *spec_.stepVectors;
        for (int d = 0; d < w_.numDims(); ++d) {
            extFull_.push_back(spec_.macStage ? 1 : nest_.innerExtent(boundary_, d, false));
            extLast_.push_back(spec_.macStage ? 1 : nest_.innerExtent(boundary_, d, true));
        }
        buildChildren();
        seenAt_.resize(nest_.loops.size());
    }

    void run(StageResult& out)
    {
        // Instance classes: categories of the spatial loops of the levels above.
        std::vector<int> instLoops;
        for (int p = 0; p < leafPos_; ++p)
            if (nest_.loops[p].spatial()) instLoops.push_back(p);
        std::vector<Categories> options;
        for (int p : instLoops) options.push_back(categoriesOf(nest_.loops[p], nest_.dimImperfect(nest_.loops[p].dim)));
        std::vector<std::size_t> pick(instLoops.size(), 0);
        instCats_.assign(nest_.loops.size(), Cat::Any);
        while (true) {
            std::int64_t mult = 1;
            for (std::size_t k = 0; k < instLoops.size(); ++k) {
                instCats_[instLoops[k]] = options[k][pick[k]].first;
                mult *= options[k][pick[k]].second;
            }
            // Memo entries stay valid across instance classes when keyed by the categories of
            // the instance loops inside their sub-run; otherwise start afresh.
            if (!encodeSuffixCategories()) memo_.clear();
            State init(classes_.size());
            RunResult scratch;
            const RunResult& r = runFrom(0, nest_.imperfectDims, true, init, scratch);
            bool used = false;
            for (std::size_t c = 0; c < classes_.size(); ++c) {
                if (!r.acc.cls[c].everActive) continue;
                used = true;
                StageChildResult cr;
                for (int p : instLoops) cr.signature.push_back(static_cast<std::uint8_t>(instCats_[p]));
                for (Cat cat : classes_[c].cats) cr.signature.push_back(static_cast<std::uint8_t>(cat));
                cr.count = mult * static_cast<std::int64_t>(classes_[c].members.size());
                cr.perParent = static_cast<std::int64_t>(classes_[c].members.size());
                cr.received = r.acc.cls[c].received;
                cr.activeSteps = r.acc.cls[c].activeSteps;
                cr.maxTile = r.acc.cls[c].maxTile;
                cr.distinctWords = spec_.needDistinct ? distinctWords(classes_[c].cats) : 0;
                cr.everActive = true;
                out.children.push_back(cr);
            }
            out.parentAccesses += mult * r.acc.parentAccesses;
            out.weighted += mult * r.acc.weighted;
            out.linkTransfers += mult * r.acc.link;
            out.macs += mult * r.acc.macs;
            if (used) {
                Signature sig;
                for (int p : instLoops) sig.push_back(static_cast<std::uint8_t>(instCats_[p]));
                out.instances.push_back({sig, mult, r.acc.parentAccesses, r.acc.weighted});
                if (!r.acc.sent.empty()) {
                    for (std::size_t m = 0; m < children_.size(); ++m) {
                        Signature csig = sig;
                        for (Cat cat : classes_[children_[m].cls].cats) csig.push_back(static_cast<std::uint8_t>(cat));
                        out.peers.push_back({csig, mult, r.acc.sent[m]});
                    }
                }
            }
            std::size_t k = 0;
            for (; k < pick.size(); ++k) {
                if (++pick[k] < options[k].size()) break;
                pick[k] = 0;
            }
            if (k == pick.size()) break;
        }
    }

private:
    Vec project(int dim, std::int64_t amount) const
    {
        Vec v{};
        const auto& ranks = w_.tensors[spec_.tensor].ranks;
        for (int r = 0; r < nRanks_; ++r)
            for (const auto& term : ranks[r])
                if (term.dim == dim) v[r] += term.coef * amount;
        return v;
    }

    void buildChildren()
    {
        for (int p = leafPos_; p < boundary_; ++p) childLoops_.push_back(p);
        std::int64_t fanX = 1, fanY = 1;
        for (int p : childLoops_)
            (nest_.loops[p].kind == LoopKind::SpatialX ? fanX : fanY) *= nest_.loops[p].bound;
        // Timeloop linearizes the spatial loops row-major (Y outer, X inner) and lays the
        // linear index out on a grid whose row length is the larger of the physical and the
        // logical X fanout; neighbours for link transfers are taken on that grid.
        gridX_ = fanX;  // children sit on the physical mesh at their (x, y); only mapped ones exist
        gridY_ = fanY;
        grid_.assign(static_cast<std::size_t>(gridX_ * gridY_), -1);
        std::map<std::vector<Cat>, int> classIds;
        std::vector<std::int64_t> idx(childLoops_.size(), 0);
        bool done = false;
        while (!done) {
            Child ch;
            std::vector<Cat> cats;
            std::int64_t xPart = 0, yPart = 0;
            for (std::size_t k = 0; k < childLoops_.size(); ++k) {
                const auto& l = nest_.loops[childLoops_[k]];
                ch.offset = plus(ch.offset, project(l.dim, idx[k] * l.stride));
                if (l.kind == LoopKind::SpatialX) xPart = xPart * l.bound + idx[k];
                else yPart = yPart * l.bound + idx[k];
                cats.push_back(nest_.dimImperfect(l.dim) ? categorize(idx[k], l.bound, l.residual) : Cat::Any);
            }
            ch.x = xPart;
            ch.y = yPart;
            auto [it, fresh] = classIds.emplace(cats, static_cast<int>(classes_.size()));
            if (fresh) classes_.push_back(ChildClass{cats, {}, {}});
            ch.cls = it->second;
            classes_[ch.cls].members.push_back(static_cast<int>(children_.size()));
            grid_[static_cast<std::size_t>(ch.y * gridX_ + ch.x)] = static_cast<int>(children_.size());
            children_.push_back(ch);
            done = true;
            for (std::size_t k = childLoops_.size(); k-- > 0;) {
                if (++idx[k] < nest_.loops[childLoops_[k]].bound) {
                    done = false;
                    break;
                }
                idx[k] = 0;
            }
        }
        for (auto& cls : classes_) {
            std::map<Vec, std::int64_t> byOffset;
            for (int m : cls.members) ++byOffset[children_[m].offset];
            for (const auto& [off, n] : byOffset) cls.groupSizes.push_back(n);
        }
    }

    struct Key {
        int p;
        std::uint32_t flags;
        bool active;
        std::uint64_t suffix;  // categories of the instance loops at positions >= p
        State state;
        bool operator==(const Key& o) const
        {
            return p == o.p && flags == o.flags && active == o.active && suffix == o.suffix && state == o.state;
        }
    };

    // suffixCode_[p]: the categories of the instance spatial loops at positions >= p, 3 bits
    // each. Returns false when they do not fit in 64 bits.
    bool encodeSuffixCategories()
    {
        suffixCode_.assign(static_cast<std::size_t>(leafPos_) + 1, 0);
        int used = 0;
        for (int q = leafPos_ - 1; q >= 0; --q) {
            suffixCode_[q] = suffixCode_[q + 1];
            if (!nest_.loops[q].spatial()) continue;
            if (++used > 21) return false;
            suffixCode_[q] = suffixCode_[q + 1] * 8 + static_cast<std::uint64_t>(instCats_[q]) + 1;
        }
        return true;
    }
    // A key by reference: a lookup that hits (most lookups) copies no state.
    struct KeyRef {
        int p;
        std::uint32_t flags;
        bool active;
        std::uint64_t suffix;
        const State* state;
    };
    struct KeyHash {
        using is_transparent = void;
        const int* n;  // the walker's rank count (set after construction)
        std::size_t operator()(const Key& k) const { return of(k.p, k.flags, k.active, k.suffix, k.state); }
        std::size_t operator()(const KeyRef& k) const { return of(k.p, k.flags, k.active, k.suffix, *k.state); }
        std::size_t of(int p, std::uint32_t flags, bool active, std::uint64_t suffix, const State& state) const
        {
            std::size_t h = hashState(state, *n);
            mix(h, static_cast<std::uint64_t>(p));
            mix(h, flags);
            mix(h, active ? 1 : 0);
            mix(h, suffix);
            return h;
        }
    };
    struct KeyEq {
        using is_transparent = void;
        bool operator()(const Key& a, const Key& b) const { return a == b; }
        bool operator()(const KeyRef& a, const Key& b) const
        {
            return a.p == b.p && a.flags == b.flags && a.active == b.active && a.suffix == b.suffix && *a.state == b.state;
        }
        bool operator()(const Key& a, const KeyRef& b) const { return (*this)(b, a); }
    };

    // The result is either a memo entry (stable: the memo's nodes never move) or `scratch`.
    const RunResult& runFrom(int p, std::uint32_t flags, bool active, const State& st, RunResult& scratch)
    {
        if (p == leafPos_) {
            scratch = leaf(flags, active, st);
            return scratch;
        }
        const NestLoop& l = nest_.loops[p];
        const std::uint32_t bit = 1u << l.dim;
        if (l.spatial()) {
            const Cat cat = instCats_[p];
            if (cat == Cat::Any) return runFrom(p + 1, flags, active, st, scratch);
            const CatEffect e = effectOf(cat, (flags & bit) != 0);
            return runFrom(p + 1, e.last ? flags : (flags & ~bit), active && e.active, st, scratch);
        }
        if (!active || instanceIdleThroughout(p, flags)) {
            // Nothing moves below an idle instance; only the base advances.
            const Vec disp = structuralDisp(p, flags);
            scratch = RunResult{Acc(classes_.size()), st, disp};
            shiftState(scratch.exit, negate(disp), nRanks_);
            return scratch;
        }
        // Children that cannot be busy anywhere in this sub-run only drift with the base: keep
        // their tile memory out of the memo key (else every drift position is a new key).
        const std::uint64_t busyMask = possiblyBusyClasses(p, flags);
        // (classes past the mask's 64 bits count as possibly busy)
        auto mayBeBusy = [&](std::size_t c) { return c >= 64 || ((busyMask >> c) & 1u) != 0; };
        bool anyIdle = false;
        for (std::size_t c = 0; c < st.size(); ++c) anyIdle = anyIdle || (!mayBeBusy(c) && st[c].hasPrev);
        if (!anyIdle) return runMemoized(p, flags, st);
        State masked = st;
        for (std::size_t c = 0; c < masked.size(); ++c)
            if (!mayBeBusy(c)) {
                masked[c].hasPrev = false;
                masked[c].hasTrans = false;
            }
        scratch = runMemoized(p, flags, masked);
        for (std::size_t c = 0; c < scratch.exit.size(); ++c)
            if (!mayBeBusy(c)) {
                scratch.exit[c].hasPrev = st[c].hasPrev;
                scratch.exit[c].hasTrans = st[c].hasTrans;
                scratch.exit[c].trans = st[c].trans;
                scratch.exit[c].prev = shifted(st[c].prev, negate(scratch.disp), nRanks_);
            }
        return scratch;
    }

    // True when an instance spatial loop below p keeps the instance idle in every step of the
    // sub-run from p (its dimension stays in the residual context throughout). Tracks, per
    // dimension, whether the residual flag is known to be set, known clear, or may vary.
    bool instanceIdleThroughout(int p, std::uint32_t flags) const
    {
        std::uint32_t known = nest_.imperfectDims;  // bits whose value is fixed over the sub-run
        for (int q = p; q < leafPos_; ++q) {
            const NestLoop& l = nest_.loops[q];
            const std::uint32_t bit = 1u << l.dim;
            if (!(nest_.imperfectDims & bit)) continue;
            if (!l.spatial()) {
                if (flags & bit) known &= ~bit;  // set at the last iteration only
                continue;
            }
            const Cat cat = instCats_[q];
            if (cat == Cat::Any) continue;
            if (known & bit) {
                const CatEffect e = effectOf(cat, (flags & bit) != 0);
                if (!e.active) return true;
                if (!e.last) flags &= ~bit;
            } else if (!effectOf(cat, true).last && !effectOf(cat, false).last) {
                known |= bit;  // cleared whatever came in
                flags &= ~bit;
            }
        }
        return false;
    }

    // Net move of the base over a sub-run (depends on the loops and their contexts only).
    Vec structuralDisp(int p, std::uint32_t flags) const
    {
        Vec disp{};
        for (int q = p; q < leafPos_; ++q) {
            const NestLoop& l = nest_.loops[q];
            const std::uint32_t bit = 1u << l.dim;
            if (l.spatial()) {
                const Cat cat = instCats_[q];
                if (cat != Cat::Any && !effectOf(cat, (flags & bit) != 0).last) flags &= ~bit;
                continue;
            }
            const std::int64_t trips = (nest_.dimImperfect(l.dim) && (flags & bit)) ? l.residual : l.bound;
            disp = plus(disp, scaled(stepVec_[q], trips - 1));
        }
        return disp;
    }

    // Child classes that may be busy somewhere in the sub-run from loop p under `flags`
    // (conservative: a residual context may end wherever a loop of its dimension lies below),
    // a bit per class for the first 64 (the caller takes the others as possibly busy).
    std::uint64_t possiblyBusyClasses(int p, std::uint32_t flags) const
    {
        std::uint32_t canLeaveResidual = ~flags;
        for (int q = p; q < leafPos_; ++q) canLeaveResidual |= 1u << nest_.loops[q].dim;
        std::uint64_t mask = 0;
        for (std::size_t c = 0; c < classes_.size(); ++c) {
            bool possible = true;
            // An earlier child loop of the same dimension that is not at its last index clears
            // the context for the loops inside it.
            std::uint32_t clearedInside = 0;
            for (std::size_t k = 0; k < childLoops_.size() && possible; ++k) {
                const Cat cat = classes_[c].cats[k];
                const std::uint32_t bit = 1u << nest_.loops[childLoops_[k]].dim;
                if (cat == Cat::Between || cat == Cat::AtBound) possible = ((canLeaveResidual | clearedInside) & bit) != 0;
                if (cat != Cat::Any && cat != Cat::AtRes && cat != Cat::AtBoth) clearedInside |= bit;
            }
            if (possible && c < 64) mask |= std::uint64_t{1} << c;
        }
        if (classes_.size() > 64) mask = ~std::uint64_t{0};
        return mask;
    }

    const RunResult& runMemoized(int p, std::uint32_t flags, const State& st)
    {
        const NestLoop& l = nest_.loops[p];
        const bool imp = nest_.dimImperfect(l.dim);
        const std::uint32_t bit = 1u << l.dim;
        const bool active = true;  // idle instances never get here
        const KeyRef ref{p, flags, active, suffixCode_.empty() ? 0 : suffixCode_[p], &st};
        chargeWork(1);  // a lookup hashes and compares whole states
        if (auto it = memo_.find(ref); it != memo_.end()) return it->second;
        chargeMemoEntry();

        const std::int64_t trips = (imp && (flags & bit)) ? l.residual : l.bound;
        const std::uint32_t innerFlags = imp ? (flags & ~bit) : flags;
        const std::int64_t nonLast = trips - 1;
        const Vec& step = stepVec_[p];
        RunResult res{Acc(classes_.size()), {}, {}};
        State cur = st;
        // States at the start of each iteration; reuse states settle within a few iterations,
        // so a short list searched linearly finds the cycle.
        // One list per loop position (sized up front: a reference into it outlives deeper
        // calls): the recursion holds at most one frame per position.
        auto& seen = seenAt_[static_cast<std::size_t>(p)];
        seen.clear();
        bool detect = nonLast > 2;
        std::int64_t a = 0;
        while (a < nonLast) {
            if (detect) {
                auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& e) { return e.second.first == cur; });
                if (it == seen.end() && seen.size() >= 16) detect = false;  // no cycle soon: walk on
                if (it != seen.end()) {
                    const std::int64_t cycle = a - it->first;
                    Acc perCycle = res.acc;
                    perCycle.subtractSums(it->second.second);
                    const std::int64_t m = (nonLast - a) / cycle;
                    if (m > 0) {
                        res.acc.addSums(perCycle, m);
                        a += m * cycle;
                    }
                    detect = false;
                    continue;
                }
                if (detect) seen.push_back({a, {cur, res.acc}});
            }
            chargeWork(1 + cur.size());
            RunResult scratch;
            const RunResult& sub = runFrom(p + 1, innerFlags, active, cur, scratch);
            res.acc.add(sub.acc);
            cur = sub.exit;
            shiftState(cur, negate(minus(step, sub.disp)), nRanks_);
            ++a;
        }
        RunResult scratch;
        const RunResult& last = runFrom(p + 1, flags, active, cur, scratch);
        res.acc.add(last.acc);
        res.exit = last.exit;
        res.disp = plus(scaled(step, nonLast), last.disp);
        return memo_.emplace(Key{ref.p, ref.flags, ref.active, ref.suffix, st}, std::move(res)).first->second;
    }

    // Distinct words of the tensor that one child ever holds.
    std::int64_t distinctWords(const std::vector<Cat>& childCats) const
    {
        const ChildPlace place{leafPos_, boundary_, spec_.macStage, &instCats_, &childCats};
        return childDistinctWords(w_, nest_, spec_.tensor, place);
    }

    Box tileFor(std::uint32_t flags) const
    {
        const auto& ranks = w_.tensors[spec_.tensor].ranks;
        Box b;
        for (int r = 0; r < nRanks_; ++r) {
            std::int64_t e = 1;
            for (const auto& term : ranks[r]) {
                const std::int64_t ed = (flags >> term.dim) & 1u ? extLast_[term.dim] : extFull_[term.dim];
                e += term.coef * (ed - 1);
            }
            b.lo[r] = 0;
            b.ext[r] = e;
        }
        return b;
    }

    Delta applyReuseRule(ClassState& cs, const Box& tile) const
    {
        if (spec_.macStage) return wholeDelta(tile, nRanks_);
        Delta d;
        if (!cs.hasPrev) {
            d = wholeDelta(tile, nRanks_);
            cs.hasTrans = false;
        } else {
            const Vec tr = translation(cs.prev, tile, nRanks_);
            bool zero = true;
            for (int r = 0; r < nRanks_; ++r) zero = zero && tr[r] == 0;
            if (zero && !spec_.options->legacyZeroTranslationRule) {
                d = difference(tile, cs.prev, nRanks_);
            } else if (!cs.hasTrans) {
                d = difference(tile, cs.prev, nRanks_);
                cs.hasTrans = true;
                cs.trans = tr;
            } else if (tr == cs.trans) {
                d = difference(tile, cs.prev, nRanks_);
            } else {
                d = wholeDelta(tile, nRanks_);
                cs.hasTrans = false;
            }
        }
        cs.prev = tile;
        cs.hasPrev = true;
        return d;
    }

    RunResult leaf(std::uint32_t flags, bool active, const State& st)
    {
        RunResult res{Acc(classes_.size()), st, {}};
        if (!active) return res;
        chargeWork((spec_.linkStage || classes_.size() > 1) ? children_.size() : classes_.size());
        const std::size_t nc = classes_.size();
        // leaf() never recurses: its per-step buffers are members, kept between steps.
        std::vector<Delta>& deltas = leafDeltas_;
        std::vector<std::uint8_t>& busy = leafBusy_;
        deltas.assign(nc, Delta{});
        busy.assign(nc, 0);
        for (std::size_t c = 0; c < nc; ++c) {
            std::uint32_t f = flags;
            bool on = true;
            for (std::size_t k = 0; k < childLoops_.size(); ++k) {
                const Cat cat = classes_[c].cats[k];
                if (cat == Cat::Any) continue;
                const std::uint32_t bit = 1u << nest_.loops[childLoops_[k]].dim;
                const CatEffect e = effectOf(cat, (f & bit) != 0);
                on = on && e.active;
                if (!e.last) f &= ~bit;
            }
            if (!on) continue;
            busy[c] = 1;
            const Box tile = tileFor(f);
            deltas[c] = applyReuseRule(res.exit[c], tile);
            const std::int64_t members = static_cast<std::int64_t>(classes_[c].members.size());
            res.acc.cls[c].received += deltas[c].size;
            res.acc.cls[c].activeSteps += 1;
            res.acc.cls[c].maxTile = tile.size(nRanks_);
            res.acc.cls[c].everActive = true;
            if (spec_.macStage) res.acc.macs += members;
        }
        countParentAccesses(deltas, busy, st, res.acc);
        for (std::size_t c = 0; c < nc; ++c) {
            res.exit[c].hasPrevDelta = busy[c] != 0;
            if (busy[c]) res.exit[c].prevDelta = deltas[c];
        }
        return res;
    }

    // Groups identical deltas of this step (multicast or spatial reduction) and, where a
    // neighbour held the same delta in the previous step, serves it over the link instead
    // when that lowers the parent's accesses.
    void countParentAccesses(const std::vector<Delta>& deltas, const std::vector<std::uint8_t>& busy, const State& prev,
                             Acc& acc)
    {
        const std::size_t nc = classes_.size();
        int nonEmptyClasses = 0, only = -1;
        for (std::size_t c = 0; c < nc; ++c)
            if (busy[c] && deltas[c].size > 0) {
                ++nonEmptyClasses;
                only = static_cast<int>(c);
            }
        if (nonEmptyClasses == 0) return;

        std::int64_t accessesWithout = 0, weightedWithout = 0;
        if (nonEmptyClasses == 1) {
            const auto& cls = classes_[only];
            accessesWithout = deltas[only].size * static_cast<std::int64_t>(cls.groupSizes.size());
            weightedWithout = deltas[only].size * static_cast<std::int64_t>(cls.members.size());
        } else {
            groupExplicitly(deltas, busy, nullptr, accessesWithout, weightedWithout);
        }

        if (spec_.options->linkTransfers && spec_.linkStage && children_.size() > 1) {
            std::vector<int>& sender = linkSender_;
            std::vector<std::uint8_t>& served = linkServed_;
            sender.assign(children_.size(), -1);
            served.assign(children_.size(), 0);
            std::int64_t linkWords = 0;
            bool any = false;
            for (std::size_t c = 0; c < nc; ++c) {
                if (!busy[c] || deltas[c].size == 0) continue;
                for (int m : classes_[c].members) {
                    const Child& ch = children_[m];
                    const Delta mine = deltas[c].shiftedBy(ch.offset, nRanks_);
                    // Timeloop's order: from above, from below, from the left, from the right.
                    const std::int64_t nx[4] = {ch.x, ch.x, ch.x - 1, ch.x + 1};
                    const std::int64_t ny[4] = {ch.y - 1, ch.y + 1, ch.y, ch.y};
                    for (int k = 0; k < 4; ++k) {
                        if (nx[k] < 0 || ny[k] < 0 || nx[k] >= gridX_ || ny[k] >= gridY_) continue;
                        const int nb = grid_[static_cast<std::size_t>(ny[k] * gridX_ + nx[k])];
                        if (nb < 0) continue;
                        const ClassState& ps = prev[children_[nb].cls];
                        if (!ps.hasPrevDelta || ps.prevDelta.size != mine.size) continue;
                        if (ps.prevDelta.shiftedBy(children_[nb].offset, nRanks_) == mine) {
                            served[m] = 1;
                            sender[m] = nb;
                            linkWords += mine.size;
                            any = true;
                            break;
                        }
                    }
                }
            }
            if (any) {
                std::int64_t accessesWith = 0, weightedWith = 0;
                groupExplicitly(deltas, busy, &served, accessesWith, weightedWith);
                if (accessesWith < accessesWithout) {
                    acc.parentAccesses += accessesWith;
                    acc.weighted += weightedWith;
                    acc.link += linkWords;
                    acc.sent.resize(children_.size(), 0);
                    for (std::size_t m = 0; m < children_.size(); ++m)
                        if (sender[m] >= 0) acc.sent[static_cast<std::size_t>(sender[m])] += deltas[children_[m].cls].size;
                    return;
                }
            }
        }
        acc.parentAccesses += accessesWithout;
        acc.weighted += weightedWithout;
    }

    // Distinct deltas among the busy children (each shifted to its own offset): one parent
    // access per distinct delta. Sorting by hash keeps this free of allocations.
    void groupExplicitly(const std::vector<Delta>& deltas, const std::vector<std::uint8_t>& busy,
                         const std::vector<std::uint8_t>* served, std::int64_t& accesses, std::int64_t& weighted)
    {
        auto& entries = groupScratch_;
        entries.clear();
        for (std::size_t c = 0; c < classes_.size(); ++c) {
            if (!busy[c] || deltas[c].size == 0) continue;
            for (int m : classes_[c].members) {
                if (served && (*served)[m]) continue;
                Delta d = deltas[c].shiftedBy(children_[m].offset, nRanks_);
                std::size_t h = d.kind;
                hashBox(h, d.outer, nRanks_);
                if (d.kind == Delta::Difference) hashBox(h, d.hole, nRanks_);
                entries.push_back({h, d});
            }
        }
        std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < entries.size();) {
            std::size_t j = i;
            while (j < entries.size() && entries[j].first == entries[i].first) ++j;
            // [i, j): same hash; count the distinct deltas among them (almost always one)
            for (std::size_t a = i; a < j; ++a) {
                bool seen = false;
                for (std::size_t b = i; b < a && !seen; ++b) seen = entries[b].second == entries[a].second;
                if (seen) continue;
                std::int64_t n = 0;
                for (std::size_t b = a; b < j; ++b) n += entries[b].second == entries[a].second;
                accesses += entries[a].second.size;
                weighted += entries[a].second.size * n;
            }
            i = j;
        }
    }

    // Budgets (ModelOptions::exactMemoryBudgetMB, exactWorkBudget): the memo's entries are
    // counted at their approximate footprint (node, key and result with their per-class
    // states); work is the iterations walked (with their class states) and the children
    // visited per leaf step (link checks and grouping touch each).
    std::size_t memoEntryBytes() const
    {
        const std::size_t nc = classes_.size();
        const std::size_t inlineStates = nc > 2 ? nc * sizeof(ClassState) * 2 : 0;  // key and exit spill
        const std::size_t inlineAccs = nc > 4 ? nc * sizeof(ClassAcc) : 0;
        return sizeof(Key) + sizeof(RunResult) + 4 * sizeof(void*) + inlineStates + inlineAccs;
    }
    void chargeMemoEntry()
    {
        memoBytes_ += memoEntryBytes();
        const std::size_t limit = spec_.options->exactMemoryBudgetMB;
        if (limit > 0 && memoBytes_ > (limit << 20))
            throw ExactBudgetExceeded("exact evaluation exceeds " + std::to_string(limit) + " MB of analysis memory");
    }
    void chargeWork(std::uint64_t units)
    {
        chargeWalkWork(spec_.walkWork ? *spec_.walkWork : work_, units, spec_.options->exactWorkBudget);
        const std::atomic<bool>* cancel = spec_.options->cancel;
        if (cancel && cancel->load(std::memory_order_relaxed)) throw AnalysisCancelled();
    }
    std::size_t memoBytes_ = 0;
    std::uint64_t work_ = 0;

    const StageSpec& spec_;
    const NestLayout& nest_;
    const Workload& w_;
    int nRanks_ = 0;
    int leafPos_ = 0, boundary_ = 0;
    std::vector<Vec> stepVec_;
    std::vector<std::int64_t> extFull_, extLast_;
    std::vector<int> childLoops_;
    std::vector<Child> children_;
    std::vector<ChildClass> classes_;
    std::int64_t gridX_ = 1, gridY_ = 1;
    std::vector<int> grid_;
    std::vector<Cat> instCats_;
    // The memo's nodes come from a per-thread arena and are released all at once: a search
    // walks thousands of stages, each with hundreds of memo entries. The arena's buffer grows to
    // what the largest stage so far needed: blocks allocated and freed again for every stage
    // would be fresh pages (page faults) each time.
    class Arena {
    public:
        std::pmr::memory_resource* resource() { return &*resource_; }
        void release()
        {
            resource_->release();
            if (upstream_.allocated > 0 && buffer_.size() < kMaxBuffer) {
                buffer_.resize(std::min(kMaxBuffer, buffer_.size() + upstream_.allocated));
                resource_.emplace(buffer_.data(), buffer_.size(), &upstream_);
            }
            upstream_.allocated = 0;
        }

    private:
        // Counts what the arena needed beyond its buffer.
        struct CountingUpstream : std::pmr::memory_resource {
            std::size_t allocated = 0;
            void* do_allocate(std::size_t n, std::size_t a) override
            {
                allocated += n;
                return std::pmr::new_delete_resource()->allocate(n, a);
            }
            void do_deallocate(void* p, std::size_t n, std::size_t a) override
            {
                std::pmr::new_delete_resource()->deallocate(p, n, a);
            }
            bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }
        };
        static constexpr std::size_t kMaxBuffer = std::size_t{32} << 20;  // held per thread for good
        std::vector<std::byte> buffer_ = std::vector<std::byte>(std::size_t{1} << 20);
        CountingUpstream upstream_;
        std::optional<std::pmr::monotonic_buffer_resource> resource_{std::in_place, buffer_.data(), buffer_.size(), &upstream_};
    };
    static Arena& arena()
    {
        thread_local Arena a;
        return a;
    }
    struct ArenaRelease {
        ~ArenaRelease() { arena().release(); }
    } arenaRelease_;  // declared before the memo: destroyed after it
    std::pmr::unordered_map<Key, RunResult, KeyHash, KeyEq> memo_{64, KeyHash{&nRanks_}, KeyEq{}, arena().resource()};
    std::vector<std::vector<std::pair<std::int64_t, std::pair<State, Acc>>>> seenAt_;
    std::vector<Delta> leafDeltas_;
    std::vector<std::uint8_t> leafBusy_;
    std::vector<int> linkSender_;
    std::vector<std::uint8_t> linkServed_;
    std::vector<std::pair<std::size_t, Delta>> groupScratch_;
    std::vector<std::uint64_t> suffixCode_;
};

} // namespace

void walkStage(const StageSpec& spec, StageResult& out)
{
    StageWalker walker(spec);
    clearStageResult(out);
    walker.run(out);
}

} // namespace nestor::model
