#include "model/MeshLinks.h"

#include <algorithm>
#include <array>

namespace nestor::model {

void MeshLinks::buildGeometry(const StageFrame& f, bool includeZero)
{
    const int nRanks = f.nRanks;
    auto childAt = [&](std::int64_t x, std::int64_t y) -> std::int64_t {
        return (x < 0 || y < 0 || x >= f.fanX || y >= f.fanY) ? -1 : y * f.fanX + x;
    };
    auto differenceTo = [&](std::size_t c, std::int64_t nb) {
        Vec d{};
        for (int r = 0; r < nRanks; ++r) d[r] = offs_[static_cast<std::size_t>(nb)][r] - offs_[c][r];
        return d;
    };
    // Timeloop's order of neighbours: above, below, left, right.
    auto neighbours = [&](std::size_t c) {
        return std::array<std::int64_t, 4>{childAt(xs_[c], ys_[c] - 1), childAt(xs_[c], ys_[c] + 1), childAt(xs_[c] - 1, ys_[c]),
                                           childAt(xs_[c] + 1, ys_[c])};
    };
    moves.clear();
    for (std::size_t c = 0; c < offs_.size(); ++c)
        for (std::int64_t nb : neighbours(c)) {
            if (nb < 0) continue;
            const Vec d = differenceTo(c, nb);
            if ((includeZero || !f.isZero(d)) && std::find(moves.begin(), moves.end(), d) == moves.end()) moves.push_back(d);
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

} // namespace nestor::model
