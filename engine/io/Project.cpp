#include "io/Project.h"

namespace nestor {

const ProjectWorkload* Project::findWorkload(const std::string& n) const
{
    for (const auto& w : workloads)
        if (w.workload.name == n) return &w;
    return nullptr;
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
