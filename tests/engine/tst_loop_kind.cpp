// The one encoding of "loop kind" (mapping/Mapping.h): the checked conversion from an int
// (as stored in a Qt item role) and the loop list each kind names.
#include "mapping/Mapping.h"
#include "model/NestLayout.h"
#include "workload/Workload.h"

#include <QtTest>

using namespace nestor;

class TestLoopKind : public QObject {
    Q_OBJECT
private slots:
    void fromIntAcceptsExactlyTheThreeKinds()
    {
        QCOMPARE(loopKindFromInt(0), std::optional(LoopKind::Temporal));
        QCOMPARE(loopKindFromInt(1), std::optional(LoopKind::SpatialX));
        QCOMPARE(loopKindFromInt(2), std::optional(LoopKind::SpatialY));
        QVERIFY(!loopKindFromInt(-1));
        QVERIFY(!loopKindFromInt(3));
        QVERIFY(!loopKindFromInt(255));
    }

    void loopsNamesTheLevelsList()
    {
        LevelMapping lm;
        lm.temporal = {makeLoop(0, 2)};
        lm.spatialX = {makeLoop(1, 3), makeLoop(2, 5)};
        lm.spatialY = {makeLoop(0, 7)};
        QCOMPARE(&lm.loops(LoopKind::Temporal), &lm.temporal);
        QCOMPARE(&lm.loops(LoopKind::SpatialX), &lm.spatialX);
        QCOMPARE(&lm.loops(LoopKind::SpatialY), &lm.spatialY);
        const LevelMapping& view = lm;
        QCOMPARE(view.loops(LoopKind::SpatialX).size(), std::size_t(2));
        QCOMPARE(view.loops(LoopKind::SpatialY).front().bound, std::int64_t(7));
    }

    void flattenedNestKeepsEachLoopsKind()
    {
        // One level, temporal [d0 2], X [d1 3], Y [d0 7]: flattened temporal, then Y, then X.
        Workload w;
        w.name = "w";
        w.dimNames = {"A", "B"};
        w.bounds = {14, 3};
        Mapping m;
        m.levels.resize(1);
        m.levels[0].temporal = {makeLoop(0, 2)};
        m.levels[0].spatialX = {makeLoop(1, 3)};
        m.levels[0].spatialY = {makeLoop(0, 7)};
        const model::NestLayout nest = model::buildNestLayout(w, m);
        QCOMPARE(nest.loops.size(), std::size_t(3));
        QCOMPARE(nest.loops[0].kind, LoopKind::Temporal);
        QCOMPARE(nest.loops[1].kind, LoopKind::SpatialY);
        QCOMPARE(nest.loops[2].kind, LoopKind::SpatialX);
        QCOMPARE(nest.loops[1].bound, std::int64_t(7));
    }
};

QTEST_APPLESS_MAIN(TestLoopKind)
#include "tst_loop_kind.moc"
