#include "solvers/interstellar/MemorySweep.h"

#include "arch/EnergyModels.h"
#include "solvers/interstellar/DataflowConstraints.h"

#include <chrono>

namespace nestor::interstellar {

Architecture interstellarArchitecture(std::int64_t meshX, std::int64_t meshY, std::int64_t rfBytes, std::int64_t sramBytes)
{
    if (meshX < 1 || meshY < 1) throw NestorError("array", "the PE array needs at least 1 x 1 PEs");
    Architecture a;
    a.name = "interstellar-" + std::to_string(meshX) + "x" + std::to_string(meshY) + "-rf" + std::to_string(rfBytes) + "B-sram" +
             std::to_string(sramBytes / 1024) + "KiB";
    StorageLevel dram;
    dram.name = "DRAM";
    dram.technology = "DRAM";
    dram.size_words = std::nullopt;
    StorageLevel sram;
    sram.name = "SRAM";
    sram.technology = "SRAM";
    sram.size_words = sramBytes / 2;  // 16-bit words
    StorageLevel rf;
    rf.name = "RF";
    rf.technology = "regfile";
    rf.size_words = rfBytes / 2;
    rf.instances = meshX * meshY;
    rf.meshX = meshX;
    a.levels = {dram, sram, rf};
    a.compute.instances = meshX * meshY;
    a.compute.meshX = meshX;
    applyEnergyModel(a, "interstellar-28nm");
    return a;
}

void checkSweepSizes(const std::vector<std::int64_t>& bytes, bool sram, const std::string& field)
{
    const auto& table = sram ? interstellar28nm::sramTable() : interstellar28nm::registerFileTable();
    const auto lo = static_cast<std::int64_t>(table.front().size_bytes), hi = static_cast<std::int64_t>(table.back().size_bytes);
    const char* what = sram ? "SRAM" : "RF";
    if (bytes.empty()) throw NestorError(field, std::string("no ") + what + " size to sweep");
    for (std::int64_t b : bytes) {
        if (b <= 0 || (b & (b - 1)) != 0)
            throw NestorError(field, std::string(what) + " size " + std::to_string(b) + " B is not a power of two");
        if (b < lo || b > hi)
            throw NestorError(field, std::string(what) + " size " + std::to_string(b) + " B is outside Table 3 (" +
                                         std::to_string(lo) + " to " + std::to_string(hi) + " B); sizes are not extrapolated");
    }
}

MemorySweep sweepMemory(const Workload& w, const MemorySweepOptions& o)
{
    checkSweepSizes(o.rfBytes, false, "rf");
    checkSweepSizes(o.sramBytes, true, "sram");
    const Diagnostics d = w.validate();
    if (!d.empty()) throw NestorError(d);
    // A dataflow that cannot run on this array fails the same way at every point: say so once.
    (void)dataflowConstraints(o.dataflow, w, interstellarArchitecture(o.meshX, o.meshY, o.rfBytes.front(), o.sramBytes.front()),
                              o.search.replication);
    const auto t0 = std::chrono::steady_clock::now();
    MemorySweep sweep;
    const int n = static_cast<int>(o.rfBytes.size() * o.sramBytes.size());
    const double pes = double(o.meshX * o.meshY);
    StudyOptions so = o.search;
    so.progress = nullptr;
    for (std::int64_t rf : o.rfBytes) {
        for (std::int64_t sram : o.sramBytes) {
            if (o.search.cancel && o.search.cancel->load()) {
                sweep.cancelled = true;
                break;
            }
            const int index = static_cast<int>(sweep.points.size());
            if (o.search.progress)
                o.search.progress(index, n, "RF " + std::to_string(rf) + " B, SRAM " + std::to_string(sram / 1024) + " KiB");
            const Architecture a = interstellarArchitecture(o.meshX, o.meshY, rf, sram);
            MemoryPoint p;
            p.rfBytes = rf;
            p.sramBytes = sram;
            p.rfAccess_pJ = interstellar28nm::accessEnergy_pJ(MemoryKind::RegisterFile, double(rf));
            p.sramAccess_pJ = interstellar28nm::accessEnergy_pJ(MemoryKind::SRAM, double(sram));
            p.capacityRatio = double(sram) / (double(rf) * pes);
            p.perInstanceRatio = double(sram) / double(rf);
            p.result = searchDataflow(w, a, o.dataflow, so);
            if (p.result.found) {
                const Evaluation& ev = p.result.eval;
                p.dram_pJ = ev.levels[0].energy_pJ;
                p.sram_pJ = ev.levels[1].energy_pJ;
                p.rf_pJ = ev.levels[2].energy_pJ;
                p.mac_pJ = ev.compute_energy_pJ;
                if (sweep.best < 0 || ev.energy_pJ < sweep.points[static_cast<std::size_t>(sweep.best)].result.eval.energy_pJ)
                    sweep.best = index;
            }
            sweep.points.push_back(std::move(p));
            if (o.search.cancel && o.search.cancel->load()) sweep.cancelled = true;
        }
        if (sweep.cancelled) break;
    }
    sweep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return sweep;
}

} // namespace nestor::interstellar
