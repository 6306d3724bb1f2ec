// The glue: validation, the traced level's chains of keeping levels, and per step the moves
// of the stages that charge the traced level (docs/model.md "How it counts").
#include "trace/StepTrace.h"

#include "trace/ModelRatios.h"
#include "trace/NestOdometer.h"
#include "trace/StepMoves.h"

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>

namespace nestor::trace {

using namespace detail;

struct StepTrace::Impl {
    Workload w;
    Architecture a;
    Mapping m;
    int level = 0;
    int L = 0, T = 0;
    std::unique_ptr<NestOdometer> nest;
    std::vector<std::vector<char>> keep;               // [level][tensor]
    std::vector<std::vector<std::unique_ptr<StageView>>> views;  // [stage][tensor]
    std::vector<NestLoop> loops;
    // per tensor, when the traced level keeps it
    std::vector<char> backing;       // no keeping level above
    std::vector<int> s0;             // the stage right above the next keeping level
    std::vector<std::vector<double>> weight;  // per instance of s0: Timeloop's scaling through bypassing levels
    std::int64_t bypassWalkLimit = 0;

    bool linkStage(int j, int t) const
    {
        bool above = false;
        for (int q = 0; q <= j; ++q) above = above || keep[q][t];
        return above && (j == L - 1 || keep[j + 1][t]);
    }
    void computeWeights(int t);
    bool additive = true;            // no per-step rounding of scaled counts
    // Scaled reads and updates per tensor and instance, rounded per instance at the end of a
    // window like the model rounds its whole-run figure.
    struct Scaled { double reads = 0.0, updates = 0.0; };
    using ScaledAcc = std::vector<std::vector<Scaled>>;
    void collect(i64 step, StepFrame* frame, std::vector<TensorCounts>& counts, ScaledAcc* scaled) const;
    // The odometer numbers the instances of a level hierarchically (parent * fanout + child, each
    // fanout row-major); frames number them row-major over the level's whole mesh (x fastest),
    // the picture's order and the contract of StepTrace.h.
    i64 meshId(int lvl, i64 hierarchical) const
    {
        i64 x = 0, y = 0, width = 1, height = 1;
        for (int i = lvl - 1; i >= 0; --i) {  // innermost fanout first: the least significant digit
            const i64 fan = std::max<i64>(1, nest->fan(i)), fx = std::max<i64>(1, nest->fanX(i));
            const i64 c = hierarchical % fan;
            hierarchical /= fan;
            x += (c % fx) * width;
            y += (c / fx) * height;
            width *= fx;
            height *= fan / fx;
        }
        return y * width + x;
    }
    i64 meshWidth(int lvl) const
    {
        i64 width = 1;
        for (int i = 0; i < lvl; ++i) width *= std::max<i64>(1, nest->fanX(i));
        return width;
    }
    int at(int lvl, i64 hierarchical) const { return static_cast<int>(meshId(lvl, hierarchical)); }
};

namespace {

std::vector<int> ids(const std::vector<ChildMove>& moves, const std::vector<int>& members, i64 base)
{
    std::vector<int> out;
    for (int i : members) out.push_back(static_cast<int>(base + moves[i].child));
    return out;
}

} // namespace

// Multicast ratio (children's words over distinct words) of every parent of the bypassing
// stages between the traced level and s0, as the model takes it: a whole-run ratio per parent.
// With perfect factors every step has the same ratio, so the first step gives it exactly.
void StepTrace::Impl::computeWeights(int t)
{
    const int k = level, S = s0[t];
    weight[t].assign(static_cast<std::size_t>(nest->instances(S)), 1.0);
    if (S == k) return;
    const bool perfect = !m.hasImperfectFactors();
    for (int j = k; j < S; ++j) {
        const StageView& v = *views[j][t];
        const i64 parents = nest->instances(j);
        // the work of walking every position of the stage, for an exact whole-run ratio
        double work = static_cast<double>(parents) * static_cast<double>(nest->fan(j));
        for (int q : nest->temporalPositions())
            if (q < nest->yBegin(j)) work *= static_cast<double>(nest->loops()[q].bound);
        const bool walkAll = !perfect && work <= static_cast<double>(bypassWalkLimit);
        // Too long to walk: the model's stage analysis gives the same whole-run ratios.
        std::vector<double> mc = perfect || walkAll ? std::vector<double>(static_cast<std::size_t>(parents), 1.0)
                                                    : modelMulticastRatios(w, m, *nest, j, t);
        for (i64 p = 0; p < parents && (perfect || walkAll); ++p) {
            std::vector<i64> idx(static_cast<std::size_t>(nest->numLoops()), 0);
            if (!nest->fillSpatial(j, p, idx)) continue;
            i64 childSum = 0, noLink = 0;
            if (!walkAll) {
                const StageStep s = v.step(p, idx);
                childSum = s.childSum;
                noLink = s.noLink;
            } else {
                const int end = nest->yBegin(j);
                nest->setLast(idx, 0, end);
                bool ok = nest->walkFailure(idx, end) < 0 || nest->previous(idx, end);
                while (ok) {
                    const StageStep s = v.step(p, idx);
                    childSum += s.childSum;
                    noLink += s.noLink;
                    ok = nest->previous(idx, end);
                }
            }
            if (noLink > 0) mc[static_cast<std::size_t>(p)] = static_cast<double>(childSum) / static_cast<double>(noLink);
        }
        for (double x : mc)
            if (x != 1.0 && !perfect) additive = false;
        const i64 span = nest->instances(S) / parents;
        for (i64 d = 0; d < nest->instances(S); ++d) weight[t][static_cast<std::size_t>(d)] /= mc[static_cast<std::size_t>(d / span)];
    }
}

StepTrace::StepTrace(const Workload& w, const Architecture& a, const Mapping& m, int level, std::int64_t bypassWalkLimit)
{
    Diagnostics d = w.validate();
    for (auto& x : a.validate()) d.push_back(x);
    if (d.empty())
        for (auto& x : m.validate(w, a)) d.push_back(x);
    if (!d.empty()) throw NestorError(d);
    if (level < 0 || level >= a.numLevels())
        throw NestorError("level", "level " + std::to_string(level) + " is not a storage level of " + a.name + " (0.." +
                                       std::to_string(a.numLevels() - 1) + ")");
    for (int t = 0; t < w.numTensors(); ++t) {
        if (static_cast<int>(w.tensors[t].ranks.size()) > kMaxRanks)
            throw NestorError("workload.tensors[" + std::to_string(t) + "].ranks",
                              "the step trace handles at most " + std::to_string(kMaxRanks) + " ranks per tensor");
        if (!w.tensors[t].readWrite) continue;
        for (std::size_t r = 0; r < w.tensors[t].ranks.size(); ++r)
            if (w.tensors[t].ranks[r].size() != 1 || w.tensors[t].ranks[r][0].coef != 1)
                throw NestorError("workload.tensors[" + std::to_string(t) + "].ranks[" + std::to_string(r) + "]",
                                  "the step trace needs one-dimension ranks for the read-write tensor");
    }
    auto impl = std::make_shared<Impl>();
    impl->w = w;
    impl->a = a;
    impl->m = m;
    impl->level = level;
    impl->bypassWalkLimit = bypassWalkLimit;
    impl->L = a.numLevels();
    impl->T = w.numTensors();
    impl->nest = std::make_unique<NestOdometer>(impl->w, impl->a, impl->m);
    Impl& I = *impl;
    I.keep.assign(I.L, std::vector<char>(I.T, 0));
    for (int i = 0; i < I.L; ++i)
        for (int t = 0; t < I.T; ++t) I.keep[i][t] = m.keeps(i, t) && !a.levels[i].isSpatialOnly();
    I.views.resize(I.L);
    for (int j = 0; j < I.L; ++j)
        for (int t = 0; t < I.T; ++t) I.views[j].push_back(std::make_unique<StageView>(I.w, *I.nest, j, t, I.linkStage(j, t), !m.hasImperfectFactors()));
    for (const auto& f : I.nest->loops()) {
        NestLoop nl;
        nl.level = f.level;
        nl.kind = f.kind;
        nl.indexInLevel = f.indexInLevel;
        nl.loop = makeLoop(f.dim, f.bound, f.residual);
        nl.temporalIndex = f.temporalIndex;
        I.loops.push_back(nl);
    }
    I.backing.assign(I.T, 1);
    I.s0.assign(I.T, level);
    I.weight.assign(I.T, {});
    for (int t = 0; t < I.T; ++t) {
        for (int q = 0; q < level; ++q)
            if (I.keep[q][t]) I.backing[t] = 0;
        int C = level + 1;
        while (C < I.L && !I.keep[C][t]) ++C;
        I.s0[t] = C - 1;
        if (I.keep[level][t]) I.computeWeights(t);
    }
    impl_ = std::move(impl);
}

std::int64_t StepTrace::numSteps() const { return impl_->nest->numSteps(); }
int StepTrace::level() const { return impl_->level; }
int StepTrace::numInstances() const { return static_cast<int>(impl_->nest->instances(impl_->level)); }
int StepTrace::meshX() const
{
    return static_cast<int>(impl_->meshWidth(impl_->level));
}
int StepTrace::meshY() const { return std::max(1, numInstances() / meshX()); }
const std::vector<NestLoop>& StepTrace::loops() const { return impl_->loops; }
bool StepTrace::framesAdditive() const { return impl_->additive; }

void StepTrace::Impl::collect(i64 step, StepFrame* frame, std::vector<TensorCounts>& counts, ScaledAcc* scaled) const
{
    const int k = level;
    const auto tidx = nest->unrank(step);
    std::vector<i64> idx;
    nest->fillTemporal(tidx, idx);
    // one evaluation per stage, tensor and parent (fills and peer reads share one, reads and links another)
    std::vector<std::vector<std::unique_ptr<StageStep>>> cache(static_cast<std::size_t>(L * T));
    static const StageStep still;
    auto stageStep = [&](int j, int t, i64 p) -> const StageStep& {
        const StageView& v = *views[j][t];
        if (!v.movesAt(idx)) return still;
        auto& c = cache[static_cast<std::size_t>(j * T + t)];
        if (c.empty()) c.resize(static_cast<std::size_t>(nest->instances(j)));
        auto& e = c[static_cast<std::size_t>(p)];
        if (!e) e = std::make_unique<StageStep>(v.step(p, idx));
        return *e;
    };
    auto emit = [&](int t, Move mv) {
        auto& c = counts[t];
        switch (mv.kind) {
        case MoveKind::Fill: c.fills += mv.words; break;
        case MoveKind::Read: c.reads += mv.words; break;
        case MoveKind::Update: c.updates += mv.words; break;
        case MoveKind::Link: c.linkTransfers += mv.words; break;
        }
        if (frame) frame->moves.push_back(std::move(mv));
    };
    if (frame) {
        frame->step = step;
        frame->loopIndex = tidx;
        frame->instances.assign(static_cast<std::size_t>(nest->instances(k)), {});
        const int end = nest->tBegin(k);
        for (i64 i = 0; i < nest->instances(k); ++i) {
            auto& inst = frame->instances[static_cast<std::size_t>(meshId(k, i))];
            std::vector<i64> q = idx;
            inst.active = nest->fillSpatial(k, i, q) && nest->busy(q, k);
            inst.tiles.assign(T, {});
            if (!inst.active) continue;
            std::array<i64, kMaxDims> base, ext;
            nest->walk(q, end, base.data(), ext.data());
            for (int t = 0; t < T; ++t) {
                if (!keep[k][t]) continue;
                const Box b = tensorBox(w, t, base.data(), ext.data());
                auto& tt = inst.tiles[t];
                tt.held = true;
                for (int r = 0; r < b.n; ++r) tt.ranks.push_back({b.lo[r], b.lo[r] + b.ext[r]});
                tt.words = b.size();
            }
        }
    }
    for (int t = 0; t < T; ++t) {
        const bool rw = w.tensors[t].readWrite;
        if (keep[k][t]) {
            // fills from the parent level (and from a neighbour over a link)
            if (!backing[t]) {
                const i64 f = nest->fan(k - 1);
                for (i64 P = 0; P < nest->instances(k - 1); ++P) {
                    const StageStep& s = stageStep(k - 1, t, P);
                    if (!s.moved) continue;
                    std::vector<char> done(s.moves.size(), 0);
                    for (std::size_t i = 0; i < s.moves.size(); ++i) {
                        if (done[i]) continue;
                        const auto& cm = s.moves[i];
                        Move mv;
                        mv.kind = MoveKind::Fill;
                        mv.tensor = t;
                        mv.fromInstance = cm.sender >= 0 ? at(k, P * f + cm.sender) : -1;
                        for (std::size_t j = i; j < s.moves.size(); ++j) {
                            const auto& o = s.moves[j];
                            if (done[j] || o.sender != cm.sender || !(o.delta == cm.delta)) continue;
                            done[j] = 1;
                            mv.group.push_back(at(k, P * f + o.child));
                            // a read-write word held for the first time needs no fill
                            mv.words += (rw && o.first) ? 0 : o.delta.words;
                        }
                        if (mv.words > 0 || frame) emit(t, std::move(mv));
                    }
                    // reads of the senders of link transfers: each forwards from its own copy
                    for (const auto& cm : s.moves) {
                        if (cm.sender < 0) continue;
                        Move mv;
                        mv.kind = MoveKind::Read;
                        mv.tensor = t;
                        mv.words = cm.delta.words;
                        mv.group = {at(k, P * f + cm.sender)};
                        mv.receivers = {at(k, P * f + cm.child)};
                        emit(t, std::move(mv));
                    }
                }
            }
            // reads (and updates) by the children, or through bypassing levels by the next
            // level that keeps the tensor
            const int S = s0[t];
            if (S == k) {
                const i64 f = nest->fan(k);
                for (i64 p = 0; p < nest->instances(k); ++p) {
                    const StageStep& s = stageStep(k, t, p);
                    for (const auto& g : s.groups) {
                        Move mv;
                        mv.tensor = t;
                        mv.group = {at(k, p)};
                        for (int r : ids(s.moves, g.members, p * f)) mv.receivers.push_back(at(k + 1, r));
                        if (rw) {
                            Move up = mv;
                            up.kind = MoveKind::Update;
                            up.words = g.words;
                            emit(t, std::move(up));
                        }
                        mv.kind = MoveKind::Read;
                        mv.words = (rw && g.first) ? 0 : g.words;  // first-read elision
                        if (mv.words > 0) emit(t, std::move(mv));
                    }
                }
            } else {
                const i64 span = nest->instances(S) / nest->instances(k);
                const i64 f = nest->fan(S);
                for (i64 p = 0; p < nest->instances(k); ++p) {
                    double upd = 0.0, rd = 0.0;
                    Move mv;
                    mv.tensor = t;
                    mv.group = {at(k, p)};
                    // words entering the instance's partition: elided once each, unscaled
                    // (the model subtracts the partition from the scaled content)
                    std::set<std::pair<Box, Box>> firstWords;
                    i64 elided = 0;
                    for (i64 d = p * span; d < (p + 1) * span; ++d) {
                        const StageStep& s = stageStep(S, t, d);
                        if (!s.moved) continue;
                        const double wgt = weight[t][static_cast<std::size_t>(d)];
                        upd += wgt * static_cast<double>(s.used);
                        for (const auto& g : s.groups) {
                            for (int r : ids(s.moves, g.members, d * f)) mv.receivers.push_back(at(S + 1, r));
                            const auto& dl = s.moves[g.members.front()].delta;
                            if (rw && g.first && firstWords.insert({dl.keyA, dl.keyB}).second) elided += g.words;
                        }
                    }
                    rd = upd - static_cast<double>(elided);
                    if (!rw) rd = upd, upd = 0.0;
                    if (scaled) {  // a window: rounded per instance at its end
                        (*scaled)[t][static_cast<std::size_t>(p)].reads += rd;
                        (*scaled)[t][static_cast<std::size_t>(p)].updates += upd;
                    }
                    if (!frame) continue;
                    if (rw && upd > 0) {
                        Move up = mv;
                        up.kind = MoveKind::Update;
                        up.words = std::llround(upd);
                        frame->moves.push_back(std::move(up));
                    }
                    mv.kind = MoveKind::Read;
                    mv.words = std::llround(rd);
                    if (mv.words > 0) frame->moves.push_back(std::move(mv));
                }
            }
        }
        // link transfers between the traced level's children
        if (linkStage(k, t) && nest->fan(k) > 1) {
            const i64 f = nest->fan(k);
            for (i64 p = 0; p < nest->instances(k); ++p) {
                const StageStep& s = stageStep(k, t, p);
                if (s.linkWords == 0) continue;
                for (const auto& cm : s.moves) {
                    if (cm.sender < 0) continue;
                    Move mv;
                    mv.kind = MoveKind::Link;
                    mv.tensor = t;
                    mv.words = cm.delta.words;
                    mv.group = {at(k + 1, p * f + cm.child)};
                    mv.fromInstance = at(k + 1, p * f + cm.sender);
                    emit(t, std::move(mv));
                }
            }
        }
    }
}

StepFrame StepTrace::frame(std::int64_t step) const
{
    if (step < 0 || step >= numSteps())
        throw NestorError("step", "step " + std::to_string(step) + " is outside 0.." + std::to_string(numSteps() - 1));
    StepFrame f;
    std::vector<TensorCounts> counts(static_cast<std::size_t>(impl_->T));
    impl_->collect(step, &f, counts, nullptr);
    return f;
}

std::vector<TensorCounts> StepTrace::countWindow(std::int64_t begin, std::int64_t end) const
{
    if (begin < 0 || end > numSteps() || begin > end)
        throw NestorError("window", "window [" + std::to_string(begin) + ", " + std::to_string(end) + ") is outside 0.." +
                                        std::to_string(numSteps()));
    std::vector<TensorCounts> counts(static_cast<std::size_t>(impl_->T));
    const Impl& I = *impl_;
    Impl::ScaledAcc scaled(static_cast<std::size_t>(I.T));
    for (int t = 0; t < I.T; ++t) scaled[t].assign(static_cast<std::size_t>(I.nest->instances(I.level)), {});
    for (i64 s = begin; s < end; ++s) I.collect(s, nullptr, counts, &scaled);
    for (int t = 0; t < I.T; ++t)
        for (const auto& x : scaled[t]) {
            counts[t].reads += std::llround(x.reads);
            counts[t].updates += std::llround(x.updates);
        }
    return counts;
}

std::int64_t StepTrace::nextTileChange(std::int64_t step, int tensor) const
{
    if (step < 0 || step >= numSteps())
        throw NestorError("step", "step " + std::to_string(step) + " is outside 0.." + std::to_string(numSteps() - 1));
    if (tensor < 0 || tensor >= impl_->T) throw NestorError("tensor", "no tensor " + std::to_string(tensor));
    const Impl& I = *impl_;
    if (!I.keep[I.level][tensor] || I.level == 0) return -1;
    // the tiles change only where the stage above the traced level moves: check those steps
    const StageView& v = *I.views[I.level - 1][tensor];
    auto tilesAt = [&](i64 s) {
        std::vector<i64> idx;
        I.nest->fillTemporal(I.nest->unrank(s), idx);
        std::vector<Box> out;
        for (i64 i = 0; i < I.nest->instances(I.level); ++i) {
            std::vector<i64> q = idx;
            if (I.nest->fillSpatial(I.level, i, q) && I.nest->walk(q, I.nest->tBegin(I.level), nullptr, nullptr))
                out.push_back(v.tile(q));
            else
                out.push_back(Box{});
        }
        return out;
    };
    const auto now = tilesAt(step);
    // only loops the tensor depends on move its tiles: compare indices up to the innermost of those
    std::vector<char> relevant(static_cast<std::size_t>(I.w.numDims()), 0);
    for (const auto& rank : I.w.tensors[tensor].ranks)
        for (const auto& term : rank) relevant[static_cast<std::size_t>(term.dim)] = 1;
    int prefixEnd = 0;
    for (int q : I.nest->temporalPositions())
        if (q < I.nest->tBegin(I.level) && relevant[static_cast<std::size_t>(I.nest->loops()[q].dim)]) prefixEnd = q + 1;
    // the first step of the next position of the loops above the traced level: count the
    // steps left in the current one by ranking its last step
    i64 s = step;
    for (int guard = 0; guard < (1 << 20); ++guard) {
        auto tidx = I.nest->unrank(s);
        const int end = prefixEnd;
        // last step with the same outer indices: bisect on the rank (indices are monotone)
        i64 lo = s, hi = numSteps() - 1;
        auto samePrefix = [&](i64 x) {
            const auto o = I.nest->unrank(x);
            for (int q : I.nest->temporalPositions())
                if (q < end && o[static_cast<std::size_t>(I.nest->loops()[q].temporalIndex)] !=
                                   tidx[static_cast<std::size_t>(I.nest->loops()[q].temporalIndex)])
                    return false;
            return true;
        };
        while (lo < hi) {
            const i64 mid = lo + (hi - lo + 1) / 2;
            if (samePrefix(mid)) lo = mid;
            else hi = mid - 1;
        }
        s = lo + 1;
        if (s >= numSteps()) return -1;
        if (tilesAt(s) != now) return s;
    }
    return -1;
}

} // namespace nestor::trace
