// Project files (docs/project-format.md): reading, located errors, includes, and the
// writer's round trip read(write(p)) == p.
#include "support/TextEdits.h"
#include "common/Error.h"
#include "io/ProjectYaml.h"

#include <QtTest/QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <fstream>
#include <optional>

#ifndef NESTOR_EXAMPLES_DIR
#define NESTOR_EXAMPLES_DIR ""
#endif

using namespace nestor;
using test::positionOf;
using test::replaced;

namespace {

// The error reading the project at `path` raises (nullopt when it reads).
std::optional<NestorError> readError(const QString& path)
{
    try {
        readProject(path.toStdString());
    } catch (const NestorError& e) {
        return e;
    }
    return std::nullopt;
}

// A small valid project; the bad inputs below are this text with one edit.
const std::string kBase =
    "nestor: 1\n"                                              // 1
    "workloads:\n"                                             // 2
    "  - name: c1\n"                                           // 3
    "    type: custom\n"                                       // 4
    "    dimensions: {R: 3, P: 16}\n"                          // 5
    "    tensors:\n"                                           // 6
    "      - {name: Weights, ranks: [R]}\n"                    // 7
    "      - {name: Inputs, ranks: [\"R + P\"]}\n"             // 8
    "      - {name: Outputs, ranks: [P], read_write: true}\n"  // 9
    "architecture:\n"                                          // 10
    "  levels:\n"                                              // 11
    "    - name: Buf\n"                                        // 12
    "      size_words: 64\n"                                   // 13
    "      energy_pJ: {read: 1, fill: 1, update: 1}\n"         // 14
    "  compute:\n"                                             // 15
    "    energy_pJ: 0.5\n"                                     // 16
    "mappings:\n"                                              // 17
    "  - name: m\n"                                            // 18
    "    workload: c1\n"                                       // 19
    "    levels:\n"                                            // 20
    "      - level: Buf\n"                                     // 21
    "        temporal: [[P, 16], [R, 3]]\n";                   // 22



void writeFile(const QString& path, const std::string& text)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

// Field-by-field equality of two projects (everything but `path`).
#define CHECK_EQ(a, b)                                                                                          \
    do {                                                                                                        \
        if (!((a) == (b))) {                                                                                    \
            qWarning("%s differs", #a);                                                                         \
            return false;                                                                                       \
        }                                                                                                       \
    } while (0)

bool sameWorkload(const Workload& a, const Workload& b)
{
    CHECK_EQ(a.name, b.name);
    CHECK_EQ(a.dimNames, b.dimNames);
    CHECK_EQ(a.bounds, b.bounds);
    CHECK_EQ(a.tensors.size(), b.tensors.size());
    for (std::size_t t = 0; t < a.tensors.size(); ++t) {
        CHECK_EQ(a.tensors[t].name, b.tensors[t].name);
        CHECK_EQ(a.tensors[t].readWrite, b.tensors[t].readWrite);
        CHECK_EQ(a.tensors[t].ranks.size(), b.tensors[t].ranks.size());
        for (std::size_t r = 0; r < a.tensors[t].ranks.size(); ++r) {
            CHECK_EQ(a.tensors[t].ranks[r].size(), b.tensors[t].ranks[r].size());
            for (std::size_t k = 0; k < a.tensors[t].ranks[r].size(); ++k) {
                CHECK_EQ(a.tensors[t].ranks[r][k].dim, b.tensors[t].ranks[r][k].dim);
                CHECK_EQ(a.tensors[t].ranks[r][k].coef, b.tensors[t].ranks[r][k].coef);
            }
        }
    }
    return true;
}

bool sameSpec(const LayerSpec& a, const LayerSpec& b)
{
    CHECK_EQ(a.type, b.type);
    const ConvParams &x = a.conv, &y = b.conv;
    CHECK_EQ(x.name, y.name);
    CHECK_EQ(x.N, y.N);
    CHECK_EQ(x.M, y.M);
    CHECK_EQ(x.C, y.C);
    CHECK_EQ(x.P, y.P);
    CHECK_EQ(x.Q, y.Q);
    CHECK_EQ(x.R, y.R);
    CHECK_EQ(x.S, y.S);
    CHECK_EQ(x.strideH, y.strideH);
    CHECK_EQ(x.strideW, y.strideW);
    CHECK_EQ(x.dilationH, y.dilationH);
    CHECK_EQ(x.dilationW, y.dilationW);
    CHECK_EQ(x.groups, y.groups);
    CHECK_EQ(a.gemmM, b.gemmM);
    CHECK_EQ(a.gemmN, b.gemmN);
    CHECK_EQ(a.gemmK, b.gemmK);
    CHECK_EQ(a.fcBatch, b.fcBatch);
    CHECK_EQ(a.fcOut, b.fcOut);
    CHECK_EQ(a.fcIn, b.fcIn);
    return true;
}

bool sameLoops(const std::vector<Loop>& a, const std::vector<Loop>& b)
{
    CHECK_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK_EQ(a[i].dim, b[i].dim);
        CHECK_EQ(a[i].bound, b[i].bound);
        CHECK_EQ(a[i].residual, b[i].residual);
    }
    return true;
}

bool sameArchitecture(const Architecture& a, const Architecture& b)
{
    CHECK_EQ(a.name, b.name);
    CHECK_EQ(a.cycle_seconds, b.cycle_seconds);
    CHECK_EQ(a.levels.size(), b.levels.size());
    for (std::size_t i = 0; i < a.levels.size(); ++i) {
        const StorageLevel &x = a.levels[i], &y = b.levels[i];
        CHECK_EQ(x.name, y.name);
        CHECK_EQ(x.technology, y.technology);
        CHECK_EQ(x.size_words, y.size_words);
        CHECK_EQ(x.word_bits, y.word_bits);
        CHECK_EQ(x.block_size, y.block_size);
        CHECK_EQ(x.cluster_size, y.cluster_size);
        CHECK_EQ(x.instances, y.instances);
        CHECK_EQ(x.meshX, y.meshX);
        CHECK_EQ(x.read_bw_words_per_cycle, y.read_bw_words_per_cycle);
        CHECK_EQ(x.write_bw_words_per_cycle, y.write_bw_words_per_cycle);
        CHECK_EQ(x.shared_bw_words_per_cycle, y.shared_bw_words_per_cycle);
        CHECK_EQ(x.multiple_buffering, y.multiple_buffering);
        CHECK_EQ(x.energy.read_pJ, y.energy.read_pJ);
        CHECK_EQ(x.energy.fill_pJ, y.energy.fill_pJ);
        CHECK_EQ(x.energy.update_pJ, y.energy.update_pJ);
        CHECK_EQ(x.energy.leak_pJ, y.energy.leak_pJ);
        CHECK_EQ(x.area_um2, y.area_um2);
        CHECK_EQ(x.energyFixed, y.energyFixed);
    }
    CHECK_EQ(a.compute.name, b.compute.name);
    CHECK_EQ(a.compute.instances, b.compute.instances);
    CHECK_EQ(a.compute.meshX, b.compute.meshX);
    CHECK_EQ(a.compute.mac_energy_pJ, b.compute.mac_energy_pJ);
    CHECK_EQ(a.compute.area_um2, b.compute.area_um2);
    return true;
}

bool sameProject(const Project& a, const Project& b)
{
    CHECK_EQ(a.name, b.name);
    CHECK_EQ(a.energyModel, b.energyModel);
    CHECK_EQ(a.workloads.size(), b.workloads.size());
    for (std::size_t i = 0; i < a.workloads.size(); ++i) {
        if (!sameSpec(a.workloads[i].spec, b.workloads[i].spec)) return false;
        if (!sameWorkload(a.workloads[i].workload, b.workloads[i].workload)) return false;
    }
    CHECK_EQ(a.networks.size(), b.networks.size());
    for (std::size_t i = 0; i < a.networks.size(); ++i) {
        CHECK_EQ(a.networks[i].name, b.networks[i].name);
        CHECK_EQ(a.networks[i].layers, b.networks[i].layers);
    }
    if (!sameArchitecture(a.architecture, b.architecture)) return false;
    CHECK_EQ(a.mappings.size(), b.mappings.size());
    for (std::size_t i = 0; i < a.mappings.size(); ++i) {
        const ProjectMapping &x = a.mappings[i], &y = b.mappings[i];
        CHECK_EQ(x.workload, y.workload);
        CHECK_EQ(x.mapping.name, y.mapping.name);
        CHECK_EQ(x.description, y.description);
        CHECK_EQ(x.mapping.levels.size(), y.mapping.levels.size());
        for (std::size_t l = 0; l < x.mapping.levels.size(); ++l) {
            const LevelMapping &p = x.mapping.levels[l], &q = y.mapping.levels[l];
            if (!sameLoops(p.temporal, q.temporal) || !sameLoops(p.spatialX, q.spatialX) ||
                !sameLoops(p.spatialY, q.spatialY))
                return false;
            CHECK_EQ(p.keep, q.keep);
        }
    }
    CHECK_EQ(a.constraints.size(), b.constraints.size());
    for (std::size_t i = 0; i < a.constraints.size(); ++i) {
        const ProjectConstraint &x = a.constraints[i], &y = b.constraints[i];
        CHECK_EQ(x.type, y.type);
        CHECK_EQ(x.target, y.target);
        CHECK_EQ(x.workload, y.workload);
        CHECK_EQ(x.factors.size(), y.factors.size());
        for (std::size_t f = 0; f < x.factors.size(); ++f) {
            CHECK_EQ(x.factors[f].level, y.factors[f].level);
            CHECK_EQ(x.factors[f].spatial, y.factors[f].spatial);
            CHECK_EQ(x.factors[f].dim, y.factors[f].dim);
            CHECK_EQ(x.factors[f].op, y.factors[f].op);
            CHECK_EQ(x.factors[f].value, y.factors[f].value);
        }
        CHECK_EQ(x.permutation, y.permutation);
        CHECK_EQ(x.hasAxes, y.hasAxes);
        CHECK_EQ(x.axisX, y.axisX);
        CHECK_EQ(x.axisY, y.axisY);
        CHECK_EQ(x.keep, y.keep);
        CHECK_EQ(x.bypass, y.bypass);
        CHECK_EQ(x.minUtilization, y.minUtilization);
    }
    CHECK_EQ(a.jobWorkload, b.jobWorkload);
    CHECK_EQ(a.jobMapping, b.jobMapping);
    return true;
}

// A project with every kind of content.
const std::string kRich = R"(nestor: 1
name: "rich: project"
workloads:
  - {name: conv3_1, type: conv, N: 1, M: 16, C: 8, P: 14, Q: 14, R: 3, S: 3, stride: [2, 1], dilation: [1, 2]}
  - {name: dw, type: depthwise, C: 8, P: 7, Q: 7, R: 3, S: 3, stride: 2}
  - {name: grp, type: grouped, M: 4, C: 4, P: 7, Q: 7, R: 3, S: 3, groups: 2}
  - {name: fc6, type: fc, batch: 2, out_features: 10, in_features: 20}
  - {name: gemm1, type: gemm, M: 8, N: 4, K: 16}
  - name: conv1d
    type: custom
    dimensions: {R: 3, P: 16}
    tensors:
      - {name: Weights, ranks: [R]}
      - {name: Inputs, ranks: ["R + 2*P"]}
      - {name: Outputs, ranks: [P], read_write: true}
networks:
  - name: net
    layers: [conv3_1, {workload: dw, repeat: 3}, fc6]
architecture:
  name: demo
  cycle_seconds: 1.25e-9
  energy_model: table
  levels:
    - name: DRAM
      technology: DRAM
      size_words: null
      word_bits: 16
      block_size: 4
      energy_pJ: {read: 512, fill: 512, update: 512, leak: 0}
    - name: GLB
      technology: SRAM
      size_words: 65536
      block_size: 4
      read_bw: 16
      write_bw: 16.5
      multiple_buffering: 2
      energy_pJ: {read: 32.377775, fill: 26.156875, update: 26.156875, leak: 0.005353}
      area_um2: 12345.5
      energy_fixed: true
    - name: spatial
      technology: dummy
      instances: 1
    - name: RF
      technology: regfile
      size_words: 64
      instances: 16
      mesh_x: 4
      energy_pJ: {read: 0.1, fill: 0.2, update: 0.3}
  compute:
    name: MAC
    instances: 16
    mesh_x: 4
    energy_pJ: 2.2
    area_um2: 1239.5
mappings:
  - name: conv1d-ws
    workload: conv1d
    description: 'Weights stay: "R" innermost.'
    levels:
      - level: DRAM
        temporal: [[P, 4]]
      - level: GLB
        temporal: [[R, 3]]
        bypass: [Weights]
      - level: spatial
        spatial_x: [[P, 4]]
        keep: []
      - level: RF
        temporal: [[P, 1]]
  - name: conv1d-imperfect
    workload: conv1d
    levels:
      - level: DRAM
        temporal: [[P, 5, 4]]
      - level: GLB
        temporal: [[R, 3], [P, 4]]
        keep: [Inputs, Outputs]
      - level: spatial
        keep: []
constraints:
  - {target: DRAM, type: temporal, factors: "R=1 S<=3 P>=2", permutation: "Q P"}
  - {target: spatial, type: spatial, factors: "P<=4 M=2", split: "P|C M"}
  - {target: spatial, type: spatial, workload: conv3_1, spatial_x: [Q], spatial_y: []}
  - {target: GLB, type: bypass, keep: [Inputs], bypass: [Weights]}
  - {target: RF, type: datatype, workload: gemm1, keep: [A, B]}
  - {type: utilization, min: 0.25}
job:
  workload: conv1d
  mapping: conv1d-imperfect
)";

} // namespace

class TestProjectYaml : public QObject {
    Q_OBJECT
private slots:
    void baseIsValid();
    void richProjectValues();
    void roundTrip();
    void roundTripExactDoubles();
    void constraintsValues();
    void roundTripExamples_data();
    void roundTripExamples();
    void badInput_data();
    void badInput();
    void includes();
    void includeCycle();
    void includeMissingAndDuplicates();
    void selectMapping();
    void saveIsAtomic();
};

void TestProjectYaml::baseIsValid()
{
    const Project p = parseProject(kBase, "base.yaml");
    QCOMPARE(p.workloads.size(), std::size_t(1));
    QCOMPARE(p.architecture.levels.size(), std::size_t(1));
    QCOMPARE(p.mappings.size(), std::size_t(1));
    QCOMPARE(p.energyModel, std::string("table"));
    QCOMPARE(p.path, std::string("base.yaml"));
}

void TestProjectYaml::richProjectValues()
{
    const Project p = parseProject(kRich, "rich.yaml");
    QCOMPARE(p.name, std::string("rich: project"));
    QCOMPARE(p.workloads.size(), std::size_t(6));
    const ProjectWorkload* conv = p.findWorkload("conv3_1");
    QVERIFY(conv);
    QCOMPARE(conv->spec.type, std::string("conv"));
    QCOMPARE(conv->spec.conv.strideH, std::int64_t(2));
    QCOMPARE(conv->spec.conv.strideW, std::int64_t(1));
    QCOMPARE(conv->spec.conv.dilationW, std::int64_t(2));
    QCOMPARE(conv->workload.macs(), std::int64_t(16 * 8 * 14 * 14 * 9));
    QCOMPARE(p.findWorkload("dw")->spec.conv.strideW, std::int64_t(2));   // scalar stride = both
    QCOMPARE(p.findWorkload("grp")->spec.conv.groups, std::int64_t(2));
    QCOMPARE(p.findWorkload("fc6")->spec.fcIn, std::int64_t(20));
    QCOMPARE(p.findWorkload("gemm1")->workload.macs(), std::int64_t(8 * 4 * 16));
    const Workload& c1d = p.findWorkload("conv1d")->workload;
    QCOMPARE(c1d.tensors[1].ranks[0].size(), std::size_t(2));
    QCOMPARE(c1d.tensors[1].ranks[0][1].coef, std::int64_t(2));  // "R + 2*P"
    QCOMPARE(c1d.tensorSize(1), std::int64_t(2 + 2 * 15 + 1));
    QVERIFY(c1d.tensors[2].readWrite);

    QCOMPARE(p.networks[0].layers[1], (std::pair<std::string, std::int64_t>("dw", 3)));
    QCOMPARE(p.networks[0].layers[2].second, std::int64_t(1));

    const Architecture& a = p.architecture;
    QCOMPARE(a.cycle_seconds, 1.25e-9);
    QVERIFY(!a.levels[0].size_words);                    // null = unbounded
    QCOMPARE(a.levels[1].word_bits, 16);                 // default
    QCOMPARE(*a.levels[1].read_bw_words_per_cycle, 16.0);
    QVERIFY(!a.levels[1].shared_bw_words_per_cycle);
    QCOMPARE(a.levels[1].multiple_buffering, 2.0);
    QCOMPARE(a.levels[1].energy.read_pJ, 32.377775);
    QCOMPARE(*a.levels[2].size_words, std::int64_t(0));  // dummy
    QCOMPARE(a.levels[2].meshX, std::int64_t(1));        // 1 instance
    QCOMPARE(a.levels[3].meshX, std::int64_t(4));
    QCOMPARE(a.levels[3].energy.leak_pJ, 0.0);           // missing leak = 0
    QCOMPARE(a.compute.mac_energy_pJ, 2.2);

    const ProjectMapping* m = p.findMapping("conv1d-ws");
    QVERIFY(m);
    QCOMPARE(m->description, std::string("Weights stay: \"R\" innermost."));
    QCOMPARE(m->mapping.levels.size(), std::size_t(4));
    QCOMPARE(m->mapping.levels[1].keep, (std::vector<bool>{false, true, true}));  // bypass: [Weights]
    QCOMPARE(m->mapping.levels[2].keep, (std::vector<bool>{false, false, false}));
    QVERIFY(m->mapping.levels[0].keep.empty());  // keep all
    QCOMPARE(m->mapping.levels[2].spatialX.size(), std::size_t(1));
    const ProjectMapping* imp = p.findMapping("conv1d-imperfect");
    QCOMPARE(imp->mapping.levels[0].temporal[0].residual, std::int64_t(4));
    QCOMPARE(imp->mapping.levels[0].temporal[0].bound, std::int64_t(5));
    QVERIFY(imp->mapping.levels[3].temporal.empty());  // unlisted level: no loops
    QVERIFY(imp->mapping.levels[3].keep.empty());      // ... and keeps everything
    QCOMPARE(p.jobMapping, std::string("conv1d-imperfect"));
}

void TestProjectYaml::roundTrip()
{
    const Project p = parseProject(kRich, "rich.yaml");
    const std::string text = writeProject(p);
    Project q;
    try {
        q = parseProject(text, "written.yaml");
    } catch (const NestorError& e) {
        QFAIL(qPrintable(QString::fromStdString(std::string(e.what()) + "\n--- written text:\n" + text)));
    }
    QVERIFY2(sameProject(p, q), text.c_str());
    QCOMPARE(writeProject(q), text);
}

void TestProjectYaml::constraintsValues()
{
    const Project p = parseProject(kRich, "rich.yaml");
    QCOMPARE(p.constraints.size(), std::size_t(6));
    const ProjectConstraint& t = p.constraints[0];
    QCOMPARE(t.type, ProjectConstraint::Type::Temporal);
    QCOMPARE(t.factors.size(), std::size_t(3));
    QCOMPARE(t.factors[1].dim, std::string("S"));
    QCOMPARE(t.factors[1].op, FactorConstraint::Op::Le);
    QCOMPARE(t.factors[2].op, FactorConstraint::Op::Ge);
    QCOMPARE(t.permutation, (std::vector<std::string>{"Q", "P"}));
    const ProjectConstraint& s = p.constraints[1];
    QVERIFY(s.hasAxes && s.factors.front().spatial);
    QCOMPARE(s.axisX, std::vector<std::string>{"P"});
    QCOMPARE(s.axisY, (std::vector<std::string>{"C", "M"}));
    QCOMPARE(p.constraints[2].workload, std::string("conv3_1"));
    QVERIFY(p.constraints[2].axisY.empty());
    QCOMPARE(p.constraints[4].type, ProjectConstraint::Type::Bypass);
    QCOMPARE(p.constraints[5].minUtilization, 0.25);
    // per layer: conv3_1 gets every entry but the gemm one; conv1d (R, P) loses S, C, M, Q
    const MapspaceConstraints conv = p.constraintsFor(p.findWorkload("conv3_1")->workload);
    QCOMPARE(conv.factors.size(), std::size_t(5));
    QCOMPARE(conv.spatialAxes.size(), std::size_t(2));
    QCOMPARE(conv.keeps.size(), std::size_t(2));
    QCOMPARE(conv.minUtilization, 0.25);
    const MapspaceConstraints c1d = p.constraintsFor(p.findWorkload("conv1d")->workload);
    QCOMPARE(c1d.factors.size(), std::size_t(4));  // R=1 P>=2 P<=4, and M=2 (cannot hold: kept to be reported)
    QCOMPARE(c1d.permutations.front().innermostFirst, std::vector<std::string>{"P"});
    QCOMPARE(c1d.spatialAxes.front().y, std::vector<std::string>{});
    const MapspaceConstraints g = p.constraintsFor(p.findWorkload("gemm1")->workload);
    QCOMPARE(g.keeps.size(), std::size_t(2));  // A and B at RF; Inputs/Weights are not gemm tensors
}

void TestProjectYaml::roundTripExactDoubles()
{
    Project p = parseProject(kRich, "rich.yaml");
    p.architecture.levels[1].energy.read_pJ = 0.1 + 0.2;  // 0.30000000000000004
    p.architecture.levels[1].area_um2 = 1.0 / 3.0;
    p.architecture.cycle_seconds = 7.123456789012345e-10;
    p.architecture.compute.mac_energy_pJ = 1e-300;
    const Project q = parseProject(writeProject(p), "written.yaml");
    QCOMPARE(q.architecture.levels[1].energy.read_pJ, 0.1 + 0.2);
    QCOMPARE(q.architecture.levels[1].area_um2, 1.0 / 3.0);
    QCOMPARE(q.architecture.cycle_seconds, 7.123456789012345e-10);
    QCOMPARE(q.architecture.compute.mac_energy_pJ, 1e-300);
    QVERIFY(sameProject(p, q));
}

void TestProjectYaml::roundTripExamples_data()
{
    QTest::addColumn<QString>("file");
    const QDir dir(QString::fromUtf8(NESTOR_EXAMPLES_DIR));
    for (const QString& sub : {QString(), QStringLiteral("teaching")})
        for (const QString& f : QDir(dir.filePath(sub)).entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(QDir(sub).filePath(f))) << dir.filePath(QDir(sub).filePath(f));
}

void TestProjectYaml::roundTripExamples()
{
    QFETCH(QString, file);
    Project p;
    try {
        p = readProject(file.toStdString());
    } catch (const NestorError& e) {
        QFAIL(qPrintable(QStringLiteral("example does not read: ") + e.what()));
    }
    const std::string text = writeProject(p);
    const Project q = parseProject(text, "written.yaml");
    QVERIFY(sameProject(p, q));
}

void TestProjectYaml::badInput_data()
{
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("message");  // expected part of the message
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    auto row = [](const char* name, const std::string& yaml, const char* message, std::pair<int, int> pos) {
        QTest::newRow(name) << QString::fromStdString(yaml) << QString::fromUtf8(message) << pos.first << pos.second;
    };
    std::string y;

    y = replaced(kBase, "    type: custom\n", "    type: custom\n   bad: [1\n");
    row("malformed YAML", y, "malformed YAML", {5, 4});  // yaml-cpp reports where the block map breaks

    y = kBase + "colour: blue\n";
    row("unknown top-level key", y, "unknown key 'colour'", {23, 1});

    // yaml-cpp would read only "nestor: 1" and silently drop the rest (found by tests/fuzz).
    y = "  " + kBase;
    row("first key indented", y, "a second document starts here", {2, 1});

    // A binary file (an ONNX model) is told apart at its first NUL byte, not wherever the YAML
    // parser trips: 22 lines of kBase, then "notes: a" and the NUL in column 9.
    y = kBase + std::string("notes: a\0b\n", 11);
    row("binary content", y, "not a text file (a NUL byte here)", {23, 9});

    y = replaced(kBase, "      size_words: 64\n", "      size_words: 64\n      sizewords: 3\n");
    row("unknown level key", y, "unknown key 'sizewords'", positionOf(y, "sizewords"));

    y = replaced(kBase, "  - name: m\n", "  - name: m\n    permutation: PR\n");
    row("unknown mapping key", y, "unknown key 'permutation'", positionOf(y, "permutation"));

    y = replaced(kBase, "[[P, 16], [R, 3]]", "[[P, 16], [X, 3]]");
    row("unknown dimension", y, "unknown dimension 'X'", positionOf(y, "X, 3"));

    y = replaced(kBase, "[\"R + P\"]", "[\"R + Z\"]");
    row("unknown dimension in rank", y, "unknown dimension 'Z'", positionOf(y, "\"R + Z\""));

    y = replaced(kBase, "      - level: Buf\n", "      - level: GLB\n");
    row("unknown level", y, "unknown level 'GLB'", positionOf(y, "GLB"));

    y = kBase + "        keep: [Weights, Psums]\n";
    row("unknown tensor", y, "unknown tensor 'Psums'", positionOf(y, "Psums"));

    y = replaced(kBase, "      energy_pJ: {read: 1, fill: 1, update: 1}\n", "      energy_fixed: true\n");
    row("energy_fixed without energies", y, "energy_fixed: true needs", positionOf(y, "true\n"));

    y = replaced(kBase, "    workload: c1\n", "    workload: c2\n");
    row("unknown workload", y, "unknown workload 'c2'", positionOf(y, "c2"));

    y = replaced(kBase, "[[P, 16], [R, 3]]", "[[P, 8], [R, 3]]");
    row("factor product", y, "bound is 16", positionOf(y, "name: m"));  // the mapping's node

    y = replaced(kBase, "        temporal: [[P, 16], [R, 3]]\n",
                 "        spatial_x: [[P, 16]]\n        temporal: [[R, 3]]\n");
    row("fanout exceeded", y, "fanout in X is 1", positionOf(y, "[[P, 16]]"));

    y = replaced(kBase, "size_words: 64", "size_words: 0");
    row("zero size", y, "size_words must be positive", positionOf(y, "0\n      energy"));

    y = replaced(kBase, "{R: 3, P: 16}", "{R: 3, P: -16}");
    row("negative bound", y, "must be a positive integer", positionOf(y, "-16"));

    y = replaced(kBase, "      size_words: 64\n", "      size_words: 64\n      instances: -2\n");
    row("negative instances", y, "must be a positive integer", positionOf(y, "-2"));

    y = replaced(kBase, "[[P, 16], [R, 3]]", "[[P, 16], [R, 0]]");
    row("zero loop bound", y, "must be a positive integer", positionOf(y, "0]]"));

    y = replaced(kBase, "[[P, 16], [R, 3]]", "[[P, 16], [R, 3, 4]]");
    row("residual above bound", y, "residual must not exceed", positionOf(y, "4]]"));

    y = replaced(kBase, "size_words: 64", "size_words: big");
    row("wrong type int", y, "expected an integer", positionOf(y, "big"));

    y = replaced(kBase, "energy_pJ: 0.5", "energy_pJ: [0.5]");
    row("wrong type number", y, "expected a single value", positionOf(y, "[0.5]"));

    y = replaced(kBase, "nestor: 1\n", "");
    row("missing version", y, "required key 'nestor'", {1, 1});

    y = replaced(kBase, "nestor: 1", "nestor: 2");
    row("wrong version", y, "unsupported schema version 2", {1, 9});

    y = replaced(kBase, "    type: custom\n", "    type: conv3d\n");
    row("unknown workload type", y, "unknown workload type 'conv3d'", positionOf(y, "conv3d"));

    y = replaced(kBase, "architecture:\n", "  - {name: c1, type: gemm, M: 2, N: 2, K: 2}\narchitecture:\n");
    row("duplicate workload", y, "duplicate workload name 'c1'", positionOf(y, "c1", 2));

    y = kBase + "  - name: m\n    workload: c1\n";
    row("duplicate mapping", y, "duplicate mapping name 'm'", positionOf(y, "m\n    workload", 2));

    y = replaced(kBase, "      energy_pJ: {read: 1, fill: 1, update: 1}\n", "");
    row("table energy missing", y, "energy_pJ {read, fill, update, leak} is required", positionOf(y, "name: Buf"));

    y = replaced(kBase, "{read: 1, fill: 1, update: 1}", "{read: 1, update: 1}");
    row("table fill missing", y, "required key 'fill'", positionOf(y, "{read: 1, update"));  // the energy_pJ map

    y = replaced(kBase, "      size_words: 64\n", "      size_words: 64\n      instances: 2\n");
    row("architecture validate", y, "must be a multiple of 2", positionOf(y, "2\n"));

    y = kBase + "        keep: [Weights]\n        bypass: [Inputs]\n";
    row("keep and bypass", y, "either keep or bypass", positionOf(y, "[Inputs]"));

    y = replaced(kBase, "      - level: Buf\n", "      - level: Buf\n      - level: Buf\n");
    row("level listed twice", y, "listed twice", positionOf(y, "Buf", 3));

    y = replaced(kBase, "  compute:\n", "    - name: Buf\n      size_words: 8\n      energy_pJ: {read: 1, fill: 1, update: 1}\n  compute:\n");
    row("duplicate level", y, "duplicate level name 'Buf'", positionOf(y, "Buf", 2));

    y = replaced(kBase, "      size_words: 64\n", "      size_words: 64\n      technology: flash\n");
    row("unknown technology", y, "unknown technology 'flash'", positionOf(y, "flash"));

    y = kBase + "job: {mapping: nope}\n";
    row("unknown job mapping", y, "unknown mapping 'nope'", positionOf(y, "nope"));

    y = replaced(kBase, "  levels:\n", "  energy_model: magic\n  levels:\n");
    row("unknown energy model", y, "unknown energy model 'magic'", positionOf(y, "magic"));

    y = "nestor: 1\nworkloads:\n  - {name: c, type: conv, M: 0}\n";
    row("conv zero size", y, "must be a positive integer", positionOf(y, "0}"));

    y = "nestor: 1\nworkloads:\n  - {name: c, type: conv, K: 3}\n";
    row("conv unknown key", y, "unknown key 'K'", positionOf(y, "K"));

    y = "nestor: 1\nworkloads:\n  - {name: c, type: depthwise, C: 3, M: 3}\n";
    row("depthwise has no M", y, "unknown key 'M'", positionOf(y, "M: 3"));

    // constraints (kBase: workload c1 with R, P; one level Buf, no fanout)
    const std::string cs = "constraints:\n";
    y = kBase + cs + "  - {target: GLB, type: temporal, factors: \"P=2\"}\n";
    row("constraint unknown level", y, "unknown level 'GLB'", positionOf(y, "GLB"));
    y = kBase + cs + "  - {target: Buf, type: temporal, factors: \"X=2\"}\n";
    row("constraint unknown dimension", y, "unknown dimension 'X'", positionOf(y, "\"X=2\""));
    y = kBase + cs + "  - {target: Buf, type: temporal, factors: \"P~2\"}\n";
    row("constraint malformed factor", y, "is not D=n, D<=n or D>=n", positionOf(y, "\"P~2\""));
    y = kBase + cs + "  - {target: Buf, type: temporal, factors: \"P=0\"}\n";
    row("constraint zero factor", y, "factors are at least 1", positionOf(y, "\"P=0\""));
    y = kBase + cs + "  - {target: Buf, type: temporal, factors: \"P=2 P=4\"}\n";
    row("constraint contradictory factors", y, "contradictory factors for P", positionOf(y, "\"P=2 P=4\""));
    y = kBase + cs + "  - {target: Buf, type: temporal, factors: \"P>=8 P<=4\"}\n";
    row("constraint empty range", y, "contradictory factors for P", positionOf(y, "\"P>=8"));
    y = kBase + cs + "  - {target: Buf, type: temporal, permutation: \"R Z\"}\n";
    row("constraint unknown permutation dim", y, "unknown dimension 'Z'", positionOf(y, "\"R Z\""));
    y = kBase + cs + "  - {target: Buf, type: temporal, permutation: \"R_P\"}\n";
    row("constraint permutation suffix", y, "outermost suffix", positionOf(y, "\"R_P\""));
    y = kBase + cs + "  - {target: Buf, type: temporal, permutation: \"RPR\"}\n";
    row("constraint permutation twice", y, "appears twice", positionOf(y, "\"RPR\""));
    y = kBase + cs + "  - {target: Buf, type: spatial, factors: \"P=2\"}\n";
    row("constraint spatial without fanout", y, "exceeds the fanout (1)", positionOf(y, "\"P=2\""));
    y = kBase + cs + "  - {target: Buf, type: spatial, split: \"P|R\"}\n";
    row("constraint split without fanout", y, "has no spatial fanout", positionOf(y, "\"P|R\""));
    y = kBase + cs + "  - {target: Buf, type: temporal, split: \"P|R\"}\n";
    row("constraint split on temporal", y, "unknown key 'split'", positionOf(y, "split"));
    y = kBase + cs + "  - {target: Buf, type: bypass, keep: [Psums]}\n";
    row("constraint unknown tensor", y, "unknown tensor 'Psums'", positionOf(y, "[Psums]"));
    y = kBase + cs + "  - {target: Buf, type: bypass, keep: [Inputs], bypass: [Inputs]}\n";
    row("constraint keep and bypass", y, "both kept and bypassed", positionOf(y, "[Inputs]", 2));
    y = kBase + cs + "  - {target: Buf, type: bypass, bypass: [Weights]}\n";
    row("constraint bypass at backing store", y, "keeps every tensor", positionOf(y, "[Weights]"));
    y = kBase + cs + "  - {type: utilization, min: 1.5}\n";
    row("constraint utilization range", y, "between 0 and 1", positionOf(y, "1.5"));
    y = kBase + cs + "  - {target: Buf, type: diagonal}\n";
    row("constraint unknown type", y, "unknown constraint type 'diagonal'", positionOf(y, "diagonal"));
    y = kBase + cs + "  - {target: Buf, type: temporal, workload: c9, factors: \"P=2\"}\n";
    row("constraint unknown workload", y, "unknown workload 'c9'", positionOf(y, "c9"));
    y = kBase + cs + "  - {target: Buf, type: temporal}\n";
    row("constraint without content", y, "needs factors or a permutation", positionOf(y, "{target: Buf"));
    // Numbers beyond 64 bits: a located range error naming the token (was "internal error: stoll").
    y = kBase + cs + "  - {target: Buf, type: temporal, factors: \"R=1 P=12345678901234567890123456789\"}\n";
    row("constraint factor of 29 digits", y, "'P=12345678901234567890123456789': the factor exceeds 2^62 - 1",
        positionOf(y, "\"R=1 P=1234"));
    y = replaced(kBase, "ranks: [\"R + P\"]", "ranks: [\"R + 99999999999999999999*P\"]");
    row("rank coefficient beyond 64 bits", y, "coefficient in '99999999999999999999*P' exceeds 2^63 - 1",
        positionOf(y, "\"R + 9999"));
}

void TestProjectYaml::badInput()
{
    QFETCH(QString, yaml);
    QFETCH(QString, message);
    QFETCH(int, line);
    QFETCH(int, column);
    try {
        parseProject(yaml.toStdString(), "bad.yaml");
        QFAIL("no error");
    } catch (const NestorError& e) {
        QVERIFY(!e.diagnostics().empty());
        const Diagnostic& d = e.diagnostics().front();
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.contains(message), qPrintable(what));
        QCOMPARE(QString::fromStdString(d.location.file), QStringLiteral("bad.yaml"));
        QVERIFY2(d.location.line == line && d.location.column == column,
                 qPrintable(QStringLiteral("got %1:%2, expected %3:%4 (%5)")
                                .arg(d.location.line)
                                .arg(d.location.column)
                                .arg(line)
                                .arg(column)
                                .arg(what)));
        // The message starts with file:line:column.
        QVERIFY2(what.startsWith(QStringLiteral("bad.yaml:%1:%2: ").arg(line).arg(column)), qPrintable(what));
    }
}

void TestProjectYaml::includes()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir(dir.path()).mkpath(QStringLiteral("layers"));
    writeFile(dir.filePath(QStringLiteral("layers/conv.yaml")),
              "workloads:\n"
              "  - name: c1\n"
              "    type: custom\n"
              "    dimensions: {R: 3, P: 16}\n"
              "    tensors:\n"
              "      - {name: Weights, ranks: [R]}\n"
              "      - {name: Inputs, ranks: [\"R + P\"]}\n"
              "      - {name: Outputs, ranks: [P], read_write: true}\n"
              "include: [../arch.yaml]\n");
    writeFile(dir.filePath(QStringLiteral("arch.yaml")),
              "nestor: 1\n"
              "architecture:\n"
              "  levels:\n"
              "    - {name: Buf, size_words: 64, energy_pJ: {read: 1, fill: 1, update: 1}}\n"
              "  compute: {energy_pJ: 0.5}\n");
    writeFile(dir.filePath(QStringLiteral("main.yaml")),
              "nestor: 1\n"
              "name: with-includes\n"
              "include: [layers/conv.yaml]\n"
              "mappings:\n"
              "  - {name: m, workload: c1, levels: [{level: Buf, temporal: [[P, 16], [R, 3]]}]}\n");
    const Project p = readProject(dir.filePath(QStringLiteral("main.yaml")).toStdString());
    QCOMPARE(p.name, std::string("with-includes"));
    QCOMPARE(p.workloads.size(), std::size_t(1));
    QCOMPARE(p.architecture.levels[0].name, std::string("Buf"));
    QCOMPARE(p.mappings[0].mapping.levels[0].temporal.size(), std::size_t(2));
    // The writer inlines everything.
    const Project q = parseProject(writeProject(p), "inline.yaml");
    QVERIFY(sameProject(p, q));

    // An error inside an included file names that file.
    writeFile(dir.filePath(QStringLiteral("arch.yaml")),
              "architecture:\n"
              "  levels:\n"
              "    - {name: Buf, size_words: -64, energy_pJ: {read: 1, fill: 1, update: 1}}\n"
              "  compute: {energy_pJ: 0.5}\n");
    {
        const std::optional<NestorError> e = readError(dir.filePath(QStringLiteral("main.yaml")));
        QVERIFY(e);
        const Diagnostic& d = e->diagnostics().front();
        QVERIFY2(QString::fromStdString(d.location.file).endsWith(QStringLiteral("arch.yaml")), e->what());
        QCOMPARE(d.location.line, 3);
        QCOMPARE(d.location.column, 31);  // the "-64"
        QCOMPARE(d.field, std::string("architecture.levels[0].size_words"));
    }
}

void TestProjectYaml::includeCycle()
{
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("a.yaml")), "nestor: 1\ninclude: [b.yaml]\n");
    writeFile(dir.filePath(QStringLiteral("b.yaml")), "workloads: []\ninclude:\n  - c.yaml\n");
    writeFile(dir.filePath(QStringLiteral("c.yaml")), "include: [b.yaml]\n");
    {
        const std::optional<NestorError> e = readError(dir.filePath(QStringLiteral("a.yaml")));
        QVERIFY(e);
        const Diagnostic& d = e->diagnostics().front();
        QVERIFY2(QString::fromUtf8(e->what()).contains(QStringLiteral("include cycle")), e->what());
        QVERIFY2(QString::fromStdString(d.location.file).endsWith(QStringLiteral("c.yaml")), e->what());
        QCOMPARE(d.location.line, 1);
        QCOMPARE(d.location.column, 11);
    }
    // A file including itself.
    writeFile(dir.filePath(QStringLiteral("self.yaml")), "nestor: 1\ninclude: [self.yaml]\n");
    QVERIFY_THROWS_EXCEPTION(NestorError, readProject(dir.filePath(QStringLiteral("self.yaml")).toStdString()));
}

void TestProjectYaml::includeMissingAndDuplicates()
{
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("main.yaml")), "nestor: 1\ninclude: [nothere.yaml]\n");
    {
        const std::optional<NestorError> e = readError(dir.filePath(QStringLiteral("main.yaml")));
        QVERIFY(e);
        QVERIFY2(QString::fromUtf8(e->what()).contains(QStringLiteral("cannot open included file 'nothere.yaml'")),
                 e->what());
        QCOMPARE(e->diagnostics().front().location.line, 2);
        QCOMPARE(e->diagnostics().front().location.column, 11);
    }
    // A directory where a file is expected: said so, not read as an empty file.
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
    writeFile(dir.filePath(QStringLiteral("main.yaml")), "nestor: 1\ninclude: [sub]\n");
    {
        const std::optional<NestorError> e = readError(dir.filePath(QStringLiteral("main.yaml")));
        QVERIFY(e);
        QVERIFY2(QString::fromUtf8(e->what()).contains(QStringLiteral("cannot open included file 'sub'")), e->what());
        QVERIFY2(QString::fromUtf8(e->what()).contains(QStringLiteral(": a directory, not a file")), e->what());
        QCOMPARE(e->diagnostics().front().location.line, 2);
    }
    {
        const std::optional<NestorError> e = readError(dir.filePath(QStringLiteral("sub")));
        QVERIFY(e);
        QVERIFY2(QString::fromUtf8(e->what()).contains(QStringLiteral("a directory, not a file")), e->what());
    }
    writeFile(dir.filePath(QStringLiteral("w.yaml")), "workloads:\n  - {name: g, type: gemm, M: 2, N: 2, K: 2}\n");
    writeFile(dir.filePath(QStringLiteral("main.yaml")),
              "nestor: 1\ninclude: [w.yaml]\nworkloads:\n  - {name: g, type: gemm, M: 4, N: 2, K: 2}\n");
    {
        const std::optional<NestorError> e = readError(dir.filePath(QStringLiteral("main.yaml")));
        QVERIFY(e);
        const QString what = QString::fromUtf8(e->what());
        QVERIFY2(what.contains(QStringLiteral("duplicate workload name 'g' (first defined at ")), e->what());
        QVERIFY2(what.contains(QStringLiteral("w.yaml:2:")), e->what());
        QCOMPARE(e->diagnostics().front().location.line, 4);
    }
    writeFile(dir.filePath(QStringLiteral("main.yaml")), "nestor: 1\ninclude: [w.yaml, w.yaml]\n");
    {
        const std::optional<NestorError> e = readError(dir.filePath(QStringLiteral("main.yaml")));
        QVERIFY(e);
        QVERIFY2(QString::fromUtf8(e->what()).contains(QStringLiteral("included more than once")), e->what());
        QCOMPARE(e->diagnostics().front().location.column, 19);
    }
}

void TestProjectYaml::selectMapping()
{
    Project p = parseProject(kRich, "rich.yaml");
    QCOMPARE(p.selectMapping()->mapping.name, std::string("conv1d-imperfect"));  // job default
    QCOMPARE(p.selectMapping("conv1d-ws")->mapping.name, std::string("conv1d-ws"));
    QVERIFY(p.selectMapping("nope") == nullptr);
    p.jobMapping.clear();
    QCOMPARE(p.selectMapping()->mapping.name, std::string("conv1d-ws"));  // first
    p.mappings.clear();
    QVERIFY(p.selectMapping() == nullptr);
    QVERIFY(p.findWorkload("gemm1"));
    QVERIFY(!p.findWorkload("nope"));
}

void TestProjectYaml::saveIsAtomic()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("saved.yaml")).toStdString();
    const Project p = parseProject(kRich, "rich.yaml");
    saveProject(p, path);
    saveProject(p, path);  // replaces
    QVERIFY(sameProject(readProject(path), p));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // no temporary left
    QVERIFY_THROWS_EXCEPTION(NestorError, saveProject(p, dir.filePath(QStringLiteral("no/such/dir/x.yaml")).toStdString()));
}

QTEST_APPLESS_MAIN(TestProjectYaml)
#include "tst_projectyaml.moc"
