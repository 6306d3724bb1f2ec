#include "solvers/interstellar/DataflowConstraints.h"

#include <algorithm>

namespace nestor::interstellar {

MapspaceConstraints dataflowConstraints(const Dataflow& d, const Workload& w, const Architecture& a, bool replication,
                                        MapspaceConstraints base)
{
    for (const auto* side : {&d.x, &d.y})
        for (const auto& n : *side)
            if (w.dimIndex(n) < 0)
                throw NestorError("dataflow", dataflowText(d) + ": loop " + paperDimName(n) + " (" + n +
                                                  ") is not a dimension of layer " + w.name);
    int innerX = -1, innerY = -1;
    for (int i = 0; i < a.numLevels(); ++i) {
        if (a.fanoutX(i) > 1) innerX = i;
        if (a.fanoutY(i) > 1) innerY = i;
    }
    if (!d.x.empty() && innerX < 0)
        throw NestorError("dataflow", dataflowText(d) + ": architecture " + a.name + " has no fanout along X (the U side)");
    if (!d.y.empty() && innerY < 0)
        throw NestorError("dataflow", dataflowText(d) + ": architecture " + a.name + " has no fanout along Y (the V side)");

    auto allExcept = [&](const std::vector<std::string>& other) {
        std::vector<std::string> r;
        for (const auto& n : w.dimNames)
            if (std::find(other.begin(), other.end(), n) == other.end()) r.push_back(n);
        return r;
    };
    const std::vector<std::string> xAllowed = replication ? allExcept(d.y) : d.x;
    const std::vector<std::string> yAllowed = replication ? allExcept(d.x) : d.y;
    for (int i = 0; i < a.numLevels(); ++i)
        if (a.fanoutX(i) > 1 || a.fanoutY(i) > 1)
            base.spatialAxes.push_back({a.levels[static_cast<std::size_t>(i)].name, xAllowed, yAllowed});

    auto force = [&](const std::vector<std::string>& names, int level) {
        for (const auto& n : names) {
            if (w.bounds[static_cast<std::size_t>(w.dimIndex(n))] < 2) continue;
            FactorConstraint f;
            f.level = a.levels[static_cast<std::size_t>(level)].name;
            f.spatial = true;
            f.dim = n;
            f.op = FactorConstraint::Op::Ge;
            f.value = 2;
            base.factors.push_back(f);
        }
    };
    force(d.x, innerX);
    force(d.y, innerY);
    return base;
}

MapspaceConstraints studyBaseConstraints(const MapspaceConstraints& project)
{
    MapspaceConstraints base;
    base.keeps = project.keeps;
    base.minUtilization = project.minUtilization;
    return base;
}

} // namespace nestor::interstellar
