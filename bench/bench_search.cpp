// Valid mappings evaluated per second by the search (random sampling and annealing, PFM and Ruby-S) with
// 1 and 2 threads on AlexNet layer 2 over an Eyeriss-like 14x12 array (128 KiB GLB,
// 12/192/16-word scratchpads, row-stationary constraints as in tests/engine/tst_ruby_paper).
// Usage: bench_search [evaluations per run, default 20000] [algorithm] [mapspace]  (the last two filter the runs)
#include "mapspace/Mapspace.h"
#include "search/SearchDriver.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace nestor;

namespace {

StorageLevel lv(const char* name, const char* tech, std::optional<std::int64_t> words, int block, std::int64_t inst,
                std::int64_t meshX, ActionEnergies e)
{
    StorageLevel l;
    l.name = name;
    l.technology = tech;
    l.size_words = words;
    l.block_size = block;
    l.instances = inst;
    l.meshX = meshX;
    l.energy = e;
    return l;
}

Architecture eyerissLike()
{
    Architecture a;
    a.levels = {lv("DRAM", "DRAM", std::nullopt, 4, 1, 1, {512, 512, 512, 0}),
                lv("GLB", "SRAM", 65536, 4, 1, 1, {32.34, 26.12, 26.12, 0.003}),
                lv("inter_PE_column_spatial", "dummy", 0, 1, 1, 1, {}),
                lv("inter_PE_spatial", "dummy", 0, 1, 14, 14, {}),
                lv("ifmap_spad", "regfile", 12, 1, 168, 14, {0.31, 0.27, 0.27, 0.0002}),
                lv("weights_spad", "regfile", 192, 1, 168, 14, {3.0, 2.86, 2.86, 0.0024}),
                lv("psum_spad", "regfile", 16, 1, 168, 14, {0.385, 0.336, 0.336, 0.0002})};
    a.compute.instances = 168;
    a.compute.meshX = 14;
    a.compute.mac_energy_pJ = 0.315;
    return a;
}

MapspaceConstraints rowStationary()
{
    MapspaceConstraints c;
    c.addFactors("DRAM", false, "R=1 S=1").addFactors("GLB", false, "R=1 S=1");
    c.addSpatialAxes("inter_PE_column_spatial", "Q M|").addSpatialAxes("inter_PE_spatial", "|S C");
    c.addFactors("inter_PE_spatial", true, "S=5");
    c.addFactors("ifmap_spad", false, "N=1 M=1 C=1 P=1 Q=1 R=1 S=1");
    c.addFactors("weights_spad", false, "N=1 M=1 P=1 Q=1 S=1");
    c.addFactors("psum_spad", false, "N=1 C=1 P=1 Q=1 R=1 S=1");
    c.addKeep("GLB", {"Inputs", "Outputs"}).addBypass("GLB", {"Weights"});
    c.addKeep("ifmap_spad", {"Inputs"}).addBypass("ifmap_spad", {"Weights", "Outputs"});
    c.addKeep("weights_spad", {"Weights"}).addBypass("weights_spad", {"Inputs", "Outputs"});
    c.addKeep("psum_spad", {"Outputs"}).addBypass("psum_spad", {"Inputs", "Weights"});
    return c;
}

} // namespace

int main(int argc, char** argv)
{
    const long long budget = argc > 1 ? std::atoll(argv[1]) : 20000;
    const char* onlyAlgorithm = argc > 2 ? argv[2] : nullptr;
    const char* onlyMapspace = argc > 3 ? argv[3] : nullptr;
    if (budget <= 0 || (onlyAlgorithm && std::strcmp(onlyAlgorithm, "random") != 0 && std::strcmp(onlyAlgorithm, "annealing") != 0) ||
        (onlyMapspace && std::strcmp(onlyMapspace, "pfm") != 0 && std::strcmp(onlyMapspace, "ruby-s") != 0)) {
        std::fprintf(stderr, "usage: bench_search [evaluations per run > 0] [random|annealing] [pfm|ruby-s]\n");
        return 2;
    }
    ConvParams cp;
    cp.M = 96; cp.C = 48; cp.P = 27; cp.Q = 27; cp.R = 5; cp.S = 5;
    const Workload w = makeConv2d(cp);
    // Timeloop's uniform random sampling (most candidates do not fit the buffers), and the
    // default annealing search (local moves from valid points: most candidates are valid).
    for (const char* algorithm : {"random", "annealing"}) {
        if (onlyAlgorithm && std::strcmp(onlyAlgorithm, algorithm) != 0)
            continue;
        for (MapspaceKind k : {MapspaceKind::Pfm, MapspaceKind::RubyS}) {
            if (onlyMapspace && mapspaceKindName(k) != onlyMapspace)
                continue;
            const Mapspace space(w, eyerissLike(), k, rowStationary());
            for (int threads : {1, 2}) {
                SearchOptions o;
                o.algorithm = algorithm;
                o.threads = threads;
                o.victoryCondition = 0;
                o.timeout = 1LL << 40;
                o.evaluationBudget = k == MapspaceKind::Pfm ? budget : budget / 10;
                const SearchResult r = runSearch(space, o);
                std::printf("%-9s %-7s %d thread%s: %lld evaluated (%lld valid) in %.2f s: %.0f evaluations/s, %.0f valid/s, "
                            "%.0f valid/s per thread; best EDP %.4g\n",
                            algorithm, mapspaceKindName(k).c_str(), threads, threads > 1 ? "s" : " ",
                            static_cast<long long>(r.evaluated), static_cast<long long>(r.valid), r.seconds,
                            r.evaluated / r.seconds, r.valid / r.seconds, r.valid / r.seconds / threads,
                            r.found ? r.bestEvaluation.edp_J_s : 0.0);
            }
        }
    }
    return 0;
}
