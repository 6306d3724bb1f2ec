// Timeloop reference cases: every file parses; values spot-checked by hand against the
// files; located errors; and the field-by-field checker on hand-built evaluations.
#include "support/TextEdits.h"
#include "common/Error.h"
#include "common/TextFile.h"
#include "io/ReferenceCase.h"
#include "io/ReferenceCheck.h"
#include "io/YamlUtil.h"

#include <QtTest/QtTest>

#include <QDir>

#include <regex>

#ifndef NESTOR_TEST_DATA_DIR
#error "NESTOR_TEST_DATA_DIR must name tests/data"
#endif

using namespace nestor;
using test::positionOf;
using test::replaced;

namespace {

QString casesDir() { return QString::fromUtf8(NESTOR_TEST_DATA_DIR) + QStringLiteral("/timeloop/cases"); }
std::string casePath(const char* name) { return (casesDir() + "/" + name + ".yaml").toStdString(); }



// An Evaluation that reports exactly the figures of the case (exact_counts where given):
// per-instance counts uniform over the utilized instances.
Evaluation evaluationFromCase(const ReferenceCase& rc, bool useExact)
{
    const RefFigures& e = rc.expected;
    const RefFigures* x = useExact && rc.exact ? &*rc.exact : nullptr;
    auto pickI = [](const std::optional<std::int64_t>& a, const std::optional<std::int64_t>& b) { return a ? *a : b.value_or(0); };
    auto pickD = [](const std::optional<double>& a, const std::optional<double>& b) { return a ? *a : b.value_or(0.0); };
    Evaluation ev;
    ev.valid = true;
    const RefSummary none;
    const RefSummary& xs = x ? x->summary : none;
    ev.cycles = pickI(xs.cycles, e.summary.cycles);
    ev.macs = pickI(xs.computes, e.summary.computes);
    ev.utilization = pickD(xs.utilization, e.summary.utilization);
    ev.energy_pJ = pickD(xs.energy_total_pJ, e.summary.energy_total_pJ);
    for (const auto& t : rc.workload.tensors) ev.tensorNames.push_back(t.name);
    const RefLevelFigures noLevel;
    for (const auto& l : rc.architecture.levels) {
        LevelStats ls;
        ls.name = l.name;
        ls.tensors.resize(rc.workload.tensors.size());
        const RefLevelFigures* le = e.findLevel(l.name);
        const RefLevelFigures* lx = x ? x->findLevel(l.name) : nullptr;
        if (le || lx) {
            const RefLevelFigures& a = lx ? *lx : noLevel;
            const RefLevelFigures& b = le ? *le : noLevel;
            ls.cycles = pickI(a.cycles, b.cycles);
            ls.leakage_energy_pJ = pickD(a.leakage_energy_total_pJ, b.leakage_energy_total_pJ);
            for (int t = 0; t < rc.workload.numTensors(); ++t) {
                const RefTensorFigures* te = b.findTensor(rc.workload.tensors[t].name);
                const RefTensorFigures* tx = a.findTensor(rc.workload.tensors[t].name);
                if (!te && !tx) continue;
                const RefTensorFigures noT;
                const RefTensorFigures& p = tx ? *tx : noT;
                const RefTensorFigures& q = te ? *te : noT;
                TensorLevelStats& s = ls.tensors[t];
                s.kept = true;
                s.utilized_capacity = pickI(p.utilized_capacity, q.utilized_capacity);
                s.utilized_instances = pickI(p.utilized_instances, q.utilized_instances);
                auto count = [&](const RefCount& cx, const RefCount& ce, std::int64_t& total, std::int64_t& mn,
                                 std::int64_t& mx) {
                    const RefCount& c = cx.empty() ? ce : cx;
                    const std::int64_t per = c.perInstance.value_or(0);
                    mn = mx = per;
                    total = c.total ? *c.total : per * s.utilized_instances;
                };
                count(p.reads, q.reads, s.reads, s.reads_min, s.reads_max);
                count(p.fills, q.fills, s.fills, s.fills_min, s.fills_max);
                count(p.updates, q.updates, s.updates, s.updates_min, s.updates_max);
                s.energy_pJ = pickD(p.energy_total_pJ, q.energy_total_pJ);
            }
        }
        ev.levels.push_back(ls);
    }
    const RefLevelFigures* ce = e.findLevel(rc.architecture.compute.name);
    const RefLevelFigures* cx = x ? x->findLevel(rc.architecture.compute.name) : nullptr;
    ev.compute_energy_pJ = pickD(cx ? cx->energy_total_pJ : std::nullopt, ce ? ce->energy_total_pJ : std::nullopt);
    return ev;
}

QString failedRows(const CheckResult& r)
{
    QString s;
    for (const auto& row : r.rows)
        if (!row.pass)
            s += QString::fromStdString("\n  " + row.field + ": expected " + row.expected + ", got " + row.got);
    return s;
}

const CheckRow* findRow(const CheckResult& r, const std::string& field)
{
    for (const auto& row : r.rows)
        if (row.field == field) return &row;
    return nullptr;
}

} // namespace

class TestReferenceCase : public QObject {
    Q_OBJECT
private slots:
    void everyCaseParses_data();
    void everyCaseParses();
    void spotCheckSpatialCase();
    void spotCheckEyeriss();
    void spotCheckStrideAndLargeCounts();
    void spotCheckBypass();
    void errors_data();
    void errors();
    void missingLeakIsZero();
    void checkerPassesOnCaseFigures();
    void checkerFlagsDifferences();
    void checkerUsesExactCounts();
    void checkerRangesAndTotals();
    void checkerInvalidMapping();
    void tolerances();
    void truncatedCasesAreRejected_data();
    void truncatedCasesAreRejected();
    void missingSectionsAndFiguresAreLocated();
};

void TestReferenceCase::everyCaseParses_data()
{
    QTest::addColumn<QString>("file");
    const QDir dir(casesDir());
    const QStringList files = dir.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
    QVERIFY2(!files.isEmpty(), qPrintable(casesDir()));
    for (const QString& f : files) QTest::newRow(qPrintable(f)) << dir.filePath(f);
}

void TestReferenceCase::everyCaseParses()
{
    QFETCH(QString, file);
    ReferenceCase rc;
    try {
        rc = readReferenceCase(file.toStdString());
    } catch (const NestorError& e) {
        QFAIL(e.what());
    }
    QVERIFY(!rc.name.empty());
    QVERIFY(rc.workload.validate().empty());
    QVERIFY(rc.architecture.validate().empty());
    QCOMPARE(rc.mapping.levels.size(), rc.architecture.levels.size());
    QVERIFY(rc.expected.summary.cycles.has_value());
    QVERIFY(rc.expected.summary.energy_total_pJ.has_value());
    // The file's own tensor sizes and MAC count agree with the converted workload.
    QCOMPARE(rc.totalMacs.value_or(-1), rc.workload.macs());
    for (int t = 0; t < rc.workload.numTensors(); ++t)
        QCOMPARE(rc.tensorSizes[t].value_or(-1), rc.workload.tensorSize(t));
}

void TestReferenceCase::spotCheckSpatialCase()
{
    const ReferenceCase rc = readReferenceCase(casePath("ispass20-04-conv1d-oc-ic-spatial-kp"));
    QCOMPARE(rc.name, std::string("ispass20-04-conv1d-oc-ic-spatial-kp"));
    QCOMPARE(rc.notes.size(), std::size_t(4));
    const Workload& w = rc.workload;
    QCOMPARE(w.dimNames, (std::vector<std::string>{"C", "K", "R", "P"}));
    QCOMPARE(w.bounds, (std::vector<std::int64_t>{32, 32, 3, 16}));
    QCOMPARE(w.tensors[1].name, std::string("Inputs"));
    QCOMPARE(w.tensors[1].ranks.size(), std::size_t(2));           // [C, R + P]
    QCOMPARE(w.tensors[1].ranks[1].size(), std::size_t(2));
    QCOMPARE(w.tensors[1].ranks[1][0].dim, 2);                     // R
    QCOMPARE(w.tensors[1].ranks[1][1].dim, 3);                     // P
    QVERIFY(w.tensors[2].readWrite);

    const Architecture& a = rc.architecture;
    QCOMPARE(a.levels.size(), std::size_t(4));  // MainMemory, inter_PE_spatial (dummy), GlobalBuffer, RegisterFile
    QCOMPARE(a.levels[0].name, std::string("MainMemory"));
    QCOMPARE(a.levels[0].block_size, 32);
    QVERIFY(!a.levels[0].size_words);  // size_words: null
    QCOMPARE(a.levels[0].energy.read_pJ, 2048.0);
    QCOMPARE(a.levels[0].energy.fill_pJ, 2048.0);  // from "write"
    QCOMPARE(a.levels[1].technology, std::string("dummy"));
    QCOMPARE(*a.levels[1].size_words, std::int64_t(0));
    QCOMPARE(a.levels[1].instances, std::int64_t(1));
    QCOMPARE(a.levels[2].name, std::string("GlobalBuffer"));
    QCOMPARE(a.levels[2].energy.read_pJ, 43.353054);
    QCOMPARE(a.levels[2].energy.fill_pJ, 30.878292);
    QCOMPARE(a.levels[2].energy.update_pJ, 30.878292);
    QCOMPARE(a.levels[2].energy.leak_pJ, 0.007972);
    QCOMPARE(*a.levels[2].size_words, std::int64_t(262144));
    QCOMPARE(a.levels[2].instances, std::int64_t(16));
    QCOMPARE(a.levels[2].meshX, std::int64_t(16));
    QVERIFY(!a.levels[2].read_bw_words_per_cycle);
    QCOMPARE(a.levels[3].energy.read_pJ, 0.42564);
    QCOMPARE(a.compute.name, std::string("MACC"));
    QCOMPARE(a.compute.instances, std::int64_t(16));
    QCOMPARE(a.compute.mac_energy_pJ, 0.845);
    QCOMPARE(a.cycle_seconds, 1.0e-9);

    const Mapping& m = rc.mapping;
    QVERIFY(m.levels[0].temporal.empty());
    QCOMPARE(m.levels[1].spatialX.size(), std::size_t(1));
    QCOMPARE(m.levels[1].spatialX[0].dim, 1);  // K
    QCOMPARE(m.levels[1].spatialX[0].bound, std::int64_t(16));
    QCOMPARE(m.levels[1].keep, (std::vector<bool>{false, false, false}));
    QCOMPARE(m.levels[2].temporal.size(), std::size_t(3));  // C32 K2 R3, outermost first
    QCOMPARE(m.levels[2].temporal[0].dim, 0);
    QCOMPARE(m.levels[2].temporal[0].bound, std::int64_t(32));
    QCOMPARE(m.levels[2].temporal[2].dim, 2);
    QCOMPARE(m.levels[2].temporal[2].residual, std::int64_t(3));
    QCOMPARE(m.levels[3].temporal[0].bound, std::int64_t(16));

    const RefFigures& f = rc.expected;
    QCOMPARE(*f.summary.cycles, std::int64_t(3072));
    QCOMPARE(*f.summary.computes, std::int64_t(49152));
    QCOMPARE(*f.summary.utilization, 1.0);
    QCOMPARE(*f.summary.energy_total_pJ, 720795.88);
    const RefLevelFigures* rf = f.findLevel("RegisterFile");
    QVERIFY(rf && !rf->isCompute);
    QCOMPARE(*rf->leakage_energy_total_pJ, 42.32);
    QCOMPARE(*rf->findTensor("Inputs")->fills.perInstance, std::int64_t(1152));
    QCOMPARE(*rf->findTensor("Outputs")->fills.perInstance, std::int64_t(992));
    QCOMPARE(*rf->findTensor("Outputs")->reads.perInstance, std::int64_t(3040));
    QCOMPARE(*rf->findTensor("Outputs")->utilized_capacity, std::int64_t(16));
    QCOMPARE(*f.findLevel("MainMemory")->findTensor("Inputs")->reads.perInstance, std::int64_t(576));
    const RefLevelFigures* mac = f.findLevel("MACC");
    QVERIFY(mac && mac->isCompute);
    QCOMPARE(*mac->computes_total, std::int64_t(49152));
    QCOMPARE(*mac->energy_total_pJ, 41533.44);
    QVERIFY(!f.findLevel("inter_PE_spatial"));
    QVERIFY(!rc.exact);
}

void TestReferenceCase::spotCheckEyeriss()
{
    const ReferenceCase rc = readReferenceCase(casePath("ispass20-tl+acc-eyeriss-int16"));
    const Architecture& a = rc.architecture;
    QCOMPARE(a.levels.size(), std::size_t(7));
    // inter_PE_column_spatial: 1 instance; inter_PE_spatial: 14 instances, no mesh given,
    // the level below has mesh X 14 (a multiple of 14) -> mesh X = 14.
    QCOMPARE(a.levels[2].name, std::string("inter_PE_column_spatial"));
    QCOMPARE(a.levels[2].meshX, std::int64_t(1));
    QCOMPARE(a.levels[3].instances, std::int64_t(14));
    QCOMPARE(a.levels[3].meshX, std::int64_t(14));
    QCOMPARE(a.levels[4].meshX, std::int64_t(14));  // ifmap_spad mesh [14, 12]
    QCOMPARE(a.levels[4].meshY(), std::int64_t(12));
    QCOMPARE(*a.levels[1].read_bw_words_per_cycle, 16.0);
    QCOMPARE(*a.levels[1].write_bw_words_per_cycle, 16.0);
    QCOMPARE(a.levels[6].block_size, 1);
    QCOMPARE(a.levels[6].word_bits, 16);
    QCOMPARE(a.compute.mac_energy_pJ, 0.315);
    QCOMPARE(a.compute.meshX, std::int64_t(14));
    // shared_glb keeps Inputs and Outputs only.
    QCOMPARE(rc.mapping.levels[1].keep, (std::vector<bool>{false, true, true}));
    QCOMPARE(rc.mapping.levels[3].spatialY.size(), std::size_t(2));  // [M, 4], [S, 3]
    QCOMPARE(rc.mapping.levels[3].spatialY[1].bound, std::int64_t(3));

    QVERIFY(rc.exact);
    QCOMPARE(rc.changedVsExpected.size(), std::size_t(7));
    QCOMPARE(*rc.exact->summary.energy_total_pJ, 3744983639.61);
    const RefTensorFigures* dramInputs = rc.exact->findLevel("DRAM")->findTensor("Inputs");
    QCOMPARE(*dramInputs->reads.perInstance, std::int64_t(475136));
    QCOMPARE(*dramInputs->reads.total, std::int64_t(475136));
    QCOMPARE(*dramInputs->utilized_instances, std::int64_t(1));  // instances_used
    QCOMPARE(*rc.expected.findLevel("DRAM")->findTensor("Inputs")->reads.perInstance, std::int64_t(573440));
    QCOMPARE(*rc.exact->findLevel("psum_spad")->findTensor("Outputs")->reads.total, std::int64_t(922435584));
}

void TestReferenceCase::spotCheckStrideAndLargeCounts()
{
    const ReferenceCase s2 = readReferenceCase(casePath("example-simple-ws-conv-s2"));
    const Tensor& in = s2.workload.tensors[1];
    QCOMPARE(in.ranks[2].size(), std::size_t(2));  // R + 2*P
    QCOMPARE(s2.workload.dimNames[in.ranks[2][1].dim], std::string("P"));
    QCOMPARE(in.ranks[2][1].coef, std::int64_t(2));
    QCOMPARE(s2.workload.tensorSize(1), std::int64_t(151875));
    QCOMPARE(*s2.expected.summary.utilization, 0.046875);  // utilization_exact preferred
    QCOMPARE(s2.architecture.levels[3].meshX, std::int64_t(16));
    QCOMPARE(s2.architecture.levels[4].energy.fill_pJ, 0.0);

    const ReferenceCase big = readReferenceCase(casePath("tutorial24-dse-conv1x1"));
    QCOMPARE(big.workload.macs(), std::int64_t(8589934592));
    QCOMPARE(*big.expected.summary.cycles, std::int64_t(1073741824));
    QCOMPARE(big.workload.name, std::string("tutorial24-dse-conv1x1"));  // empty name -> case name
    QCOMPARE(big.architecture.compute.meshX, std::int64_t(8));
}

void TestReferenceCase::spotCheckBypass()
{
    const ReferenceCase rc = readReferenceCase(casePath("ispass20-03-conv1d-oc-3level-bypass"));
    const RefLevelFigures* glb = rc.expected.findLevel("GlobalBuffer");
    QVERIFY(glb);
    QVERIFY(!glb->findTensor("Outputs"));  // bypassed: no stats in the case
    QVERIFY(!rc.mapping.keeps(1, 2));
    QVERIFY(rc.mapping.keeps(1, 0));
}

void TestReferenceCase::errors_data()
{
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    const std::string base = readTextFile(casePath("ispass20-00-conv1d-1level"));
    auto row = [](const char* name, const std::string& y, const char* msg, const char* field, std::pair<int, int> pos) {
        QTest::newRow(name) << QString::fromStdString(y) << QString::fromUtf8(msg) << QString::fromUtf8(field)
                            << pos.first << pos.second;
    };
    std::string y;
    const std::string ert = "{update: 0.42564, read: 0.42564, write: 0.42564, leak: 0.000861}";
    y = replaced(base, ert, "{update: 0.42564, write: 0.42564, leak: 0.000861}");
    row("missing ERT read", y, "no ERT entry for 'read'", "architecture.levels[0].ert_pJ.read", positionOf(y, "{update: 0.42564, write"));
    y = replaced(base, ert, "{read: 0.42564, leak: 0.000861}");
    row("missing ERT fill", y, "no ERT entry for 'fill' (looked for random_fill, random_write, fill, write)",
        "architecture.levels[0].ert_pJ.fill", positionOf(y, "{read: 0.42564, leak"));
    y = replaced(base, "ert_pJ: {compute: 0.845}", "ert_pJ: {energy: 0.845}");
    row("missing compute ERT", y, "no ERT entry for 'compute'", "architecture.levels[1].ert_pJ.compute", positionOf(y, "{energy"));
    y = replaced(base, "temporal: [[P, 16], [R, 3]]", "temporal: [[P, 16], [Z, 3]]");
    row("unknown mapping dimension", y, "unknown dimension 'Z'", "mapping.levels[0].temporal[1][0]", positionOf(y, "Z, 3"));
    y = replaced(base, "  - level: Buffer", "  - level: Bufer");
    row("unknown mapping level", y, "unknown level 'Bufer'", "mapping.levels[0].level", positionOf(y, "Bufer"));
    y = replaced(base, "    keep: [Weights, Inputs, Outputs]", "    keep: [Weights, Input, Outputs]");
    row("unknown keep tensor", y, "unknown data space 'Input'", "mapping.levels[0].keep[1]", positionOf(y, "Input,"));
    y = replaced(base, "    size_words: 64", "    size_words: 0");
    row("zero size", y, "must be a positive integer", "architecture.levels[0].size_words", positionOf(y, "0\n    word_bits"));
    y = replaced(base, "  dimensions: {R: 3, P: 16}", "  dimensions: {R: 3, P: -16}");
    row("negative dimension", y, "must be a positive integer", "workload.dimensions.P", positionOf(y, "-16"));
    y = replaced(base, "    ranks: [R + P]", "    ranks: [R + Q]");
    row("unknown rank dimension", y, "unknown dimension 'Q'", "workload.data_spaces[1].ranks[0]", positionOf(y, "R + Q"));
    y = replaced(base, "    block_size: 1", "    block_size: one");
    row("wrong type", y, "expected an integer, got 'one'", "architecture.levels[0].block_size", positionOf(y, "one\n"));
    y = replaced(base, "    read_write: true", "    read_write: maybe");
    row("wrong bool", y, "expected true or false", "workload.data_spaces[2].read_write", positionOf(y, "maybe"));
    y = replaced(base, "    mesh: [1, 1]", "    mesh: [2, 1]");
    row("mesh mismatch", y, "does not match instances", "architecture.levels[0].mesh", positionOf(y, "[2, 1]"));
    y = replaced(base, "        Weights:\n          partition_size", "        Weightz:\n          partition_size");
    row("unknown expected tensor", y, "unknown data space 'Weightz'", "expected.levels.Buffer.data_spaces.Weightz",
        positionOf(y, "Weightz"));
    y = replaced(base, "  dimensions: {R: 3, P: 16}", "  dimensions: {R: 3, P: 16");
    // yaml-cpp notices the unclosed flow map at the ':' of the next line ("  data_spaces:", line 25).
    row("malformed YAML", y, "end of map flow not found", "", {25, 14});
}

void TestReferenceCase::errors()
{
    QFETCH(QString, yaml);
    QFETCH(QString, message);
    QFETCH(QString, field);
    QFETCH(int, line);
    QFETCH(int, column);
    try {
        parseReferenceCase(yaml.toStdString(), "case.yaml");
        QFAIL("no error");
    } catch (const NestorError& e) {
        const Diagnostic& d = e.diagnostics().front();
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.contains(message), qPrintable(what));
        QCOMPARE(QString::fromStdString(d.field), field);
        QVERIFY2(d.location.line == line && d.location.column == column,
                 qPrintable(QStringLiteral("got %1:%2, expected %3:%4 (%5)")
                                .arg(d.location.line)
                                .arg(d.location.column)
                                .arg(line)
                                .arg(column)
                                .arg(what)));
        QVERIFY2(what.startsWith(QStringLiteral("case.yaml:%1:%2: ").arg(line).arg(column)), qPrintable(what));
    }
}

void TestReferenceCase::missingLeakIsZero()
{
    const std::string base = readTextFile(casePath("ispass20-00-conv1d-1level"));
    const ReferenceCase rc = parseReferenceCase(
        replaced(base, "write: 0.42564, leak: 0.000861}", "write: 0.42564}"), "case.yaml");
    QCOMPARE(rc.architecture.levels[0].energy.leak_pJ, 0.0);
    // random_* names take priority over the plain ones.
    const ReferenceCase r2 = parseReferenceCase(
        replaced(base, "{update: 0.42564, read: 0.42564, write: 0.42564, leak: 0.000861}",
                 "{update: 3, read: 1, write: 2, random_read: 7, random_write: 8}"),
        "case.yaml");
    QCOMPARE(r2.architecture.levels[0].energy.read_pJ, 7.0);
    QCOMPARE(r2.architecture.levels[0].energy.fill_pJ, 8.0);    // random_write before fill/write
    QCOMPARE(r2.architecture.levels[0].energy.update_pJ, 8.0);  // random_write before update
}

void TestReferenceCase::checkerPassesOnCaseFigures()
{
    const QDir dir(casesDir());
    for (const QString& f : dir.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
        const ReferenceCase rc = readReferenceCase(dir.filePath(f).toStdString());
        const CheckResult r = checkReference(rc, evaluationFromCase(rc, true));
        QVERIFY2(r.pass, qPrintable(f + failedRows(r)));
        QVERIFY(r.mappingValid);
        QVERIFY(r.rows.size() > 20);
    }
}

void TestReferenceCase::checkerFlagsDifferences()
{
    const ReferenceCase rc = readReferenceCase(casePath("ispass20-04-conv1d-oc-ic-spatial-kp"));
    Evaluation ev = evaluationFromCase(rc, true);
    // RegisterFile (index 3) Inputs: one instance reads one word more.
    TensorLevelStats& in = ev.levels[3].tensors[1];
    in.reads_max += 1;
    in.reads += 1;
    ev.levels[2].tensors[0].energy_pJ += 0.05;   // GlobalBuffer Weights (28504.84 pJ): beyond 1e-6 relative
    ev.levels[2].tensors[1].energy_pJ += 0.009;  // GlobalBuffer Inputs: within 0.01 pJ
    ev.cycles += 1;
    ev.utilization -= 0.0002;
    ev.levels[0].tensors[2].kept = false;        // MainMemory Outputs bypassed
    ev.levels[1].tensors[0].kept = true;         // the dummy level suddenly keeps Weights: not checked there
    ev.levels[2].tensors[0].utilized_capacity = 191;
    const CheckResult r = checkReference(rc, ev);
    QVERIFY(!r.pass);
    QCOMPARE(r.failures(), 6);
    QVERIFY(!findRow(r, "RegisterFile/Inputs/reads_per_instance")->pass);
    QCOMPARE(findRow(r, "RegisterFile/Inputs/reads_per_instance")->got, std::string("[3072, 3073] (total 49153)"));
    QVERIFY(!findRow(r, "GlobalBuffer/Weights/energy_total_pJ")->pass);
    QVERIFY(findRow(r, "GlobalBuffer/Inputs/energy_total_pJ")->pass);
    QVERIFY(!findRow(r, "summary/cycles")->pass);
    QVERIFY(!findRow(r, "summary/utilization")->pass);
    QVERIFY(!findRow(r, "MainMemory/Outputs/kept")->pass);
    QVERIFY(!findRow(r, "GlobalBuffer/Weights/utilized_capacity")->pass);
    QCOMPARE(findRow(r, "summary/cycles")->source, std::string("expected"));

    // A storage level that keeps a tensor the case lists no stats for.
    Evaluation ev2 = evaluationFromCase(rc, true);
    const ReferenceCase byp = readReferenceCase(casePath("ispass20-03-conv1d-oc-3level-bypass"));
    Evaluation ev3 = evaluationFromCase(byp, true);
    ev3.levels[1].tensors[2].kept = true;  // GlobalBuffer Outputs, bypassed in the case
    const CheckResult r3 = checkReference(byp, ev3);
    QCOMPARE(r3.failures(), 1);
    QCOMPARE(findRow(r3, "GlobalBuffer/Outputs/kept")->expected, std::string("no"));
    QVERIFY(checkReference(rc, ev2).pass);
}

void TestReferenceCase::checkerUsesExactCounts()
{
    const ReferenceCase rc = readReferenceCase(casePath("ispass20-tl+acc-eyeriss-int16"));
    // Figures as Timeloop printed them fail where exact_counts differ ...
    const CheckResult printed = checkReference(rc, evaluationFromCase(rc, false));
    QVERIFY(!printed.pass);
    QVERIFY(!findRow(printed, "DRAM/Inputs/reads_per_instance")->pass);
    QVERIFY(!findRow(printed, "DRAM/Inputs/reads_total")->pass);
    QVERIFY(!findRow(printed, "shared_glb/Inputs/fills_per_instance")->pass);
    QVERIFY(!findRow(printed, "summary/energy_total_pJ")->pass);
    QCOMPARE(findRow(printed, "DRAM/Inputs/reads_per_instance")->source, std::string("exact_counts"));
    QCOMPARE(findRow(printed, "DRAM/Inputs/reads_per_instance")->expected, std::string("475136"));
    // ... exact figures pass; fields exact_counts does not give come from expected.
    const CheckResult exact = checkReference(rc, evaluationFromCase(rc, true));
    QVERIFY2(exact.pass, qPrintable(failedRows(exact)));
    QCOMPARE(findRow(exact, "DRAM/Inputs/utilized_capacity")->source, std::string("expected"));
    QCOMPARE(findRow(exact, "psum_spad/Outputs/updates_total")->source, std::string("exact_counts"));
}

void TestReferenceCase::checkerRangesAndTotals()
{
    ReferenceCase rc = readReferenceCase(casePath("ispass20-tl+acc-eyeriss-int16"));
    Evaluation ev = evaluationFromCase(rc, true);
    // A [min, max] range in exact_counts.
    RefTensorFigures* t = nullptr;
    for (auto& l : rc.exact->levels)
        if (l.level == "psum_spad") t = &l.tensors[0];
    QVERIFY(t);
    t->fills.perInstance.reset();
    t->fills.perInstanceRange = std::make_pair(std::int64_t(100), std::int64_t(215040));
    TensorLevelStats& s = ev.levels[6].tensors[2];
    QCOMPARE(ev.levels[6].name, std::string("psum_spad"));
    s.fills_min = 100;
    QVERIFY(checkReference(rc, ev).pass);
    s.fills_min = 101;
    const CheckResult r = checkReference(rc, ev);
    QCOMPARE(r.failures(), 1);
    QCOMPARE(findRow(r, "psum_spad/Outputs/fills_per_instance_range")->expected, std::string("[100, 215040]"));

    // Without per-instance extremes, a per-instance figure is compared through the total.
    const ReferenceCase kp = readReferenceCase(casePath("ispass20-04-conv1d-oc-ic-spatial-kp"));
    Evaluation ev2 = evaluationFromCase(kp, true);
    for (auto& l : ev2.levels)
        for (auto& x : l.tensors) x.reads_min = x.reads_max = x.fills_min = x.fills_max = x.updates_min = x.updates_max = 0;
    QVERIFY2(checkReference(kp, ev2).pass, qPrintable(failedRows(checkReference(kp, ev2))));
    ev2.levels[3].tensors[1].fills += 1;  // RegisterFile Inputs: total no longer 16 x 1152
    QVERIFY(!findRow(checkReference(kp, ev2), "RegisterFile/Inputs/fills_per_instance")->pass);
}

void TestReferenceCase::checkerInvalidMapping()
{
    const ReferenceCase rc = readReferenceCase(casePath("ispass20-00-conv1d-1level"));
    Evaluation ev;
    ev.valid = false;
    ev.errors.push_back(Diagnostic{"mapping.factors.P", "factors of P cover 8 but the bound is 16", {}});
    const CheckResult r = checkReference(rc, ev);
    QVERIFY(!r.pass);
    QVERIFY(!r.mappingValid);
    const CheckRow* row = findRow(r, "mapping.factors.P");
    QVERIFY(row && !row->pass);
    QVERIFY(row->got.find("cover 8") != std::string::npos);
}

void TestReferenceCase::tolerances()
{
    QVERIFY(energyMatches(100.0, 100.01));
    QVERIFY(!energyMatches(100.0, 100.011));
    QVERIFY(energyMatches(1e9, 1e9 + 999.0));   // 1e-6 relative is looser here
    QVERIFY(!energyMatches(1e9, 1e9 + 1001.0));
    QVERIFY(energyMatches(0.0, 0.005));
    QVERIFY(utilizationMatches(0.046875, 0.0469));
    QVERIFY(!utilizationMatches(0.046875, 0.0471));
}

void TestReferenceCase::truncatedCasesAreRejected_data()
{
    everyCaseParses_data();
}

// A case cut short anywhere before its last compared figure must not load: a truncated file
// would otherwise pass on the fields it still has. The last figure line is found by the key
// names alone (the figures ReferenceCheck.h compares), not by the reader.
void TestReferenceCase::truncatedCasesAreRejected()
{
    QFETCH(QString, file);
    const std::string text = readTextFile(file.toStdString());
    const std::regex figureKey(
        "(^|[ {,])(cycles|computes|utilization|utilization_exact|energy_total_pJ|leakage_energy_total_pJ|"
        "utilized_capacity|utilized_instances|instances_used|computes_total|total_macs|tensor_size|"
        "(reads|fills|updates)_(per_instance|per_instance_range|total)): ");
    std::vector<std::size_t> lineEnds;  // offset just past each line's '\n'
    std::size_t lastFigureLine = 0, exactLine = 0, lastFigureBeforeExact = 0, expectedLine = 0;
    for (std::size_t start = 0, line = 1; start < text.size(); ++line) {
        std::size_t end = text.find('\n', start);
        end = end == std::string::npos ? text.size() : end + 1;
        if (text.compare(start, 9, "expected:") == 0) expectedLine = line;
        if (text.compare(start, 13, "exact_counts:") == 0) {
            exactLine = line;
            lastFigureBeforeExact = lastFigureLine;
        }
        if (std::regex_search(text.substr(start, end - start), figureKey)) lastFigureLine = line;
        lineEnds.push_back(end);
        start = end;
    }
    QVERIFY(lastFigureLine > 20);
    (void)parseReferenceCase(text, "case.yaml");  // whole: reads
    int rejected = 0;
    QVERIFY(expectedLine > 0);
    int optionalDropped = 0, tried = 0;
    // Every cut from `expected:` on; before it (no `expected` at all) every fifth, to keep it quick.
    for (std::size_t keep = 1; keep < lastFigureLine; keep += keep + 5 < expectedLine ? 5 : 1) {
        ++tried;
        const std::string cut = text.substr(0, lineEnds[keep - 1]);
        try {
            (void)parseReferenceCase(cut, "case.yaml");
            // The cuts that leave a whole case: after the last figure of `expected`, dropping the
            // optional exact_counts section with it (the check then compares the printed
            // figures, which differ from the model's where exact_counts exists).
            if (keep >= lastFigureBeforeExact && keep < exactLine) {
                ++optionalDropped;
                continue;
            }
            QFAIL(qPrintable(QStringLiteral("accepted after cutting to %1 of %2 lines").arg(keep).arg(lineEnds.size())));
        } catch (const NestorError& e) {
            // Located: a file position (line:column), whatever the cut.
            const Diagnostic& d = e.diagnostics().front();
            QVERIFY2(d.location.line > 0, e.what());
            ++rejected;
        }
    }
    QCOMPARE(rejected + optionalDropped, tried);
    QCOMPARE(optionalDropped, exactLine ? int(exactLine - lastFigureBeforeExact) : 0);
}

void TestReferenceCase::missingSectionsAndFiguresAreLocated()
{
    const std::string base = readTextFile(casePath("ispass20-00-conv1d-1level"));
    auto error = [](const std::string& yaml) -> Diagnostics {
        try {
            (void)parseReferenceCase(yaml, "case.yaml");
        } catch (const NestorError& e) {
            return e.diagnostics();
        }
        return {};
    };
    auto without = [&](const std::string& from, const std::string& to) {
        const auto a = base.find(from), b = base.find(to);
        if (a == std::string::npos || b == std::string::npos || b < a) qFatal("test bug: section not found");
        return base.substr(0, a) + base.substr(b);
    };

    // Each section dropped whole.
    for (const auto& [section, next] : std::vector<std::pair<std::string, std::string>>{
             {"workload:", "architecture:"}, {"architecture:", "mapping:"}, {"mapping:", "expected:"},
             {"expected:", "checks_done_by_extractor:"}}) {
        const Diagnostics d = error(without(section, next));
        QCOMPARE(d.size(), std::size_t(1));
        QCOMPARE(d[0].field, section.substr(0, section.size() - 1));
        QVERIFY2(d[0].message.find("missing") != std::string::npos, d[0].message.c_str());
        QVERIFY(d[0].location.line > 0);
    }

    // The summary kept, every level figure gone (line 94 "  levels:" and all below it).
    std::string y = base.substr(0, base.find("  levels:\n    MACC"));
    Diagnostics d = error(y);
    QCOMPARE(d.size(), std::size_t(1));
    QCOMPARE(d[0].field, std::string("expected.levels"));
    QCOMPARE(d[0].location.line, positionOf(y, "  summary:").first);  // at the map that lacks it
    QCOMPARE(d[0].location.column, 3);

    // One data space left out of the middle of the file, and one figure of another.
    y = without("        Inputs:\n          partition_size", "        Outputs:\n          partition_size");
    y = replaced(y, "    MACC: {kind: compute, utilized_instances: 1, computes_total: 48, cycles: 48, energy_total_pJ: 40.56}",
                 "    MACC: {kind: compute, utilized_instances: 1, cycles: 48, energy_total_pJ: 40.56}");
    d = error(y);
    QCOMPARE(d.size(), std::size_t(2));
    QCOMPARE(d[0].field, std::string("expected.levels.Buffer.data_spaces.Inputs"));
    QVERIFY2(d[0].message.find("missing the figures of Inputs, which Buffer keeps") == 0, d[0].message.c_str());
    QCOMPARE(d[0].location.line, positionOf(y, "        Weights:\n          partition_size").first);
    QCOMPARE(d[1].field, std::string("expected.levels.MACC.computes_total"));
    QCOMPARE(d[1].location.line, positionOf(y, "{kind: compute").first);

    // Reads given as a total instead of per instance still count; no reads at all does not.
    y = replaced(base, "          reads_per_instance: 48\n          fills_per_instance: 0",
                 "          reads_total: 48\n          fills_per_instance: 0");
    QVERIFY(error(y).empty());
    y = replaced(base, "          reads_per_instance: 48\n          fills_per_instance: 0", "          fills_per_instance: 0");
    d = error(y);
    QCOMPARE(d.size(), std::size_t(1));
    QCOMPARE(d[0].field, std::string("expected.levels.Buffer.data_spaces.Weights.reads_per_instance"));

    // The workload's printed sizes are figures too.
    d = error(replaced(base, "  total_macs: 48\n", ""));
    QCOMPARE(d.size(), std::size_t(1));
    QCOMPARE(d[0].field, std::string("workload.total_macs"));
}

QTEST_APPLESS_MAIN(TestReferenceCase)
#include "tst_referencecase.moc"
