#include "arch/Architecture.h"

#include "common/CheckedMath.h"

#include <algorithm>
#include <cmath>

namespace nestor {

std::optional<std::int64_t> StorageLevel::effectiveSizeWords() const
{
    if (!size_words) return std::nullopt;
    if (multiple_buffering <= 1.0 || *size_words <= 0) return *size_words;  // exact: no rounding through a double
    // long double holds every int64 exactly; the result lies in [0, size_words], so the cast cannot overflow.
    const long double q = std::floor(static_cast<long double>(*size_words) / static_cast<long double>(multiple_buffering));
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(q), 0, *size_words);
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
        if (l.size_words && !belowCountLimit(*l.size_words))
            d.push_back({f + ".size_words", std::to_string(*l.size_words) + " exceeds 2^62 - 1 (capacities must stay below 2^62)", {}});
        if (!belowCountLimit(l.instances))
            d.push_back({f + ".instances", std::to_string(l.instances) + " exceeds 2^62 - 1 (counts must stay below 2^62)", {}});
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
            else if (childX > 0 && child % childX == 0 && l.instances % l.meshX == 0 &&
                     (child / childX) % (l.instances / l.meshX) != 0)  // the Y extents must nest too
                d.push_back({f + ".mesh_x", "mesh " + std::to_string(l.meshX) + " x " +
                                                std::to_string(l.instances / l.meshX) + " does not fit the level below (" +
                                                std::to_string(childX) + " x " + std::to_string(child / childX) +
                                                "): its Y extent must be a multiple of " +
                                                std::to_string(l.instances / l.meshX), {}});
        }
        if (i > 0 && l.instances < levels[i - 1].instances)
            d.push_back({f + ".instances", "an inner level cannot have fewer instances than the level above", {}});
    }
    meshOk(prefix + ".compute", compute.instances, compute.meshX);
    if (!belowCountLimit(compute.instances))
        d.push_back({prefix + ".compute.instances", std::to_string(compute.instances) + " exceeds 2^62 - 1 (counts must stay below 2^62)", {}});
    if (compute.mac_energy_pJ < 0) d.push_back({prefix + ".compute.energy_pJ", "must not be negative", {}});
    if (cycle_seconds <= 0) d.push_back({prefix + ".cycle_seconds", "must be positive", {}});
    return d;
}

} // namespace nestor
