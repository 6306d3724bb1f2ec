#include "solvers/thistle/NestMapping.h"

namespace nestor::thistle {

Mapping toMapping(const TileNest& nest, const std::vector<std::int64_t>& trips, const std::string& name)
{
    Mapping m;
    m.name = name;
    for (const auto& level : nest.levels) {
        LevelMapping lm;
        for (const auto& lp : level.temporal) {
            const std::int64_t t = trips[static_cast<std::size_t>(lp.var)];
            if (t > 1) lm.temporal.push_back(makeLoop(lp.dim, t));
        }
        for (const auto& lp : level.spatial) {
            const std::int64_t t = trips[static_cast<std::size_t>(lp.var)];
            if (t > 1) lm.spatialX.push_back(makeLoop(lp.dim, t));
        }
        m.levels.push_back(std::move(lm));
    }
    return m;
}

} // namespace nestor::thistle
