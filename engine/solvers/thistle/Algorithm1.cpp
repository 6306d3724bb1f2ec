#include "solvers/thistle/Algorithm1.h"

#include "common/CheckedMath.h"
#include "common/SmallVector.h"

#include <algorithm>

namespace nestor::thistle {

std::int64_t productOf(const std::vector<int>& vars, const std::vector<std::int64_t>& trips)
{
    std::int64_t p = 1;
    for (int v : vars) p = limitedMul(p, trips[static_cast<std::size_t>(v)]);
    return p;
}

Posynomial monomialOf(const std::vector<int>& vars)
{
    Monomial m;
    for (int v : vars) m = m * Monomial{1.0, {{v, 1.0}}};
    Posynomial p;
    p.terms.push_back(m);
    return p;
}

std::int64_t TileExpr::exact(const Workload& w, const std::vector<std::int64_t>& trips) const
{
    SmallVector<std::int64_t, 16> ext(static_cast<std::size_t>(w.numDims()));  // no allocation: evaluated per rounding candidate
    for (int d = 0; d < w.numDims(); ++d) ext[static_cast<std::size_t>(d)] = productOf(tile[static_cast<std::size_t>(d)], trips);
    std::int64_t box = 1;
    for (const auto& rank : w.tensors[static_cast<std::size_t>(tensor)].ranks) box = limitedMul(box, rankExtent(rank, ext.data()));
    std::int64_t swept = box;
    if (!sweepVars.empty()) {
        const std::int64_t c = productOf(sweepVars, trips);
        std::int64_t overlap = 1;
        for (const auto& rank : w.tensors[static_cast<std::size_t>(tensor)].ranks) {
            const std::int64_t e = rankExtent(rank, ext.data());
            std::int64_t tau = 0;
            for (const auto& term : rank)
                if (term.dim == sweepDim) tau += term.coef * productOf(sweepStep, trips);
            overlap = limitedMul(overlap, std::max<std::int64_t>(0, e - tau));
        }
        const std::int64_t delta = box - overlap;  // new words per continued step
        // visits = tiles visited; continued = visits that only fetch the delta.
        std::int64_t visits = c, continued = c - 1;
        for (const auto& [absent, var] : chain) {
            const std::int64_t a = productOf(absent, trips), ci = trips[static_cast<std::size_t>(var)];
            visits = limitedMul(limitedMul(ci, a), visits);
            continued = limitedAdd(limitedMul(limitedMul(ci, a), continued), ci - 1);
        }
        swept = limitedAdd(limitedMul(visits - continued, box), limitedMul(continued, delta));
    }
    return limitedMul(productOf(scale, trips), swept);
}

Posynomial TileExpr::posynomial(const Workload& w, const std::vector<double>* fixed) const
{
    auto isFixed = [&](int v) { return fixed && (*fixed)[static_cast<std::size_t>(v)] > 0; };
    auto product = [&](const std::vector<int>& vars) {
        std::vector<int> free;
        double c = 1.0;
        for (int v : vars) {
            if (isFixed(v)) c *= (*fixed)[static_cast<std::size_t>(v)];
            else free.push_back(v);
        }
        Posynomial m = monomialOf(free);
        return m.scale(c);
    };
    Posynomial p = product(scale);
    std::vector<std::vector<int>> tile = this->tile;
    if (!sweepVars.empty()) {
        tile[static_cast<std::size_t>(sweepDim)] = sweepStep;
        for (int v : sweepVars) tile[static_cast<std::size_t>(sweepDim)].push_back(v);
        for (const auto& [absent, var] : chain) {
            p = p * product(absent);
            p = p * product({var});
        }
    }
    for (const auto& rank : w.tensors[static_cast<std::size_t>(tensor)].ranks) {
        // extent = sum_j a_j * T_j + (1 - sum_j a_j); a dimension without loops has T_j = 1.
        Posynomial sum;
        double constant = 1.0;
        for (const auto& term : rank) {
            if (term.coef == 0) continue;
            const auto& vars = tile[static_cast<std::size_t>(term.dim)];
            Posynomial m = product(vars);
            constant -= static_cast<double>(term.coef);
            if (m.terms.size() == 1 && m.terms[0].powers.empty()) {
                constant += static_cast<double>(term.coef) * m.terms[0].coef;  // a constant tile extent
            } else {
                sum += m.scale(static_cast<double>(term.coef));
            }
        }
        // A negative constant is dropped: the posynomial bounds the extent from above.
        if (constant > 0) sum += Posynomial::constant(constant);
        if (sum.empty()) sum = Posynomial::constant(1.0);
        p = p * sum;
    }
    return p;
}

namespace {

TileExpr emptyExpr(const Workload& w, int tensor)
{
    TileExpr e;
    e.tensor = tensor;
    e.tile.assign(static_cast<std::size_t>(w.numDims()), {});
    return e;
}

TileExpr volumeWalk(const Workload& w, const TileNest& nest, int tensor, int level, const std::vector<std::int64_t>* trips)
{
    TileExpr e = footprintExpr(w, nest, tensor, level);
    enum class Phase { Hoist, Sweep, Multiply } phase = Phase::Hoist;
    std::vector<int> pendingAbsent;  // absent loops seen in the sweep phase, not yet placed
    auto moves = [&](const NestLoop& lp) { return !trips || (*trips)[static_cast<std::size_t>(lp.var)] > 1; };
    auto endSweep = [&] {
        e.scale.insert(e.scale.end(), pendingAbsent.begin(), pendingAbsent.end());
        pendingAbsent.clear();
        phase = Phase::Multiply;
    };
    for (int l = level - 1; l >= 0; --l) {
        const auto& lv = nest.levels[static_cast<std::size_t>(l)];
        // Spatial loops of l sit between the loops of l + 1 and l's temporal loops. They do not
        // move one instance's tile, but one of the sweep's dimension breaks its contiguity.
        if (phase == Phase::Sweep)
            for (const auto& lp : lv.spatial)
                if (lp.dim == e.sweepDim && moves(lp)) endSweep();
        for (auto it = lv.temporal.rbegin(); it != lv.temporal.rend(); ++it) {
            if (!moves(*it)) continue;  // a loop of one iteration moves nothing
            const bool present = w.dependsOn(tensor, it->dim);
            switch (phase) {
            case Phase::Hoist:
                // Absent loops inside the innermost present one: the copy is hoisted above them.
                if (!present) break;
                phase = Phase::Sweep;  // innermost present loop: its sweep is a sliding window (replace)
                e.sweepDim = it->dim;
                e.sweepVars.push_back(it->var);
                for (std::size_t below = static_cast<std::size_t>(l); below < nest.levels.size(); ++below) {
                    for (const auto& lp : nest.levels[below].spatial)
                        if (lp.dim == it->dim) e.sweepStep.push_back(lp.var);
                    if (below == static_cast<std::size_t>(l)) continue;  // the sweep loop is the level's only temporal loop of d
                    for (const auto& lp : nest.levels[below].temporal)
                        if (lp.dim == it->dim) e.sweepStep.push_back(lp.var);
                }
                break;
            case Phase::Sweep:
                if (!present) {
                    pendingAbsent.push_back(it->var);
                } else if (it->dim == e.sweepDim) {
                    if (pendingAbsent.empty() && e.chain.empty()) e.sweepVars.push_back(it->var);
                    else e.chain.emplace_back(std::move(pendingAbsent), it->var);
                    pendingAbsent.clear();
                } else {
                    endSweep();  // another dimension moves the tile: every loop from here refetches it
                    e.scale.push_back(it->var);
                }
                break;
            case Phase::Multiply: e.scale.push_back(it->var); break;
            }
        }
    }
    e.scale.insert(e.scale.end(), pendingAbsent.begin(), pendingAbsent.end());
    return e;
}

} // namespace

TileExpr footprintExpr(const Workload& w, const TileNest& nest, int tensor, int level)
{
    TileExpr e = emptyExpr(w, tensor);
    for (std::size_t l = static_cast<std::size_t>(level); l < nest.levels.size(); ++l) {
        for (const auto& lp : nest.levels[l].temporal) e.tile[static_cast<std::size_t>(lp.dim)].push_back(lp.var);
        for (const auto& lp : nest.levels[l].spatial) e.tile[static_cast<std::size_t>(lp.dim)].push_back(lp.var);
    }
    return e;
}

TileExpr instanceVolumeExpr(const Workload& w, const TileNest& nest, int tensor, int level)
{
    return volumeWalk(w, nest, tensor, level, nullptr);
}

TileExpr instanceVolumeExprAt(const Workload& w, const TileNest& nest, int tensor, int level,
                              const std::vector<std::int64_t>& trips)
{
    return volumeWalk(w, nest, tensor, level, &trips);
}

std::vector<int> spatialAbove(const TileNest& nest, int level)
{
    std::vector<int> vars;
    for (int l = 0; l < level; ++l)
        for (const auto& lp : nest.levels[static_cast<std::size_t>(l)].spatial) vars.push_back(lp.var);
    return vars;
}

std::vector<int> parentSpatial(const Workload& w, const TileNest& nest, int tensor, int level)
{
    std::vector<int> vars = spatialAbove(nest, level - 1);
    for (const auto& lp : nest.levels[static_cast<std::size_t>(level - 1)].spatial)
        if (w.dependsOn(tensor, lp.dim)) vars.push_back(lp.var);
    return vars;
}

std::int64_t exactFills(const Workload& w, const TileNest& nest, int tensor, int level, const std::vector<std::int64_t>& trips)
{
    return limitedMul(instanceVolumeExprAt(w, nest, tensor, level, trips).exact(w, trips),
                      productOf(spatialAbove(nest, level), trips));
}

std::int64_t exactParentAccesses(const Workload& w, const TileNest& nest, int tensor, int level,
                                 const std::vector<std::int64_t>& trips)
{
    return limitedMul(instanceVolumeExprAt(w, nest, tensor, level, trips).exact(w, trips),
                      productOf(parentSpatial(w, nest, tensor, level), trips));
}

} // namespace nestor::thistle
