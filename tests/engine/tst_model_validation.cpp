// The model's answers to impossible mappings, and Timeloop's pre-fix translation rule.
#include "support/TestWorkloads.h"
#include "io/ReferenceCase.h"
#include "model/Model.h"

#include <QtTest>

using namespace nestor;

namespace {

using test::conv1d;  // tests/support/TestWorkloads.h

Architecture twoLevels(std::int64_t bufferWords, std::int64_t macs)
{
    Architecture a;
    StorageLevel dram;
    dram.name = "DRAM";
    StorageLevel buf;
    buf.name = "Buffer";
    buf.size_words = bufferWords;
    buf.instances = 1;
    a.levels = {dram, buf};
    a.compute.instances = macs;
    a.compute.meshX = macs;
    return a;
}

bool mentions(const Evaluation& ev, const std::string& text)
{
    for (const auto& d : ev.errors)
        if (d.toString().find(text) != std::string::npos) return true;
    return false;
}

} // namespace

class TestModelValidation : public QObject {
    Q_OBJECT
private slots:
    void capacityOverflowIsReportedWithSizes()
    {
        // Buffer holds the whole layer: Weights 3 + Inputs 18 + Outputs 16 = 37 words > 20.
        Mapping m;
        m.levels.resize(2);
        m.levels[1].temporal = {makeLoop(0, 16), makeLoop(1, 3)};
        const Evaluation ev = evaluate(conv1d(16, 3), twoLevels(20, 1), m);
        QVERIFY(!ev.valid);
        QVERIFY2(mentions(ev, "capacity exceeded: tiles need 37 words (Weights 3 + Inputs 18 + Outputs 16) but Buffer holds 20"),
                 ev.errors.empty() ? "no error" : ev.errors.front().toString().c_str());
    }

    void fanoutOverflowNamesTheLevel()
    {
        Mapping m;
        m.levels.resize(2);
        m.levels[1].temporal = {makeLoop(1, 3)};
        m.levels[1].spatialX = {makeLoop(0, 16)};  // 16 MACs wanted, 4 exist
        const Evaluation ev = evaluate(conv1d(16, 3), twoLevels(64, 4), m);
        QVERIFY(!ev.valid);
        QVERIFY(mentions(ev, "mapping.levels[Buffer].spatial_x: spatial factors multiply to 16 but the fanout in X is 4"));
    }

    void factorsMustCoverTheBound()
    {
        Mapping m;
        m.levels.resize(2);
        m.levels[1].temporal = {makeLoop(0, 8), makeLoop(1, 3)};
        const Evaluation ev = evaluate(conv1d(16, 3), twoLevels(64, 1), m);
        QVERIFY(!ev.valid);
        QVERIFY(mentions(ev, "factors of P (8) cover 8 but the bound is 16"));
        // Imperfect factors cover 1 + sum (residual - 1) * inner bounds: P2 above P3,2 -> 1 + 1*3 + 1*1 = 5.
        Mapping imperfect;
        imperfect.levels.resize(2);
        imperfect.levels[0].temporal = {makeLoop(0, 2)};
        imperfect.levels[1].temporal = {makeLoop(0, 3, 2), makeLoop(1, 3)};
        QVERIFY(evaluate(conv1d(5, 3), twoLevels(64, 1), imperfect).valid);
    }

    void zeroAndNegativeSizesAreRejected()
    {
        Mapping m;
        m.levels.resize(2);
        Workload w = conv1d(16, 3);
        w.bounds[0] = 0;
        QVERIFY(mentions(evaluate(w, twoLevels(64, 1), m), "workload.dimensions.P: bound must be a positive integer (got 0)"));
        Architecture a = twoLevels(-4, 1);
        QVERIFY(mentions(evaluate(conv1d(16, 3), a, m), "architecture.levels[1].size_words: must not be negative"));
        a = twoLevels(64, 1);
        a.levels[1].block_size = 0;
        QVERIFY(mentions(evaluate(conv1d(16, 3), a, m), "architecture.levels[1].block_size: must be positive"));
    }

    void tensorBypassedEverywhereIsInvalid()
    {
        Mapping m;
        m.levels.resize(2);
        m.levels[0].temporal = {makeLoop(0, 16), makeLoop(1, 3)};
        m.levels[0].keep = {true, false, true};
        m.levels[1].keep = {true, false, true};
        QVERIFY(mentions(evaluate(conv1d(16, 3), twoLevels(64, 1), m), "tensor Inputs is bypassed at every level"));
    }

    // Timeloop before commit a12fff5 remembered a zero translation; with that rule the model must
    // print the recorded figure of the Eyeriss case (573440), and master's 475136 without it.
    void legacyTranslationRuleReproducesRecordedEyeriss()
    {
        const std::string path = std::string(NESTOR_TEST_DATA_DIR) + "/timeloop/cases/ispass20-tl+acc-eyeriss-int16.yaml";
        const ReferenceCase rc = readReferenceCase(path);
        const int dram = rc.architecture.levelIndex("DRAM");
        const int inputs = rc.workload.tensorIndex("Inputs");
        ModelOptions legacy;
        legacy.legacyZeroTranslationRule = true;
        QCOMPARE(evaluate(rc.workload, rc.architecture, rc.mapping, legacy).levels[dram].tensors[inputs].reads, std::int64_t(573440));
        QCOMPARE(evaluate(rc.workload, rc.architecture, rc.mapping).levels[dram].tensors[inputs].reads, std::int64_t(475136));
    }
};

QTEST_APPLESS_MAIN(TestModelValidation)
#include "tst_model_validation.moc"
