#include "model/MeshLinks.h"

#include "model/HashedIds.h"

#include <algorithm>
#include <array>

namespace nestor::model {

namespace {

// Yes/no answers found at most once per count, forgotten by the next count's begin() without
// clearing them (clearing a table of kinds x kinds x differences per step showed in the profile).
class KnownFlags {
public:
    void begin(std::size_t n)
    {
        if (entries_.size() < n) entries_.resize(n, 0);
        if (++run_ == kRuns) {  // runs wrapped: forget every answer
            std::fill(entries_.begin(), entries_.end(), 0);
            run_ = 1;
        }
    }
    bool known(std::size_t i) const { return entries_[i] >> 1 == run_; }
    bool value(std::size_t i) const { return (entries_[i] & 1u) != 0; }
    void set(std::size_t i, bool v) { entries_[i] = run_ << 1 | (v ? 1u : 0u); }

private:
    static constexpr std::uint32_t kRuns = 1u << 31;
    std::vector<std::uint32_t> entries_;  // run << 1 | answer
    std::uint32_t run_ = 0;
};

} // namespace

// Timeloop's order of neighbours: above, below, left, right (-1 off the mesh).
std::array<std::int64_t, 4> MeshLinks::neighbours(std::size_t c) const
{
    auto childAt = [&](std::int64_t x, std::int64_t y) -> std::int64_t {
        return (x < 0 || y < 0 || x >= fanX_ || y >= fanY_) ? -1 : y * fanX_ + x;
    };
    return {childAt(xs_[c], ys_[c] - 1), childAt(xs_[c], ys_[c] + 1), childAt(xs_[c] - 1, ys_[c]), childAt(xs_[c] + 1, ys_[c])};
}

void MeshLinks::build(const StageFrame& f, Moves which, const std::vector<int>& kindOf)
{
    offs_.resize(static_cast<std::size_t>(f.children));
    xs_.resize(offs_.size());
    ys_.resize(offs_.size());
    f.forEachChild([&](std::int64_t c, const Vec& off, std::int64_t x, std::int64_t y, const auto&) {
        const auto i = static_cast<std::size_t>(c);
        offs_[i] = off;
        xs_[i] = x;
        ys_[i] = y;
    });
    childKindOf = kindOf;
    buildGeometry(f, which);
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
    buildLinkGeometry();
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

void MeshLinks::buildLinkGeometry()
{
    neighbourOf_.resize(offs_.size());
    neighbourMove_.resize(offs_.size());
    offsetHash_.resize(offs_.size());
    differences_.clear();
    for (std::size_t c = 0; c < offs_.size(); ++c) {
        offsetHash_[c] = shiftHash(offs_[c], nRanks_);
        neighbourOf_[c] = neighbours(c);
        for (std::size_t k = 0; k < 4; ++k) {
            neighbourMove_[c][k] = -1;
            const std::int64_t nb = neighbourOf_[c][k];
            if (nb < 0) continue;
            Vec d{};
            for (int r = 0; r < nRanks_; ++r) d[r] = offs_[static_cast<std::size_t>(nb)][r] - offs_[c][r];
            auto at = std::find(differences_.begin(), differences_.end(), d);
            if (at == differences_.end()) at = differences_.insert(differences_.end(), d);
            neighbourMove_[c][k] = static_cast<int>(at - differences_.begin());
        }
    }
}

// The distinct deltas among the busy children `keyed` lists (each with the hash of its delta at
// its offset, skipping those `skip` marks): each one's words once (accesses) and every child's
// (weighted). Children of one kind at one offset have one delta, of one kind at different
// offsets different ones; only children of different kinds with equal hashes are compared word
// set by word set. (Found through a hashed index: sorting the children by hash showed in the
// profile, a few thousand steps a stage.)
void MeshLinks::countDistinct(const std::vector<std::pair<std::uint64_t, int>>& keyed, const std::vector<int>& slotOf,
                              const Delta* const* now, const std::vector<int>* skip, std::int64_t& accesses, std::int64_t& weighted) const
{
    accesses = weighted = 0;
    thread_local HashedIds distinctIds;
    thread_local std::vector<std::pair<std::uint64_t, int>> distinct;  // per id: the hash and a child with that delta
    distinctIds.clear();
    distinct.clear();
    for (const auto& [hash, child] : keyed) {
        const auto c = static_cast<std::size_t>(child);
        if (skip && (*skip)[c] >= 0) continue;
        const Delta& mine = *now[slotOf[c]];
        weighted += mine.size;
        const int seen = distinctIds.find(hash, [&](int id) {
            const auto& [otherHash, other] = distinct[static_cast<std::size_t>(id)];
            if (otherHash != hash) return false;
            const auto o = static_cast<std::size_t>(other);
            if (slotOf[o] == slotOf[c]) return offs_[o] == offs_[c];
            Vec d{};
            for (int r = 0; r < nRanks_; ++r) d[r] = offs_[c][r] - offs_[o][r];
            return mine.equalsShiftedBy(d, *now[slotOf[o]], nRanks_);
        });
        if (seen >= 0) continue;
        distinctIds.add(hash);
        distinct.push_back({hash, child});
        accesses += mine.size;
    }
}

MeshLinks::StepFigures MeshLinks::countStep(const std::vector<int>& slotOf, const Delta* const* now, const Delta* const* before,
                                            const Vec& back, std::vector<std::int64_t>& sent) const
{
    StepFigures out;
    const std::size_t n = offs_.size();
    int slots = 0;
    for (std::size_t c = 0; c < n; ++c) slots = std::max(slots, slotOf[c] + 1);
    // Per kind its delta's hash at the step's base and how a shift moves it; per busy child the
    // hash of its delta at its offset.
    thread_local std::vector<std::uint64_t> slotHash, slotScale;
    slotHash.resize(static_cast<std::size_t>(slots));
    slotScale.resize(static_cast<std::size_t>(slots));
    for (int x = 0; x < slots; ++x) {
        const Delta& d = *now[x];
        slotHash[static_cast<std::size_t>(x)] = hashOf(d, nRanks_);
        slotScale[static_cast<std::size_t>(x)] = shiftScale(d);
    }
    thread_local std::vector<std::pair<std::uint64_t, int>> keyed;
    keyed.clear();
    for (std::size_t c = 0; c < n; ++c) {
        const auto x = static_cast<std::size_t>(slotOf[c]);
        if (now[x]->size > 0) keyed.push_back({slotHash[x] + offsetHash_[c] * slotScale[x], static_cast<int>(c)});
    }
    std::int64_t accessesWithout = 0, weightedWithout = 0;
    countDistinct(keyed, slotOf, now, nullptr, accessesWithout, weightedWithout);
    out.accesses = accessesWithout;
    out.weighted = weightedWithout;

    // A child takes its delta from the first neighbour (Timeloop's order) that had it in the
    // previous step: whether a neighbour of kind y at offset difference i had the delta of a
    // child of kind x depends on (x, y, i) alone, found once per step.
    const std::size_t nd = differences_.size();
    thread_local KnownFlags hadIt;  // per (x, y, i)
    hadIt.begin(static_cast<std::size_t>(slots) * static_cast<std::size_t>(slots) * nd);
    thread_local std::vector<int> sender;
    sender.assign(n, -1);
    sent.assign(n, 0);
    bool any = false;
    std::int64_t linkWords = 0;
    for (std::size_t c = 0; c < n; ++c) {
        const auto x = static_cast<std::size_t>(slotOf[c]);
        const Delta& mine = *now[x];
        if (mine.size == 0) continue;
        for (std::size_t k = 0; k < 4; ++k) {
            const std::int64_t nb = neighbourOf_[c][k];
            if (nb < 0) continue;
            const auto y = static_cast<std::size_t>(slotOf[static_cast<std::size_t>(nb)]);
            const Delta& had = *before[y];
            if (had.size != mine.size) continue;
            const auto i = static_cast<std::size_t>(neighbourMove_[c][k]);
            const std::size_t at = (x * static_cast<std::size_t>(slots) + y) * nd + i;
            if (!hadIt.known(at)) {
                Vec shift = back;  // from the previous step's base to the neighbour's delta here
                for (int r = 0; r < nRanks_; ++r) shift[r] += differences_[i][r];
                hadIt.set(at, had.equalsShiftedBy(shift, mine, nRanks_));
            }
            if (hadIt.value(at)) {
                sender[c] = static_cast<int>(nb);
                linkWords += mine.size;
                any = true;
                break;
            }
        }
    }
    if (!any) return out;
    std::int64_t accessesWith = 0, weightedWith = 0;
    countDistinct(keyed, slotOf, now, &sender, accessesWith, weightedWith);
    if (accessesWith >= accessesWithout) return out;
    out.accesses = accessesWith;
    out.weighted = weightedWith;
    out.linkWords = linkWords;
    out.linked = true;
    for (std::size_t c = 0; c < n; ++c)
        if (sender[c] >= 0) sent[static_cast<std::size_t>(sender[c])] += now[slotOf[c]]->size;
    return out;
}

} // namespace nestor::model
