// Valid mappings evaluated per second by the search (random sampling and annealing; PFM, Ruby-S,
// Ruby, Ruby-T) with 1 and 2 threads on AlexNet conv2 and VGG-16 conv3_1 over an Eyeriss-like
// 14x12 array (128 KiB GLB, 12/192/16-word scratchpads, row-stationary constraints as in
// tests/engine/tst_ruby_paper). After each run it prints which stage analysis took the stages
// (the closed forms, or the walker and why); per layer and mapspace, the slowest of 2,000
// single evaluations of random points (the first one, and past the thread's first 50, with the 99th percentile
// and how many took over 1 ms), the pages they touched first (minor page faults: a thread's
// tables are mapped zeroed and cost a fault at each page's first touch) and the process's peak memory.
// First it prints what a first-touched page costs on this machine (the worst lines' pages are
// read against it: on a virtual machine a fault can cost tens of times what it does on hardware).
// Usage: bench_search [evaluations per run, default 20000] [algorithm] [mapspace] [layer] [threads]
//   (the last four filter the runs: random|annealing, pfm|ruby-s|ruby|ruby-t, conv2|conv3_1, 1|2; "all": no filter)
// It ends with each one-thread figure against the targets, absolute and as a share of
// PFM annealing on the same layer in the same run (independent of the machine's speed, not of
// PFM's own code: docs/search.md).
#include "mapspace/Mapspace.h"
#include "model/Model.h"
#include "model/StageAnalysis.h"
#include "model/ZeroedTable.h"
#include "search/SearchDriver.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <random>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

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

// The filter's height S sits across the rows of each PE set.
MapspaceConstraints rowStationary(std::int64_t filterHeight)
{
    MapspaceConstraints c;
    c.addFactors("DRAM", false, "R=1 S=1").addFactors("GLB", false, "R=1 S=1");
    c.addSpatialAxes("inter_PE_column_spatial", "Q M|").addSpatialAxes("inter_PE_spatial", "|S C");
    c.addFactors("inter_PE_spatial", true, "S=" + std::to_string(filterHeight));
    c.addFactors("ifmap_spad", false, "N=1 M=1 C=1 P=1 Q=1 R=1 S=1");
    c.addFactors("weights_spad", false, "N=1 M=1 P=1 Q=1 S=1");
    c.addFactors("psum_spad", false, "N=1 C=1 P=1 Q=1 R=1 S=1");
    c.addKeep("GLB", {"Inputs", "Outputs"}).addBypass("GLB", {"Weights"});
    c.addKeep("ifmap_spad", {"Inputs"}).addBypass("ifmap_spad", {"Weights", "Outputs"});
    c.addKeep("weights_spad", {"Weights"}).addBypass("weights_spad", {"Inputs", "Outputs"});
    c.addKeep("psum_spad", {"Outputs"}).addBypass("psum_spad", {"Inputs", "Weights"});
    return c;
}

// The slowest single evaluation among `samples` random points of the space (valid or not), the
// first one, the slowest past the thread's first 50 evaluations (which allocate the forms' tables), the 99th
// percentile and how many took over 1 ms; the minor page faults of all of them, of the first and
// of the slowest past the first 50; and the process's peak resident memory so far.
void worstEvaluation(const Mapspace& space, const char* layer, int samples)
{
    constexpr int kWarmUp = 50;
    std::mt19937_64 rng(2024);
    Mapping m;
    Evaluation ev;
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(samples));
    double total = 0.0;
    int valid = 0;
    long faults = 0, slowestFaults = 0, firstFaults = 0;
    double slowestSettled = -1.0;
    auto minorFaults = [] {
        rusage u{};
        getrusage(RUSAGE_THREAD, &u);
        return u.ru_minflt;
    };
    for (int i = 0; i < samples; ++i) {
        space.toMapping(space.randomPoint(rng), m);
        const long faultsBefore = minorFaults();
        const auto t0 = std::chrono::steady_clock::now();
        evaluate(space.workload(), space.architecture(), m, {}, ev);
        const double dt = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        const long touched = minorFaults() - faultsBefore;
        faults += touched;
        if (i == 0) firstFaults = touched;
        if (i >= kWarmUp && dt > slowestSettled) {
            slowestSettled = dt;
            slowestFaults = touched;
        }
        ms.push_back(dt);
        total += dt;
        valid += ev.valid ? 1 : 0;
    }
    const double worst = *std::max_element(ms.begin(), ms.end());
    std::vector<double> settled(ms.begin() + std::min<std::ptrdiff_t>(kWarmUp, static_cast<std::ptrdiff_t>(ms.size())), ms.end());
    std::sort(settled.begin(), settled.end());
    const double settledWorst = settled.empty() ? 0.0 : settled.back();
    const double p99 = settled.empty() ? 0.0 : settled[settled.size() * 99 / 100];
    const auto overOneMs = std::count_if(settled.begin(), settled.end(), [](double x) { return x > 1.0; });
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%-7s worst   %-7s: slowest of %d random evaluations (%d valid) %.3f ms, mean %.1f us; the first %.3f ms (%ld pages touched first); past the first %d: "
                "slowest %.3f ms (%ld pages touched first), p99 %.3f ms, %ld over 1 ms; %ld pages touched first in all; peak RSS so far %.1f MB\n",
                layer, mapspaceKindName(space.kind()).c_str(), samples, valid, worst, total / samples * 1e3, ms.front(), firstFaults, kWarmUp,
                settledWorst, slowestFaults, p99, static_cast<long>(overOneMs), faults, static_cast<double>(usage.ru_maxrss) / 1024.0);
}

// Microseconds per page of fresh anonymous memory written once (the median of 5 rounds of 1,024 pages).
double firstTouchMicroseconds()
{
    constexpr std::size_t kPages = 1024, kPage = 4096;
    std::vector<double> rounds;
    for (int round = 0; round < 5; ++round) {
        model::ZeroedTable<char> fresh(kPages * kPage);  // anonymous pages, none touched yet
        volatile char* bytes = fresh.begin();
        const auto t0 = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < kPages; ++i) bytes[i * kPage] = 1;
        rounds.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / kPages);
    }
    std::sort(rounds.begin(), rounds.end());
    return rounds[rounds.size() / 2];
}

// The throughput targets (valid mappings/s per thread, one thread), by algorithm and
// mapspace; 0 where there is none (PFM random).
double targetOf(const char* algorithm, MapspaceKind k)
{
    const bool random = std::strcmp(algorithm, "random") == 0;
    switch (k) {
    case MapspaceKind::Pfm: return random ? 0.0 : 150000.0;
    case MapspaceKind::RubyS: return random ? 20000.0 : 50000.0;
    default: return random ? 10000.0 : 25000.0;  // Ruby, Ruby-T: within 2x of Ruby-S's
    }
}

struct Measured {
    std::string layer, algorithm;
    MapspaceKind kind;
    double perThread;
};

// Each one-thread figure against its absolute target and, since this machine's speed is not the
// targets' (a virtual machine's swings by 2x over minutes), as a share of PFM annealing's figure
// on the same layer in the same process against the share the targets imply (target / 150,000).
// A faster PFM raises that share: comparing two versions of the code takes instruction counts
// or a reference build alternated with this one (docs/search-performance.md).
void printTargets(const std::vector<Measured>& runs)
{
    std::printf("targets (valid/s per thread, one thread): measured / absolute target; share of PFM annealing on the layer "
                "in this run / the targets' share\n");
    for (const Measured& m : runs) {
        const double target = targetOf(m.algorithm.c_str(), m.kind);
        if (target == 0.0) continue;
        std::printf("  %-7s %-9s %-7s %8.0f / %6.0f %-6s", m.layer.c_str(), m.algorithm.c_str(), mapspaceKindName(m.kind).c_str(),
                    m.perThread, target, m.perThread >= target ? "met" : "missed");
        const auto pfm = std::find_if(runs.begin(), runs.end(), [&](const Measured& o) {
            return o.layer == m.layer && o.algorithm == "annealing" && o.kind == MapspaceKind::Pfm;
        });
        if (pfm != runs.end() && m.kind != MapspaceKind::Pfm) {
            const double share = m.perThread / pfm->perThread, wanted = target / targetOf("annealing", MapspaceKind::Pfm);
            std::printf("  %.3f / %.3f %s", share, wanted, share >= wanted ? "met" : "missed");
        }
        std::printf("\n");
    }
}

} // namespace

int main(int argc, char** argv)
{
    const long long budget = argc > 1 ? std::atoll(argv[1]) : 20000;
    // A filter given as "all" filters nothing (so later ones can be given alone).
    auto filter = [&](int i) -> const char* { return argc > i && std::strcmp(argv[i], "all") != 0 ? argv[i] : nullptr; };
    const char* onlyAlgorithm = filter(2);
    const char* onlyMapspace = filter(3);
    const char* onlyLayer = filter(4);
    const int onlyThreads = filter(5) ? std::atoi(argv[5]) : 0;
    const std::optional<MapspaceKind> onlyKind = onlyMapspace ? parseMapspaceKind(onlyMapspace) : std::nullopt;
    if (budget <= 0 || (onlyAlgorithm && std::strcmp(onlyAlgorithm, "random") != 0 && std::strcmp(onlyAlgorithm, "annealing") != 0) ||
        (onlyMapspace && !onlyKind) || (onlyLayer && std::strcmp(onlyLayer, "conv2") != 0 && std::strcmp(onlyLayer, "conv3_1") != 0) ||
        (filter(5) && onlyThreads != 1 && onlyThreads != 2)) {
        std::fprintf(stderr, "usage: bench_search [evaluations per run > 0] [random|annealing|all] [pfm|ruby-s|ruby|ruby-t|all] "
                             "[conv2|conv3_1|all] [1|2|all]\n");
        return 2;
    }
    const bool filterKind = onlyKind.has_value();
    const MapspaceKind wantKind = onlyKind.value_or(MapspaceKind::Pfm);
    std::printf("this machine: %.2f us per page touched first (fresh anonymous memory)\n", firstTouchMicroseconds());
    model::countStageAnalyses(true);
    std::vector<Measured> measured;
    for (const char* layer : {"conv2", "conv3_1"}) {
    if (onlyLayer && std::strcmp(onlyLayer, layer) != 0)
        continue;
    ConvParams cp;
    if (std::strcmp(layer, "conv2") == 0) {
        cp.M = 96; cp.C = 48; cp.P = 27; cp.Q = 27; cp.R = 5; cp.S = 5;  // AlexNet conv2 (one group)
    } else {
        cp.M = 256; cp.C = 128; cp.P = 56; cp.Q = 56; cp.R = 3; cp.S = 3;  // VGG-16 conv3_1
    }
    const Workload w = makeConv2d(cp);
    // Timeloop's uniform random sampling (most candidates do not fit the buffers), and the
    // default annealing search (local moves from valid points: most candidates are valid).
    for (const char* algorithm : {"random", "annealing"}) {
        if (onlyAlgorithm && std::strcmp(onlyAlgorithm, algorithm) != 0)
            continue;
        for (MapspaceKind k : {MapspaceKind::Pfm, MapspaceKind::RubyS, MapspaceKind::Ruby, MapspaceKind::RubyT}) {
            if (filterKind && k != wantKind)
                continue;
            const Mapspace space(w, eyerissLike(), k, rowStationary(cp.S));
            for (int threads : {1, 2}) {
                if (onlyThreads && threads != onlyThreads)
                    continue;
                model::countStageAnalyses(true);  // resets the counters
                SearchOptions o;
                o.algorithm = algorithm;
                o.threads = threads;
                o.victoryCondition = 0;
                o.timeout = 1LL << 40;
                o.evaluationBudget = k == MapspaceKind::Pfm ? budget : budget / 10;
                const SearchResult r = runSearch(space, o);
                std::printf("%-7s %-9s %-7s %d thread%s: %lld evaluated (%lld valid) in %.2f s: %.0f evaluations/s, %.0f valid/s, "
                            "%.0f valid/s per thread; best EDP %.4g\n",
                            layer, algorithm, mapspaceKindName(k).c_str(), threads, threads > 1 ? "s" : " ",
                            static_cast<long long>(r.evaluated), static_cast<long long>(r.valid), r.seconds,
                            r.evaluated / r.seconds, r.valid / r.seconds, r.valid / r.seconds / threads,
                            r.found ? r.bestEvaluation.edp_J_s : 0.0);
                std::printf("    stages: %s\n", model::stageStatisticsText().c_str());
                if (threads == 1) measured.push_back({layer, algorithm, k, r.valid / r.seconds});
            }
        }
    }
    for (MapspaceKind k : {MapspaceKind::Pfm, MapspaceKind::RubyS, MapspaceKind::Ruby, MapspaceKind::RubyT}) {
        if (filterKind && k != wantKind)
            continue;
        worstEvaluation(Mapspace(w, eyerissLike(), k, rowStationary(cp.S)), layer, 2000);
    }
    }
    printTargets(measured);
    return 0;
}
