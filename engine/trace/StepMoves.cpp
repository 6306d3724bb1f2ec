#include "trace/StepMoves.h"

#include <atomic>
#include <cstdint>
#include <unordered_map>

namespace nestor::trace::detail {

StageView::StageView(const Workload& w, const NestOdometer& nest, int stage, int tensor, bool linkStage, bool perfect)
    : w_(w), nest_(nest), j_(stage), t_(tensor), mac_(stage == nest.numLevels() - 1), link_(linkStage),
      end_(nest.lEnd(stage))
{
    static std::atomic<i64> nextId{0};
    id_ = nextId++;
    relevant_.assign(w.numDims(), 0);
    for (const auto& rank : w.tensors[tensor].ranks)
        for (const auto& term : rank) relevant_[term.dim] = 1;
    // temporal loops above the children, inside the innermost one the tensor depends on
    for (int k = end_ - 1; k >= 0; --k) {
        const auto& l = nest.loops()[k];
        if (l.kind != LoopKind::Temporal) continue;
        if (relevant_[l.dim]) break;
        ignoredSuffix_.push_back(k);
    }
    if (!perfect || mac_) return;
    // Perfect factors: a carry of loop q always moves the tile by the same translation.
    for (int k : nest.temporalPositions())
        if (k < end_) coarse_.push_back(k);
    std::vector<Ranks> trs(coarse_.size());
    moving_.assign(coarse_.size(), 0);
    int innermost = -1;
    for (std::size_t c = 0; c < coarse_.size(); ++c) {
        const int q = coarse_[c];
        if (nest.loops()[q].bound < 2) continue;
        std::vector<i64> a(static_cast<std::size_t>(nest.numLoops()), 0), b = a;
        for (std::size_t i = c + 1; i < coarse_.size(); ++i) a[coarse_[i]] = nest.loops()[coarse_[i]].bound - 1;
        b[q] = 1;
        const Box ta = tile(a), tb = tile(b);
        trs[c] = translation(ta, tb);
        moving_[c] = !(ta == tb) && !isZero(trs[c]);
        if (moving_[c]) innermost = static_cast<int>(c);
    }
    if (innermost < 0 || nest.loops()[coarse_[innermost]].bound != 2) return;
    for (std::size_t c = 0; c < coarse_.size(); ++c)
        if (moving_[c] && static_cast<int>(c) != innermost && trs[c] == trs[innermost]) return;
    alternating_ = true;
}

bool StageView::alternatingWhole(const std::vector<i64>& prev) const
{
    // moves with a non-zero translation into positions up to `prev`: per moving loop q, its
    // carries = (steps of the odometer of the loops up to q) - (steps of the loops above q)
    i64 parity = 0, rankAbove = 0;
    for (std::size_t c = 0; c < coarse_.size(); ++c) {
        const auto& l = nest_.loops()[coarse_[c]];
        const i64 rank = rankAbove * l.bound + prev[coarse_[c]];
        if (moving_[c]) parity += (rank - rankAbove) & 1;
        rankAbove = rank;
    }
    // the first such move records its translation, then each one flips the memory
    return parity % 2 == 1;
}

bool StageView::movesAt(const std::vector<i64>& idx) const
{
    for (int k : nest_.temporalPositions())
        if (k >= end_ && idx[k] != 0) return false;
    return true;
}

bool StageView::placeChild(int c, std::vector<i64>& idx) const
{
    i64 y = c / nest_.fanX(j_), x = c % nest_.fanX(j_);
    for (int k = nest_.lEnd(j_) - 1; k >= nest_.xBegin(j_); --k) {
        idx[k] = x % nest_.loops()[k].bound;
        x /= nest_.loops()[k].bound;
    }
    for (int k = nest_.xBegin(j_) - 1; k >= nest_.yBegin(j_); --k) {
        idx[k] = y % nest_.loops()[k].bound;
        y /= nest_.loops()[k].bound;
    }
    return x == 0 && y == 0;
}

Box StageView::tile(const std::vector<i64>& idx) const
{
    std::array<i64, kMaxDims> base, ext;
    nest_.walk(idx, end_, base.data(), ext.data());
    return tensorBox(w_, t_, base.data(), ext.data());
}

bool StageView::firstHeld(const std::vector<i64>& idx) const
{
    for (int k : nest_.temporalPositions()) {
        if (k >= end_) break;
        if (!relevant_[nest_.loops()[k].dim] && idx[k] != 0) return false;
    }
    return true;
}

void StageView::skipIgnored(std::vector<i64>& idx) const
{
    // Loops the tensor ignores, inside every loop it depends on, leave the tile alone: their
    // first iteration holds the same tile, and index 0 always fits (it is not the last).
    for (int k : ignoredSuffix_) idx[k] = 0;
}

// The child's memory of the last translation before the move into position p -> next, whose
// translation is tr (non-zero): is the move a whole-tile refetch? Timeloop's rule makes that
// depend on the moves before: W(m) = (tr(m-1) != tr(m)) and not W(m-1), W = false at the first
// remembered translation or after two equal ones in a row. So walk back over the earlier moves
// (skipping stationary ones) and count the alternations.
bool StageView::translationWasRemembered(std::vector<i64> q, const Ranks& tr) const
{
    Ranks cur = tr;
    int flips = 0;
    Box qTile = tile(q);
    for (;;) {
        skipIgnored(q);
        std::vector<i64> pp = q;
        if (!nest_.previous(pp, end_)) break;
        const Box ppTile = tile(pp);
        if (ppTile == qTile) {
            q = std::move(pp);
            continue;
        }
        const auto trq = translation(ppTile, qTile);
        if (isZero(trq)) {
            q = std::move(pp);
            qTile = ppTile;
            continue;
        }
        if (trq == cur) break;
        ++flips;
        cur = trq;
        q = std::move(pp);
        qTile = ppTile;
    }
    return flips % 2 == 1;
}

// The walk back depends on the child's spatial indices only through which of them sit at the
// last index of their bound or residual or beyond it (that decides every trip), so children of
// one class share its result: cache it by class and position (a pure function; the cache is
// per thread and dropped when it grows).
bool StageView::rememberedCached(const std::vector<i64>& prev, const Ranks& tr) const
{
    struct KeyHash {
        std::size_t operator()(const std::vector<i64>& v) const
        {
            std::size_t h = 1469598103934665603ull;
            for (i64 x : v) h = (h ^ static_cast<std::size_t>(x)) * 1099511628211ull;
            return h;
        }
    };
    thread_local std::unordered_map<std::vector<i64>, bool, KeyHash> cache;
    std::vector<i64> key;
    key.reserve(static_cast<std::size_t>(end_) + kMaxRanks + 1);
    key.push_back(id_);  // never an address: a later view may reuse it
    for (int k = 0; k < end_; ++k) {
        const auto& l = nest_.loops()[k];
        if (l.kind == LoopKind::Temporal) key.push_back(prev[k]);
        else key.push_back((prev[k] == l.residual - 1 ? 1 : 0) | (prev[k] == l.bound - 1 ? 2 : 0) | (prev[k] < l.residual ? 4 : 0));
    }
    for (int r = 0; r < kMaxRanks; ++r) key.push_back(tr[r]);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    const bool w = translationWasRemembered(prev, tr);
    if (cache.size() > 200000) cache.clear();
    cache.emplace(std::move(key), w);
    return w;
}

Delta StageView::delta(const std::vector<i64>& idx) const
{
    const Box now = tile(idx);
    if (mac_) return wholeDelta(now);  // every operation accesses its operands: no reuse below the last level
    std::vector<i64> prev = idx;
    if (!nest_.previous(prev, end_)) return wholeDelta(now);
    const Box old = tile(prev);
    if (old == now) return diffDelta(now, old);  // empty
    const auto tr = translation(old, now);
    if (isZero(tr)) return diffDelta(now, old);
    if (alternating_ ? alternatingWhole(prev) : rememberedCached(prev, tr)) return wholeDelta(now);
    return diffDelta(now, old);
}

StageStep StageView::step(i64 parent, std::vector<i64> idx) const
{
    StageStep s;
    if (!movesAt(idx)) return s;
    if (!nest_.fillSpatial(j_, parent, idx)) return s;
    if (!nest_.walk(idx, nest_.yBegin(j_), nullptr, nullptr)) return s;  // parent idle
    s.moved = true;
    const int f = static_cast<int>(nest_.fan(j_));
    for (int c = 0; c < f; ++c) {
        if (!placeChild(c, idx) || !nest_.walk(idx, end_, nullptr, nullptr)) continue;
        ChildMove cm;
        cm.child = c;
        cm.delta = delta(idx);
        if (cm.delta.words == 0) continue;
        cm.first = firstHeld(idx);
        s.childSum += cm.delta.words;
        s.moves.push_back(std::move(cm));
    }
    auto groupOf = [&](bool skipServed) {
        std::vector<Group> gs;
        for (int i = 0; i < static_cast<int>(s.moves.size()); ++i) {
            const auto& cm = s.moves[i];
            if (skipServed && cm.sender >= 0) continue;
            bool placed = false;
            for (auto& g : gs)
                if (s.moves[g.members.front()].delta == cm.delta) {
                    g.members.push_back(i);
                    placed = true;
                    break;
                }
            if (!placed) gs.push_back({{i}, cm.delta.words, cm.first});
        }
        return gs;
    };
    s.groups = groupOf(false);
    for (const auto& g : s.groups) s.noLink += g.words;
    s.used = s.noLink;
    if (link_ && f > 1 && s.noLink > 0) {
        // a child whose delta equals a mesh neighbour's delta of the previous parent step may
        // get it from that neighbour (Timeloop's order: above, below, left, right)
        std::vector<i64> pidx = idx;
        if (nest_.previous(pidx, nest_.yBegin(j_))) {
            const i64 fx = nest_.fanX(j_), fy = nest_.fanY(j_);
            std::vector<int> known(f, 0);
            std::vector<Delta> prevDelta(f);
            auto prevOf = [&](int c) -> const Delta& {
                if (!known[c]) {
                    known[c] = 1;
                    std::vector<i64> q = pidx;
                    if (placeChild(c, q) && nest_.walk(q, end_, nullptr, nullptr)) prevDelta[c] = delta(q);
                    else prevDelta[c].words = 0;
                    if (prevDelta[c].words == 0) prevDelta[c].keyA = Box{};
                }
                return prevDelta[c];
            };
            bool any = false;
            for (auto& cm : s.moves) {
                const i64 cx = cm.child % fx, cy = cm.child / fx;
                const i64 nbs[4][2] = {{cx, cy - 1}, {cx, cy + 1}, {cx - 1, cy}, {cx + 1, cy}};
                for (const auto& nb : nbs) {
                    if (nb[0] < 0 || nb[0] >= fx || nb[1] < 0 || nb[1] >= fy) continue;
                    const int nl = static_cast<int>(nb[1] * fx + nb[0]);
                    const Delta& pd = prevOf(nl);
                    if (pd.words > 0 && pd == cm.delta) {
                        cm.sender = nl;
                        any = true;
                        break;
                    }
                }
            }
            if (any) {
                auto rest = groupOf(true);
                i64 withLink = 0, served = 0;
                for (const auto& g : rest) withLink += g.words;
                for (const auto& cm : s.moves)
                    if (cm.sender >= 0) served += cm.delta.words;
                if (withLink < s.noLink) {
                    s.used = withLink;
                    s.linkWords = served;
                    s.groups = std::move(rest);
                } else {
                    for (auto& cm : s.moves) cm.sender = -1;
                }
            }
        }
    }
    for (const auto& g : s.groups)
        if (g.first) s.firstWords += g.words;
    return s;
}

} // namespace nestor::trace::detail
