#include "core/Project.h"

#include <algorithm>

namespace nestor {

const ProjectWorkload* Project::findWorkload(const std::string& n) const
{
    for (const auto& w : workloads)
        if (w.workload.name == n) return &w;
    return nullptr;
}

const ProjectNetwork* Project::findNetwork(const std::string& n) const
{
    for (const auto& net : networks)
        if (net.name == n) return &net;
    return nullptr;
}

std::vector<const ProjectWorkload*> Project::distinctLayers(const ProjectNetwork& n) const
{
    std::vector<const ProjectWorkload*> out;
    for (const auto& [name, repeat] : n.layers) {
        const ProjectWorkload* pw = findWorkload(name);
        if (pw && std::find(out.begin(), out.end(), pw) == out.end()) out.push_back(pw);
    }
    return out;
}

const ProjectMapping* Project::findMapping(const std::string& n) const
{
    for (const auto& m : mappings)
        if (m.mapping.name == n) return &m;
    return nullptr;
}

const ProjectMapping* Project::selectMapping(const std::string& n) const
{
    if (!n.empty()) return findMapping(n);
    if (!jobMapping.empty()) return findMapping(jobMapping);
    return mappings.empty() ? nullptr : &mappings.front();
}

} // namespace nestor

namespace nestor {

std::string projectConstraintTypeName(ProjectConstraint::Type t)
{
    switch (t) {
    case ProjectConstraint::Type::Temporal: return "temporal";
    case ProjectConstraint::Type::Spatial: return "spatial";
    case ProjectConstraint::Type::Bypass: return "bypass";
    case ProjectConstraint::Type::Utilization: return "utilization";
    }
    return "?";
}

MapspaceConstraints Project::constraintsFor(const Workload& w) const
{
    MapspaceConstraints c;
    auto known = [&](const std::vector<std::string>& names) {
        std::vector<std::string> out;
        for (const auto& n : names)
            if (w.dimIndex(n) >= 0) out.push_back(n);
        return out;
    };
    for (const auto& e : constraints) {
        if (!e.workload.empty() && e.workload != w.name) continue;
        for (const auto& f : e.factors) {
            const bool trivial = f.op == FactorConstraint::Op::Le || f.value <= 1;  // holds for a bound of 1
            if (w.dimIndex(f.dim) >= 0 || !trivial) c.factors.push_back(f);
        }
        if (!e.permutation.empty()) {
            const auto dims = known(e.permutation);
            if (!dims.empty()) c.permutations.push_back({e.target, dims});
        }
        if (e.hasAxes) c.spatialAxes.push_back({e.target, known(e.axisX), known(e.axisY)});
        for (const auto& t : e.keep)
            if (w.tensorIndex(t) >= 0) c.keeps.push_back({e.target, t, true});
        for (const auto& t : e.bypass)
            if (w.tensorIndex(t) >= 0) c.keeps.push_back({e.target, t, false});
        if (e.type == ProjectConstraint::Type::Utilization) c.minUtilization = std::max(c.minUtilization, e.minUtilization);
    }
    return c;
}

} // namespace nestor
