#include "arch/Architecture.h"

#include <cmath>

namespace nestor {

std::optional<std::int64_t> StorageLevel::effectiveSizeWords() const
{
    if (!size_words) return std::nullopt;
    const double mb = multiple_buffering > 0 ? multiple_buffering : 1.0;
    return static_cast<std::int64_t>(std::floor(static_cast<double>(*size_words) / mb));
}

int Architecture::levelIndex(const std::string& n) const
{
    for (int i = 0; i < numLevels(); ++i)
        if (levels[i].name == n) return i;
    return -1;
}

std::int64_t Architecture::childInstances(int i) const
{
    return i + 1 < numLevels() ? levels[i + 1].instances : compute.instances;
}

std::int64_t Architecture::fanout(int i) const
{
    return levels[i].instances > 0 ? childInstances(i) / levels[i].instances : 0;
}

std::int64_t Architecture::fanoutX(int i) const
{
    const std::int64_t childX = i + 1 < numLevels() ? levels[i + 1].meshX : compute.meshX;
    return levels[i].meshX > 0 ? childX / levels[i].meshX : 0;
}

std::int64_t Architecture::fanoutY(int i) const
{
    const std::int64_t childY = i + 1 < numLevels() ? levels[i + 1].meshY() : compute.meshY();
    const std::int64_t y = levels[i].meshY();
    return y > 0 ? childY / y : 0;
}

double Architecture::area_um2() const
{
    double a = compute.area_um2 * static_cast<double>(compute.instances);
    for (const auto& l : levels) a += l.area_um2 * static_cast<double>(l.instances);
    return a;
}

Diagnostics Architecture::validate(const std::string& prefix) const
{
    Diagnostics d;
    if (levels.empty()) d.push_back({prefix + ".levels", "an architecture needs at least one storage level", {}});
    auto meshOk = [&](const std::string& f, std::int64_t inst, std::int64_t mx) {
        if (inst <= 0) d.push_back({f + ".instances", "must be a positive integer (got " + std::to_string(inst) + ")", {}});
        else if (mx <= 0 || inst % mx != 0)
            d.push_back({f + ".mesh_x", "must be positive and divide instances (" + std::to_string(inst) + ")", {}});
    };
    for (int i = 0; i < numLevels(); ++i) {
        const auto& l = levels[i];
        const std::string f = prefix + ".levels[" + std::to_string(i) + "]";  // cheap: short-string
        if (l.name.empty()) d.push_back({f + ".name", "level name is empty", {}});
        for (int j = 0; j < i; ++j)
            if (levels[j].name == l.name) d.push_back({f + ".name", "duplicate level name '" + l.name + "'", {}});
        if (l.size_words && *l.size_words < 0) d.push_back({f + ".size_words", "must not be negative", {}});
        if (l.word_bits <= 0) d.push_back({f + ".word_bits", "must be positive", {}});
        if (l.block_size <= 0) d.push_back({f + ".block_size", "must be positive", {}});
        if (l.cluster_size <= 0) d.push_back({f + ".cluster_size", "must be positive", {}});
        if (l.multiple_buffering < 1.0) d.push_back({f + ".multiple_buffering", "must be at least 1", {}});
        for (auto [name, bw] : {std::pair{"read_bw", l.read_bw_words_per_cycle},
                                std::pair{"write_bw", l.write_bw_words_per_cycle},
                                std::pair{"shared_bw", l.shared_bw_words_per_cycle}})
            if (bw && *bw <= 0) d.push_back({f + "." + name, "must be positive (omit it for unlimited)", {}});
        meshOk(f, l.instances, l.meshX);
        if (l.instances > 0 && l.meshX > 0) {
            const std::int64_t child = childInstances(i);
            const std::int64_t childX = i + 1 < numLevels() ? levels[i + 1].meshX : compute.meshX;
            if (child % l.instances != 0)
                d.push_back({f + ".instances", "instances of the level below (" + std::to_string(child) +
                                                   ") must be a multiple of " + std::to_string(l.instances), {}});
            else if (childX % l.meshX != 0)
                d.push_back({f + ".mesh_x", "mesh_x of the level below (" + std::to_string(childX) +
                                                ") must be a multiple of " + std::to_string(l.meshX), {}});
        }
        if (i > 0 && l.instances < levels[i - 1].instances)
            d.push_back({f + ".instances", "an inner level cannot have fewer instances than the level above", {}});
    }
    meshOk(prefix + ".compute", compute.instances, compute.meshX);
    if (compute.mac_energy_pJ < 0) d.push_back({prefix + ".compute.energy_pJ", "must not be negative", {}});
    if (cycle_seconds <= 0) d.push_back({prefix + ".cycle_seconds", "must be positive", {}});
    return d;
}

} // namespace nestor
