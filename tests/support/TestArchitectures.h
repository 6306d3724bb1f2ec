#pragma once
// Small architectures shared by engine tests and benchmarks: DRAM, a 4096-word buffer and a
// PE array of fx x fy with its MACs (energies 100 / 5 / 0.5 pJ per access, 0.3 pJ per MAC).
#include "arch/Architecture.h"

#include <cstdint>
#include <optional>
#include <string>

namespace nestor::test {

inline StorageLevel storageLevel(const std::string& name, std::optional<std::int64_t> words, std::int64_t instances,
                                 std::int64_t meshX, double pJ, double area_um2 = 0.0)
{
    StorageLevel l;
    l.name = name;
    l.size_words = words;
    l.instances = instances;
    l.meshX = meshX;
    l.energy = {pJ, pJ, pJ, 0.0};
    l.area_um2 = area_um2;
    return l;
}

inline Architecture bufferAndPeArray(std::int64_t fx, std::int64_t fy, std::int64_t peWords)
{
    Architecture a;
    a.levels = {storageLevel("DRAM", std::nullopt, 1, 1, 100.0), storageLevel("Buffer", 4096, 1, 1, 5.0),
                storageLevel("PE", peWords, fx * fy, fx, 0.5)};
    a.compute.instances = fx * fy;
    a.compute.meshX = fx;
    a.compute.mac_energy_pJ = 0.3;
    return a;
}

} // namespace nestor::test
