#include "workload/Workload.h"

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
    for (auto b : bounds) p *= b;
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
    for (const auto& r : tensors[t].ranks) s *= rankExtent(r, bounds.data());
    return s;
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
    return d;
}

} // namespace nestor
