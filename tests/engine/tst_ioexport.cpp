// Text outputs of the io layer: loop-nest text, Timeloop mapping YAML, JSON/CSV results,
// and atomic file writes.
#include "common/Error.h"
#include "io/AtomicFile.h"
#include "io/LoopNestText.h"
#include "io/ReferenceCase.h"
#include "io/ResultsExport.h"
#include "io/TimeloopMappingExport.h"
#include "io/YamlUtil.h"

#include <QtTest/QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

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

} // namespace

class TestIoExport : public QObject {
    Q_OBJECT
private slots:
    void loopNestText();
    void loopNestImperfectAndY();
    void timeloopMapping();
    void timeloopMappingRejectsRepeatedDims();
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
    const ReferenceCase rc = kpCase();
    Mapping m = rc.mapping;
    m.levels[3].temporal = {makeLoop(3, 16, 5)};
    m.levels[1].spatialY = {makeLoop(0, 2)};
    const std::string text = timeloopMappingYaml(m, rc.workload, rc.architecture);
    const YAML::Node root = YAML::Load(text);
    const YAML::Node list = root["mapping"];
    QVERIFY(list.IsSequence());
    std::map<std::string, YAML::Node> byKey;  // "target/type"
    for (const auto& e : list)
        byKey.emplace(e["target"].as<std::string>() + "/" + e["type"].as<std::string>(), YAML::Node(e));
    QCOMPARE(byKey.size(), std::size_t(4 * 2 + 1));  // temporal + bypass per level, one spatial
    const YAML::Node glb = byKey.at("GlobalBuffer/temporal");
    QCOMPARE(glb["factors"].as<std::string>(), std::string("C=32 K=2 R=3 P=1"));
    QCOMPARE(glb["permutation"].as<std::string>(), std::string("RKCP"));  // innermost first, unit dims last
    const YAML::Node sp = byKey.at("inter_PE_spatial/spatial");
    QCOMPARE(sp["factors"].as<std::string>(), std::string("C=2 K=16 R=1 P=1"));
    QCOMPARE(sp["permutation"].as<std::string>(), std::string("KCRP"));  // X (K) first, then Y (C)
    QCOMPARE(sp["split"].as<int>(), 1);
    QCOMPARE(byKey.at("RegisterFile/temporal")["factors"].as<std::string>(), std::string("C=1 K=1 R=1 P=16,5"));
    const YAML::Node byp = byKey.at("inter_PE_spatial/bypass");
    QCOMPARE(byp["keep"].size(), std::size_t(0));
    QCOMPARE(byp["bypass"].size(), std::size_t(3));
    QCOMPARE(byKey.at("MainMemory/bypass")["keep"].size(), std::size_t(3));
}

void TestIoExport::timeloopMappingRejectsRepeatedDims()
{
    const ReferenceCase rc = kpCase();
    Mapping m = rc.mapping;
    m.levels[2].temporal.push_back(makeLoop(0, 1));  // C twice in GlobalBuffer
    try {
        timeloopMappingYaml(m, rc.workload, rc.architecture);
        QFAIL("no error");
    } catch (const NestorError& e) {
        QCOMPARE(e.diagnostics().front().field, std::string("mapping.levels[2].temporal"));
        QVERIFY(std::string(e.what()).find("dimension C appears twice") != std::string::npos);
    }
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
