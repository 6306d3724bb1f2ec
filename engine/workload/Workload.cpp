#include "workload/Workload.h"

#include "common/CheckedMath.h"

#include <algorithm>

namespace nestor {

int Workload::dimIndex(const std::string& n) const
{
    for (int i = 0; i < numDims(); ++i)
        if (dimNames[i] == n) return i;
    return -1;
}

int Workload::tensorIndex(const std::string& n) const
{
    for (int i = 0; i < numTensors(); ++i)
        if (tensors[i].name == n) return i;
    return -1;
}

std::int64_t Workload::macs() const
{
    std::int64_t p = 1;
    for (auto b : bounds) p = limitedMul(p, std::max<std::int64_t>(b, 0));
    return p;
}

std::int64_t rankExtent(const RankExpression& r, const std::int64_t* ext)
{
    std::int64_t e = 1;
    for (const auto& t : r) e += t.coef * (ext[t.dim] - 1);
    return e;
}

std::int64_t Workload::tensorSize(int t) const
{
    std::int64_t s = 1;
    for (const auto& r : tensors[t].ranks) {
        std::int64_t e = 1;
        for (const auto& term : r)
            if (term.dim >= 0 && term.dim < numDims())
                e = limitedAdd(e, limitedMul(std::max<std::int64_t>(term.coef, 0), std::max<std::int64_t>(bounds[term.dim] - 1, 0)));
        s = limitedMul(s, e);
    }
    return s;
}

// Why the bound holds: a rank's extent 1 + sum c_i (e_i - 1) is at most prod c_i e_i (c, e >= 1),
// and the words a level moves for t are at most (iterations of the loops above the child) x
// (child tile), whose product regroups into the bound.
std::int64_t accessBound(const Workload& w, int t, const std::int64_t* span)
{
    // Runs for every mapping a search validates: one pass over the terms, one over the dimensions.
    const int D = w.numDims();
    std::uint64_t used = 0;  // dimensions 0..63; beyond that dependsOn() decides
    std::int64_t b = 1;
    for (const auto& r : w.tensors[t].ranks)
        for (const auto& term : r)
            if (term.dim >= 0 && term.dim < D && term.coef != 0) {
                if (term.dim < 64) used |= std::uint64_t{1} << term.dim;
                b = limitedMul(b, limitedMul(term.coef, span[term.dim]));
            }
    for (int d = 0; d < D; ++d)
        if (d < 64 ? !((used >> d) & 1u) : !w.dependsOn(t, d)) b = limitedMul(b, span[d]);
    return b;
}

namespace {

std::string rankText(const Workload& w, const RankExpression& r)
{
    std::string s;
    for (const auto& term : r) {
        if (!s.empty()) s += " + ";
        if (term.coef != 1) s += std::to_string(term.coef) + "*";
        s += term.dim >= 0 && term.dim < w.numDims() ? w.dimNames[term.dim] : "?";
    }
    return s;
}

// The access bound as a double, for messages about values that do not fit.
double approximateAccessBound(const Workload& w, int t, const std::int64_t* span)
{
    double b = 1;
    for (int d = 0; d < w.numDims(); ++d)
        if (!w.dependsOn(t, d)) b *= static_cast<double>(span[d]);
    for (const auto& r : w.tensors[t].ranks)
        for (const auto& term : r)
            if (term.dim >= 0 && term.dim < w.numDims()) b *= static_cast<double>(term.coef) * static_cast<double>(span[term.dim]);
    return b;
}

} // namespace

bool accessBoundsBelowLimit(const Workload& w, const std::int64_t* span)
{
    std::int64_t sum = 0;
    for (int t = 0; t < w.numTensors(); ++t) sum = limitedAdd(sum, accessBound(w, t, span));
    return belowCountLimit(sum);
}

Diagnostics checkAccessBounds(const Workload& w, const std::int64_t* span, const std::string& tensorsField,
                              const std::string& field, const std::string& spanText)
{
    if (accessBoundsBelowLimit(w, span)) return {};  // the usual case, without building any text

    Diagnostics d;
    std::string parts;
    double approxSum = 0;
    for (int t = 0; t < w.numTensors(); ++t) {
        const Tensor& ts = w.tensors[t];
        const double approx = approximateAccessBound(w, t, span);
        approxSum += approx;
        parts += (parts.empty() ? "" : " + ") + ts.name + " " + approximateMagnitude(approx);
        // Where the running product reaches the limit: that rank (or the tensor, for the
        // dimensions it does not use).
        std::int64_t b = 1;
        for (int dim = 0; dim < w.numDims(); ++dim)
            if (!w.dependsOn(t, dim)) b = limitedMul(b, span[dim]);
        int rank = -1;
        for (std::size_t r = 0; r < ts.ranks.size() && belowCountLimit(b); ++r) {
            for (const auto& term : ts.ranks[r])
                if (term.dim >= 0 && term.dim < w.numDims()) b = limitedMul(b, limitedMul(term.coef, span[term.dim]));
            if (!belowCountLimit(b)) rank = static_cast<int>(r);
        }
        if (belowCountLimit(b)) continue;
        std::string ranks;
        for (const auto& r : ts.ranks) ranks += (ranks.empty() ? "" : ", ") + rankText(w, r);
        std::string f = field;
        if (!tensorsField.empty())
            f = tensorsField + "[" + std::to_string(t) + "]" + (rank >= 0 ? ".ranks[" + std::to_string(rank) + "]" : "");
        d.push_back({f, "with " + spanText + ", tensor '" + ts.name + "' [" + ranks + "] could move up to " +
                            approximateMagnitude(approx) +
                            " words (its access bound: the bounds of the dimensions it does not use x coefficient x "
                            "bound of every rank term), which exceeds 2^62 - 1",
                     {}});
    }
    if (d.empty())
        d.push_back({field, "with " + spanText + ", the access bounds of the tensors (" + parts + ") add up to " +
                                approximateMagnitude(approxSum) + ", which exceeds 2^62 - 1",
                     {}});
    return d;
}

bool Workload::dependsOn(int t, int dim) const
{
    for (const auto& r : tensors[t].ranks)
        for (const auto& term : r)
            if (term.dim == dim && term.coef != 0) return true;
    return false;
}

Diagnostics Workload::validate(const std::string& prefix) const
{
    Diagnostics d;
    if (dimNames.empty()) d.push_back({prefix + ".dimensions", "a workload needs at least one dimension", {}});
    if (bounds.size() != dimNames.size())
        d.push_back({prefix + ".dimensions", "internal: bounds and names differ in count", {}});
    for (std::size_t i = 0; i < dimNames.size() && i < bounds.size(); ++i) {
        if (bounds[i] <= 0)
            d.push_back({prefix + ".dimensions." + dimNames[i],
                         "bound must be a positive integer (got " + std::to_string(bounds[i]) + ")", {}});
        for (std::size_t j = 0; j < i; ++j)
            if (dimNames[j] == dimNames[i])
                d.push_back({prefix + ".dimensions." + dimNames[i], "duplicate dimension name", {}});
    }
    if (tensors.empty()) d.push_back({prefix + ".tensors", "a workload needs at least one tensor", {}});
    int rw = 0;
    for (std::size_t t = 0; t < tensors.size(); ++t) {
        const auto& ts = tensors[t];
        auto fieldOf = [&] { return prefix + ".tensors[" + std::to_string(t) + "]"; };
        if (ts.name.empty()) d.push_back({fieldOf() + ".name", "tensor name is empty", {}});
        for (std::size_t u = 0; u < t; ++u)
            if (tensors[u].name == ts.name) d.push_back({fieldOf() + ".name", "duplicate tensor name '" + ts.name + "'", {}});
        if (ts.readWrite) ++rw;
        if (ts.ranks.empty()) d.push_back({fieldOf() + ".ranks", "tensor '" + ts.name + "' has no ranks", {}});
        for (std::size_t r = 0; r < ts.ranks.size(); ++r) {
            if (ts.ranks[r].empty()) d.push_back({fieldOf() + ".ranks[" + std::to_string(r) + "]", "empty rank expression", {}});
            for (const auto& term : ts.ranks[r]) {
                if (term.dim < 0 || term.dim >= numDims())
                    d.push_back({fieldOf() + ".ranks[" + std::to_string(r) + "]", "unknown dimension index", {}});
                if (term.coef <= 0)
                    d.push_back({fieldOf() + ".ranks[" + std::to_string(r) + "]", "coefficients must be positive", {}});
            }
        }
    }
    if (rw > 1) d.push_back({prefix + ".tensors", "at most one tensor can be read-write", {}});
    if (!d.empty()) return d;
    // Size limits (docs/project-format.md): the MACs, then every tensor's access bound.
    if (!belowCountLimit(macs())) {
        std::string names, values;
        double approx = 1;
        for (int i = 0; i < numDims(); ++i) {
            names += (i ? " x " : "") + dimNames[i];
            values += (i ? " x " : "") + std::to_string(bounds[i]);
            approx *= static_cast<double>(bounds[i]);
        }
        d.push_back({prefix + ".dimensions", names + " = " + values + " = " + approximateMagnitude(approx) +
                                                  " MACs, which exceeds 2^62 - 1 (every count must stay below 2^62)",
                     {}});
        return d;
    }
    return checkAccessBounds(*this, bounds.data(), prefix + ".tensors", prefix + ".tensors", "the dimension bounds");
}

} // namespace nestor
