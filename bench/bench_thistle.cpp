// Thistle co-design of the whole ResNet-18 of the paper's Table II (examples/thistle/resnet18.yaml):
// layer-wise co-design (Eq. 5, energy, area of the Eyeriss baseline, every pruned permutation)
// then the single architecture pass, as `nestor-cli codesign ... --network resnet18 --area-um2
// 2363756 --single-arch` runs them. Prints the wall and CPU time of each pass, programs solved,
// Ipopt iterations per program, candidates scored, and whether the 30 s target for the
// whole run is met. Never fails on speed.
// Usage: bench_thistle [repetitions, default 1]
#include "arch/EnergyModels.h"
#include "io/ProjectYaml.h"
#include "solvers/thistle/NetworkCodesign.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>

using namespace nestor;
using namespace nestor::thistle;

namespace {

struct PassFigures {
    int programs = 0, candidates = 0, climbEvaluations = 0;
    long long iterations = 0;
    double layerSeconds = 0;
};

PassFigures figures(const std::vector<LayerOptimization>& rs)
{
    PassFigures f;
    for (const LayerOptimization& r : rs) {
        f.programs += r.programsSolved;
        f.candidates += r.candidatesEvaluated;
        f.climbEvaluations += r.polishEvaluations;
        f.iterations += r.solverIterations;
        f.layerSeconds += r.seconds;
    }
    return f;
}

} // namespace

int main(int argc, char** argv)
{
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 1;
    try {
        const Project p = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/thistle/resnet18.yaml");
        Architecture arch = p.architecture;
        applyEnergyModel(arch, p.energyModel);
        std::vector<const Workload*> layers;
        for (const auto& pw : p.workloads) layers.push_back(&pw.workload);
        NetworkCodesignOptions o;
        o.optimize.area_um2 = 2363756;
        o.fixedArchitecture = false;
        o.layerwise = true;
        o.singleArchitecture = true;
        double best = 1e30;
        for (int r = 0; r < reps; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            const std::clock_t c0 = std::clock();
            const NetworkCodesign run = codesignNetwork(layers, arch, o);
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
            best = std::min(best, wall);
            const PassFigures lw = figures(run.layerwise), sa = figures(run.single);
            std::printf("resnet18 co-design run %d: %.1f s wall, %.1f s CPU (%d layers)\n", r + 1, wall, cpu, int(layers.size()));
            std::printf("  layer-wise:          %.1f s, %d programs (%.1f Ipopt iterations each), %d candidates scored by the model, "
                        "%d by the climb\n",
                        lw.layerSeconds, lw.programs, lw.programs ? double(lw.iterations) / lw.programs : 0.0, lw.candidates,
                        lw.climbEvaluations);
            std::printf("  single architecture: %.1f s (the design of %s), %d programs (%.1f iterations each), %d candidates, "
                        "%d by the climb\n",
                        sa.layerSeconds, run.singleFrom.c_str(), sa.programs, sa.programs ? double(sa.iterations) / sa.programs : 0.0,
                        sa.candidates, sa.climbEvaluations);
        }
        std::printf("resnet18 layer-wise + single-architecture co-design: %.1f s (best of %d)%s\n", best, reps,
                    best < 30.0 ? "  [target < 30 s: met]" : "  [target < 30 s: NOT met]");
    } catch (const std::exception& e) {
        std::printf("error: %s\n", e.what());
        return 1;
    }
    return 0;
}
