#pragma once
// Architecture: storage levels listed outermost (backing store) first, then a compute
// level. Instances of a level = meshX * meshY; the fanout of level i is
// instances(i+1) / instances(i) (compute counts as the level after the last storage).
#include "common/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nestor {

// Energy per *vector* access (block_size words) of each action, in pJ.
struct ActionEnergies {
    double read_pJ = 0.0;
    double fill_pJ = 0.0;    // a.k.a. write
    double update_pJ = 0.0;
    double leak_pJ = 0.0;    // per cycle per instance
    bool operator==(const ActionEnergies&) const = default;
};

struct StorageLevel {
    std::string name;
    std::string technology = "SRAM";         // "SRAM", "DRAM", "regfile", "dummy"
    std::optional<std::int64_t> size_words;   // nullopt = unbounded (DRAM); 0 = spatial-only level
    int word_bits = 16;
    int block_size = 1;        // words per vector access
    int cluster_size = 1;
    std::int64_t instances = 1;
    std::int64_t meshX = 1;    // meshY = instances / meshX
    std::optional<double> read_bw_words_per_cycle;
    std::optional<double> write_bw_words_per_cycle;
    std::optional<double> shared_bw_words_per_cycle;
    double multiple_buffering = 1.0;
    ActionEnergies energy;
    double area_um2 = 0.0;     // per instance
    // A per-level override of the architecture's energy model: energy and area stay as given
    // (a measured macro, a vendor figure); the model neither computes nor rescales them.
    bool energyFixed = false;

    std::int64_t meshY() const { return meshX > 0 ? instances / meshX : 0; }
    bool isSpatialOnly() const { return size_words && *size_words == 0; }
    // floor(size / multiple_buffering); nullopt = unbounded
    std::optional<std::int64_t> effectiveSizeWords() const;
    bool operator==(const StorageLevel&) const = default;
};

struct ComputeLevel {
    std::string name = "MAC";
    std::int64_t instances = 1;
    std::int64_t meshX = 1;
    double mac_energy_pJ = 0.0;
    double area_um2 = 0.0;     // per instance
    std::int64_t meshY() const { return meshX > 0 ? instances / meshX : 0; }
    bool operator==(const ComputeLevel&) const = default;
};

struct Architecture {
    std::string name;
    std::vector<StorageLevel> levels;  // outermost first
    ComputeLevel compute;
    double cycle_seconds = 1e-9;

    int numLevels() const { return static_cast<int>(levels.size()); }
    int levelIndex(const std::string& name) const;  // -1 if unknown
    // instances of the level below storage level i (compute for the last one)
    std::int64_t childInstances(int i) const;
    std::int64_t fanout(int i) const;   // childInstances(i) / levels[i].instances
    std::int64_t fanoutX(int i) const;
    std::int64_t fanoutY(int i) const;
    double area_um2() const;            // sum of per-instance areas x instances

    Diagnostics validate(const std::string& prefix = "architecture") const;
};

} // namespace nestor
