#pragma once
// Shared by the Thistle solver tests: the paper's hierarchy (DRAM -> SRAM -> one register file
// per PE -> MACs) at given sizes with the thistle-45nm energies, and every integer design of a
// layer's nest (the brute forces enumerate them).
#include "arch/Architecture.h"
#include "arch/EnergyModels.h"
#include "solvers/thistle/ThistleLayer.h"

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

// Every integer design of the layer: each tiled dimension's bound factorized over its four loops
// (DRAM, SRAM, across PEs, registers) in every way, the whole dimensions' bounds in the
// registers; fn(trips) once per design, trips indexed by nest variable.
template <class Fn>
void forEachIntegerDesign(const thistle::ThistleLayer& L, Fn&& fn)
{
    std::vector<std::vector<std::vector<std::int64_t>>> perDim;
    for (int d : L.tiled) {
        std::vector<std::vector<std::int64_t>> f;
        std::vector<std::int64_t> cur;
        factorizations(L.w.bounds[static_cast<std::size_t>(d)], 4, cur, f);
        perDim.push_back(f);
    }
    std::vector<std::int64_t> trips(static_cast<std::size_t>(L.numNestVars), 1);
    for (int d : L.whole) trips[static_cast<std::size_t>(L.varReg[static_cast<std::size_t>(d)])] = L.w.bounds[static_cast<std::size_t>(d)];
    std::vector<std::size_t> idx(perDim.size(), 0);
    for (;;) {
        for (std::size_t i = 0; i < perDim.size(); ++i) {
            const auto& f = perDim[i][idx[i]];
            const std::size_t du = static_cast<std::size_t>(L.tiled[i]);
            trips[static_cast<std::size_t>(L.varDram[du])] = f[0];
            trips[static_cast<std::size_t>(L.varSram[du])] = f[1];
            trips[static_cast<std::size_t>(L.varPe[du])] = f[2];
            trips[static_cast<std::size_t>(L.varReg[du])] = f[3];
        }
        fn(static_cast<const std::vector<std::int64_t>&>(trips));
        std::size_t i = 0;
        while (i < idx.size() && ++idx[i] == perDim[i].size()) idx[i++] = 0;
        if (i == idx.size()) return;
    }
}

} // namespace nestor::test
