// Field paths of diagnostics split into the level, loop, dimension and tensor they name
// (engine/common/FieldPath.h), on the path forms the engine writes and on real diagnostics.
#include "support/TestWorkloads.h"
#include "common/Error.h"
#include "common/FieldPath.h"
#include "model/Model.h"

#include <QtTest>

using namespace nestor;

class TestFieldPath : public QObject {
    Q_OBJECT
private slots:
    void splitsNamesAndKeys()
    {
        const auto parts = splitFieldPath("mapping.levels[L1.5].temporal[2]");
        QCOMPARE(parts.size(), std::size_t(3));
        QCOMPARE(parts[0].name, std::string("mapping"));
        QVERIFY(!parts[0].key);
        QCOMPARE(parts[1].name, std::string("levels"));
        QCOMPARE(*parts[1].key, std::string("L1.5"));  // a key may hold dots
        QCOMPARE(parts[2].name, std::string("temporal"));
        QCOMPARE(*parts[2].key, std::string("2"));
        QVERIFY(splitFieldPath("").empty());
    }

    void malformedPathsAreErrors()
    {
        QVERIFY_THROWS_EXCEPTION(NestorError, splitFieldPath("mapping.levels[GLB"));
        QVERIFY_THROWS_EXCEPTION(NestorError, splitFieldPath("mapping..levels"));
        QVERIFY_THROWS_EXCEPTION(NestorError, splitFieldPath("mapping.levels[GLB]x"));
        QVERIFY_THROWS_EXCEPTION(NestorError, splitFieldPath("mapping."));
    }

    void locatesLevelsAndLoops()
    {
        const FieldLocation loop = locateField("mapping.levels[GLB].spatial_x[1]");
        QCOMPARE(loop.section, std::string("mapping"));
        QCOMPARE(*loop.level, std::string("GLB"));
        QCOMPARE(*loop.loopKind, std::string("spatial_x"));
        QCOMPARE(*loop.loopIndex, 1);
        QVERIFY(loop.namesLevel(1, "GLB"));
        QVERIFY(!loop.namesLevel(1, "GLB2"));

        const FieldLocation fanout = locateField("mapping.levels[GLB].spatial_y");
        QCOMPARE(*fanout.loopKind, std::string("spatial_y"));
        QVERIFY(!fanout.loopIndex);

        const FieldLocation byIndex = locateField("architecture.levels[2].size_words");
        QCOMPARE(byIndex.section, std::string("architecture"));
        QVERIFY(byIndex.namesLevel(2, "PE"));
        QVERIFY(!byIndex.namesLevel(12, "PE"));  // not a substring match: levels[2] is not levels[12]
        QVERIFY(!byIndex.loopKind);

        QVERIFY(!locateField("mapping").level);
        QVERIFY(!locateField("architecture.levels").level);
    }

    void locatesDimensionsAndTensors()
    {
        QCOMPARE(*locateField("workload.dimensions.P").dimension, std::string("P"));
        QCOMPARE(*locateField("workload.dimensions[3]").dimension, std::string("3"));
        QCOMPARE(*locateField("mapping.factors.C").dimension, std::string("C"));
        QVERIFY(!locateField("workload.dimensions").dimension);
        QCOMPARE(*locateField("workload.tensors.Inputs").tensor, std::string("Inputs"));
        const FieldLocation rank = locateField("workload.tensors[1].ranks[0]");
        QCOMPARE(*rank.tensor, std::string("1"));
        QVERIFY(!rank.dimension && !rank.level);
    }

    // The paths the model writes name the level they are about.
    void realDiagnosticsNameTheirLevel()
    {
        Architecture a;
        StorageLevel dram, buffer;
        dram.name = "DRAM";
        buffer.name = "Buffer";
        buffer.size_words = 64;
        a.levels = {dram, buffer};
        a.compute.instances = 4;
        a.compute.meshX = 4;
        Mapping m;
        m.levels.resize(2);
        m.levels[1].temporal = {makeLoop(1, 3)};
        m.levels[1].spatialX = {makeLoop(0, 16)};  // 16 MACs wanted, 4 exist
        const Evaluation e = evaluate(test::conv1d(16, 3), a, m);
        QVERIFY(!e.valid);
        bool found = false;
        for (const Diagnostic& d : e.errors) {
            const FieldLocation loc = locateField(d.field);
            if (loc.loopKind == std::optional<std::string>("spatial_x")) {
                QVERIFY(loc.namesLevel(1, "Buffer"));
                found = true;
            }
        }
        QVERIFY(found);
    }
};

QTEST_APPLESS_MAIN(TestFieldPath)
#include "tst_field_path.moc"
