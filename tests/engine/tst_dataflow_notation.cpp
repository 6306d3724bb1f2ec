// Interstellar's U|V notation (analysis/DataflowNotation): parse/print round trips with both
// letter sets, errors that name the character position, and the classification of hand-built
// mappings (each stationary name, row-stationary, no local reuse, the replication order) and of
// the example projects' mappings (eyeriss-like is row-stationary, simba-like weight-stationary).
// The expected U|V and names are written down from the mappings by hand, by the header's rules.
#include "analysis/DataflowNotation.h"
#include "io/ProjectYaml.h"

#include <QtTest/QtTest>

using namespace nestor;

namespace {

// DRAM -> GLB -> RF per PE (4 x 4 PEs) -> 16 MACs.
Architecture smallArray()
{
    Architecture a;
    a.name = "small";
    StorageLevel dram;
    dram.name = "DRAM";
    dram.technology = "DRAM";
    StorageLevel glb;
    glb.name = "GLB";
    glb.size_words = 4096;
    StorageLevel rf;
    rf.name = "RF";
    rf.technology = "regfile";
    rf.size_words = 64;
    rf.instances = 16;
    rf.meshX = 4;
    a.levels = {dram, glb, rf};
    a.compute.instances = 16;
    a.compute.meshX = 4;
    return a;
}

Workload layer()
{
    ConvParams p;
    p.name = "L";
    p.M = 8;
    p.C = 8;
    p.P = 4;
    p.Q = 4;
    p.R = 3;
    p.S = 3;
    return makeConv2d(p);
}

Loop L(const Workload& w, const char* dim, std::int64_t bound) { return makeLoop(w.dimIndex(dim), bound); }

// keep flags for (Weights, Inputs, Outputs)
std::vector<bool> keep(bool wt, bool in, bool out) { return {wt, in, out}; }

struct Built {
    Workload w = layer();
    Architecture a = smallArray();
    Mapping m;
};

// GLB spatial X/Y as given; the rest of each dimension goes to DRAM except `rfLoops` (outer first).
Built build(const std::vector<std::pair<const char*, std::int64_t>>& x, const std::vector<std::pair<const char*, std::int64_t>>& y,
            const std::vector<std::pair<const char*, std::int64_t>>& rfLoops, std::vector<bool> rfKeep)
{
    Built b;
    const Workload& w = b.w;
    std::vector<std::int64_t> left = w.bounds;
    LevelMapping dram, glb, rf;
    auto take = [&](const char* d, std::int64_t f) {
        left[static_cast<std::size_t>(w.dimIndex(d))] /= f;
        return L(w, d, f);
    };
    for (const auto& [d, f] : x) glb.spatialX.push_back(take(d, f));
    for (const auto& [d, f] : y) glb.spatialY.push_back(take(d, f));
    for (const auto& [d, f] : rfLoops) rf.temporal.push_back(take(d, f));
    for (int d = 0; d < w.numDims(); ++d)
        if (left[static_cast<std::size_t>(d)] > 1) dram.temporal.push_back(makeLoop(d, left[static_cast<std::size_t>(d)]));
    rf.keep = std::move(rfKeep);
    b.m.levels = {dram, glb, rf};
    return b;
}

} // namespace

class TestDataflowNotation : public QObject {
    Q_OBJECT
private slots:
    void parsesPaperAndNestorLetters()
    {
        QCOMPARE(parseDataflow("C|K"), (Dataflow{{"C"}, {"M"}}));
        QCOMPARE(parseDataflow("FY|Y"), (Dataflow{{"S"}, {"Q"}}));
        QCOMPARE(parseDataflow("C|KX"), (Dataflow{{"C"}, {"M", "P"}}));
        QCOMPARE(parseDataflow("X|Y"), (Dataflow{{"P"}, {"Q"}}));
        QCOMPARE(parseDataflow("FX|FY"), (Dataflow{{"R"}, {"S"}}));
        QCOMPARE(parseDataflow("Fy|y"), (Dataflow{{"S"}, {"Q"}}));        // the paper's Fig. 9 writes Fy|Y
        QCOMPARE(parseDataflow(" C M | P "), (Dataflow{{"C", "M"}, {"P"}})); // Nestor letters, blanks
        QCOMPARE(parseDataflow("B|"), (Dataflow{{"N"}, {}}));               // 1-D (Table 4's OS4 is "X")
        QCOMPARE(parseDataflow("|CK"), (Dataflow{{}, {"C", "M"}}));
        QCOMPARE(parseDataflow("CK|KC"), (Dataflow{{"C", "M"}, {"M", "C"}}));  // one loop on both axes: a split
    }

    void printsAndRoundTrips()
    {
        QCOMPARE(dataflowText({{"C"}, {"M", "P"}}), std::string("C|KX"));
        QCOMPARE(dataflowText({{"C"}, {"M", "P"}}, false), std::string("C|MP"));
        QCOMPARE(dataflowText({{"S", "M"}, {"Q"}}), std::string("FYK|Y"));
        QCOMPARE(dataflowText({{"G"}, {"M"}}), std::string("G|K"));  // not a conv loop: as it is
        // A GEMM's M N K are no conv loops: printed as they are (its K is not the paper's K).
        const Workload g = makeGemm("g", 4, 4, 4);
        QVERIFY(!hasConvLoops(g));
        QVERIFY(hasConvLoops(layer()));
        QCOMPARE(dataflowText(g, Dataflow{{"M"}, {"K"}}), std::string("M|K"));
        QCOMPARE(dataflowText(layer(), Dataflow{{"M"}, {"C"}}), std::string("K|C"));
        for (const char* t : {"C|K", "FY|Y", "C|KX", "X|Y", "FX|FY", "FYFX|BK", "|C", "Y|"}) {
            const Dataflow d = parseDataflow(t);
            QCOMPARE(dataflowText(d), std::string(t));
            QCOMPARE(parseDataflow(dataflowText(d, false)), d);
        }
    }

    void errorsNameThePosition_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown letter") << "C|Z" << "at position 3: 'Z' names no conv loop";
        QTest::newRow("unknown after F") << "FZ|K" << "at position 1: 'F' names no conv loop";
        QTest::newRow("no bar") << "CK" << "at position 3: no '|'";
        QTest::newRow("two bars") << "C|K|X" << "at position 4: a second '|'";
        QTest::newRow("twice on an axis") << "C|KMX" << "at position 4: loop K is already on this axis";
        QTest::newRow("empty") << " | " << "at position 2: no loop on either side";
        QTest::newRow("nothing") << "" << "at position 1: no '|'";
    }
    void errorsNameThePosition()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            parseDataflow(text.toStdString(), "--dataflow");
            QFAIL("no error");
        } catch (const NestorError& e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.contains(expected) && what.contains("--dataflow"), qPrintable(what));
        }
    }

    void weightStationaryCK()
    {
        // C on X, M on Y; the RF keeps the weights and its innermost loop is Q (weights do not use Q).
        Built b = build({{"C", 4}}, {{"M", 4}}, {{"R", 3}, {"S", 3}, {"Q", 4}}, keep(true, false, false));
        const DataflowClass c = classifyDataflow(b.w, b.a, b.m);
        QCOMPARE(c.text(), std::string("C|K"));
        QCOMPARE(c.xFactors, std::vector<std::int64_t>{4});
        QCOMPARE(c.name, std::string("weight-stationary"));
    }

    void outputStationaryXY()
    {
        // X|Y (Table 1's output stationary): the RF keeps the outputs, the innermost loop is S.
        Built b = build({{"P", 4}}, {{"Q", 4}}, {{"C", 8}, {"R", 3}, {"S", 3}}, keep(false, false, true));
        const DataflowClass c = classifyDataflow(b.w, b.a, b.m);
        QCOMPARE(c.text(), std::string("X|Y"));
        QCOMPARE(c.name, std::string("output-stationary"));
    }

    void inputStationary()
    {
        Built b = build({{"C", 4}}, {{"P", 4}}, {{"M", 8}}, keep(false, true, false));
        const DataflowClass c = classifyDataflow(b.w, b.a, b.m);
        QCOMPARE(c.text(), std::string("C|X"));
        QCOMPARE(c.name, std::string("input-stationary"));
    }

    void rowStationary()
    {
        // FY|Y (Table 1): filter columns S on X (3 of 4), output columns Q on Y; the RF keeps a filter row.
        Built b = build({{"S", 3}}, {{"Q", 4}}, {{"M", 8}, {"R", 3}}, keep(true, true, true));
        const DataflowClass c = classifyDataflow(b.w, b.a, b.m);
        QCOMPARE(c.text(), std::string("FY|Y"));
        QCOMPARE(c.name, std::string("row-stationary"));
        // The same split without weights in the PE is not row-stationary: rule 3 decides (R leaves the outputs).
        Built nb = build({{"S", 3}}, {{"Q", 4}}, {{"M", 8}, {"R", 3}}, keep(false, false, true));
        QCOMPARE(classifyDataflow(nb.w, nb.a, nb.m).name, std::string("output-stationary"));
    }

    void noLocalReuse()
    {
        Built b = build({{"C", 4}}, {{"M", 4}}, {{"Q", 4}}, keep(false, false, false));
        const DataflowClass c = classifyDataflow(b.w, b.a, b.m);
        QCOMPARE(c.name, std::string("no local reuse"));
    }

    void noNameWhenTheStationaryTensorIsNotInThePE()
    {
        // Innermost Q leaves the weights in place, but the RF keeps only the outputs.
        Built b = build({{"C", 4}}, {{"M", 4}}, {{"Q", 4}}, keep(false, false, true));
        const DataflowClass c = classifyDataflow(b.w, b.a, b.m);
        QCOMPARE(c.name, std::string());
        QVERIFY2(c.reason.find("Weights") != std::string::npos, c.reason.c_str());
    }

    void replicationOrderIsInnermostFirst()
    {
        // X = [M 2, C 2] outer to inner: C varies fastest between neighbours, so "CK" (Fig. 3).
        Built b = build({{"M", 2}, {"C", 2}}, {{"P", 4}}, {{"Q", 4}}, keep(true, true, true));
        const DataflowClass c = classifyDataflow(b.w, b.a, b.m);
        QCOMPARE(c.text(), std::string("CK|X"));
        QCOMPARE(c.xFactors, (std::vector<std::int64_t>{2, 2}));
    }

    void exampleProjects()
    {
        const Project eyeriss = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/eyeriss-like.yaml");
        Architecture a = eyeriss.architecture;
        const Workload& w = eyeriss.findWorkload("conv3_1")->workload;
        // row-stationary: Q 14 across the columns (X), M 4 then S 3 down a column (Y).
        const DataflowClass rs = classifyDataflow(w, a, eyeriss.findMapping("row-stationary")->mapping);
        QCOMPARE(rs.text(), std::string("Y|FYK"));
        QCOMPARE(rs.yFactors, (std::vector<std::int64_t>{3, 4}));
        QCOMPARE(rs.name, std::string("row-stationary"));
        const DataflowClass rs2 = classifyDataflow(w, a, eyeriss.findMapping("conv3_1-rs")->mapping);
        QCOMPARE(rs2.text(), std::string("Y|CKFY"));
        QCOMPARE(rs2.name, std::string("row-stationary"));

        // simba-like: M 4 (PE columns) and C 8 (vector) on X, C 4 and M 8 (lanes) on Y; the per-MAC
        // weight registers keep the weights and their innermost loop is Q.
        const Project simba = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/simba-like.yaml");
        const DataflowClass ws = classifyDataflow(simba.findWorkload("res2a_3x3")->workload, simba.architecture,
                                                  simba.findMapping("res2a_3x3-ws")->mapping);
        QCOMPARE(ws.text(), std::string("CK|KC"));
        QCOMPARE(ws.xFactors, (std::vector<std::int64_t>{8, 4}));
        QCOMPARE(ws.name, std::string("weight-stationary"));
    }

    void invalidMappingThrows()
    {
        Built b = build({{"C", 4}}, {{"M", 4}}, {{"Q", 4}}, keep(true, true, true));
        b.m.levels.pop_back();
        QVERIFY_THROWS_EXCEPTION(NestorError, classifyDataflow(b.w, b.a, b.m));
    }
};

QTEST_APPLESS_MAIN(TestDataflowNotation)
#include "tst_dataflow_notation.moc"
