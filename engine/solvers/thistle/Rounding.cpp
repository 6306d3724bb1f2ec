#include "solvers/thistle/Rounding.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace nestor::thistle {

namespace {

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
};

} // namespace

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
                    if (seen.insert(std::make_tuple(ts, tq, tr)).second) c.push_back({bound / ts, tq / tr, ts / tq, tr});
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
    std::vector<std::size_t> idx(chains.size(), 0);
    while (st.combinations < opt.maxCombinations) {
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
            RoundedCandidate rc;
            rc.trips = trips;
            rc.counts = exactCounts(L, nest, trips);
            const auto& k = rc.counts;
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
                const Technology& t = spec.tech;
                rc.area_um2 = (t.areaRegister_um2 * static_cast<double>(rc.registers) + t.areaMac_um2) * k.peUsed +
                              t.areaSramWord_um2 * static_cast<double>(rc.sramWords);
                if (rc.area_um2 > spec.area_um2) {
                    ++st.rejectedArea;
                    return;
                }
                rc.solverEnergy_pJ = k.energy_pJ(t.sigmaR_pJ * static_cast<double>(rc.registers),
                                                 t.sigmaS_pJ * std::sqrt(static_cast<double>(rc.sramWords)), t.dram_pJ, t.mac_pJ);
            } else {
                if (k.rfFootprint > spec.registers || k.sramFootprint > spec.sramWords || k.peUsed > spec.pes) {
                    ++st.rejectedCapacity;
                    return;
                }
                rc.registers = static_cast<std::int64_t>(spec.registers);
                rc.sramWords = static_cast<std::int64_t>(spec.sramWords);
                rc.solverEnergy_pJ = k.energy_pJ(spec.eR_pJ, spec.eS_pJ, spec.eD_pJ, spec.eMac_pJ);
            }
            rc.solverCycles = k.cycles(spec.bw);
            out.push_back(std::move(rc));
        }();
        std::size_t i = 0;
        while (i < idx.size() && ++idx[i] == chains[i].size()) idx[i++] = 0;
        if (i == idx.size()) break;
    }
    if (stats) *stats = st;
    return out;
}

} // namespace nestor::thistle
