// Loop edits that keep every dimension covered (engine/mapping/MappingLoopEdits.h), on a
// 2-level GEMM M=8 N=4 K=2 whose expected factors are counted by hand:
//   DRAM   temporal [M 4] [N 2]
//   Buffer temporal [M 2] [N 2] [K 2]
#include "mapping/MappingLoopEdits.h"

#include "common/Error.h"

#include <QTest>

using namespace nestor;

namespace {

constexpr int kM = 0, kN = 1, kK = 2;

Mapping tiled()
{
    Mapping m;
    m.name = "tiled";
    m.levels.resize(2);
    m.levels[0].temporal = {makeLoop(kM, 4), makeLoop(kN, 2)};
    m.levels[1].temporal = {makeLoop(kM, 2), makeLoop(kN, 2), makeLoop(kK, 2)};
    return m;
}

std::int64_t covered(Mapping& m, int dim)
{
    std::vector<Loop> loops;
    for (const Loop* l : loopsOfDimension(m, dim)) loops.push_back(*l);
    return coveredSize(loops);
}

} // namespace

class TestMappingLoopEdits : public QObject {
    Q_OBJECT
private slots:
    void absorbKeepsTheDimensionCovered()
    {
        Mapping m = tiled();
        m.levels[1].temporal[0].bound = m.levels[1].temporal[0].residual = 4;  // Buffer M 2 -> 4
        QVERIFY(absorbIntoOutermost(m, kM, 8, &m.levels[1].temporal[0]));
        QCOMPARE(m.levels[0].temporal[0].bound, std::int64_t(2));  // DRAM M 4 -> 2: 2 x 4 = 8
        // 3 does not divide what is left of 8: nothing changes.
        m.levels[1].temporal[0].bound = m.levels[1].temporal[0].residual = 3;
        QVERIFY(!absorbIntoOutermost(m, kM, 8, &m.levels[1].temporal[0]));
        QCOMPARE(m.levels[0].temporal[0].bound, std::int64_t(2));
        // The edited loop is the outermost one: it is not overridden.
        QVERIFY(!absorbIntoOutermost(m, kM, 8, &m.levels[0].temporal[0]));
    }

    void relocateGoesInnermostAndSwitchesKind()
    {
        Mapping m = tiled();
        relocateLoop(m, 0, LoopKind::Temporal, 1, 1, LoopKind::Temporal);  // DRAM N to the Buffer
        QCOMPARE(m.levels[0].temporal.size(), std::size_t(1));
        QCOMPARE(m.levels[1].temporal.back(), makeLoop(kN, 2));
        QCOMPARE(covered(m, kN), std::int64_t(4));
        relocateLoop(m, 1, LoopKind::Temporal, 2, 1, LoopKind::SpatialX);  // Buffer K becomes spatial
        QCOMPARE(m.levels[1].spatialX, (std::vector<Loop>{makeLoop(kK, 2)}));
        QCOMPARE(m.levels[1].temporal.size(), std::size_t(3));
        QVERIFY_THROWS_EXCEPTION(NestorError, relocateLoop(m, 1, LoopKind::SpatialY, 0, 0, LoopKind::Temporal));
        QVERIFY_THROWS_EXCEPTION(NestorError, relocateLoop(m, 5, LoopKind::Temporal, 0, 0, LoopKind::Temporal));
    }

    void relocateToAPosition()
    {
        Mapping m = tiled();
        relocateLoop(m, 1, LoopKind::Temporal, 2, 1, LoopKind::Temporal, 0);  // Buffer K outermost
        QCOMPARE(m.levels[1].temporal, (std::vector<Loop>{makeLoop(kK, 2), makeLoop(kM, 2), makeLoop(kN, 2)}));
        relocateLoop(m, 1, LoopKind::Temporal, 0, 1, LoopKind::Temporal, 1);  // and back one place in
        QCOMPARE(m.levels[1].temporal, (std::vector<Loop>{makeLoop(kM, 2), makeLoop(kK, 2), makeLoop(kN, 2)}));
        relocateLoop(m, 1, LoopKind::Temporal, 1, 0, LoopKind::Temporal, 1);  // K between DRAM's M and N
        QCOMPARE(m.levels[0].temporal, (std::vector<Loop>{makeLoop(kM, 4), makeLoop(kK, 2), makeLoop(kN, 2)}));
        QCOMPARE(covered(m, kK), std::int64_t(2));
        // Past the end of the destination (3 DRAM loops: positions 0..3), or of its own list once
        // the loop has left it (2 Buffer loops: 0..1), is refused and changes nothing.
        const Mapping before = m;
        QVERIFY_THROWS_EXCEPTION(NestorError, relocateLoop(m, 1, LoopKind::Temporal, 0, 0, LoopKind::Temporal, 4));
        QVERIFY_THROWS_EXCEPTION(NestorError, relocateLoop(m, 1, LoopKind::Temporal, 0, 1, LoopKind::Temporal, 2));
        QVERIFY_THROWS_EXCEPTION(NestorError, relocateLoop(m, 1, LoopKind::Temporal, 0, 1, LoopKind::Temporal, -2));
        QCOMPARE(m, before);
    }

    void addAndErase()
    {
        Mapping m = tiled();
        appendLoop(m, 0, LoopKind::Temporal, kK);
        QCOMPARE(m.levels[0].temporal.back(), makeLoop(kK, 1));  // a no-op loop
        QCOMPARE(covered(m, kK), std::int64_t(2));
        // Erasing the Buffer's M 2: DRAM M 4 absorbs it and becomes 8.
        eraseLoop(m, 1, LoopKind::Temporal, 0, 8);
        QCOMPARE(m.levels[0].temporal[0], makeLoop(kM, 8));
        QCOMPARE(covered(m, kM), std::int64_t(8));
        // Erasing the DRAM's N 2: the Buffer's N 2, now outermost, becomes 4.
        eraseLoop(m, 0, LoopKind::Temporal, 1, 4);
        QCOMPARE(covered(m, kN), std::int64_t(4));
        QCOMPARE(m.levels[1].temporal[0], makeLoop(kN, 4));
    }

    void repairAfterTheLayerChanged()
    {
        Mapping m = tiled();
        // M 8 -> 16 (divisible: DRAM M 4 -> 8), N 4 -> 6 (3 x 2: DRAM N 2 -> 3),
        // K 2 -> 3 (only loop: 3). Nothing left uncovered.
        const Workload w = makeGemm("g", 16, 6, 3);
        const std::vector<int> changed = repairFactors(m, w);
        QCOMPARE(changed, (std::vector<int>{kM, kN, kK}));
        QCOMPARE(m.levels[0].temporal[0], makeLoop(kM, 8));
        QCOMPARE(m.levels[0].temporal[1], makeLoop(kN, 3));
        QCOMPARE(m.levels[1].temporal[2], makeLoop(kK, 3));
        for (int d : {kM, kN, kK}) QCOMPARE(covered(m, d), w.bounds[std::size_t(d)]);
        // M 16 -> 7: 7 - 2 is odd, the Buffer's M 2 cannot stay: DRAM M takes all 7.
        const Workload w7 = makeGemm("g", 7, 6, 3);
        QCOMPARE(repairFactors(m, w7), (std::vector<int>{kM}));
        QCOMPARE(m.levels[0].temporal[0], makeLoop(kM, 7));
        QCOMPARE(m.levels[1].temporal[0], makeLoop(kM, 1));
        QVERIFY(repairFactors(m, w7).empty());  // covered: nothing to do
        // A dimension of size 1 needs no loop at all.
        Mapping noK = tiled();
        noK.levels[1].temporal.pop_back();
        QVERIFY(repairFactors(noK, makeGemm("g", 8, 4, 1)).empty());
        QCOMPARE(repairFactors(noK, makeGemm("g", 8, 4, 5)), (std::vector<int>{kK}));
        QCOMPARE(noK.levels[0].temporal.back(), makeLoop(kK, 5));  // added at the outermost level
    }
};

QTEST_MAIN(TestMappingLoopEdits)
#include "tst_mapping_loop_edits.moc"
