#include "solvers/thistle/ThistleLayer.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace nestor::thistle {

namespace {

bool isFilterDim(const Workload& w, int d)
{
    for (const auto& t : w.tensors)
        if (t.readWrite && w.dependsOn(w.tensorIndex(t.name), d)) return false;
    for (const auto& t : w.tensors)
        for (const auto& rank : t.ranks) {
            bool has = false;
            int others = 0;
            for (const auto& term : rank) {
                if (term.coef == 0) continue;
                if (term.dim == d) has = true;
                else ++others;
            }
            if (has && others > 0) return true;
        }
    return false;
}

} // namespace

ThistleLayer makeThistleLayer(const Workload& w)
{
    ThistleLayer L;
    L.w = w;
    const int D = w.numDims();
    L.varDram.assign(static_cast<std::size_t>(D), -1);
    L.varSram = L.varPe = L.varReg = L.varDram;
    for (int d = 0; d < D; ++d) {
        const bool whole = w.bounds[static_cast<std::size_t>(d)] == 1 || isFilterDim(w, d);
        (whole ? L.whole : L.tiled).push_back(d);
        if (!whole) {
            L.varDram[static_cast<std::size_t>(d)] = L.numNestVars++;
            L.varSram[static_cast<std::size_t>(d)] = L.numNestVars++;
            L.varPe[static_cast<std::size_t>(d)] = L.numNestVars++;
        }
        L.varReg[static_cast<std::size_t>(d)] = L.numNestVars++;
    }
    L.fixedTrips.assign(static_cast<std::size_t>(L.numNestVars), 0.0);
    for (int d : L.whole) L.fixedTrips[static_cast<std::size_t>(L.varReg[static_cast<std::size_t>(d)])] = static_cast<double>(w.bounds[static_cast<std::size_t>(d)]);
    return L;
}

std::string Permutation::text(const Workload& w) const
{
    std::ostringstream s;
    s << "DRAM[";
    for (std::size_t i = 0; i < dram.size(); ++i) s << (i ? " " : "") << w.dimNames[static_cast<std::size_t>(dram[i])];
    s << "] SRAM[";
    for (std::size_t i = 0; i < sram.size(); ++i) s << (i ? " " : "") << w.dimNames[static_cast<std::size_t>(sram[i])];
    s << "]";
    return s.str();
}

TileNest buildNest(const ThistleLayer& L, const Permutation& perm)
{
    TileNest nest;
    nest.numVars = L.numNestVars;
    nest.levels.resize(3);
    for (int d : perm.dram) nest.levels[kDramLevel].temporal.push_back({d, L.varDram[static_cast<std::size_t>(d)]});
    for (int d : perm.sram) nest.levels[kSramLevel].temporal.push_back({d, L.varSram[static_cast<std::size_t>(d)]});
    for (int d : L.tiled) nest.levels[kSramLevel].spatial.push_back({d, L.varPe[static_cast<std::size_t>(d)]});
    for (int d = 0; d < L.w.numDims(); ++d) nest.levels[kRegisterLevel].temporal.push_back({d, L.varReg[static_cast<std::size_t>(d)]});
    return nest;
}

namespace {

std::string signature(const ThistleLayer& L, const TileNest& nest, const std::vector<int>& varMap)
{
    auto mapped = [&](std::vector<int> v) {
        for (int& x : v) x = varMap[static_cast<std::size_t>(x)];
        std::sort(v.begin(), v.end());
        return v;
    };
    std::ostringstream s;
    for (int t = 0; t < L.w.numTensors(); ++t)
        for (int level = 1; level < 3; ++level) {
            const TileExpr e = instanceVolumeExpr(L.w, nest, t, level);
            s << t << ':' << level << ":s";
            for (int v : mapped(e.scale)) s << v << ',';
            s << "w" << (e.sweepDim < 0 ? -1 : varMap[static_cast<std::size_t>(L.varReg[static_cast<std::size_t>(e.sweepDim)])]);
            for (int v : mapped(e.sweepVars)) s << ',' << v;
            s << "c";
            for (const auto& [absent, var] : e.chain) {
                for (int v : mapped(absent)) s << v << '.';
                s << varMap[static_cast<std::size_t>(var)] << ';';
            }
            s << '|';
        }
    return s.str();
}

bool symmetricPQ(const Workload& w, int& p, int& q)
{
    p = w.dimIndex("P");
    q = w.dimIndex("Q");
    const int r = w.dimIndex("R"), s = w.dimIndex("S");
    if (p < 0 || q < 0 || r < 0 || s < 0) return false;
    if (w.bounds[static_cast<std::size_t>(p)] != w.bounds[static_cast<std::size_t>(q)] ||
        w.bounds[static_cast<std::size_t>(r)] != w.bounds[static_cast<std::size_t>(s)])
        return false;
    // Same coefficients in the two window ranks (stride and dilation).
    for (const auto& t : w.tensors) {
        const RankExpression* rp = nullptr;
        const RankExpression* rq = nullptr;
        for (const auto& rank : t.ranks)
            for (const auto& term : rank) {
                if (term.dim == p) rp = &rank;
                if (term.dim == q) rq = &rank;
            }
        if (!rp && !rq) continue;
        if (!rp || !rq || rp == rq || rp->size() != rq->size()) return false;
        auto coef = [](const RankExpression& rank, int d) {
            for (const auto& term : rank)
                if (term.dim == d) return term.coef;
            return std::int64_t{0};
        };
        if (coef(*rp, p) != coef(*rq, q) || coef(*rp, r) != coef(*rq, s)) return false;
    }
    return true;
}

} // namespace

std::vector<Permutation> prunedPermutations(const ThistleLayer& L, long long* before)
{
    std::vector<int> order = L.tiled;
    std::sort(order.begin(), order.end());
    std::vector<std::vector<int>> all;
    do all.push_back(order);
    while (std::next_permutation(order.begin(), order.end()));

    std::vector<int> identity(static_cast<std::size_t>(L.numNestVars));
    for (int i = 0; i < L.numNestVars; ++i) identity[static_cast<std::size_t>(i)] = i;
    std::vector<int> mirror = identity;
    int p = -1, q = -1;
    const bool sym = symmetricPQ(L.w, p, q) && L.varDram[static_cast<std::size_t>(p)] >= 0 && L.varDram[static_cast<std::size_t>(q)] >= 0;
    if (sym) {
        for (const auto* vars : {&L.varDram, &L.varSram, &L.varPe, &L.varReg}) {
            mirror[static_cast<std::size_t>((*vars)[static_cast<std::size_t>(p)])] = (*vars)[static_cast<std::size_t>(q)];
            mirror[static_cast<std::size_t>((*vars)[static_cast<std::size_t>(q)])] = (*vars)[static_cast<std::size_t>(p)];
        }
    }

    std::set<std::string> seen;
    std::vector<Permutation> kept;
    long long count = 0;
    for (const auto& dram : all)
        for (const auto& sram : all) {
            ++count;
            Permutation perm{dram, sram};
            const TileNest nest = buildNest(L, perm);
            std::string sig = signature(L, nest, identity);
            if (seen.count(sig)) continue;
            if (sym) {
                const std::string mirrored = signature(L, nest, mirror);
                if (seen.count(mirrored)) continue;
            }
            seen.insert(sig);
            kept.push_back(std::move(perm));
        }
    if (before) *before = count;
    return kept;
}

} // namespace nestor::thistle
