#include "model/MeshLinks.h"

#include <algorithm>
#include <array>

namespace nestor::model {

// Timeloop's order of neighbours: above, below, left, right (-1 off the mesh).
std::array<std::int64_t, 4> MeshLinks::neighbours(std::size_t c) const
{
    auto childAt = [&](std::int64_t x, std::int64_t y) -> std::int64_t {
        return (x < 0 || y < 0 || x >= fanX_ || y >= fanY_) ? -1 : y * fanX_ + x;
    };
    return {childAt(xs_[c], ys_[c] - 1), childAt(xs_[c], ys_[c] + 1), childAt(xs_[c] - 1, ys_[c]), childAt(xs_[c] + 1, ys_[c])};
}

void MeshLinks::buildGeometry(const StageFrame& f, Moves which)
{
    const int nRanks = f.nRanks;
    nRanks_ = nRanks;
    fanX_ = f.fanX;
    fanY_ = f.fanY;
    auto differenceTo = [&](std::size_t c, std::int64_t nb) {
        Vec d{};
        for (int r = 0; r < nRanks; ++r) d[r] = offs_[static_cast<std::size_t>(nb)][r] - offs_[c][r];
        return d;
    };
    moves.clear();
    for (std::size_t c = 0; c < offs_.size() && which != Moves::None; ++c)
        for (std::int64_t nb : neighbours(c)) {
            if (nb < 0) continue;
            const Vec d = differenceTo(c, nb);
            if ((which == Moves::WithZero || !f.isZero(d)) && std::find(moves.begin(), moves.end(), d) == moves.end()) moves.push_back(d);
        }
    senders.resize(moves.size());
    served.assign(moves.size(), 0);
    groupsWith.assign(moves.size(), 0);
    thread_local std::vector<Vec> rest;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        senders[i].assign(offs_.size(), -1);
        rest.clear();
        for (std::size_t c = 0; c < offs_.size(); ++c) {
            for (std::int64_t nb : neighbours(c))
                if (nb >= 0 && differenceTo(c, nb) == moves[i]) {
                    senders[i][c] = static_cast<int>(nb);
                    ++served[i];
                    break;
                }
            if (senders[i][c] < 0) rest.push_back(offs_[c]);
        }
        std::sort(rest.begin(), rest.end());
        groupsWith[i] = std::unique(rest.begin(), rest.end()) - rest.begin();
    }
}

MeshLinks::Savings MeshLinks::apply(const std::vector<std::int64_t>& matched, std::int64_t groups, std::vector<std::int64_t>& sent) const
{
    Savings s;
    sent.clear();
    for (std::size_t i = 0; i < moves.size() && i < matched.size(); ++i) {
        const std::int64_t words = matched[i];
        if (words == 0 || served[i] == 0 || groupsWith[i] >= groups) continue;  // links would not lower the accesses
        s.linkWords += served[i] * words;
        s.accesses += (groups - groupsWith[i]) * words;
        s.weighted += served[i] * words;
        sent.resize(offs_.size(), 0);
        for (std::size_t c = 0; c < sent.size(); ++c)
            if (senders[i][c] >= 0) sent[static_cast<std::size_t>(senders[i][c])] += words;
    }
    return s;
}

void MeshLinks::countDistinct(std::vector<const Delta*>& deltas, std::int64_t& accesses, std::int64_t& weighted)
{
    accesses = weighted = 0;
    auto less = [](const Delta* pa, const Delta* pb) {
        const Delta& a = *pa;
        const Delta& b = *pb;
        if (a.size != b.size) return a.size < b.size;
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.outer.lo != b.outer.lo) return a.outer.lo < b.outer.lo;
        if (a.outer.ext != b.outer.ext) return a.outer.ext < b.outer.ext;
        if (a.kind != Delta::Difference) return false;
        if (a.hole.lo != b.hole.lo) return a.hole.lo < b.hole.lo;
        return a.hole.ext < b.hole.ext;
    };
    std::sort(deltas.begin(), deltas.end(), less);
    for (std::size_t i = 0; i < deltas.size(); ++i) {
        weighted += deltas[i]->size;
        if (i == 0 || !(*deltas[i] == *deltas[i - 1])) accesses += deltas[i]->size;
    }
}

MeshLinks::StepFigures MeshLinks::countStep(const std::vector<int>& slotOf, const Delta* now, const Delta* before,
                                            std::vector<std::int64_t>& sent) const
{
    StepFigures out;
    const std::size_t n = offs_.size();
    thread_local std::vector<Delta> mine;
    thread_local std::vector<const Delta*> rest;  // (pointers: sorting the deltas themselves copied them about)
    thread_local std::vector<int> sender;
    mine.resize(n);
    sender.assign(n, -1);
    sent.assign(n, 0);
    for (std::size_t c = 0; c < n; ++c) mine[c] = now[slotOf[c]].shiftedBy(offs_[c], nRanks_);
    rest.clear();
    for (std::size_t c = 0; c < n; ++c)
        if (mine[c].size > 0) rest.push_back(&mine[c]);
    std::int64_t accessesWithout = 0, weightedWithout = 0;
    countDistinct(rest, accessesWithout, weightedWithout);
    out.accesses = accessesWithout;
    out.weighted = weightedWithout;
    bool any = false;
    std::int64_t linkWords = 0;
    for (std::size_t c = 0; c < n; ++c) {
        if (mine[c].size == 0) continue;
        for (std::int64_t nb : neighbours(c)) {
            if (nb < 0) continue;
            const Delta& had = before[slotOf[static_cast<std::size_t>(nb)]];
            if (had.size != mine[c].size) continue;
            if (had.shiftedBy(offs_[static_cast<std::size_t>(nb)], nRanks_) == mine[c]) {
                sender[c] = static_cast<int>(nb);
                linkWords += mine[c].size;
                any = true;
                break;
            }
        }
    }
    if (!any) return out;
    rest.clear();
    for (std::size_t c = 0; c < n; ++c)
        if (mine[c].size > 0 && sender[c] < 0) rest.push_back(&mine[c]);
    std::int64_t accessesWith = 0, weightedWith = 0;
    countDistinct(rest, accessesWith, weightedWith);
    if (accessesWith >= accessesWithout) return out;
    out.accesses = accessesWith;
    out.weighted = weightedWith;
    out.linkWords = linkWords;
    out.linked = true;
    for (std::size_t c = 0; c < n; ++c)
        if (sender[c] >= 0) sent[static_cast<std::size_t>(sender[c])] += mine[c].size;
    return out;
}

} // namespace nestor::model
