// The VTA lowering (engine/sim/vta/lowering/): lowered programs executed by the functional
// simulator must give the same output bytes as the plain nested-loop reference
// (engine/sim/vta/reference/), on seeded random layers of every kind (many shapes, paddings,
// strides, tilings forced small to exercise edge tiles and both virtual-thread schedules),
// on non-default GEMM shapes, and on every ResNet-18 layer at a reduced image size. The
// reference itself is checked against hand-derived values first.
#include "sim/vta/Dram.h"
#include "sim/vta/FunctionalSim.h"
#include "sim/vta/lowering/Lowering.h"
#include "sim/vta/lowering/NetworkRun.h"
#include "sim/vta/lowering/ResNet18.h"
#include "sim/vta/lowering/Sweep.h"
#include "sim/vta/lowering/ReferenceLayer.h"
#include "sim/vta/reference/ReferenceOps.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace nestor;
using namespace nestor::vta;

namespace {

std::vector<std::int8_t> randomBytes(std::size_t n, std::mt19937_64& rng, int lo, int hi)
{
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<std::int8_t> v(n);
    for (auto& x : v) x = static_cast<std::int8_t>(d(rng));
    return v;
}

reference::Tensor8 randomTensor(int n, int c, int h, int w, std::mt19937_64& rng)
{
    reference::Tensor8 t(n, c, h, w);
    t.data = randomBytes(t.data.size(), rng, -128, 127);
    return t;
}


// Lowers, runs and compares; returns an empty string on a match, else what differs.
std::string runAndCompare(const LayerSpec& l, const VtaConfig& config, const Tiling& tiling, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<reference::Tensor8> inputs;
    for (std::size_t i = 0; i < l.inputs.size(); ++i) inputs.push_back(randomTensor(l.n, l.c, l.h, l.w, rng));
    std::vector<const reference::Tensor8*> ptrs;
    for (const auto& t : inputs) ptrs.push_back(&t);
    const std::vector<std::int8_t> weights = randomBytes(l.weightCount(), rng, -128, 127);
    const LayerData data{ptrs, &weights};
    const LoweredLayer lowered = lowerLayer(l, config, tiling, &data);
    const IsaLayout layout(config);
    Dram dram(0, lowered.dram.size());
    std::copy(lowered.dram.begin(), lowered.dram.end(), dram.write(0, lowered.dram.size(), "image"));
    MachineState state(config, std::move(dram));
    const RunResult r = runInstructions(lowered.insns, layout, state);
    if (!r.ok()) return "run failed: " + describeFailure(*r.failure);
    if (!r.warnings.empty()) return "warning: " + r.warnings.front();
    const reference::Tensor8 got = unpackOutput(lowered, config, state.dram);
    const reference::Tensor8 want = referenceLayerOutput(l, ptrs, weights);
    for (std::size_t i = 0; i < want.data.size(); ++i)
        if (got.data[i] != want.data[i])
            return "byte " + std::to_string(i) + " of " + std::to_string(want.data.size()) + ": got " +
                   std::to_string(got.data[i]) + ", reference " + std::to_string(want.data[i]);
    return {};
}

std::string describe(const LayerSpec& l, const Tiling& t)
{
    return std::string(layerKindName(l.kind)) + " n" + std::to_string(l.n) + " c" + std::to_string(l.c) + " h" +
           std::to_string(l.h) + " w" + std::to_string(l.w) + " k" + std::to_string(l.k) + " r" + std::to_string(l.r) +
           " s" + std::to_string(l.s) + " stride" + std::to_string(l.stride) + " pad" + std::to_string(l.pad) +
           " shift" + std::to_string(l.shift) + (l.relu ? " relu" : "") + " / " + t.describe();
}

// A random tiling that fits (for exercising edge tiles), or the searched one.
Tiling smallTiling(const LayerSpec& l, const VtaConfig& config, std::mt19937_64& rng)
{
    Tiling t = *searchTiling(l, config);
    std::uniform_int_distribution<int> coin(0, 1);
    if (coin(rng)) t.th = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(l.outH()));
    if (coin(rng)) t.tw = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(l.outW()));
    if (l.kind == LayerKind::Conv || l.kind == LayerKind::Dense) {
        if (coin(rng)) t.tc = 1;
        if (coin(rng)) t.tk = 1;
        const int kb = (l.outC() + config.blockOut() - 1) / config.blockOut();
        t.ocThreads = kb / t.tk >= 2 && coin(rng);
    } else {
        if (coin(rng)) t.tk = t.tc = 1;
    }
    return t;
}

} // namespace

class TestVtaLowering : public QObject {
    Q_OBJECT

private slots:
    void referenceHandValues()
    {
        // 1 input channel 3x3 = 1..9, one 3x3 kernel of ones, pad 1: the centre sums all nine
        // (45), a corner four (1+2+4+5 = 12); shift 1 -> 22 and 6.
        reference::Tensor8 in(1, 1, 3, 3);
        for (int i = 0; i < 9; ++i) in.data[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(i + 1);
        const auto out = reference::conv2d(in, std::vector<std::int8_t>(9, 1), 1, 3, 3, 1, 1, 1, false);
        QCOMPARE(int(out.at(0, 0, 1, 1)), 22);
        QCOMPARE(int(out.at(0, 0, 0, 0)), 6);
        // Requantization: arithmetic shift rounds down, clip to [-128, 127] or [0, 127].
        QCOMPARE(int(reference::requantize(-3, 1, false)), -2);
        QCOMPARE(int(reference::requantize(1000, 2, false)), 127);
        QCOMPARE(int(reference::requantize(-1000, 2, false)), -128);
        QCOMPARE(int(reference::requantize(-1000, 2, true)), 0);
        // Max-pool with zero padding; add saturates.
        const auto pooled = reference::maxPool(in, 2, 2, 2, 0);
        QCOMPARE(int(pooled.at(0, 0, 0, 0)), 5);
        reference::Tensor8 a(1, 1, 1, 1), b(1, 1, 1, 1);
        a.data = {100};
        b.data = {100};
        QCOMPARE(int(reference::add(a, b, 0, false).data[0]), 127);
        QCOMPARE(int(reference::add(a, b, 1, false).data[0]), 100);
    }

    void randomConvAndDense()
    {
        std::mt19937_64 rng(12);
        const VtaConfig config;
        int checked = 0;
        for (int trial = 0; trial < 60; ++trial) {
            const int r = std::array{1, 3, 5, 7}[rng() % 4];
            const int pad = static_cast<int>(rng() % static_cast<std::uint64_t>(r));  // pad < r
            const int h = r + static_cast<int>(rng() % 9), w = r + static_cast<int>(rng() % 9);
            const int c = std::array{1, 3, 16, 20, 40}[rng() % 5];
            const int k = std::array{4, 16, 24, 48}[rng() % 4];
            const int stride = 1 + static_cast<int>(rng() % 2);
            LayerSpec l = convLayer("conv", 1, c, h, w, k, r, r, stride, pad, static_cast<int>(rng() % 12), rng() % 2 == 0);
            const Tiling t = trial % 2 ? *searchTiling(l, config) : smallTiling(l, config, rng);
            const std::string diff = runAndCompare(l, config, t, 1000 + trial);
            QVERIFY2(diff.empty(), (describe(l, t) + ": " + diff).c_str());
            ++checked;
        }
        for (int trial = 0; trial < 10; ++trial) {
            LayerSpec l = denseLayer("fc", 1, 1 + static_cast<int>(rng() % 300), 1 + static_cast<int>(rng() % 100),
                                     static_cast<int>(rng() % 14), trial % 2 == 0);
            const Tiling t = trial % 2 ? *searchTiling(l, config) : smallTiling(l, config, rng);
            const std::string diff = runAndCompare(l, config, t, 2000 + trial);
            QVERIFY2(diff.empty(), (describe(l, t) + ": " + diff).c_str());
            ++checked;
        }
        QCOMPARE(checked, 70);
    }

    void randomDepthwisePoolAdd()
    {
        std::mt19937_64 rng(34);
        const VtaConfig config;
        for (int trial = 0; trial < 45; ++trial) {
            const int kindPick = trial % 3;
            const int r = std::array{1, 2, 3, 5}[rng() % 4];
            const int pad = static_cast<int>(rng() % static_cast<std::uint64_t>(r));
            const int h = r + static_cast<int>(rng() % 8), w = r + static_cast<int>(rng() % 8);
            const int c = std::array{5, 16, 33, 64}[rng() % 4];
            const int stride = 1 + static_cast<int>(rng() % 2);
            LayerSpec l = convLayer("x", 1, c, h, w, c, r, r, stride, pad, static_cast<int>(rng() % 8), rng() % 2 == 0);
            if (kindPick == 0) l.kind = LayerKind::Depthwise;
            if (kindPick == 1) l.kind = LayerKind::MaxPool;
            if (kindPick == 2) {
                l = convLayer("add", 1, c, h, w, c, 1, 1, 1, 0, static_cast<int>(rng() % 3), rng() % 2 == 0, {-1, -1});
                l.kind = LayerKind::Add;
            }
            const Tiling t = trial % 2 ? *searchTiling(l, config) : smallTiling(l, config, rng);
            const std::string diff = runAndCompare(l, config, t, 3000 + trial);
            QVERIFY2(diff.empty(), (describe(l, t) + ": " + diff).c_str());
        }
    }

    void otherGemmShapes()
    {
        // Batch 2 (two images per element), 8x8 and 32x32 blocks, smaller scratchpads.
        std::mt19937_64 rng(56);
        std::vector<VtaConfig> configs(3);
        configs[0].logBatch = 1;
        configs[1].logBlockIn = configs[1].logBlockOut = 3;
        configs[1].logInpBuffSize = 13;
        configs[1].logWgtBuffSize = 14;
        configs[2].logBlockIn = configs[2].logBlockOut = 5;
        for (const VtaConfig& config : configs)
            for (int trial = 0; trial < 8; ++trial) {
                LayerSpec l = convLayer("conv", 1 + trial % 3, 3 + trial * 7, 6 + trial % 3, 7, 8 + trial * 9, 3, 3,
                                        1 + trial % 2, 1, 7, trial % 2 == 0);
                if (trial == 7) {
                    l = convLayer("pool", 2, 40, 9, 9, 40, 3, 3, 2, 1, 0, false);
                    l.kind = LayerKind::MaxPool;
                }
                const Tiling t = trial % 2 ? *searchTiling(l, config) : smallTiling(l, config, rng);
                const std::string diff = runAndCompare(l, config, t, 4000 + trial);
                QVERIFY2(diff.empty(), (config.summary() + " " + describe(l, t) + ": " + diff).c_str());
            }
    }

    void tilingSearchRespectsCapacities()
    {
        // Every ResNet-18 layer gets a tiling whose contexts fit half of each buffer, and a
        // layer that cannot fit says why.
        const VtaConfig config;
        for (const LayerSpec& l : resnet18Layers()) {
            std::string why;
            const auto t = searchTiling(l, config, &why);
            QVERIFY2(t.has_value(), (l.name + ": " + why).c_str());
            const TileShape s = tileShape(l, config, *t);
            QVERIFY(s.inpElems <= config.depth(MemType::Inp) / 2);
            QVERIFY(s.wgtElems <= config.depth(MemType::Wgt) / 2);
            QVERIFY(s.accElems <= config.depth(MemType::Acc) / 2);
        }
        VtaConfig tiny;
        tiny.logWgtBuffSize = 8;  // one WGT element: no half holds a 3x3 kernel
        std::string why;
        QVERIFY(!searchTiling(convLayer("big", 1, 16, 8, 8, 32, 3, 3, 1, 1, 0, false), tiny, &why));
        QVERIFY2(why.find("big") != std::string::npos, why.c_str());
        // A hand-made tiling that does not divide the channel blocks, or overflows a buffer, is a
        // located error, not an out-of-range run.
        const LayerSpec conv = convLayer("conv9", 1, 32, 8, 8, 32, 3, 3, 1, 1, 0, false);
        Tiling t = *searchTiling(conv, config);
        t.tk = 3;
        QVERIFY_THROWS_EXCEPTION(NestorError, lowerLayer(conv, config, t, nullptr));
        t = *searchTiling(conv, config);
        t.th = t.tw = 64;
        try {
            lowerLayer(conv, config, t, nullptr);
            QFAIL("an oversized tiling was accepted");
        } catch (const NestorError& e) {
            QVERIFY2(std::string(e.what()).find("conv9.tiling") != std::string::npos, e.what());
        }
    }

    void resnet18SmallImage()
    {
        // Every layer of ResNet-18 (image 32x32: the same channels, kernels, strides and
        // paddings, smaller activations), chained, each compared with the reference.
        const std::vector<LayerSpec> layers = resnet18Layers(32);
        QCOMPARE(layers.size(), std::size_t(31));
        RunNetworkOptions options;
        options.checkReference = true;
        options.keepTraces = false;
        const NetworkRun run = runNetwork(layers, VtaConfig{}, TimingConfig{}, nullptr, options);
        QVERIFY2(!run.error, run.error ? run.error->c_str() : "");
        QCOMPARE(run.layers.size(), layers.size());
        for (const LayerRun& l : run.layers) {
            QVERIFY2(l.outputMatchesReference, l.name.c_str());
            QVERIFY(l.cycles > 0);
        }
    }

    void redundantLoadFix()
    {
        // The same tiling with and without output-channel threads: 4 output-channel tiles form
        // 2 pairs, each input chunk is loaded once per pair instead of once per tile, so the
        // INP bytes halve exactly; weights and outputs are unchanged, results still exact.
        const VtaConfig config;
        const LayerSpec l = convLayer("conv", 1, 32, 10, 10, 64, 3, 3, 1, 1, 9, true);
        Tiling plain{5, 10, 1, 1, false, 0};
        Tiling paired = plain;
        paired.ocThreads = true;
        auto countersOf = [&](const Tiling& t) {
            const LoweredLayer lowered = lowerLayer(l, config, t, nullptr);
            Counters c;
            for (const Instruction& i : lowered.insns)
                if (i.isLoad() && i.mem() == MemType::Inp) c.inpLoadNbytes += std::uint64_t{i.xSize} * i.ySize * 16;
                else if (i.isLoad() && i.mem() == MemType::Wgt) c.wgtLoadNbytes += std::uint64_t{i.xSize} * i.ySize * 256;
                else if (i.isStore()) c.outStoreNbytes += std::uint64_t{i.xSize} * i.ySize * 16;
            return c;
        };
        const Counters a = countersOf(plain), b = countersOf(paired);
        QVERIFY(a.inpLoadNbytes > 0);
        QCOMPARE(b.inpLoadNbytes * 2, a.inpLoadNbytes);
        QCOMPARE(b.wgtLoadNbytes, a.wgtLoadNbytes);
        QCOMPARE(b.outStoreNbytes, a.outStoreNbytes);
        QCOMPARE(a.outStoreNbytes, std::uint64_t(4 * 10 * 10 * 16));  // 4 blocks x 10 x 10 elements
        for (const Tiling& t : {plain, paired}) {
            const std::string diff = runAndCompare(l, config, t, 77);
            QVERIFY2(diff.empty(), (describe(l, t) + ": " + diff).c_str());
        }
    }

    void rooflineAreaAndPareto()
    {
        // Roofline by hand: a conv with 1,000 MACs over 50 bytes in 40 cycles on 1x16x16, II 4,
        // 8-byte bus: 20 ops/B, 25 ops/cycle, roof 256/4 = 64, attainable min(64, 8 x 20) = 64.
        TimingConfig timing;
        timing.gemmII = 4;
        const LayerSpec conv = convLayer("c", 1, 16, 4, 4, 16, 1, 1, 1, 0, 0, false);
        const RooflinePoint p = rooflinePoint(conv, 1000, 50, 40, VtaConfig{}, timing);
        QCOMPARE(p.opsPerByte, 20.0);
        QCOMPARE(p.opsPerCycle, 25.0);
        QCOMPARE(p.computeRoof, 64.0);
        QCOMPARE(p.attainable(), 64.0);
        // Area of the default configuration by hand: 256 MACs x 300 um^2; SRAM bits: uop 32 KiB,
        // inp 32 KiB, wgt 256 KiB, acc 128 KiB, out 32 KiB = 480 KiB = 3,932,160 bits x 0.3;
        // an 8-byte bus x 2,000 um^2. Total 76,800 + 1,179,648 + 16,000 um^2 = 1.272448 mm^2.
        QVERIFY(std::abs(areaMm2(VtaConfig{}, TimingConfig{}) - 1.272448) < 1e-9);
        // Pareto: (1, 10) and (2, 5) survive; (2, 10) is dominated; an error point never is on it.
        std::vector<SweepPoint> pts(4);
        pts[0].areaMm2 = 1, pts[0].cycles = 10;
        pts[1].areaMm2 = 2, pts[1].cycles = 5;
        pts[2].areaMm2 = 2, pts[2].cycles = 10;
        pts[3].areaMm2 = 0.5, pts[3].cycles = 0, pts[3].error = "does not map";
        markPareto(pts);
        QVERIFY(pts[0].pareto && pts[1].pareto && !pts[2].pareto && !pts[3].pareto);
    }

    void pipelinedGemmAndTraces()
    {
        // A GEMM-bound layer takes more cycles with II 4 than II 1, between 1x and 4x; the
        // network trace puts every layer after the previous one.
        const std::vector<LayerSpec> layers{convLayer("a", 1, 64, 14, 14, 64, 3, 3, 1, 1, 8, true),
                                            convLayer("b", 1, 64, 14, 14, 64, 1, 1, 1, 0, 6, false, {0})};
        TimingConfig ii4;
        ii4.gemmII = 4;
        RunNetworkOptions timingOnly;
        timingOnly.functional = false;
        const NetworkRun fast = runNetwork(layers, VtaConfig{}, TimingConfig{}, nullptr, timingOnly);
        const NetworkRun slow = runNetwork(layers, VtaConfig{}, ii4, nullptr, timingOnly);
        QVERIFY(!fast.error && !slow.error);
        QVERIFY(slow.layers[0].cycles > 2 * fast.layers[0].cycles);
        QVERIFY(slow.layers[0].cycles < 4 * fast.layers[0].cycles + 1000);
        // The timing-only byte counts equal the functional run's counters.
        const NetworkRun functional = runNetwork(layers, VtaConfig{}, TimingConfig{}, nullptr);
        QVERIFY(functional.totalCounters == fast.totalCounters);
        QCOMPARE(functional.totalCycles, fast.totalCycles);
        const ActivityTrace all = networkTrace(fast);
        QCOMPARE(all.totalCycles, fast.totalCycles);
        QCOMPARE(fast.layers[1].firstCycle, fast.layers[0].cycles);
        std::uint64_t lastEnd = 0;
        for (const auto& lane : all.lanes)
            for (const ActivityInterval& i : lane) lastEnd = std::max(lastEnd, i.end);
        QVERIFY(lastEnd <= fast.totalCycles);
        QVERIFY(lastEnd > fast.layers[0].cycles);
    }

    void cancelStopsTheRun()
    {
        std::atomic<bool> cancel{true};
        FlagJobContext job(&cancel);
        const NetworkRun run = runNetwork(resnet18Layers(32), VtaConfig{}, TimingConfig{}, &job);
        QVERIFY(run.cancelled);
        QVERIFY(run.layers.empty());
    }
};

QTEST_APPLESS_MAIN(TestVtaLowering)
#include "tst_vta_lowering.moc"
