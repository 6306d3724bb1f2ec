#pragma once
// A project built by hand for the GUI tests, so that every expected value is counted off it:
// GEMM M=8 N=4 K=2 on DRAM -> Buffer (64 words) -> 1 MAC (1 pJ); mapping "tiled":
//   DRAM   temporal [M 4] [N 2]
//   Buffer temporal [M 2] [N 2] [K 2]
#include "core/Project.h"

#include <cstdint>

namespace nestor::test {

inline LayerSpec gemmSpec(std::int64_t m, std::int64_t n, std::int64_t k)
{
    LayerSpec spec;
    spec.type = "gemm";
    spec.gemmM = m;
    spec.gemmN = n;
    spec.gemmK = k;
    return spec;
}

inline Project handBuiltProject()
{
    Project p;
    p.name = "commands";
    ProjectWorkload gemm;
    gemm.spec = gemmSpec(8, 4, 2);
    gemm.workload = makeGemm("gemm", 8, 4, 2);
    p.workloads.push_back(gemm);

    StorageLevel dram;
    dram.name = "DRAM";
    dram.technology = "DRAM";
    StorageLevel buffer;
    buffer.name = "Buffer";
    buffer.size_words = 64;
    p.architecture.name = "two-levels";
    p.architecture.levels = {dram, buffer};
    p.architecture.compute.instances = 1;
    p.architecture.compute.mac_energy_pJ = 1.0;

    ProjectMapping pm;
    pm.workload = "gemm";
    pm.mapping.name = "tiled";
    pm.mapping.levels.resize(2);
    const int m = 0, n = 1, k = 2;  // the GEMM's dimensions
    pm.mapping.levels[0].temporal = {makeLoop(m, 4), makeLoop(n, 2)};
    pm.mapping.levels[1].temporal = {makeLoop(m, 2), makeLoop(n, 2), makeLoop(k, 2)};
    p.mappings.push_back(pm);
    return p;
}

} // namespace nestor::test
