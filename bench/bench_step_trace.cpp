// The step trace (engine/trace) on VGG-16 conv3_1 on the Eyeriss-like 14x12 array
// (examples/eyeriss-like.yaml, every mapping): frame(step) at random steps (scrubbing; target
// well under 100 ms), countWindow of 100 steps, and frames/s of sequential stepping (the teaching
// view plays at >= 30 frames/s), at the PE-level register files and at the GLB.
// Usage: bench_step_trace [random frames per level, default 50]
//        bench_step_trace FILE.yaml MAPPING LEVEL   (one trace: build, frames, windows)
#include "io/ProjectYaml.h"
#include "trace/StepTrace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace nestor;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

struct Stats {
    double median = 0, max = 0;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.back()};
}

} // namespace

int one(const std::string& file, const std::string& name, int level)
{
    const Project p = readProject(file);
    const ProjectMapping* pm = p.findMapping(name);
    if (!pm) return 2;
    const Workload& w = p.findWorkload(pm->workload)->workload;
    auto a = Clock::now();
    const trace::StepTrace tr(w, p.architecture, pm->mapping, level);
    std::printf("build %.1f ms, %lld steps, %d instances\n", ms(a, Clock::now()), static_cast<long long>(tr.numSteps()),
                tr.numInstances());
    for (std::int64_t s : {std::int64_t{0}, tr.numSteps() / 2, tr.numSteps() - 1}) {
        a = Clock::now();
        const auto f = tr.frame(s);
        std::printf("frame(%lld): %.2f ms, %zu moves\n", static_cast<long long>(s), ms(a, Clock::now()), f.moves.size());
    }
    a = Clock::now();
    tr.countWindow(0, std::min<std::int64_t>(100, tr.numSteps()));
    std::printf("countWindow(0, 100): %.1f ms\n", ms(a, Clock::now()));
    for (int t = 0; t < w.numTensors(); ++t) {
        a = Clock::now();
        const std::int64_t next = tr.nextTileChange(tr.numSteps() / 2, t);
        std::printf("nextTileChange(%lld, %s) = %lld: %.2f ms\n", static_cast<long long>(tr.numSteps() / 2),
                    w.tensors[t].name.c_str(), static_cast<long long>(next), ms(a, Clock::now()));
    }
    return 0;
}

int main(int argc, char** argv)
{
    if (argc == 4) return one(argv[1], argv[2], std::atoi(argv[3]));
    const int samples = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;
    bool ok = true;
    // conv3_1 on the Eyeriss-like array, then the teaching gallery (same array) when present
    for (const char* file : {"eyeriss-like.yaml", "teaching/dataflows.yaml"}) {
    Project p;
    try {
        p = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/" + file);
    } catch (const std::exception& e) {
        std::printf("%s: %s\n", file, e.what());
        continue;
    }
    std::printf("%s\n", file);
    for (const auto& pm : p.mappings) {
        const ProjectWorkload* pw = p.findWorkload(pm.workload);
        if (!pw) continue;
        for (const char* levelName : {"DRAM", "GLB", "ifmap_spad", "weights_spad", "psum_spad"}) {
            const int level = p.architecture.levelIndex(levelName);
            if (level < 0) continue;
            const auto t0 = Clock::now();
            const trace::StepTrace tr(pw->workload, p.architecture, pm.mapping, level);
            const double buildMs = ms(t0, Clock::now());
            std::mt19937_64 rng(42);
            std::uniform_int_distribution<std::int64_t> any(0, tr.numSteps() - 101);
            std::vector<double> frame, window;
            for (int i = 0; i < samples; ++i) {
                const std::int64_t s = any(rng);
                auto a = Clock::now();
                const auto f = tr.frame(s);
                auto b = Clock::now();
                frame.push_back(ms(a, b));
                a = Clock::now();
                const auto c = tr.countWindow(s, s + 100);
                b = Clock::now();
                window.push_back(ms(a, b));
                (void)f;
                (void)c;
            }
            // sequential stepping from a random point, for about half a second
            std::int64_t s = any(rng);
            int frames = 0;
            const auto a = Clock::now();
            while (ms(a, Clock::now()) < 500.0 && s < tr.numSteps()) {
                const auto f = tr.frame(s++);
                ++frames;
                (void)f;
            }
            const double fps = frames / (ms(a, Clock::now()) / 1000.0);
            const Stats fs = stats(frame), ws = stats(window);
            std::printf("  %-18s %-13s steps %10lld  build %7.1f ms  frame median %7.3f ms max %7.3f ms  "
                        "countWindow(100) median %8.2f ms max %8.2f ms  sequential %8.0f frames/s\n",
                        pm.mapping.name.c_str(), levelName, static_cast<long long>(tr.numSteps()), buildMs, fs.median,
                        fs.max, ws.median, ws.max, fps);
            ok = ok && fs.max < 100.0 && fps >= 30.0;
        }
    }
    }
    std::printf("targets (frame < 100 ms, >= 30 frames/s): %s\n", ok ? "met" : "NOT met");
    return 0;
}
