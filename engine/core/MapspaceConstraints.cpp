#include "core/MapspaceConstraints.h"

#include "common/CheckedMath.h"

#include <cctype>
#include <charconv>
#include <sstream>

namespace nestor {

std::vector<std::string> splitDimensionList(const std::string& s)
{
    std::vector<std::string> out;
    const bool separated = s.find_first_of(" ,\t") != std::string::npos;
    if (!separated) {
        for (char c : s) out.emplace_back(1, c);
        return out;
    }
    std::string cur;
    for (char c : s) {
        if (c == ' ' || c == ',' || c == '\t') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

MapspaceConstraints& MapspaceConstraints::addFactors(const std::string& level, bool spatial, const std::string& spec)
{
    std::istringstream in(spec);
    std::string tok;
    while (in >> tok) {
        FactorConstraint f;
        f.level = level;
        f.spatial = spatial;
        std::size_t pos = tok.find("<=");
        std::size_t len = 2;
        if (pos != std::string::npos) f.op = FactorConstraint::Op::Le;
        else if ((pos = tok.find(">=")) != std::string::npos) f.op = FactorConstraint::Op::Ge;
        else if ((pos = tok.find('=')) != std::string::npos) { f.op = FactorConstraint::Op::Eq; len = 1; }
        else throw NestorError("constraints.factors", "'" + tok + "' is not D=n, D<=n or D>=n");
        f.dim = tok.substr(0, pos);
        const std::string v = tok.substr(pos + len);
        if (f.dim.empty() || v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
            throw NestorError("constraints.factors", "'" + tok + "' is not D=n, D<=n or D>=n");
        // Digits only (checked above); from_chars reports a value beyond int64 instead of throwing.
        const auto parsed = std::from_chars(v.data(), v.data() + v.size(), f.value);
        if (parsed.ec != std::errc() || !belowCountLimit(f.value))
            throw NestorError("constraints.factors", "'" + tok + "': the factor exceeds 2^62 - 1");
        if (f.value < 1) throw NestorError("constraints.factors", "'" + tok + "': factors are at least 1");
        factors.push_back(f);
    }
    return *this;
}

MapspaceConstraints& MapspaceConstraints::addPermutation(const std::string& level, const std::string& innermostFirst)
{
    permutations.push_back({level, splitDimensionList(innermostFirst)});
    return *this;
}

MapspaceConstraints& MapspaceConstraints::addSpatialAxes(const std::string& level, const std::string& spec)
{
    const std::size_t bar = spec.find('|');
    if (bar == std::string::npos || spec.find('|', bar + 1) != std::string::npos)
        throw NestorError("constraints.spatial", "'" + spec + "' is not X-dims|Y-dims (e.g. C|K)");
    spatialAxes.push_back({level, splitDimensionList(spec.substr(0, bar)), splitDimensionList(spec.substr(bar + 1))});
    return *this;
}

MapspaceConstraints& MapspaceConstraints::addKeep(const std::string& level, const std::vector<std::string>& tensors)
{
    for (const auto& t : tensors) keeps.push_back({level, t, true});
    return *this;
}

MapspaceConstraints& MapspaceConstraints::addBypass(const std::string& level, const std::vector<std::string>& tensors)
{
    for (const auto& t : tensors) keeps.push_back({level, t, false});
    return *this;
}

Diagnostics MapspaceConstraints::validate(const Workload& w, const Architecture& a, const std::string& prefix) const
{
    Diagnostics d;
    auto level = [&](const std::string& l, const std::string& f) {
        if (a.levelIndex(l) < 0) d.push_back({f, "unknown level '" + l + "'", {}});
    };
    auto dim = [&](const std::string& n, const std::string& f) {
        if (w.dimIndex(n) < 0) d.push_back({f, "unknown dimension '" + n + "'", {}});
    };
    for (std::size_t i = 0; i < factors.size(); ++i) {
        const std::string f = prefix + ".factors[" + std::to_string(i) + "]";
        level(factors[i].level, f);
        dim(factors[i].dim, f);
    }
    for (std::size_t i = 0; i < permutations.size(); ++i) {
        const std::string f = prefix + ".permutation[" + std::to_string(i) + "]";
        level(permutations[i].level, f);
        for (const auto& n : permutations[i].innermostFirst) dim(n, f);
    }
    for (std::size_t i = 0; i < spatialAxes.size(); ++i) {
        const std::string f = prefix + ".spatial[" + std::to_string(i) + "]";
        level(spatialAxes[i].level, f);
        for (const auto& n : spatialAxes[i].x) dim(n, f);
        for (const auto& n : spatialAxes[i].y) dim(n, f);
    }
    for (std::size_t i = 0; i < keeps.size(); ++i) {
        const std::string f = prefix + ".keep[" + std::to_string(i) + "]";
        level(keeps[i].level, f);
        if (w.tensorIndex(keeps[i].tensor) < 0) d.push_back({f, "unknown tensor '" + keeps[i].tensor + "'", {}});
    }
    if (minUtilization < 0.0 || minUtilization > 1.0)
        d.push_back({prefix + ".utilization", "minimum utilization must be between 0 and 1", {}});
    return d;
}

namespace {

bool satisfies(FactorConstraint::Op op, std::int64_t have, std::int64_t value)
{
    switch (op) {
    case FactorConstraint::Op::Eq: return have == value;
    case FactorConstraint::Op::Le: return have <= value;
    case FactorConstraint::Op::Ge: return have >= value;
    }
    return false;
}

const char* opText(FactorConstraint::Op op)
{
    return op == FactorConstraint::Op::Eq ? "=" : op == FactorConstraint::Op::Le ? "<=" : ">=";
}

std::int64_t boundProduct(const std::vector<Loop>& loops, int dim)
{
    std::int64_t p = 1;
    for (const auto& l : loops)
        if (l.dim == dim) p *= l.bound;
    return p;
}

} // namespace

Diagnostics checkConstraints(const MapspaceConstraints& c, const Mapping& m, const Workload& w, const Architecture& a)
{
    Diagnostics d = c.validate(w, a);
    if (!d.empty() || static_cast<int>(m.levels.size()) != a.numLevels()) return d;
    for (const auto& f : c.factors) {
        const int l = a.levelIndex(f.level), dim = w.dimIndex(f.dim);
        const auto& lm = m.levels[l];
        const std::int64_t have = f.spatial ? boundProduct(lm.spatialX, dim) * boundProduct(lm.spatialY, dim)
                                            : boundProduct(lm.temporal, dim);
        if (!satisfies(f.op, have, f.value))
            d.push_back({"mapping.levels[" + f.level + "]." + (f.spatial ? "spatial" : "temporal"),
                         f.dim + " factor " + std::to_string(have) + " violates " + f.dim + opText(f.op) +
                             std::to_string(f.value), {}});
    }
    for (const auto& p : c.permutations) {
        const auto& t = m.levels[a.levelIndex(p.level)].temporal;
        std::vector<int> want;  // present dims, innermost first
        for (const auto& n : p.innermostFirst) {
            const int dim = w.dimIndex(n);
            if (boundProduct(t, dim) > 1) want.push_back(dim);
        }
        std::vector<int> have;  // non-unit loops innermost first
        for (auto it = t.rbegin(); it != t.rend(); ++it)
            if (it->bound > 1) have.push_back(it->dim);
        bool ok = have.size() >= want.size();
        for (std::size_t i = 0; ok && i < want.size(); ++i) ok = have[i] == want[i];
        if (!ok) d.push_back({"mapping.levels[" + p.level + "].temporal", "permutation prefix not honoured", {}});
    }
    for (const auto& s : c.spatialAxes) {
        const auto& lm = m.levels[a.levelIndex(s.level)];
        auto allowed = [&](const std::vector<std::string>& names, const std::vector<Loop>& loops, const char* axis) {
            for (const auto& l : loops) {
                if (l.bound <= 1) continue;
                bool ok = false;
                for (const auto& n : names) ok = ok || w.dimIndex(n) == l.dim;
                if (!ok)
                    d.push_back({"mapping.levels[" + s.level + "].spatial_" + axis,
                                 "dimension " + w.dimNames[l.dim] + " is not allowed on " + axis, {}});
            }
        };
        allowed(s.x, lm.spatialX, "x");
        allowed(s.y, lm.spatialY, "y");
    }
    for (const auto& k : c.keeps) {
        const int l = a.levelIndex(k.level), t = w.tensorIndex(k.tensor);
        if (m.keeps(l, t) != k.keep)
            d.push_back({"mapping.levels[" + k.level + "].keep",
                         k.tensor + (k.keep ? " must be kept" : " must be bypassed"), {}});
    }
    return d;
}

bool meetsUtilization(const MapspaceConstraints& c, double utilization)
{
    return utilization + 1e-12 >= c.minUtilization;
}

} // namespace nestor
