// Text outputs of the io layer: loop-nest text, Timeloop mapping YAML, JSON/CSV results,
// and atomic file writes.
#include "common/Error.h"
#include "io/AtomicFile.h"
#include "io/LoopNestText.h"
#include "io/ReferenceCase.h"
#include "io/ResultsExport.h"
#include "io/TextFormat.h"
#include "io/TimeloopMappingExport.h"
#include "io/YamlUtil.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <QtTest/QtTest>

#include <limits>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <climits>
#include <map>
#include <optional>
#include <regex>

#include <sys/stat.h>

#include <yaml-cpp/yaml.h>

#ifndef NESTOR_TEST_DATA_DIR
#error "NESTOR_TEST_DATA_DIR must name tests/data"
#endif

using namespace nestor;

namespace {

ReferenceCase kpCase()
{
    return readReferenceCase(QString::fromUtf8(NESTOR_TEST_DATA_DIR).toStdString() +
                             "/timeloop/cases/ispass20-04-conv1d-oc-ic-spatial-kp.yaml");
}

// Tile sizes of the case's mapping.tile_words, per level (dummy level: none).
Evaluation tilesOfKpCase(const ReferenceCase& rc)
{
    const std::int64_t tiles[4][3] = {{3072, 576, 512}, {0, 0, 0}, {192, 576, 32}, {1, 16, 16}};
    Evaluation ev;
    ev.valid = true;
    for (int l = 0; l < 4; ++l) {
        LevelStats ls;
        ls.name = rc.architecture.levels[l].name;
        for (int t = 0; t < 3; ++t) {
            TensorLevelStats s;
            s.kept = rc.mapping.keeps(l, t);
            s.utilized_capacity = tiles[l][t];
            ls.tensors.push_back(s);
        }
        ev.levels.push_back(ls);
    }
    ev.tensorNames = {"Weights", "Inputs", "Outputs"};
    return ev;
}


// ---------------------------------------------------------------- Timeloop export checks
// A conv (N M C P Q R S) on DRAM -> GLB (fanout 4 x 3) -> RF (12 instances) -> 12 MACs.
struct ExportSetup {
    Workload w;
    Architecture a;
};

ExportSetup exportSetup()
{
    ConvParams cp;
    cp.M = 23;
    cp.C = 10;
    cp.P = 14;
    cp.Q = 14;
    cp.R = 3;
    ExportSetup s{makeConv2d(cp), {}};
    auto level = [](const char* name, std::int64_t instances, std::int64_t meshX, std::optional<std::int64_t> size) {
        StorageLevel l;
        l.name = name;
        l.instances = instances;
        l.meshX = meshX;
        l.size_words = size;
        l.technology = size ? "SRAM" : "DRAM";
        return l;
    };
    s.a.name = "export-test";
    s.a.levels = {level("DRAM", 1, 1, std::nullopt), level("GLB", 1, 1, 1 << 20), level("RF", 12, 4, 4096)};
    s.a.compute.instances = 12;
    s.a.compute.meshX = 4;
    return s;
}

enum Dim { N, M, C, P, Q, R, S };  // makeConv2d's order

Mapping emptyMapping(const Architecture& a)
{
    Mapping m;
    m.levels.resize(a.levels.size());
    return m;
}

// Timeloop's reading of an exported mapping, done here independently of the exporter:
// per target and block type, the factors as Timeloop master's ParseUserFactors reads them
// (the same regular expression), the permutation one character per dimension, the split.
struct TimeloopBlock {
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> factors;  // dim -> (end, residual_end)
    std::string permutation;
    int split = -1;
};

std::map<std::string, TimeloopBlock> parseTimeloopMapping(const std::string& text)
{
    std::map<std::string, TimeloopBlock> blocks;  // "target/type"
    const std::regex factorRe("([A-Za-z]+)[[:space:]]*[=]*[[:space:]]*([0-9]+)(,([0-9]+))?", std::regex::extended);
    for (const auto& e : YAML::Load(text)["mapping"]) {
        const std::string type = e["type"].as<std::string>();
        if (type == "bypass") continue;
        TimeloopBlock b;
        std::string f = e["factors"].as<std::string>();
        for (std::smatch sm; std::regex_search(f, sm, factorRe); f = sm.suffix().str()) {
            const std::int64_t end = std::stoll(sm[2]);
            b.factors[sm[1]] = {end, sm[4].length() ? std::stoll(sm[4]) : end};
        }
        for (char c : e["permutation"].as<std::string>())
            if (c != ' ') b.permutation += c;
        if (e["split"]) b.split = e["split"].as<int>();
        blocks[e["target"].as<std::string>() + "/" + type] = b;
    }
    return blocks;
}

// The index sequence of one dimension's loops (outermost first, (bound, residual) pairs) under
// the residual rule shared by Nestor (Mapping.h) and Timeloop (IsLastGlobalIteration_): a loop
// runs its residual only while every outer loop of the dimension is on its last iteration.
void walk(const std::vector<std::pair<std::int64_t, std::int64_t>>& loops, std::size_t k, bool last, std::int64_t base,
          std::vector<std::int64_t>& out)
{
    if (k == loops.size()) {
        out.push_back(base);
        return;
    }
    std::int64_t inner = 1;
    for (std::size_t j = k + 1; j < loops.size(); ++j) inner *= loops[j].first;
    const std::int64_t trips = last ? loops[k].second : loops[k].first;
    for (std::int64_t i = 0; i < trips; ++i) walk(loops, k + 1, last && i == trips - 1, base + i * inner, out);
}

std::vector<std::int64_t> indexSequence(const std::vector<std::pair<std::int64_t, std::int64_t>>& loops)
{
    std::vector<std::int64_t> out;
    walk(loops, 0, true, 0, out);
    return out;
}

} // namespace

class TestIoExport : public QObject {
    Q_OBJECT
private slots:
    // Table numbers: padded keeps every decimal (columns align), fixed drops trailing zeros.
    void numberTexts()
    {
        QCOMPARE(text::padded(1.5, 3), std::string("1.500"));
        QCOMPARE(text::padded(2363756.0, 0), std::string("2363756"));
        QCOMPARE(text::padded(-0.04, 1), std::string("-0.0"));
        QCOMPARE(text::padded(1e300, 0).size(), std::size_t(301));  // every digit, not cut at a buffer
        QCOMPARE(text::fixed(2.5, 3), std::string("2.5"));
        QCOMPARE(text::fixed(-0.04, 1), std::string("0"));
        QCOMPARE(text::padded(std::numeric_limits<double>::infinity(), 2), text::shortest(std::numeric_limits<double>::infinity()));
    }

    void loopNestText();
    void loopNestImperfectAndY();
    void timeloopMapping();
    void timeloopMappingImperfectFactors();
    void timeloopMappingRefusesWhatTimeloopCannotHold();
    void timeloopMappingRefusalWritesNothing();
    void json();
    void csv();
    void atomicFile();
};

void TestIoExport::loopNestText()
{
    const ReferenceCase rc = kpCase();
    const Evaluation ev = tilesOfKpCase(rc);
    const std::string expected =
        "MainMemory [ Weights:3072 Inputs:576 Outputs:512 ]\n"
        "--------------------------------------------------\n"
        "\n"
        "inter_PE_spatial [ ]\n"
        "--------------------\n"
        "| par-for K in [0:16) (X)\n"
        "\n"
        "GlobalBuffer [ Weights:192 Inputs:576 Outputs:32 ]\n"
        "--------------------------------------------------\n"
        "|   for C in [0:32)\n"
        "|     for K in [0:2)\n"
        "|       for R in [0:3)\n"
        "\n"
        "RegisterFile [ Weights:1 Inputs:16 Outputs:16 ]\n"
        "-----------------------------------------------\n"
        "|         for P in [0:16)\n"
        "\n"
        "|           << Compute >>\n";
    QCOMPARE(QString::fromStdString(nestor::loopNestText(rc.mapping, rc.workload, rc.architecture, &ev)),
             QString::fromStdString(expected));
    // Without an evaluation the header lists the kept tensors.
    const std::string plain = nestor::loopNestText(rc.mapping, rc.workload, rc.architecture);
    QVERIFY(plain.rfind("MainMemory [ Weights Inputs Outputs ]\n", 0) == 0);
}

void TestIoExport::loopNestImperfectAndY()
{
    ReferenceCase rc = kpCase();
    Mapping m = rc.mapping;
    m.levels[1].spatialX = {makeLoop(1, 4)};
    m.levels[1].spatialY = {makeLoop(1, 4)};
    m.levels[3].temporal = {makeLoop(3, 16, 5), makeLoop(0, 1)};  // unit loop omitted
    const std::string t = nestor::loopNestText(m, rc.workload, rc.architecture);
    QVERIFY2(t.find("| par-for K in [0:4) (Y)\n|   par-for K in [0:4) (X)\n") != std::string::npos, t.c_str());
    QVERIFY2(t.find("for P in [0:16) (residual 5)\n") != std::string::npos, t.c_str());
    QVERIFY(t.find("for C in [0:1)") == std::string::npos);
}

void TestIoExport::timeloopMapping()
{
    // The case's own mapping (from a Timeloop mapping file, see the case's source): the export
    // gives back the factors and orders of that file.
    const ReferenceCase rc = kpCase();
    const std::string text = timeloopMappingYaml(rc.mapping, rc.workload, rc.architecture);
    const YAML::Node root = YAML::Load(text);
    const YAML::Node list = root["mapping"];
    QVERIFY(list.IsSequence());
    std::map<std::string, YAML::Node> byKey;  // "target/type"
    for (const auto& e : list)
        byKey.emplace(e["target"].as<std::string>() + "/" + e["type"].as<std::string>(), YAML::Node(e));
    QCOMPARE(byKey.size(), std::size_t(4 * 2 + 1));  // temporal + bypass per level, one fanout
    const YAML::Node glb = byKey.at("GlobalBuffer/temporal");
    QCOMPARE(glb["factors"].as<std::string>(), std::string("C=32 K=2 R=3 P=1"));
    QCOMPARE(glb["permutation"].as<std::string>(), std::string("RKCP"));  // innermost first, unit dims last
    const YAML::Node sp = byKey.at("inter_PE_spatial/spatial");
    QCOMPARE(sp["factors"].as<std::string>(), std::string("C=1 K=16 R=1 P=1"));
    QCOMPARE(sp["permutation"].as<std::string>(), std::string("KCRP"));
    QCOMPARE(sp["split"].as<int>(), 1);
    QCOMPARE(byKey.at("RegisterFile/temporal")["factors"].as<std::string>(), std::string("C=1 K=1 R=1 P=16"));
    const YAML::Node byp = byKey.at("inter_PE_spatial/bypass");
    QCOMPARE(byp["keep"].size(), std::size_t(0));
    QCOMPARE(byp["bypass"].size(), std::size_t(3));
    QCOMPARE(byKey.at("MainMemory/bypass")["keep"].size(), std::size_t(3));
}

void TestIoExport::timeloopMappingImperfectFactors()
{
    const ExportSetup s = exportSetup();
    Mapping m = emptyMapping(s.a);
    // Nestor holds several loops of a dimension per block; Timeloop one factor "D=bound,residual".
    m.levels[0].temporal = {makeLoop(M, 8, 6), makeLoop(P, 2, 2), makeLoop(P, 3, 2)};
    m.levels[1].temporal = {makeLoop(C, 2), makeLoop(N, 1), makeLoop(C, 5)};  // a unit loop between
    m.levels[1].spatialX = {makeLoop(M, 2), makeLoop(M, 2, 1)};
    m.levels[1].spatialY = {makeLoop(Q, 3)};
    m.levels[2].temporal = {makeLoop(Q, 5, 4), makeLoop(P, 3, 2), makeLoop(R, 3)};
    QVERIFY(m.validate(s.w, s.a).empty());
    const std::map<std::string, TimeloopBlock> b = parseTimeloopMapping(timeloopMappingYaml(m, s.w, s.a));

    // Hand-merged: P (2,2)(3,2) is 6 with last pass (2-1)*3+2 = 5; M (2)(2,1) on X is 4 with
    // last pass (2-1)*2+1 = 3; C (2)(1)(5) is 10.
    using F = std::map<std::string, std::pair<std::int64_t, std::int64_t>>;
    const F one{{"N", {1, 1}}, {"M", {1, 1}}, {"C", {1, 1}}, {"P", {1, 1}}, {"Q", {1, 1}}, {"R", {1, 1}}, {"S", {1, 1}}};
    auto with = [&](F changes) {
        F f = one;
        for (auto& [d, v] : changes) f[d] = v;
        return f;
    };
    QCOMPARE(b.size(), std::size_t(4));  // RF has no fanout: no spatial block there
    QCOMPARE(b.at("DRAM/temporal").factors, with({{"M", {8, 6}}, {"P", {6, 5}}}));
    QCOMPARE(b.at("DRAM/temporal").permutation, std::string("PMNCQRS"));
    QCOMPARE(b.at("GLB/temporal").factors, with({{"C", {10, 10}}}));
    QCOMPARE(b.at("GLB/spatial").factors, with({{"M", {4, 3}}, {"Q", {3, 3}}}));
    QCOMPARE(b.at("GLB/spatial").permutation.substr(0, 2), std::string("MQ"));
    QCOMPARE(b.at("GLB/spatial").split, 1);  // M on X, Q on Y
    QCOMPARE(b.at("RF/temporal").factors, with({{"Q", {5, 4}}, {"P", {3, 2}}, {"R", {3, 3}}}));
    QCOMPARE(b.at("RF/temporal").permutation, std::string("RPQNMCS"));

    // Timeloop's own check (parser.cpp): per dimension, over the tiling levels outermost first,
    // prod = prod*end + residual_end - 1, then + 1, must equal the bound; and the index sequence
    // each dimension walks is the one of Nestor's loops.
    const std::vector<std::string> tilingLevels{"DRAM/temporal", "GLB/temporal", "GLB/spatial", "RF/temporal"};
    for (int d = 0; d < s.w.numDims(); ++d) {
        const std::string name = s.w.dimNames[d];
        std::int64_t prod = 0;
        std::vector<std::pair<std::int64_t, std::int64_t>> timeloopLoops, nestorLoops;
        for (const auto& key : tilingLevels) {
            const auto f = b.at(key).factors.at(name);
            prod = prod * f.first + f.second - 1;
            timeloopLoops.push_back(f);
        }
        QCOMPARE(prod + 1, s.w.bounds[d]);
        for (const LevelMapping& lm : m.levels)
            for (const auto* loops : {&lm.temporal, &lm.spatialY, &lm.spatialX})
                for (const Loop& l : *loops)
                    if (l.dim == d) nestorLoops.push_back({l.bound, l.residual});
        QVERIFY2(indexSequence(timeloopLoops) == indexSequence(nestorLoops), name.c_str());
        QCOMPARE(std::int64_t(indexSequence(timeloopLoops).size()), s.w.bounds[d]);
    }
}

void TestIoExport::timeloopMappingRefusesWhatTimeloopCannotHold()
{
    const ExportSetup s = exportSetup();
    Mapping valid = emptyMapping(s.a);
    valid.levels[0].temporal = {makeLoop(M, 23), makeLoop(C, 10), makeLoop(P, 14), makeLoop(Q, 14), makeLoop(R, 3)};
    QVERIFY(!timeloopMappingYaml(valid, s.w, s.a).empty());
    auto refusal = [&](const Mapping& m, const Workload& w) -> Diagnostics {
        try {
            timeloopMappingYaml(m, w, s.a);
        } catch (const NestorError& e) {
            return e.diagnostics();
        }
        return {};
    };

    // Q on both axes of GLB's fanout, X (2) inside Y (3, last pass 1), under DRAM's Q (3):
    // 1 + (3-1)*3*2 + (1-1)*2 + (2-1) = 14. Timeloop gives a dimension one spatial factor.
    Mapping bothAxes = valid;
    bothAxes.levels[0].temporal[3] = makeLoop(Q, 3);
    bothAxes.levels[1].spatialX = {makeLoop(Q, 2)};
    bothAxes.levels[1].spatialY = {makeLoop(Q, 3, 1)};
    QVERIFY(bothAxes.validate(s.w, s.a).empty());
    Diagnostics d = refusal(bothAxes, s.w);
    QCOMPARE(d.size(), std::size_t(1));
    QCOMPARE(d[0].field, std::string("mapping.levels[GLB].spatial"));
    QVERIFY2(d[0].message.find("cannot be written as a Timeloop mapping: dimension Q is spread over both axes of "
                               "GLB's fanout (X 2, Y 3,1)") == 0,
             d[0].message.c_str());

    // C twice in GLB's temporal block with P between: no single factor keeps that order. Both
    // problems of one mapping are reported together.
    Mapping separated = bothAxes;
    separated.levels[0].temporal = {makeLoop(M, 23), makeLoop(P, 7), makeLoop(Q, 3), makeLoop(R, 3)};
    separated.levels[1].temporal = {makeLoop(C, 2), makeLoop(P, 2), makeLoop(C, 5)};
    QVERIFY(separated.validate(s.w, s.a).empty());
    d = refusal(separated, s.w);
    QCOMPARE(d.size(), std::size_t(2));
    QCOMPARE(d[0].field, std::string("mapping.levels[GLB].temporal"));
    QVERIFY2(d[0].message.find("dimension C has two loops in GLB's temporal block (2 and 5) with P between them") !=
                 std::string::npos,
             d[0].message.c_str());
    QCOMPARE(d[1].field, std::string("mapping.levels[GLB].spatial"));

    // Timeloop reads a permutation one letter per dimension.
    Workload renamed = s.w;
    renamed.dimNames[S] = "Sx";
    d = refusal(valid, renamed);
    QCOMPARE(d.size(), std::size_t(1));
    QCOMPARE(d[0].field, std::string("workload.dimensions[6]"));
    QVERIFY(d[0].message.find("'Sx' is not a single letter") != std::string::npos);

    // Timeloop reads factors with std::stoi: 2^31 does not fit.
    const Workload gemm = makeGemm("g", std::int64_t{1} << 31, 1, 1);
    Mapping big = emptyMapping(s.a);
    big.levels[0].temporal = {makeLoop(0, std::int64_t{1} << 31)};
    QVERIFY(big.validate(gemm, s.a).empty());
    d = refusal(big, gemm);
    QCOMPARE(d.size(), std::size_t(1));
    QVERIFY2(d[0].message.find("factor M=2147483648 in DRAM's temporal block exceeds Timeloop's limit of 2147483647") !=
                 std::string::npos,
             d[0].message.c_str());

    // An invalid mapping is refused with its validation errors.
    Mapping uncovered = valid;
    uncovered.levels[0].temporal[1] = makeLoop(C, 5);
    d = refusal(uncovered, s.w);
    QVERIFY(!d.empty());
    QCOMPARE(d[0].field, std::string("mapping.factors.C"));
}

void TestIoExport::timeloopMappingRefusalWritesNothing()
{
    // What the CLI's --timeloop-out does: the text is made before the file is touched.
    const ExportSetup s = exportSetup();
    Mapping m = emptyMapping(s.a);
    m.levels[0].temporal = {makeLoop(M, 23), makeLoop(C, 10), makeLoop(P, 14), makeLoop(Q, 3), makeLoop(R, 3)};
    m.levels[1].spatialX = {makeLoop(Q, 2)};
    m.levels[1].spatialY = {makeLoop(Q, 3, 1)};
    QTemporaryDir dir;
    const std::string fresh = dir.filePath(QStringLiteral("fresh.yaml")).toStdString();
    const std::string existing = dir.filePath(QStringLiteral("existing.yaml")).toStdString();
    writeFileAtomically(existing, "previous content\n");
    for (const std::string& path : {fresh, existing}) {
        try {
            writeFileAtomically(path, timeloopMappingYaml(m, s.w, s.a));
            QFAIL("no error");
        } catch (const NestorError& e) {
            QVERIFY(std::string(e.what()).find("spread over both axes") != std::string::npos);
        }
    }
    QVERIFY(!QFile::exists(QString::fromStdString(fresh)));
    QFile f(QString::fromStdString(existing));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("previous content\n"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // no temporary left
}

void TestIoExport::json()
{
    Evaluation ev = tilesOfKpCase(kpCase());
    ev.macs = 8589934592;  // beyond 32 bits
    ev.cycles = 3072;
    ev.energy_pJ = 720795.888512;
    ev.utilization = 1.0;
    ev.levels[2].tensors[1].reads = 18432;
    ev.levels[2].tensors[1].energy_pJ = 0.1 + 0.2;
    ev.errors.push_back(Diagnostic{"mapping.x", "a \"quoted\"\nmessage", {}});
    const std::string text = evaluationToJson(ev, ResultsMeta{"p", "w", "m", "a"});
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &err);
    QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString() + "\n" + QString::fromStdString(text)));
    const QJsonObject o = doc.object();
    QCOMPARE(o["mapping"].toString(), QStringLiteral("m"));
    QCOMPARE(o["summary"].toObject()["macs"].toInteger(), qint64(8589934592));
    QCOMPARE(o["summary"].toObject()["energy_pJ"].toDouble(), 720795.888512);
    QCOMPARE(o["errors"].toArray()[0].toObject()["message"].toString(), QStringLiteral("a \"quoted\"\nmessage"));
    const QJsonObject glbInputs = o["levels"].toArray()[2].toObject()["tensors"].toObject()["Inputs"].toObject();
    QCOMPARE(glbInputs["reads"].toInteger(), qint64(18432));
    QCOMPARE(glbInputs["energy_pJ"].toDouble(), 0.1 + 0.2);  // shortest exact form round-trips
    QCOMPARE(glbInputs["utilized_capacity"].toInteger(), qint64(576));
    QCOMPARE(o["levels"].toArray().size(), 4);
}

void TestIoExport::csv()
{
    Evaluation ev = tilesOfKpCase(kpCase());
    ev.levels[0].name = "Main,Memory";  // needs quoting
    const std::string text = evaluationToCsv(ev, ResultsMeta{"p", "w", "m", "a"});
    const QStringList lines = QString::fromStdString(text).split('\n');
    QVERIFY(lines[0].startsWith(QStringLiteral("level,tensor,kept,utilized_capacity,")));
    QVERIFY(lines[1].startsWith(QStringLiteral("\"Main,Memory\",Weights,yes,3072,")));
    QCOMPARE(lines[1 + 4 * 3], QString());           // 12 level x tensor rows, then a blank line
    QCOMPARE(lines[2 + 4 * 3], QStringLiteral("key,value"));
    QVERIFY(lines.contains(QStringLiteral("mapping,m")));
    const int columns = lines[0].count(',');
    QCOMPARE(lines[5].count(','), columns);
}

void TestIoExport::atomicFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.txt"));
    writeFileAtomically(path.toStdString(), "first");
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("first"));
    f.close();
    ::chmod(path.toLocal8Bit().constData(), 0640);
    writeFileAtomically(path.toStdString(), std::string("second\0with nul", 15));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("second\0with nul", 15));
    f.close();
    struct stat st {};
    QCOMPARE(::stat(path.toLocal8Bit().constData(), &st), 0);
    QCOMPARE(int(st.st_mode & 0777), 0640);  // permissions kept
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    try {
        writeFileAtomically(dir.filePath(QStringLiteral("missing/out.txt")).toStdString(), "x");
        QFAIL("no error");
    } catch (const NestorError& e) {
        QVERIFY(QString::fromStdString(e.diagnostics().front().location.file).endsWith(QStringLiteral("missing/out.txt")));
    }
}

QTEST_APPLESS_MAIN(TestIoExport)
#include "tst_ioexport.moc"
