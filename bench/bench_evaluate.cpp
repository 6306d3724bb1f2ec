// Evaluations per second of one mapping on one core (target: 100,000 / s):
//  (i)  the Timeloop reference case ispass20-tl+acc-eyeriss-int16 (read from NESTOR_TEST_DATA_DIR),
//  (ii) an Eyeriss-like VGG-16 conv3_1 layer (C=128 M=256 P=Q=56 R=S=3) on 14x12 PEs with a
//       per-PE register file, a 128 KiB global buffer and DRAM, mapping built in code;
//  (iii) the mappings with remainders (Ruby-S style) of examples/alexnet.yaml.
// Usage: bench_evaluate [seconds per benchmark, default 1.0]
#include "io/ProjectYaml.h"
#include "io/ReferenceCase.h"
#include "model/Model.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

using namespace nestor;

namespace {

constexpr double kTarget = 100000.0;

// Runs evaluate() repeatedly for about `seconds` and prints the rate. Returns false when the
// mapping does not evaluate to a valid result.
bool bench(const char* name, const Workload& w, const Architecture& a, const Mapping& m, double seconds)
{
    const Evaluation first = evaluate(w, a, m);
    if (!first.valid) {
        std::printf("%s: mapping is invalid:\n", name);
        for (const auto& d : first.errors) std::printf("  %s\n", d.toString().c_str());
        return false;
    }
    using clock = std::chrono::steady_clock;
    // warm-up and calibration
    std::int64_t batch = 1;
    double elapsed = 0.0;
    volatile double sink = 0.0;
    for (;;) {
        const auto t0 = clock::now();
        for (std::int64_t k = 0; k < batch; ++k) sink = sink + evaluate(w, a, m).energy_pJ;
        elapsed = std::chrono::duration<double>(clock::now() - t0).count();
        if (elapsed > 0.05 || batch > (std::int64_t(1) << 30)) break;
        batch *= 4;
    }
    const std::int64_t total = std::max<std::int64_t>(1, static_cast<std::int64_t>(batch * seconds / elapsed));
    const auto t0 = clock::now();
    for (std::int64_t k = 0; k < total; ++k) sink = sink + evaluate(w, a, m).energy_pJ;
    const double dt = std::chrono::duration<double>(clock::now() - t0).count();
    const double rate = static_cast<double>(total) / dt;
    std::printf("%s: %lld evaluations in %.3f s: %.0f evaluations/s (%.2f us each; target %.0f/s: %s)\n", name,
                static_cast<long long>(total), dt, rate, 1e6 / rate, kTarget, rate >= kTarget ? "met" : "NOT met");
    std::printf("  energy %.6g pJ, cycles %lld, MACs %lld\n", first.energy_pJ, static_cast<long long>(first.cycles),
                static_cast<long long>(first.macs));
    return true;
}

StorageLevel storage(const std::string& name, std::int64_t instances, std::int64_t meshX,
                     std::optional<std::int64_t> size, int block, ActionEnergies e)
{
    StorageLevel l;
    l.name = name;
    l.instances = instances;
    l.meshX = meshX;
    l.size_words = size;
    l.word_bits = 16;
    l.block_size = block;
    l.energy = e;
    l.technology = size ? "SRAM" : "DRAM";
    return l;
}

// VGG-16 conv3_1 on an Eyeriss-like array. Row-stationary flavour: Q across the 14 columns,
// C x S down the 12 rows, R and a block of M inside each PE.
void vggConv31(Workload& w, Architecture& a, Mapping& m)
{
    ConvParams p;
    p.name = "vgg16_conv3_1";
    p.N = 1;
    p.M = 256;
    p.C = 128;
    p.P = 56;
    p.Q = 56;
    p.R = 3;
    p.S = 3;
    w = makeConv2d(p);
    auto dim = [&](const char* n) {
        const int d = w.dimIndex(n);
        if (d < 0) {
            std::fprintf(stderr, "makeConv2d has no dimension %s\n", n);
            std::exit(2);
        }
        return d;
    };
    const int M = dim("M"), C = dim("C"), P = dim("P"), Q = dim("Q"), R = dim("R"), S = dim("S");

    a.name = "eyeriss-like";
    a.levels = {storage("DRAM", 1, 1, std::nullopt, 4, {200.0, 200.0, 200.0, 0.0}),
                storage("GLB", 1, 1, 64 * 1024, 4, {6.0, 6.5, 6.5, 0.0}),  // 128 KiB of 16-bit words
                storage("RF", 168, 14, 256, 1, {0.5, 0.5, 0.5, 0.0})};
    a.compute.name = "MAC";
    a.compute.instances = 168;
    a.compute.meshX = 14;
    a.compute.mac_energy_pJ = 1.0;

    m.name = "row-stationary-like";
    m.levels.resize(3);
    m.levels[0].temporal = {makeLoop(M, 16), makeLoop(C, 32), makeLoop(P, 4), makeLoop(Q, 4)};
    m.levels[1].temporal = {makeLoop(P, 14)};
    m.levels[1].spatialX = {makeLoop(Q, 14)};
    m.levels[1].spatialY = {makeLoop(C, 4), makeLoop(S, 3)};
    m.levels[2].temporal = {makeLoop(R, 3), makeLoop(M, 16)};
}

} // namespace

int main(int argc, char** argv)
{
    const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
    bool ok = true;
    const std::string eyeriss =
        std::string(NESTOR_TEST_DATA_DIR) + "/timeloop/cases/ispass20-tl+acc-eyeriss-int16.yaml";
    try {
        const ReferenceCase rc = readReferenceCase(eyeriss);
        ok = bench("eyeriss-int16 (reference case)", rc.workload, rc.architecture, rc.mapping, seconds) && ok;
    } catch (const std::exception& e) {
        std::printf("eyeriss-int16 (reference case): cannot read %s: %s\n", eyeriss.c_str(), e.what());
        ok = false;
    }
    try {
        Workload w;
        Architecture a;
        Mapping m;
        vggConv31(w, a, m);
        const auto diags = m.validate(w, a);
        if (!diags.empty()) {
            for (const auto& d : diags) std::printf("vgg16 conv3_1 mapping: %s\n", d.toString().c_str());
            ok = false;
        } else {
            ok = bench("vgg16-conv3_1 (eyeriss-like, built in code)", w, a, m, seconds) && ok;
        }
    } catch (const std::exception& e) {
        std::printf("vgg16 conv3_1: %s\n", e.what());
        ok = false;
    }
    const std::string alexnet = std::string(NESTOR_EXAMPLES_DIR) + "/alexnet.yaml";
    try {
        const Project p = readProject(alexnet);
        for (const ProjectMapping& pm : p.mappings) {
            if (pm.mapping.name.find("imperfect") == std::string::npos) continue;
            const ProjectWorkload* layer = p.findWorkload(pm.workload);
            if (!layer) continue;
            ok = bench(("alexnet " + pm.mapping.name + " (remainders)").c_str(), layer->workload, p.architecture, pm.mapping,
                       seconds / 4) && ok;
        }
    } catch (const std::exception& e) {
        std::printf("alexnet: cannot read %s: %s\n", alexnet.c_str(), e.what());
        ok = false;
    }
    return ok ? 0 : 1;
}
