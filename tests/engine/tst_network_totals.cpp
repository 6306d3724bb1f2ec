// Network totals (engine/analysis/NetworkTotals.h) hand-computed from two small layers with repeats.
//
// Architecture: DRAM (10 pJ per access) -> Buffer (1 pJ per access) -> one MAC (0.5 pJ), no
// leakage; every layer's whole nest is temporal at the Buffer (semantics.md section 3, worked
// example 00). The 1-D convolution P, R has P x R MACs and cycles; the Buffer reads P x R
// Weights and Inputs and P x R - P Outputs, is filled R Weights and P + R - 1 Inputs and takes
// P x R updates; DRAM reads R + (P + R - 1) words and takes P output updates.
//   A = conv1d(16, 3): 48 MACs; Buffer 128 + 21 + 48 = 197 accesses, DRAM 21 + 16 = 37:
//       197 x 1 + 37 x 10 + 48 x 0.5 = 591 pJ.
//   B = conv1d(8, 2):  16 MACs; Buffer 40 + 11 + 16 = 67, DRAM 11 + 8 = 19: 67 + 190 + 8 = 265 pJ.
#include "support/TestWorkloads.h"
#include "analysis/NetworkTotals.h"
#include "model/Model.h"

#include <QtTest>

using namespace nestor;

namespace {

Architecture dramBufferMac()
{
    StorageLevel dram;
    dram.name = "DRAM";
    dram.energy = {10.0, 10.0, 10.0, 0.0};
    StorageLevel buffer;
    buffer.name = "Buffer";
    buffer.size_words = 64;
    buffer.energy = {1.0, 1.0, 1.0, 0.0};
    Architecture a;
    a.levels = {dram, buffer};
    a.compute.instances = 1;
    a.compute.meshX = 1;
    a.compute.mac_energy_pJ = 0.5;
    a.cycle_seconds = 1e-9;
    return a;
}

Evaluation layer(std::int64_t P, std::int64_t R)
{
    Mapping m;
    m.levels.resize(2);
    m.levels[1].temporal = {makeLoop(0, P), makeLoop(1, R)};
    return evaluate(test::conv1d(P, R), dramBufferMac(), m);
}

} // namespace

class TestNetworkTotals : public QObject {
    Q_OBJECT
private slots:
    void layersTimesRepeats()
    {
        const Evaluation a = layer(16, 3), b = layer(8, 2);
        QVERIFY(a.valid && b.valid);
        QCOMPARE(a.energy_pJ, 591.0);
        QCOMPARE(b.energy_pJ, 265.0);
        Evaluation invalid;  // a layer whose mapping is invalid counts as missing
        const NetworkTotals t = networkTotals({{&a, 3}, {&b, 2}, {nullptr, 4}, {&invalid, 1}}, 1e-9);
        QCOMPARE(t.layers, 2);
        QCOMPARE(t.missing, 2);
        QVERIFY(!t.complete());
        QCOMPARE(t.macs, std::int64_t(3 * 48 + 2 * 16));
        QCOMPARE(t.cycles, std::int64_t(176));
        QCOMPARE(t.energy_pJ, 3 * 591.0 + 2 * 265.0);
        QCOMPARE(t.delay_s, 176e-9);
        QCOMPARE(t.edp_J_s, 2303e-12 * 176e-9);  // network energy x network delay
        QCOMPARE(t.sumLayerEdp_J_s, 3 * 591e-12 * 48e-9 + 2 * 265e-12 * 16e-9);
    }

    void aNetworkOfValidLayersIsComplete()
    {
        const Evaluation a = layer(16, 3);
        QVERIFY(networkTotals({{&a, 1}}, 1e-9).complete());
        QVERIFY(!networkTotals({}, 1e-9).complete());
    }

    void badRepeatAndOverflowAreErrors()
    {
        const Evaluation a = layer(16, 3);
        QVERIFY_THROWS_EXCEPTION(NestorError, networkTotals({{&a, 0}}, 1e-9));
        QVERIFY_THROWS_EXCEPTION(NestorError, networkTotals({{&a, std::int64_t(1) << 60}}, 1e-9));
    }
};

QTEST_APPLESS_MAIN(TestNetworkTotals)
#include "tst_network_totals.moc"
