// How fast the engine starts and stops work on a huge mapspace (VGG-16 conv3_1, C=128 M=256
// P=Q=56 R=S=3, on a 14x12 PE array with a 4096-word buffer and 256-word PE buffers; every
// mapspace has more than 1e12 points):
//  (i)  building the mapspace, counting it and decoding a first random mapping, per mapspace
//       kind (target: under 2 s; the tests check only that it builds and samples);
//  (ii) cancel latency: from raising the cancel flag to runSearch returning its best so far,
//       random search with 1 and 2 threads, PFM and Ruby-S (target: under 100 ms; the tests
//       check only that cancel stops every thread and keeps the best), with which analyses took
//       the stages of those searches (the walked ones are the slow evaluations);
//  (iii) single evaluations: 2,000 random mappings whose tiles fit (seed 1), per mapspace kind,
//       each evaluated alone with the default options after 50 untimed ones (a thread's first
//       evaluations set up its tables), with which analyses took their stages (target: every one
//       under 1 ms).
// Usage: bench_responsiveness [cancels per configuration, default 5] [columns rows, default 14 12]
//   (the PE array's size: larger arrays have children of more kinds per stage)
#include "support/TestArchitectures.h"
#include "mapspace/Mapspace.h"
#include "model/Model.h"
#include "model/StageAnalysis.h"
#include "search/SearchDriver.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

using namespace nestor;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }


const char* verdict(bool met) { return met ? "met" : "NOT met"; }

// Seconds from cancel to return, after letting the search run for `runFor`.
double cancelLatency(const Mapspace& space, int threads, std::chrono::milliseconds runFor, SearchResult& r)
{
    SearchOptions o;
    o.algorithm = "random";
    o.threads = threads;
    o.victoryCondition = 0;
    o.timeout = 1LL << 40;
    std::atomic<bool> cancel{false};
    std::thread t([&] { r = runSearch(space, o, nullptr, &cancel); });
    std::this_thread::sleep_for(runFor);
    const auto c0 = Clock::now();
    cancel = true;
    t.join();
    return secondsSince(c0);
}

} // namespace

int main(int argc, char** argv)
{
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
    const long columns = argc > 3 ? std::atol(argv[2]) : 14, rows = argc > 3 ? std::atol(argv[3]) : 12;
    if (repeats <= 0 || argc == 3 /* columns without rows */ || columns <= 0 || rows <= 0 || columns > 1024 || rows > 1024) {
        std::fprintf(stderr, "usage: bench_responsiveness [cancels per configuration > 0] [columns rows, 1-1024 each]\n");
        return 2;
    }
    ConvParams cp;
    cp.M = 256; cp.C = 128; cp.P = 56; cp.Q = 56; cp.R = 3; cp.S = 3;
    const Workload w = makeConv2d(cp);
    const Architecture a = test::bufferAndPeArray(columns, rows, 256);

    std::printf("Mapspace ready (build, count, first random mapping), VGG conv3_1 on %ldx%ld; target < 2 s:\n", columns, rows);
    for (MapspaceKind k : allMapspaceKinds()) {
        const auto t0 = Clock::now();
        const Mapspace s(w, a, k);
        const MapspaceSize z = s.size();
        std::mt19937_64 rng(1);
        const Mapping m = s.toMapping(s.randomPoint(rng));
        const double dt = secondsSince(t0);
        const bool ok = m.validate(s.workload(), s.architecture()).empty();
        std::printf("  %-7s %.3Le points (%s) in %.3f s: %s%s\n", mapspaceKindName(k).c_str(), z.total,
                    z.exact ? "exact" : "bound", dt, verdict(dt < 2.0), ok ? "" : "; the sampled mapping is INVALID");
        if (!ok) return 1;
    }

    std::printf("Cancel latency (cancel raised after 300 ms of random search, %d times each); target < 100 ms:\n", repeats);
    for (MapspaceKind k : {MapspaceKind::Pfm, MapspaceKind::RubyS}) {
        const Mapspace s(w, a, k);
        for (int threads : {1, 2}) {
            std::vector<double> ms;
            std::int64_t evaluated = 0;
            bool allCancelled = true;
            model::countStageAnalyses(true);  // resets the counters
            for (int i = 0; i < repeats; ++i) {
                SearchResult r;
                ms.push_back(1e3 * cancelLatency(s, threads, std::chrono::milliseconds(300), r));
                evaluated += r.evaluated;
                allCancelled = allCancelled && r.cancelled;
            }
            std::sort(ms.begin(), ms.end());
            const double worst = ms.back();
            std::printf("  %-7s %d thread%s: median %.1f ms, worst %.1f ms (%lld evaluated per run on average): %s\n",
                        mapspaceKindName(k).c_str(), threads, threads > 1 ? "s" : " ", ms[ms.size() / 2], worst,
                        static_cast<long long>(evaluated / repeats), verdict(worst < 100.0));
            // (cancel latency is the slowest evaluation in flight: walked stages are the slow ones)
            std::printf("    stages: %s\n", model::stageStatisticsText().c_str());
            if (!allCancelled) {
                std::printf("  a search did not report the cancel\n");
                return 1;
            }
        }
    }

    std::printf("Single evaluations (2000 random mappings that fit after 50 untimed, seed 1, one thread); target: each < 1 ms:\n");
    for (MapspaceKind k : allMapspaceKinds()) {
        const Mapspace s(w, a, k);
        std::mt19937_64 rng(1);
        std::vector<double> ms;
        int overBudget = 0;
        model::countStageAnalyses(true);
        Evaluation ev;
        for (int untimed = 50; ms.size() < 2000;) {
            const MapspacePoint p = s.randomPoint(rng);
            if (s.exceedsCapacity(p)) continue;
            const Mapping m = s.toMapping(p);
            const auto t0 = Clock::now();
            evaluate(w, a, m, {}, ev);
            if (untimed > 0) {
                --untimed;
                continue;
            }
            ms.push_back(1e3 * secondsSince(t0));
            overBudget += ev.exactBudgetExceeded ? 1 : 0;
        }
        std::sort(ms.begin(), ms.end());
        const auto over = std::count_if(ms.begin(), ms.end(), [](double t) { return t >= 1.0; });
        std::printf("  %-7s median %.3f ms, 99th percentile %.3f ms, slowest %.3f ms, %lld of %zu at 1 ms or more, %d past the "
                    "exact budgets: %s\n",
                    mapspaceKindName(k).c_str(), ms[ms.size() / 2], ms[ms.size() * 99 / 100], ms.back(),
                    static_cast<long long>(over), ms.size(), overBudget, verdict(over == 0 && overBudget == 0));
        std::printf("    stages: %s\n", model::stageStatisticsText().c_str());
    }
    return 0;
}
