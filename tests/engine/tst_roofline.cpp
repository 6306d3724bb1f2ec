// The roofline (engine/analysis/Roofline.h) against hand-derived figures: the limit that binds
// is the one the model's timing uses (read, write and shared bandwidths apart), and the
// operating point lies exactly on its roof.
//
// Workload: the 1-D convolution P = 16, R = 3 (48 MACs), 16-bit words (2 bytes). With the
// whole nest temporal at one buffer (semantics.md section 3, worked example 00), the buffer
// reads 48 Weights + 48 Inputs + 32 Outputs (48 updates minus the 16 first writes) = 128 words,
// is filled 3 Weights + 18 Inputs and updated 48 times = 69 words written; the backing store
// reads 3 + 18 words and takes 16 output updates = 37 words.
#include "support/TestWorkloads.h"
#include "analysis/Roofline.h"
#include "model/Model.h"

#include <QtTest>

using namespace nestor;

namespace {

StorageLevel storage(const std::string& name, std::optional<std::int64_t> words, std::int64_t instances)
{
    StorageLevel l;
    l.name = name;
    l.size_words = words;
    l.instances = instances;
    l.meshX = instances;
    l.word_bits = 16;
    return l;
}

// DRAM -> Buffer -> one MAC; the Buffer holds the whole layer.
Architecture oneBuffer(std::optional<double> readBw, std::optional<double> writeBw, std::optional<double> sharedBw)
{
    Architecture a;
    StorageLevel buffer = storage("Buffer", 64, 1);
    buffer.read_bw_words_per_cycle = readBw;
    buffer.write_bw_words_per_cycle = writeBw;
    buffer.shared_bw_words_per_cycle = sharedBw;
    a.levels = {storage("DRAM", std::nullopt, 1), buffer};
    a.compute.instances = 1;
    a.compute.meshX = 1;
    return a;
}

Mapping wholeNestAtBuffer()
{
    Mapping m;
    m.levels.resize(2);
    m.levels[1].temporal = {makeLoop(0, 16), makeLoop(1, 3)};
    return m;
}

const BandwidthRoof& roofOf(const Roofline& r, const std::string& label)
{
    for (const BandwidthRoof& roof : r.roofs)
        if (roof.label() == label) return roof;
    qFatal("no roof %s", label.c_str());
}

} // namespace

class TestRoofline : public QObject {
    Q_OBJECT
private slots:
    // Read bandwidth 1, write 8: 128 words read take 128 cycles, 69 written take 8.625.
    void readBandwidthBindsAndThePointSitsOnItsRoof()
    {
        const Architecture a = oneBuffer(1.0, 8.0, std::nullopt);
        const Evaluation e = evaluate(test::conv1d(16, 3), a, wholeNestAtBuffer());
        QVERIFY(e.valid);
        QCOMPARE(e.cycles, std::int64_t(128));
        const Roofline r = computeRoofline(a, e);
        QVERIFY(r.valid);
        QCOMPARE(r.compute_macs_per_cycle, 1.0);
        QCOMPARE(r.roofs.size(), std::size_t(2));  // Buffer read and write; DRAM declares none

        const BandwidthRoof& read = roofOf(r, "Buffer read");
        QCOMPARE(read.bytes_per_cycle, 2.0);        // 1 word x 1 instance x 2 bytes, not read + write added
        QCOMPARE(read.traffic_bytes, 256.0);        // 128 words x 2 bytes
        QCOMPARE(read.intensity_macs_per_byte, 48.0 / 256.0);
        QCOMPARE(read.cycles, 128.0);
        QCOMPARE(read.ridge_macs_per_byte, 0.5);    // 1 MAC/cycle / 2 B/cycle
        const BandwidthRoof& write = roofOf(r, "Buffer write");
        QCOMPARE(write.bytes_per_cycle, 16.0);
        QCOMPARE(write.traffic_bytes, 138.0);
        QCOMPARE(write.cycles, 8.625);

        QVERIFY(r.binding);
        QCOMPARE(r.roofs[*r.binding].label(), std::string("Buffer read"));
        QCOMPARE(r.boundBy(), std::string("Buffer read bandwidth"));
        QCOMPARE(r.operatingAt, std::string("Buffer read"));
        QCOMPARE(r.operating.macs_per_cycle, 48.0 / 128.0);
        QCOMPARE(r.operating.intensity_macs_per_byte, 48.0 / 256.0);
        // On its roof: 2 B/cycle x 0.1875 MACs/B = 0.375 MACs/cycle.
        QCOMPARE(read.bytes_per_cycle * r.operating.intensity_macs_per_byte, r.operating.macs_per_cycle);
    }

    // A shared port adds reads and writes: 197 words over 4 words/cycle = 49.25 -> 50 cycles.
    void sharedBandwidthCountsReadsAndWrites()
    {
        const Architecture a = oneBuffer(std::nullopt, std::nullopt, 4.0);
        const Evaluation e = evaluate(test::conv1d(16, 3), a, wholeNestAtBuffer());
        QVERIFY(e.valid);
        QCOMPARE(e.cycles, std::int64_t(50));
        const Roofline r = computeRoofline(a, e);
        QCOMPARE(r.roofs.size(), std::size_t(1));
        QCOMPARE(r.roofs[0].traffic_bytes, 394.0);  // (128 + 69) words x 2 bytes
        QCOMPARE(r.roofs[0].cycles, 49.25);
        QCOMPARE(r.boundBy(), std::string("Buffer shared bandwidth"));
        // Under its roof by the rounding to whole cycles only: 8 B/cycle x 48/394 = 48/49.25.
        QCOMPARE(r.roofs[0].bytes_per_cycle * r.operating.intensity_macs_per_byte, 48.0 / 49.25);
        QCOMPARE(r.operating.macs_per_cycle, 48.0 / 50.0);
    }

    // Read bandwidth 4: the reads need 32 cycles, fewer than the 48 MAC steps.
    void computeBoundPointSitsOnTheComputeRoof()
    {
        Architecture a = oneBuffer(4.0, 8.0, std::nullopt);
        a.levels[0].shared_bw_words_per_cycle = 4.0;  // DRAM: 37 words, 9.25 cycles
        const Evaluation e = evaluate(test::conv1d(16, 3), a, wholeNestAtBuffer());
        QVERIFY(e.valid);
        QCOMPARE(e.cycles, std::int64_t(48));
        const Roofline r = computeRoofline(a, e);
        QVERIFY(r.computeBound());
        QCOMPARE(r.boundBy(), std::string("compute"));
        QCOMPARE(roofOf(r, "DRAM shared").cycles, 9.25);
        QCOMPARE(roofOf(r, "Buffer read").cycles, 32.0);
        QCOMPARE(r.operating.macs_per_cycle, r.compute_macs_per_cycle);
        // Measured at the tightest bandwidth (Buffer read), and under that roof: 8 B/cycle x 0.1875 = 1.5.
        QCOMPARE(r.operatingAt, std::string("Buffer read"));
        QCOMPARE(r.operating.intensity_macs_per_byte, 48.0 / 256.0);
        QVERIFY(roofOf(r, "Buffer read").bytes_per_cycle * r.operating.intensity_macs_per_byte > r.operating.macs_per_cycle);
    }

    // Four PEs (each a buffer and a MAC), P split over them: each PE runs P = 4, R = 3 and reads
    // 12 Weights + 12 Inputs + 8 Outputs = 32 words, 32 cycles at 1 word/cycle per instance.
    void aRoofOfManyInstancesIsAggregate()
    {
        Architecture a;
        StorageLevel pe = storage("PE", 64, 4);
        pe.read_bw_words_per_cycle = 1.0;
        a.levels = {storage("DRAM", std::nullopt, 1), pe};
        a.compute.instances = 4;
        a.compute.meshX = 4;
        Mapping m;
        m.levels.resize(2);
        m.levels[0].spatialX = {makeLoop(0, 4)};
        m.levels[1].temporal = {makeLoop(0, 4), makeLoop(1, 3)};
        const Evaluation e = evaluate(test::conv1d(16, 3), a, m);
        QVERIFY(e.valid);
        QCOMPARE(e.compute_cycles, std::int64_t(12));
        QCOMPARE(e.cycles, std::int64_t(32));
        const Roofline r = computeRoofline(a, e);
        const BandwidthRoof& read = roofOf(r, "PE read");
        QCOMPARE(read.bytes_per_cycle, 8.0);        // 1 word x 4 instances x 2 bytes
        QCOMPARE(read.traffic_bytes, 256.0);        // 32 words x 4 instances x 2 bytes
        QCOMPARE(r.boundBy(), std::string("PE read bandwidth"));
        QCOMPARE(r.operating.macs_per_cycle, 1.5);  // 48 MACs / 32 cycles
        QCOMPARE(read.bytes_per_cycle * r.operating.intensity_macs_per_byte, r.operating.macs_per_cycle);
        QCOMPARE(read.ridge_macs_per_byte, 0.5);    // 4 MACs/cycle / 8 B/cycle
    }

    void invalidEvaluationHasNoFigures()
    {
        const Architecture a = oneBuffer(1.0, std::nullopt, std::nullopt);
        Mapping m = wholeNestAtBuffer();
        m.levels[1].temporal = {makeLoop(0, 8), makeLoop(1, 3)};  // P not covered
        const Roofline r = computeRoofline(a, evaluate(test::conv1d(16, 3), a, m));
        QVERIFY(!r.valid);
        QVERIFY(r.roofs.empty());
        QCOMPARE(r.boundBy(), std::string());
    }
};

QTEST_APPLESS_MAIN(TestRoofline)
#include "tst_roofline.moc"
