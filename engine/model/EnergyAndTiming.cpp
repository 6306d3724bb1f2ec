#include "model/EnergyAndTiming.h"

#include "common/CheckedMath.h"

#include <algorithm>
#include <cmath>

namespace nestor::model {
void applyEnergyAndTiming(const Architecture& a, const Mapping& m, const std::vector<std::vector<TensorCounts>>& counts,
                          Evaluation& ev)
{
    const std::int64_t cc = ev.compute_cycles;
    ev.cycles = cc;
    for (int i = 0; i < a.numLevels(); ++i) {
        const auto& lvl = a.levels[i];
        auto& ls = ev.levels[i];
        double readDemand = 0, writeDemand = 0;
        for (auto& ts : ls.tensors) {
            if (!ts.kept) continue;
            if (cc > 0) {
                ts.read_bw_words_per_cycle = static_cast<double>(ts.reads_max) / static_cast<double>(cc);
                ts.write_bw_words_per_cycle = static_cast<double>(ts.fills_max + ts.updates_max) / static_cast<double>(cc);
            }
            readDemand += ts.read_bw_words_per_cycle;
            writeDemand += ts.write_bw_words_per_cycle;
        }
        double slowdown = 1.0;
        if (lvl.read_bw_words_per_cycle && readDemand > 0)
            slowdown = std::min(slowdown, *lvl.read_bw_words_per_cycle / readDemand);
        if (lvl.write_bw_words_per_cycle && writeDemand > 0)
            slowdown = std::min(slowdown, *lvl.write_bw_words_per_cycle / writeDemand);
        if (lvl.shared_bw_words_per_cycle && readDemand + writeDemand > 0)
            slowdown = std::min(slowdown, *lvl.shared_bw_words_per_cycle / (readDemand + writeDemand));
        ls.slowdown = slowdown;
        // A tiny bandwidth can stretch the cycles past any count: an error, never a wrapped cast.
        const double cycles = std::ceil(static_cast<double>(cc) / slowdown - 1e-9);
        if (cycles < static_cast<double>(kCountLimit)) {
            ls.cycles = static_cast<std::int64_t>(cycles);
        } else {
            ls.cycles = kCountLimit;
            ev.errors.push_back({"architecture.levels[" + std::to_string(i) + "]",
                                 "the bandwidth of " + lvl.name + " stretches the cycles to " + approximateMagnitude(cycles) +
                                     ", which exceeds 2^62 - 1",
                                 {}});
        }
        ev.cycles = std::max(ev.cycles, ls.cycles);
    }

    ev.compute_energy_pJ = static_cast<double>(ev.macs) * a.compute.mac_energy_pJ;
    ev.energy_pJ = ev.compute_energy_pJ;
    std::int64_t ex = 1, ey = 1;  // products of the spatial bounds (residuals ignored) of the levels above
    for (int i = 0; i < a.numLevels(); ++i) {
        const auto& lvl = a.levels[i];
        auto& ls = ev.levels[i];
        const std::int64_t expansion = ex * ey;
        const std::int64_t clusters = std::min(expansion, lvl.instances / std::max(1, lvl.cluster_size));
        const double clusterFactor = expansion > 0 ? static_cast<double>(clusters) / static_cast<double>(expansion) : 1.0;
        ls.energy_pJ = 0;
        for (std::size_t t = 0; t < ls.tensors.size(); ++t) {
            auto& ts = ls.tensors[t];
            if (!ts.kept) continue;
            const auto& c = counts[i][t];
            const int b = lvl.block_size;
            const double e = static_cast<double>(c.reads.vectorAccesses(b)) * lvl.energy.read_pJ +
                             static_cast<double>(c.fills.vectorAccesses(b)) * lvl.energy.fill_pJ +
                             static_cast<double>(c.updates.vectorAccesses(b)) * lvl.energy.update_pJ;
            ts.energy_pJ = e * clusterFactor;
            ls.energy_pJ += ts.energy_pJ;
        }
        // Timeloop: leak x total cycles x its utilized instances, which under an imperfect
        // spatial fanout is the (truncated) average number of busy instances; here the exact
        // average (at least 1: a level that keeps nothing is charged one instance, as Timeloop does).
        ls.leakage_energy_pJ = lvl.energy.leak_pJ * static_cast<double>(ev.cycles) *
                               std::max(1.0, ls.average_busy_instances);
        ls.energy_pJ += ls.leakage_energy_pJ;
        ev.energy_pJ += ls.energy_pJ;
        for (const auto& l : m.levels[i].spatialX) ex *= l.bound;
        for (const auto& l : m.levels[i].spatialY) ey *= l.bound;
    }
    const double macInstances = static_cast<double>(std::max<std::int64_t>(1, a.compute.instances));
    ev.utilization = ev.cycles > 0 ? static_cast<double>(ev.macs) / (macInstances * static_cast<double>(ev.cycles)) : 0.0;
    ev.pJ_per_mac = ev.macs > 0 ? ev.energy_pJ / static_cast<double>(ev.macs) : 0.0;
    ev.edp_J_s = ev.energy_pJ * 1e-12 * static_cast<double>(ev.cycles) * a.cycle_seconds;
}

} // namespace nestor::model
