#pragma once
// Shared by the Thistle solver tests: the paper's hierarchy (DRAM -> SRAM -> one register file
// per PE -> MACs) at given sizes with the thistle-45nm energies, and every ordered
// factorization of a bound (the brute forces enumerate integer designs with it).
#include "arch/Architecture.h"
#include "arch/EnergyModels.h"

#include <cstdint>
#include <vector>

namespace nestor::test {

inline Architecture thistleArch(std::int64_t registers, std::int64_t sramWords, std::int64_t pes)
{
    Architecture a;
    a.name = "thistle-test";
    StorageLevel dram;
    dram.name = "DRAM";
    dram.technology = "DRAM";
    StorageLevel sram;
    sram.name = "SRAM";
    sram.technology = "SRAM";
    sram.size_words = sramWords;
    StorageLevel rf;
    rf.name = "RF";
    rf.technology = "regfile";
    rf.size_words = registers;
    rf.instances = pes;
    rf.meshX = pes;
    a.levels = {dram, sram, rf};
    a.compute.instances = pes;
    a.compute.meshX = pes;
    applyEnergyModel(a, "thistle-45nm");
    return a;
}

// Every ordered factorization of n into k factors, appended to `out` (`cur` is scratch).
inline void factorizations(std::int64_t n, int k, std::vector<std::int64_t>& cur, std::vector<std::vector<std::int64_t>>& out)
{
    if (k == 1) {
        cur.push_back(n);
        out.push_back(cur);
        cur.pop_back();
        return;
    }
    for (std::int64_t d = 1; d <= n; ++d)
        if (n % d == 0) {
            cur.push_back(d);
            factorizations(n / d, k - 1, cur, out);
            cur.pop_back();
        }
}

} // namespace nestor::test
