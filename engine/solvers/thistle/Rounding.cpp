#include "solvers/thistle/Rounding.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <set>
#include <tuple>

namespace nestor::thistle {

namespace {

std::vector<std::int64_t> nearest(std::vector<std::int64_t> values, double target, int count)
{
    const double lt = std::log(std::max(target, 1e-300));
    std::stable_sort(values.begin(), values.end(), [&](std::int64_t a, std::int64_t b) {
        return std::fabs(std::log(static_cast<double>(a)) - lt) < std::fabs(std::log(static_cast<double>(b)) - lt);
    });
    if (static_cast<int>(values.size()) > count) values.resize(static_cast<std::size_t>(count));
    return values;
}

struct Chain {
    std::int64_t dram, sram, pe, reg;  // trip counts
    double distance;                   // log distance of its three tiles to the relaxed ones
};

double logDistance(std::int64_t tile, double relaxed) { return std::fabs(std::log(static_cast<double>(tile)) - std::log(relaxed)); }

// The combinations of one chain per dimension (each list sorted by distance), in increasing
// total distance: a best-first walk where a combination's successors advance one dimension at
// or after the last one advanced, so that each combination is reached exactly once.
class NearestFirst {
public:
    explicit NearestFirst(const std::vector<std::vector<Chain>>& chains) : chains_(chains)
    {
        if (std::any_of(chains.begin(), chains.end(), [](const auto& c) { return c.empty(); })) return;
        Node start{0.0, std::vector<std::size_t>(chains.size(), 0), 0};
        for (std::size_t d = 0; d < chains.size(); ++d) start.distance += chains[d][0].distance;
        heap_.push(std::move(start));
    }
    bool next(std::vector<std::size_t>& idx)
    {
        if (heap_.empty()) return false;
        Node n = heap_.top();
        heap_.pop();
        for (std::size_t d = n.last; d < chains_.size(); ++d) {
            if (n.idx[d] + 1 >= chains_[d].size()) continue;
            Node s = n;
            s.distance += chains_[d][n.idx[d] + 1].distance - chains_[d][n.idx[d]].distance;
            ++s.idx[d];
            s.last = d;
            heap_.push(std::move(s));
        }
        idx = std::move(n.idx);
        return true;
    }

private:
    struct Node {
        double distance;
        std::vector<std::size_t> idx;
        std::size_t last;
        bool operator>(const Node& o) const { return distance > o.distance || (distance == o.distance && idx > o.idx); }
    };
    const std::vector<std::vector<Chain>>& chains_;
    std::priority_queue<Node, std::vector<Node>, std::greater<Node>> heap_;
};

} // namespace

std::vector<std::int64_t> divisorsOf(std::int64_t n)
{
    std::vector<std::int64_t> d;
    for (std::int64_t i = 1; i * i <= n; ++i)
        if (n % i == 0) {
            d.push_back(i);
            if (i != n / i) d.push_back(n / i);
        }
    std::sort(d.begin(), d.end());
    return d;
}

double designArea_um2(const Technology& t, std::int64_t registers, std::int64_t sramWords, double pes)
{
    return (t.areaRegister_um2 * static_cast<double>(registers) + t.areaMac_um2) * pes + t.areaSramWord_um2 * static_cast<double>(sramWords);
}

double solverEnergy_pJ(const ProgramSpec& spec, const ThistleCounts& k, std::int64_t registers, std::int64_t sramWords)
{
    if (!spec.codesign) return k.energy_pJ(spec.eR_pJ, spec.eS_pJ, spec.eD_pJ, spec.eMac_pJ);
    const Technology& t = spec.tech;
    return k.energy_pJ(t.sigmaR_pJ * static_cast<double>(registers), t.sigmaS_pJ * std::sqrt(static_cast<double>(sramWords)), t.dram_pJ, t.mac_pJ);
}

std::vector<std::int64_t> nearestDivisors(std::int64_t n, double target, int count)
{
    return nearest(divisorsOf(n), target, count);
}

std::vector<std::int64_t> nearestPowersOfTwo(double target, int count)
{
    std::vector<std::int64_t> p;
    for (int e = 0; e < 40; ++e) p.push_back(std::int64_t{1} << e);
    return nearest(p, target, count);
}

std::vector<RoundedCandidate> roundSolution(const ThistleLayer& L, const Permutation& perm, const ProgramSpec& spec,
                                            const ThistleProgram& prog, const std::vector<double>& x,
                                            const RoundingOptions& opt, RoundingStats* stats)
{
    const Workload& w = L.w;
    const TileNest nest = buildNest(L, perm);
    auto at = [&](int var) { return x[static_cast<std::size_t>(var)]; };
    // Level by level: SRAM tile among the bound's divisors, per-PE tile among the SRAM tile's,
    // register tile among the per-PE tile's.
    std::vector<std::vector<Chain>> chains;
    double relaxedPes = 1.0;
    for (int d : L.tiled) {
        const std::size_t du = static_cast<std::size_t>(d);
        const std::int64_t bound = w.bounds[du];
        const double reg = at(L.varReg[du]), perPe = reg * at(L.varSram[du]), sramTile = perPe * at(L.varPe[du]);
        relaxedPes *= at(L.varPe[du]);
        std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> seen;
        std::vector<Chain> c;
        for (std::int64_t ts : nearestDivisors(bound, sramTile, opt.divisorsPerLevel))
            for (std::int64_t tq : nearestDivisors(ts, perPe, opt.divisorsPerLevel))
                for (std::int64_t tr : nearestDivisors(tq, reg, opt.divisorsPerLevel))
                    if (seen.insert(std::make_tuple(ts, tq, tr)).second)
                        c.push_back({bound / ts, tq / tr, ts / tq, tr,
                                     logDistance(ts, sramTile) + logDistance(tq, perPe) + logDistance(tr, reg)});
        std::stable_sort(c.begin(), c.end(), [](const Chain& a, const Chain& b) { return a.distance < b.distance; });
        chains.push_back(std::move(c));
    }

    std::vector<std::int64_t> rCands, sCands;
    if (spec.codesign) {
        rCands = nearestPowersOfTwo(at(prog.varR), opt.powersOfTwo);
        sCands = nearestPowersOfTwo(at(prog.varS), opt.powersOfTwo);
        std::sort(rCands.begin(), rCands.end());
        std::sort(sCands.begin(), sCands.end());
    }

    std::vector<RoundedCandidate> out;
    RoundingStats st;
    std::vector<std::int64_t> trips(static_cast<std::size_t>(L.numNestVars), 1);
    for (int d : L.whole) trips[static_cast<std::size_t>(L.varReg[static_cast<std::size_t>(d)])] = w.bounds[static_cast<std::size_t>(d)];
    std::vector<std::size_t> idx;
    NearestFirst walk(chains);
    ExactCounter count(L, nest);
    while (st.combinations < opt.maxCombinations && walk.next(idx)) {
        for (std::size_t i = 0; i < chains.size(); ++i) {
            const std::size_t du = static_cast<std::size_t>(L.tiled[i]);
            const Chain& c = chains[i][idx[i]];
            trips[static_cast<std::size_t>(L.varDram[du])] = c.dram;
            trips[static_cast<std::size_t>(L.varSram[du])] = c.sram;
            trips[static_cast<std::size_t>(L.varPe[du])] = c.pe;
            trips[static_cast<std::size_t>(L.varReg[du])] = c.reg;
        }
        ++st.combinations;
        [&] {
            // The filters need only the tiles and the PEs: the volumes are counted for the
            // candidates that pass them.
            RoundedCandidate rc;
            rc.counts = count.tiles(trips);
            auto& k = rc.counts;
            rc.pes = static_cast<std::int64_t>(k.peUsed);
            if (k.peUsed < opt.minUtilization * relaxedPes) {
                ++st.rejectedUtilization;
                return;
            }
            if (spec.codesign) {
                // The smallest power-of-two candidate that holds the tiles.
                auto pick = [](const std::vector<std::int64_t>& cands, double need) -> std::int64_t {
                    for (std::int64_t c : cands)
                        if (static_cast<double>(c) >= need) return c;
                    return 0;
                };
                rc.registers = pick(rCands, k.rfFootprint);
                rc.sramWords = pick(sCands, k.sramFootprint);
                if (!rc.registers || !rc.sramWords) {
                    ++st.rejectedCapacity;
                    return;
                }
                rc.area_um2 = designArea_um2(spec.tech, rc.registers, rc.sramWords, k.peUsed);
                if (rc.area_um2 > spec.area_um2) {
                    ++st.rejectedArea;
                    return;
                }
                k = count(trips);
            } else {
                if (k.rfFootprint > spec.registers || k.sramFootprint > spec.sramWords || k.peUsed > spec.pes) {
                    ++st.rejectedCapacity;
                    return;
                }
                k = count(trips);
                rc.registers = static_cast<std::int64_t>(spec.registers);
                rc.sramWords = static_cast<std::int64_t>(spec.sramWords);
            }
            rc.solverEnergy_pJ = solverEnergy_pJ(spec, k, rc.registers, rc.sramWords);
            rc.solverCycles = k.cycles(spec.bw);
            rc.trips = trips;
            out.push_back(std::move(rc));
        }();
    }
    if (stats) *stats = st;
    return out;
}

} // namespace nestor::thistle
