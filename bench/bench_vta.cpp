// Whole ResNet-18 (224x224, int8, 31 layers) on the VTA simulator: lowering (TPS tiling),
// bit-exact functional run and cycle model, as `nestor-cli vta network resnet18` does it; then
// the timing-only run a sweep point costs. Prints wall time, simulated cycles and simulated
// cycles per second per configuration (GEMM II 1 and 4), and whether the 5 s target for the
// whole network on one core is met. Never fails on speed.
// Usage: bench_vta [repetitions, default 3]
#include "sim/vta/lowering/NetworkRun.h"
#include "sim/vta/lowering/ResNet18.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace nestor;
using namespace nestor::vta;

int main(int argc, char** argv)
{
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    const std::vector<LayerSpec> layers = resnet18Layers();
    for (const bool functional : {true, false})
        for (const int ii : {1, 4}) {
            TimingConfig timing;
            timing.gemmII = ii;
            RunNetworkOptions options;
            options.functional = functional;
            options.keepTraces = true;
            double best = 1e30;
            std::uint64_t cycles = 0;
            for (int r = 0; r < reps; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                const NetworkRun run = runNetwork(layers, VtaConfig{}, timing, nullptr, options);
                const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                if (run.error) {
                    std::printf("error: %s\n", run.error->c_str());
                    return 1;
                }
                best = std::min(best, s);
                cycles = run.totalCycles;
            }
            std::printf("resnet18 %-10s GEMM II %d: %.3f s (best of %d), %llu simulated cycles, %.1f M simulated cycles/s%s\n",
                        functional ? "functional" : "timing", ii, best, reps, static_cast<unsigned long long>(cycles),
                        double(cycles) / best / 1e6,
                        functional ? (best < 5.0 ? "  [target < 5 s: met]" : "  [target < 5 s: NOT met]") : "");
        }
    return 0;
}
