#include "mapping/Mapping.h"

#include "common/CheckedMath.h"
#include "common/SmallVector.h"

#include <map>
#include <utility>

namespace nestor {

std::optional<LoopKind> loopKindFromInt(int value)
{
    switch (value) {
    case int(LoopKind::Temporal): return LoopKind::Temporal;
    case int(LoopKind::SpatialX): return LoopKind::SpatialX;
    case int(LoopKind::SpatialY): return LoopKind::SpatialY;
    default: return std::nullopt;
    }
}

std::vector<Loop>& LevelMapping::loops(LoopKind kind)
{
    return const_cast<std::vector<Loop>&>(std::as_const(*this).loops(kind));
}

const std::vector<Loop>& LevelMapping::loops(LoopKind kind) const
{
    switch (kind) {
    case LoopKind::Temporal: return temporal;
    case LoopKind::SpatialX: return spatialX;
    case LoopKind::SpatialY: return spatialY;
    }
    throw NestorError("mapping", "unknown loop kind " + std::to_string(int(kind)));
}

bool Mapping::hasImperfectFactors() const
{
    for (const auto& l : levels)
        for (const auto* v : {&l.temporal, &l.spatialX, &l.spatialY})
            for (const auto& loop : *v)
                if (loop.isImperfect()) return true;
    return false;
}

std::int64_t coveredSize(const std::vector<Loop>& loops)
{
    std::int64_t size = 1;
    std::int64_t innerProduct = 1;
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
        size = limitedAdd(size, limitedMul(std::max<std::int64_t>(it->residual - 1, 0), innerProduct));
        innerProduct = limitedMul(innerProduct, std::max<std::int64_t>(it->bound, 0));
    }
    return size;
}

Diagnostics Mapping::validate(const Workload& w, const Architecture& a, const std::string& prefix) const
{
    Diagnostics d;
    if (static_cast<int>(levels.size()) != a.numLevels()) {
        d.push_back({prefix + ".levels", "has " + std::to_string(levels.size()) + " levels but the architecture has " +
                                             std::to_string(a.numLevels()), {}});
        return d;
    }
    for (int i = 0; i < a.numLevels(); ++i) {
        const auto& lm = levels[i];
        auto lf = [&] { return prefix + ".levels[" + a.levels[i].name + "]"; };
        auto checkLoops = [&](const std::vector<Loop>& loops, const char* kind) {
            std::int64_t product = 1;
            for (std::size_t j = 0; j < loops.size(); ++j) {
                const auto& l = loops[j];
                auto f = [&] { return lf() + "." + kind + "[" + std::to_string(j) + "]"; };
                if (l.dim < 0 || l.dim >= w.numDims()) {
                    d.push_back({f(), "unknown dimension", {}});
                    continue;
                }
                if (l.bound <= 0) d.push_back({f(), "bound must be positive (got " + std::to_string(l.bound) + ")", {}});
                else if (l.residual <= 0 || l.residual > l.bound)
                    d.push_back({f(), "residual must be between 1 and the bound " + std::to_string(l.bound) +
                                        " (got " + std::to_string(l.residual) + ")", {}});
                product = limitedMul(product, std::max<std::int64_t>(l.bound, 1));  // no wrap past a fanout
            }
            return product;
        };
        checkLoops(lm.temporal, "temporal");
        const std::int64_t y = checkLoops(lm.spatialY, "spatial_y");
        const std::int64_t x = checkLoops(lm.spatialX, "spatial_x");
        auto productText = [](std::int64_t p) { return belowCountLimit(p) ? std::to_string(p) : std::string("2^62 or more"); };
        if (x > a.fanoutX(i))
            d.push_back({lf() + ".spatial_x", "spatial factors multiply to " + productText(x) +
                                                " but the fanout in X is " + std::to_string(a.fanoutX(i)), {}});
        if (y > a.fanoutY(i))
            d.push_back({lf() + ".spatial_y", "spatial factors multiply to " + productText(y) +
                                                " but the fanout in Y is " + std::to_string(a.fanoutY(i)), {}});
        if (!lm.keep.empty() && static_cast<int>(lm.keep.size()) != w.numTensors())
            d.push_back({lf() + ".keep", "keep list must have one entry per tensor", {}});
    }
    // Loops of one dimension in nest order: per level temporal, then spatial Y, then spatial X.
    auto loopsOf = [&](int dim) {
        std::vector<Loop> out;
        for (const auto& lm : levels)
            for (const auto* loops : {&lm.temporal, &lm.spatialY, &lm.spatialX})
                for (const auto& l : *loops)
                    if (l.dim == dim) out.push_back(l);
        return out;
    };
    // Covered sizes of all dimensions at once, innermost loop first (coveredSize, unrolled:
    // this runs for every candidate of a search). inner ends as the product of the bounds of the
    // dimension's loops, saturated at kCountLimit; covered never exceeds it (a residual is at
    // most its bound), so neither can wrap.
    SmallVector<std::int64_t, 16> covered, inner;
    covered.resize(static_cast<std::size_t>(w.numDims()), 1);
    inner.resize(covered.size(), 1);
    for (auto lm = levels.rbegin(); lm != levels.rend(); ++lm)
        for (const auto* loops : {&lm->spatialX, &lm->spatialY, &lm->temporal})
            for (auto l = loops->rbegin(); l != loops->rend(); ++l) {
                if (l->dim < 0 || l->dim >= w.numDims() || l->bound <= 0 || l->residual <= 0) continue;
                covered[l->dim] = limitedAdd(covered[l->dim], limitedMul(l->residual - 1, inner[l->dim]));
                inner[l->dim] = limitedMul(inner[l->dim], l->bound);
            }
    auto factorText = [&](int dim) {
        std::string factors;
        for (const auto& l : loopsOf(dim)) {
            if (!factors.empty()) factors += " x ";
            factors += std::to_string(l.bound);
            if (l.isImperfect()) factors += "," + std::to_string(l.residual);
        }
        return factors.empty() ? std::string("none") : factors;
    };
    bool spansBelowLimit = true;
    for (int dim = 0; dim < w.numDims(); ++dim) {
        if (!belowCountLimit(inner[dim])) {
            spansBelowLimit = false;
            double approx = 1;
            for (const auto& l : loopsOf(dim)) approx *= static_cast<double>(l.bound);
            d.push_back({prefix + ".factors." + w.dimNames[dim],
                         "factors of " + w.dimNames[dim] + " (" + factorText(dim) + ") multiply to " +
                             approximateMagnitude(approx) + ", which exceeds 2^62 - 1 (every count must stay below 2^62)",
                         {}});
        } else if (covered[dim] != w.bounds[dim]) {
            d.push_back({prefix + ".factors." + w.dimNames[dim],
                         "factors of " + w.dimNames[dim] + " (" + factorText(dim) + ") cover " + std::to_string(covered[dim]) +
                             " but the bound is " + std::to_string(w.bounds[dim]),
                         {}});
        }
    }
    // Size limits (docs/project-format.md): the counts of a nest are bounded by the access bounds
    // of its tensors under the factor products (residuals can make those exceed the bounds).
    if (spansBelowLimit && w.numDims() == static_cast<int>(w.bounds.size()) && !accessBoundsBelowLimit(w, inner.data()))
        for (auto& x : checkAccessBounds(w, inner.data(), "", prefix + ".factors", "these factors")) d.push_back(std::move(x));
    for (int t = 0; t < w.numTensors(); ++t) {
        bool kept = false;
        for (int i = 0; i < a.numLevels(); ++i) kept = kept || keeps(i, t);
        if (!kept) d.push_back({prefix + ".keep", "tensor " + w.tensors[t].name + " is bypassed at every level", {}});
    }
    return d;
}

} // namespace nestor
