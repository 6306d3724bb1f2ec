// Import of Timeloop's own input files (io/TimeloopImport.h). Truth: the Timeloop reference
// cases (tests/data/timeloop/cases), whose designs tests/data/timeloop/inputs describes again in
// Timeloop's syntax; positions of bad values are found in the test's own text.
#include "support/TextEdits.h"
#include "common/Error.h"
#include "common/TextFile.h"
#include "core/MapspaceConstraints.h"
#include "io/ProjectYaml.h"
#include "io/ReferenceCase.h"
#include "io/ReferenceCheck.h"
#include "io/TimeloopImport.h"
#include "model/Model.h"

#include <QtTest/QtTest>

#ifndef NESTOR_TEST_DATA_DIR
#error "NESTOR_TEST_DATA_DIR must name tests/data"
#endif

using namespace nestor;
using test::positionOf;
using test::replaced;

namespace {

std::string inputPath(const std::string& name)
{
    return std::string(NESTOR_TEST_DATA_DIR) + "/timeloop/inputs/" + name;
}
std::string casePath(const std::string& name)
{
    return std::string(NESTOR_TEST_DATA_DIR) + "/timeloop/cases/" + name + ".yaml";
}

std::vector<std::string> split(const QString& s)
{
    std::vector<std::string> out;
    for (const auto& part : s.split(QLatin1Char(','), Qt::SkipEmptyParts)) out.push_back(inputPath(part.toStdString()));
    return out;
}

// A small valid design as three sources; the bad-input tests break one value at a time.
const std::string kArch = R"(architecture:
  version: 0.3
  subtree:
    - name: PE
      local:
        - name: MainMemory
          class: DRAM
          attributes: {width: 64, datawidth: 8}
        - name: Buffer
          class: regfile
          attributes:
            depth: 64
            width: 8
            datawidth: 8
        - name: MACC
          class: intmac
          attributes: {datawidth: 16}
)";
const std::string kProb = R"(problem:
  shape:
    name: Conv1D
    dimensions: [R, P]
    data_spaces:
      - name: Weights
        projection: [[[R]]]
      - name: Inputs
        projection:
          - [[R], [P]]
      - name: Outputs
        projection: [[[P]]]
        read_write: true
  instance: {R: 3, P: 16}
)";
const std::string kMap = R"(mapping:
  - target: MainMemory
    type: temporal
    factors: R=1 P=16
    permutation: RP
  - target: Buffer
    type: temporal
    factors: R=3 P=1
    permutation: RP
)";

struct Texts {
    std::string arch = kArch, prob = kProb, map = kMap;
    std::vector<TimeloopSource> sources() const
    {
        return {{"arch.yaml", arch}, {"prob.yaml", prob}, {"map.yaml", map}};
    }
};

// The import fails, and its message holds every one of `parts`.
void expectError(const std::vector<TimeloopSource>& sources, const std::vector<std::string>& parts,
                 const TimeloopImportOptions& opt = {})
{
    try {
        importTimeloopSources(sources, opt);
    } catch (const NestorError& e) {
        const std::string msg = e.what();
        for (const auto& p : parts)
            if (msg.find(p) == std::string::npos)
                QFAIL(qPrintable(QString::fromStdString("'" + p + "' not in the error: " + msg)));
        return;
    }
    QFAIL("the import succeeded");
}

std::string at(const std::string& file, const std::string& text, const std::string& needle, int occurrence = 1)
{
    const auto [line, col] = positionOf(text, needle, occurrence);
    return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

} // namespace

class TestTimeloopImport : public QObject {
    Q_OBJECT
private slots:
    void matchesReferenceCase_data();
    void matchesReferenceCase();
    void writtenProjectEvaluates();
    void energyModelWithoutErt();
    void ertVariantsTakeTheLargest();
    void timeloopDefaults();
    void badInput_data();
    void badInput();
    void keyInTwoFiles();
    void emptyAndNonMapFiles();
    void badErt();
    void constraints();
    void nodeConstraints();
    void badArchitectureForms();
    void legacyForms();
};

void TestTimeloopImport::matchesReferenceCase_data()
{
    QTest::addColumn<QString>("files");
    QTest::addColumn<QString>("ert");
    QTest::addColumn<QString>("caseName");
    QTest::newRow("v0.3 tree, separate files") << "conv1d-2level.arch.yaml,conv1d.prob.yaml,conv1d-2level-os.map.yaml"
                                               << "conv1d-2level.ERT.yaml" << "ispass20-01-conv1d-2level-os";
    QTest::newRow("v0.3 tree written with YAML merge keys")
        << "conv1d-2level.merge-keys.arch.yaml,conv1d.prob.yaml,conv1d-2level-os.map.yaml" << "conv1d-2level.ERT.yaml"
        << "ispass20-01-conv1d-2level-os";
    QTest::newRow("legacy storage list") << "conv1d-2level.legacy-arch.yaml,conv1d.prob.yaml,conv1d-2level-os.map.yaml"
                                         << "conv1d-2level.ERT.yaml" << "ispass20-01-conv1d-2level-os";
    QTest::newRow("libconfig .cfg: legacy design, problem and mapping in one file")
        << "conv1d-2level-os.legacy.cfg" << "conv1d-2level.ERT.yaml" << "ispass20-01-conv1d-2level-os";
    QTest::newRow("one merged file with bypass and ERT") << "conv1d-oc-3level-bypass.input.yaml" << ""
                                                          << "ispass20-03-conv1d-oc-3level-bypass";
    QTest::newRow("v0.4 nodes, spatial fanout")
        << "conv1d-oc-ic-spatial.arch.yaml,conv1d-oc-ic.prob.yaml,conv1d-oc-ic-spatial-kp.map.yaml"
        << "conv1d-oc-3level.ERT.yaml" << "ispass20-04-conv1d-oc-ic-spatial-kp";
    QTest::newRow("v0.4 nodes, infinite memory depth and bandwidths")
        << "conv1d-oc-ic-spatial.inf-memory.arch.yaml,conv1d-oc-ic.prob.yaml,conv1d-oc-ic-spatial-kp.map.yaml"
        << "conv1d-oc-3level.ERT.yaml" << "ispass20-04-conv1d-oc-ic-spatial-kp";
    QTest::newRow("v0.4 nodes, word width on the outer container")
        << "conv1d-oc-ic-spatial.container-attributes.arch.yaml,conv1d-oc-ic.prob.yaml,conv1d-oc-ic-spatial-kp.map.yaml"
        << "conv1d-oc-3level.ERT.yaml" << "ispass20-04-conv1d-oc-ic-spatial-kp";
    QTest::newRow("eyeriss-like, v0.4 nodes with a !Parallel")
        << "eyeriss-like.v04-parallel.arch.yaml,cnn-layer-conv3_1.prob.yaml,eyeriss-like-rs.map.yaml" << "eyeriss-like.ERT.yaml"
        << "ispass20-tl+acc-eyeriss-int16";
    QTest::newRow("eyeriss-like, nested subtrees")
        << "eyeriss-like.arch.yaml,cnn-layer-conv3_1.prob.yaml,eyeriss-like-rs.map.yaml" << "eyeriss-like.ERT.yaml"
        << "ispass20-tl+acc-eyeriss-int16";
}

// Import, evaluate with the engine's model, and compare every figure the case recorded (cycles,
// per level and tensor reads / fills / updates / capacities / instances, energies within the
// case tolerance); the imported values also equal the case's workload, levels and loops.
void TestTimeloopImport::matchesReferenceCase()
{
    QFETCH(QString, files);
    QFETCH(QString, ert);
    QFETCH(QString, caseName);
    TimeloopImportOptions opt;
    if (!ert.isEmpty()) opt.ertFile = inputPath(ert.toStdString());
    const TimeloopImport imp = importTimeloop(split(files), opt);
    QVERIFY(imp.ertGiven);  // every case's set has one (a file or an `ERT:` key)
    const Project& p = imp.project;
    const ReferenceCase rc = readReferenceCase(casePath(caseName.toStdString()));

    QCOMPARE(p.workloads.size(), std::size_t{1});
    QVERIFY(p.workloads[0].workload.sameShape(rc.workload));
    const Architecture& a = p.architecture;
    QCOMPARE(a.numLevels(), rc.architecture.numLevels());
    for (int i = 0; i < a.numLevels(); ++i) {
        const StorageLevel& x = a.levels[static_cast<std::size_t>(i)];
        const StorageLevel& y = rc.architecture.levels[static_cast<std::size_t>(i)];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.size_words, y.size_words);
        QCOMPARE(x.word_bits, y.word_bits);
        QCOMPARE(x.block_size, y.block_size);
        QCOMPARE(x.cluster_size, y.cluster_size);
        QCOMPARE(x.instances, y.instances);
        QCOMPARE(x.meshX, y.meshX);
        QCOMPARE(x.read_bw_words_per_cycle, y.read_bw_words_per_cycle);
        QCOMPARE(x.write_bw_words_per_cycle, y.write_bw_words_per_cycle);
        QCOMPARE(x.energy, y.energy);
    }
    QCOMPARE(a.compute.name, rc.architecture.compute.name);
    QCOMPARE(a.compute.instances, rc.architecture.compute.instances);
    QCOMPARE(a.compute.meshX, rc.architecture.compute.meshX);
    QCOMPARE(a.compute.mac_energy_pJ, rc.architecture.compute.mac_energy_pJ);
    QCOMPARE(p.mappings.size(), std::size_t{1});
    const Mapping& m = p.mappings[0].mapping;
    for (int i = 0; i < a.numLevels(); ++i) {
        const auto& x = m.levels[static_cast<std::size_t>(i)];
        const auto& y = rc.mapping.levels[static_cast<std::size_t>(i)];
        QCOMPARE(x.temporal, y.temporal);
        QCOMPARE(x.spatialX, y.spatialX);
        QCOMPARE(x.spatialY, y.spatialY);
        for (int t = 0; t < rc.workload.numTensors(); ++t) QCOMPARE(m.keeps(i, t), rc.mapping.keeps(i, t));
    }

    const Evaluation ev = evaluate(p.workloads[0].workload, a, m);
    QVERIFY(ev.valid);
    const CheckResult res = checkReference(rc, ev);
    for (const auto& row : res.rows)
        if (!row.pass) qWarning("%s: expected %s, got %s", row.field.c_str(), row.expected.c_str(), row.got.c_str());
    QCOMPARE(res.failures(), 0);
    QVERIFY(res.pass);
}

// The written project reads back and evaluates to the same figures (eval needs no edits).
void TestTimeloopImport::writtenProjectEvaluates()
{
    TimeloopImportOptions opt;
    opt.ertFile = inputPath("eyeriss-like.ERT.yaml");
    const TimeloopImport imp = importTimeloop(
        {inputPath("eyeriss-like.arch.yaml"), inputPath("cnn-layer-conv3_1.prob.yaml"), inputPath("eyeriss-like-rs.map.yaml")},
        opt);
    const Project back = parseProject(writeProject(imp.project), "imported.yaml");
    const ProjectMapping* pm = back.selectMapping();
    QVERIFY(pm);
    const Evaluation a = evaluate(imp.project.workloads[0].workload, imp.project.architecture, imp.project.mappings[0].mapping);
    const Evaluation b = evaluate(back.findWorkload(pm->workload)->workload, back.architecture, pm->mapping);
    QVERIFY(a.valid && b.valid);
    QCOMPARE(b.cycles, a.cycles);
    QCOMPARE(b.energy_pJ, a.energy_pJ);
    QCOMPARE(b.cycles, std::int64_t{5505024});  // the case's cycles
}

// Without an ERT the energies come from the chosen model, and a warning says so.
void TestTimeloopImport::energyModelWithoutErt()
{
    const Texts t;
    TimeloopImport imp = importTimeloopSources(t.sources(), {});
    QCOMPARE(imp.project.energyModel, std::string("table"));
    QVERIFY(!imp.ertGiven);
    for (const auto& l : imp.project.architecture.levels) QCOMPARE(l.energy, ActionEnergies{});
    QCOMPARE(imp.project.architecture.compute.mac_energy_pJ, 0.0);
    bool warned = false;
    for (const auto& w : imp.warnings) warned = warned || w.find("every energy is 0") != std::string::npos;
    QVERIFY(warned);

    TimeloopImportOptions opt;
    opt.energyModel = "interstellar-28nm";
    imp = importTimeloopSources(t.sources(), opt);
    QCOMPARE(imp.project.energyModel, std::string("interstellar-28nm"));
    // Interstellar Table 3: DRAM 200 pJ per 16-bit access; an 8-bit word costs half; block 8.
    QCOMPARE(imp.project.architecture.levels[0].energy.read_pJ, 200.0 * 8 / 16 * 8);
    QCOMPARE(imp.project.architecture.compute.mac_energy_pJ, 0.075);
    warned = false;
    for (const auto& w : imp.warnings) warned = warned || w.find("interstellar-28nm energy model") != std::string::npos;
    QVERIFY(warned);

    opt.energyModel = "no-such-model";
    expectError(t.sources(), {"energy_model", "unknown energy model 'no-such-model'"}, opt);
    std::vector<TimeloopSource> withErt = t.sources();
    withErt.push_back({"ert.yaml", "ERT:\n  version: 0.3\n  tables: []\n"});
    opt.energyModel = "thistle-45nm";
    expectError(withErt, {"energy_model", "cannot be combined"}, opt);
}

void TestTimeloopImport::ertVariantsTakeTheLargest()
{
    const Texts t;
    std::vector<TimeloopSource> s = t.sources();
    s.push_back({"ert.yaml", R"(ERT:
  version: 0.3
  tables:
    - name: PE.MainMemory
      actions:
        - {name: random_read, energy: 7.0}
        - {name: read, energy: 99.0}
        - {name: write, arguments: {a: 1}, energy: 3.0}
        - {name: write, arguments: {a: 2}, energy: 5.0}
    - name: PE.Buffer
      actions:
        - {name: read, energy: 1.0}
        - {name: fill, energy: 2.0}
        - {name: write, energy: 4.0}
        - {name: update, energy: 3.0}
    - name: PE.MACC
      actions:
        - {name: mac_random, energy: 0.5}
        - {name: compute, energy: 9.0}
)"});
    const TimeloopImport imp = importTimeloopSources(s, {});
    const auto& mm = imp.project.architecture.levels[0].energy;
    QCOMPARE(mm.read_pJ, 7.0);     // random_read before read
    QCOMPARE(mm.fill_pJ, 5.0);     // largest write variant
    QCOMPARE(mm.update_pJ, 5.0);   // random_update, random_write absent -> update absent -> write
    QCOMPARE(mm.leak_pJ, 0.0);
    const auto& b = imp.project.architecture.levels[1].energy;
    QCOMPARE(b.fill_pJ, 2.0);      // fill before write
    QCOMPARE(b.update_pJ, 3.0);    // update before write
    QCOMPARE(imp.project.architecture.compute.mac_energy_pJ, 0.5);
}

// Timeloop's defaults: missing factors are 1, factor 0 is the whole dimension, a missing split
// puts every spatial loop on X, unlisted dimensions join the permutation outside.
void TestTimeloopImport::timeloopDefaults()
{
    Texts t;
    t.map = "mapping:\n  - {target: MainMemory, type: temporal, factors: P=0}\n"
            "  - {target: Buffer, type: temporal, factors: R=3}\n";
    TimeloopImport imp = importTimeloopSources(t.sources(), {});
    const Mapping& m = imp.project.mappings[0].mapping;
    QCOMPARE(m.levels[0].temporal, (std::vector<Loop>{makeLoop(1, 16)}));
    QCOMPARE(m.levels[1].temporal, (std::vector<Loop>{makeLoop(0, 3)}));

    // Residuals: "P=5,4" is bound 5 with residual 4; around P=4 it covers (4 - 1) * 4 + 4 = 16.
    t.map = "mapping:\n  - {target: MainMemory, type: temporal, factors: \"P=5,4\"}\n"
            "  - {target: Buffer, type: temporal, factors: R=3 P=4, permutation: PR}\n";
    imp = importTimeloopSources(t.sources(), {});
    const Mapping& r = imp.project.mappings[0].mapping;
    QCOMPARE(r.levels[0].temporal, (std::vector<Loop>{makeLoop(1, 5, 4)}));
    QCOMPARE(r.levels[1].temporal, (std::vector<Loop>{makeLoop(0, 3), makeLoop(1, 4)}));  // R outside P

    // A mapper's inputs (its inputs/input.yaml) hold `mapping: []`: no mapping, said where.
    for (const char* empty : {"mapping: []\n", "mapping:\n"}) {
        t.map = std::string(empty) + "mapper: {algorithm: random, victory_condition: 100}\nmapspace: {version: '0.4', template: ruby}\n";
        imp = importTimeloopSources(t.sources(), {});
        QVERIFY(imp.project.mappings.empty());
        QCOMPARE(imp.project.workloads.size(), std::size_t{1});
        QVERIFY2(std::any_of(imp.warnings.begin(), imp.warnings.end(),
                             [&](const std::string& w) {
                                 return w.rfind("map.yaml:", 0) == 0 && w.find("mapping: the mapping is empty") != std::string::npos;
                             }),
                 empty);
        QVERIFY(std::any_of(imp.warnings.begin(), imp.warnings.end(), [](const std::string& w) {
            return w.find("mapspace.template: not imported") != std::string::npos && w.find("--mapspace ruby") != std::string::npos;
        }));
    }
}

void TestTimeloopImport::badInput_data()
{
    QTest::addColumn<QString>("which");   // arch | prob | map
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("needle");  // where the error must point, in the edited text
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown dimension in a projection")
        << "prob" << "- [[R], [P]]" << "- [[R], [X]]" << "X]]" << "problem.shape.data_spaces[1].projection[0][1][0]"
        << "unknown dimension 'X'";
    QTest::newRow("unknown coefficient") << "prob" << "- [[R], [P]]" << "- [[R], [P, Wstride]]" << "Wstride"
                                         << "projection[0][1][1]" << "unknown coefficient 'Wstride'";
    QTest::newRow("zero bound") << "prob" << "P: 16" << "P: 0" << "0}" << "problem.instance.P" << "positive";
    QTest::newRow("missing bound") << "prob" << "{R: 3, P: 16}" << "{R: 3}" << "{R: 3}" << "problem.instance.P"
                                   << "missing the bound of dimension P";
    QTest::newRow("long dimension name") << "prob" << "[R, P]" << "[R, PP]" << "PP" << "problem.shape.dimensions[1]"
                                         << "one character";
    QTest::newRow("negative depth") << "arch" << "depth: 64" << "depth: -64" << "-64"
                                    << "architecture.subtree[0].local[1].attributes.depth" << "positive";
    QTest::newRow("width not a multiple of the word") << "arch" << "            width: 8\n" << "            width: 12\n" << "12\n"
                                                      << "attributes.width" << "not a multiple";
    QTest::newRow("bad range") << "arch" << "name: Buffer" << "name: Buffer[3..1]" << "Buffer[3..1]"
                               << "local[1].name" << "first <= last";
    QTest::newRow("meshX not dividing") << "arch" << "depth: 64" << "depth: 64\n            meshX: 3" << "3\n            width"
                                        << "attributes.meshX" << "meshX must divide";
    QTest::newRow("no compute") << "arch" << "class: intmac" << "class: adder" << "version: 0.3"
                                << "architecture" << "no compute component";
    QTest::newRow("unknown target") << "map" << "target: Buffer" << "target: GLB" << "GLB" << "mapping[1].target"
                                    << "unknown level 'GLB'";
    QTest::newRow("compute as target") << "map" << "target: Buffer" << "target: MACC" << "MACC" << "mapping[1].target"
                                       << "compute level";
    QTest::newRow("factors do not multiply") << "map" << "R=1 P=16" << "R=1 P=8" << "- target" << "mapping"
                                             << "the factors of dimension P cover 8, not its bound 16";
    QTest::newRow("factor text") << "map" << "R=1 P=16" << "R=1 P=x" << "R=1 P=x" << "mapping[0].factors"
                                 << "expected a number after 'P'";
    QTest::newRow("unknown factor dimension") << "map" << "R=1 P=16" << "R=1 P=16 Z=2" << "R=1" << "mapping[0].factors"
                                              << "unknown dimension 'Z'";
    QTest::newRow("permutation twice") << "map" << "permutation: RP" << "permutation: RR" << "RR"
                                       << "mapping[0].permutation" << "listed twice";
    QTest::newRow("unknown directive type") << "map" << "type: temporal" << "type: temporary" << "temporary"
                                            << "mapping[0].type" << "unknown directive type 'temporary'";
    QTest::newRow("spatial without fanout") << "map" << "type: temporal" << "type: spatial" << "MainMemory"
                                            << "mapping[0].target" << "no spatial fanout";
    QTest::newRow("bypass of an unknown tensor")
        << "map" << "    permutation: RP\n" << "    permutation: RP\n  - {target: Buffer, type: bypass, bypass: [Psums]}\n"
        << "Psums" << "mapping[1].bypass[0]" << "unknown data space 'Psums'";
    QTest::newRow("mapping not a list") << "map" << "mapping:\n  - target" << "mapping:\n  x:\n  - target" << "x:"
                                        << "mapping" << "expected";
    QTest::newRow("malformed YAML") << "map" << "factors: R=1 P=16" << "factors: [R=1 P=16" << "[R=1" << ""
                                    << "map.yaml:";
}

void TestTimeloopImport::badInput()
{
    QFETCH(QString, which);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, needle);
    QFETCH(QString, field);
    QFETCH(QString, message);
    Texts t;
    std::string* text = which == "arch" ? &t.arch : which == "prob" ? &t.prob : &t.map;
    const std::string file = which.toStdString() + ".yaml";
    *text = replaced(*text, from.toStdString(), to.toStdString());
    std::vector<std::string> parts = {message.toStdString()};
    if (!field.isEmpty()) {
        parts.push_back(field.toStdString());
        parts.push_back(at(file, *text, needle.toStdString()));
    }
    expectError(t.sources(), parts);
}

void TestTimeloopImport::keyInTwoFiles()
{
    const Texts t;
    std::vector<TimeloopSource> s = t.sources();
    s.push_back({"map2.yaml", "# again\nmapping:\n  - {target: Buffer, type: temporal, factors: R=3}\n"});
    expectError(s, {"map2.yaml:2:1", "map.yaml:1:1", "also given"});

    // One of the two empty (a mapper's inputs hold `mapping: []`): the other is taken, in either order.
    for (const bool emptyFirst : {true, false}) {
        std::vector<TimeloopSource> both = t.sources();
        const TimeloopSource empty{"inputs.yaml", "# the mapper's inputs\nmapping: []\n"};
        both.insert(emptyFirst ? both.begin() : both.end(), empty);
        const TimeloopImport imp = importTimeloopSources(both, {});
        QCOMPARE(imp.project.mappings.size(), std::size_t{1});
        QCOMPARE(imp.project.mappings[0].mapping, importTimeloopSources(t.sources(), {}).project.mappings[0].mapping);
        QVERIFY(std::any_of(imp.warnings.begin(), imp.warnings.end(), [](const std::string& w) {
            return w.rfind("inputs.yaml:2:1: mapping: ignored: empty, and 'mapping' is also given at map.yaml:1:1", 0) == 0;
        }));
    }
}

void TestTimeloopImport::emptyAndNonMapFiles()
{
    Texts t;
    std::vector<TimeloopSource> s = t.sources();
    s.push_back({"empty.yaml", "# nothing\n"});
    expectError(s, {"empty.yaml:1:1", "holds nothing"});
    s.back() = {"list.yaml", "- a\n- b\n"};
    expectError(s, {"list.yaml:1:1", "a map"});
    s.pop_back();
    s.erase(s.begin() + 1);  // no problem
    expectError(s, {"no `problem:`"});
}

void TestTimeloopImport::badErt()
{
    const Texts t;
    std::vector<TimeloopSource> s = t.sources();
    const std::string ert = R"(ERT:
  version: 0.3
  tables:
    - name: PE.MainMemory
      actions:
        - {name: read, energy: 1.0}
        - {name: write, energy: 1.0}
    - name: PE.MACC
      actions:
        - {name: compute, energy: 2.0}
)";
    s.push_back({"ert.yaml", ert});
    expectError(s, {"no ERT table for level 'Buffer'", at("ert.yaml", ert, "- name: PE.MainMemory"), "ERT.tables"});
    std::string withBuffer = replaced(ert, "    - name: PE.MACC", "    - name: PE.Buffer\n      actions:\n        - {name: leak, energy: 1.0}\n    - name: PE.MACC");
    s.back() = {"ert.yaml", withBuffer};
    expectError(s, {"the ERT table of 'Buffer' has no read action", at("ert.yaml", withBuffer, "name: PE.Buffer")});
    std::string negative = replaced(withBuffer, "{name: leak, energy: 1.0}",
                                    "{name: read, energy: 1.0}\n        - {name: write, energy: 1.0}");
    negative = replaced(negative, "energy: 2.0", "energy: -2.0");
    s.back() = {"ert.yaml", negative};
    expectError(s, {at("ert.yaml", negative, "-2.0"), "ERT.tables[2].actions[0].energy", "must not be negative"});
}

// Timeloop's constraints become project constraints the imported mapping satisfies; what Nestor
// cannot express is dropped with a warning (the outermost part of "PC_M").
void TestTimeloopImport::constraints()
{
    TimeloopImportOptions opt;
    opt.ertFile = inputPath("eyeriss-like.ERT.yaml");
    const TimeloopImport imp =
        importTimeloop({inputPath("eyeriss-like.arch.yaml"), inputPath("cnn-layer-conv3_1.prob.yaml"),
                        inputPath("eyeriss-like-rs.map.yaml"), inputPath("eyeriss-like.constraints.yaml")},
                       opt);
    const Project& p = imp.project;
    // Spatial-only levels: their temporal permutation and bypass-everything entry say nothing
    // (the entry keeps its unit factors); 13 entries -> 12 constraints.
    QCOMPARE(p.constraints.size(), std::size_t{12});
    QVERIFY(p.constraints[3].permutation.empty());
    const ProjectConstraint& col = p.constraints[2];
    QCOMPARE(col.target, std::string("inter_PE_column_spatial"));
    QVERIFY(col.hasAxes);
    QCOMPARE(col.axisX, (std::vector<std::string>{"N", "C", "P", "R", "S", "Q", "M"}));
    QVERIFY(col.axisY.empty());
    const ProjectConstraint& pe = p.constraints[4];
    QCOMPARE(pe.axisX, (std::vector<std::string>{"N", "P", "Q", "R"}));
    QCOMPARE(pe.axisY, (std::vector<std::string>{"S", "C", "M"}));
    QCOMPARE(pe.factors.size(), std::size_t{4});
    const ProjectConstraint& glb = p.constraints.back();
    QCOMPARE(glb.permutation, (std::vector<std::string>{"P", "C"}));
    bool warned = false;
    for (const auto& w : imp.warnings) warned = warned || w.find("after '_' is dropped") != std::string::npos;
    QVERIFY(warned);

    const Workload& w = p.workloads[0].workload;
    const Diagnostics violated = checkConstraints(p.constraintsFor(w), p.mappings[0].mapping, w, p.architecture);
    for (const auto& d : violated) qWarning("%s", d.toString().c_str());
    QVERIFY(violated.empty());
    // The written project carries them (the reader checks them again).
    const Project back = parseProject(writeProject(p), "imported.yaml");
    QCOMPARE(back.constraints.size(), p.constraints.size());
    QVERIFY(back.constraintsFor(w) == p.constraintsFor(w));

    // A constraint the project reader refuses is reported at the Timeloop entry.
    const std::string bad = "mapspace_constraints:\n  - {target: MainMemory, type: bypass, bypass: [Weights]}\n";
    Texts t;
    std::vector<TimeloopSource> s = t.sources();
    s.push_back({"c.yaml", bad});
    expectError(s, {at("c.yaml", bad, "{target: MainMemory"), "mapspace_constraints[0]", "backing store"});
}

// v0.4 constraints written on the nodes: a !Container's constrain the zero-size level carrying
// its fanout, a !Component's its own level; lists work where Timeloop's strings do.
void TestTimeloopImport::nodeConstraints()
{
    const std::string arch0 = readTextFile(inputPath("conv1d-oc-ic-spatial.arch.yaml"));
    std::string arch = replaced(arch0, "    spatial: {meshX: 16}\n",
                                "    spatial: {meshX: 16}\n"
                                "    constraints:\n"
                                "      spatial: {factors: K=16, permutation: KCRP, split: 1}\n");
    arch = replaced(arch, "      depth: 32768\n      width: 64\n      datawidth: 8\n",
                    "      depth: 32768\n      width: 64\n      datawidth: 8\n"
                    "    constraints:\n"
                    "      temporal: {factors: [R=3, C=32], permutation: [P, R, K, C]}\n"
                    "      dataspace: {keep: [Weights, Inputs, Outputs], no_coalesce: [Weights]}\n");
    const auto sources = [&](const std::string& a) {
        return std::vector<TimeloopSource>{{"arch.yaml", a},
                                           {"prob.yaml", readTextFile(inputPath("conv1d-oc-ic.prob.yaml"))},
                                           {"map.yaml", readTextFile(inputPath("conv1d-oc-ic-spatial-kp.map.yaml"))}};
    };
    const TimeloopImport imp = importTimeloopSources(sources(arch), {});
    const Project& p = imp.project;
    QCOMPARE(p.constraints.size(), std::size_t{3});
    const ProjectConstraint& pe = p.constraints[0];
    QCOMPARE(pe.target, std::string("inter_PE_spatial"));
    QVERIFY(pe.type == ProjectConstraint::Type::Spatial);
    QVERIFY(pe.hasAxes);
    QCOMPARE(pe.axisX, (std::vector<std::string>{"K"}));
    QCOMPARE(pe.axisY, (std::vector<std::string>{"C", "R", "P"}));
    QCOMPARE(pe.factors.size(), std::size_t{1});
    const ProjectConstraint& glb = p.constraints[1];
    QCOMPARE(glb.target, std::string("GlobalBuffer"));
    QVERIFY(glb.type == ProjectConstraint::Type::Temporal);
    QCOMPARE(glb.permutation, (std::vector<std::string>{"P", "R", "K", "C"}));
    QCOMPARE(glb.factors.size(), std::size_t{2});
    QCOMPARE(p.constraints[2].keep, (std::vector<std::string>{"Weights", "Inputs", "Outputs"}));
    bool warned = false;
    for (const auto& w : imp.warnings) warned = warned || w.find("`no_coalesce`") != std::string::npos;
    QVERIFY(warned);
    // The mapping Timeloop evaluated with this design satisfies them.
    const Workload& w = p.workloads[0].workload;
    QVERIFY(checkConstraints(p.constraintsFor(w), p.mappings[0].mapping, w, p.architecture).empty());

    // Errors point into the node's block.
    const std::string typo = replaced(arch, "keep: [Weights, Inputs", "keep: [Weight, Inputs");
    expectError(sources(typo), {at("arch.yaml", typo, "[Weight, Inputs"), "unknown data space 'Weight'"});
    const std::string contradiction = replaced(arch, "factors: [R=3, C=32]", "factors: [R=3, C=32, C=16]");
    try {
        importTimeloopSources(sources(contradiction), {});
        QFAIL("contradicting factors were accepted");
    } catch (const NestorError& e) {
        QVERIFY2(std::string(e.what()).find("arch.yaml:") != std::string::npos, e.what());
    }
}

void TestTimeloopImport::badArchitectureForms()
{
    Texts t;
    t.arch = replaced(kArch, "  subtree:\n    - name: PE\n", "  subtree:\n    - name: Other\n    - name: PE\n");
    expectError(t.sources(), {at("arch.yaml", t.arch, "- name: Other"), "architecture.subtree", "one subtree per level"});

    t.arch = replaced(kArch, "          class: DRAM", "          class: fpmac");
    expectError(t.sources(), {at("arch.yaml", t.arch, "MACC"), "a second compute component 'MACC'"});

    t.arch = R"(architecture:
  version: 0.4
  nodes:
  - !Component {name: MainMemory, class: DRAM, attributes: {width: 64, datawidth: 8}}
  - !Container {name: PE, spatial: {meshX: 4}}
  - !Component {name: Buffer, class: regfile, attributes: {depth: 64, width: 8, datawidth: 8}, spatial: {meshX: 2}}
  - !Component {name: MACC, class: intmac}
)";
    expectError(t.sources(), {at("arch.yaml", t.arch, "{meshX: 2}"), "architecture.nodes[2].spatial", "!Component"});
    // A !Parallel's components are consecutive levels; a fanout among them has no such order.
    t.arch = replaced(t.arch, "  - !Container {name: PE, spatial: {meshX: 4}}",
                      "  - !Parallel {nodes: [!Container {name: PE, spatial: {meshX: 4}}]}");
    expectError(t.sources(), {at("arch.yaml", t.arch, "{meshX: 4}"), "architecture.nodes[1].nodes[0].spatial", "!Parallel"});
}

bool warnedAbout(const TimeloopImport& imp, const std::string& text)
{
    for (const auto& w : imp.warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

// What Timeloop's own configs/ write: a shape named or left out (the shapes its installation
// ships, cnn-layer by default), the legacy `storage` list, `constraints: NAME` picking
// `constraints_NAME`, factors of 0 (the whole dimension) or above the bound (clamped), and a
// level of 0 entries (spatial only).
void TestTimeloopImport::legacyForms()
{
    const std::string arch = R"(arch:
  arithmetic: {instances: 16, meshX: 4, word-bits: 8}
  storage:
  - {name: RF, entries: 16, instances: 16, meshX: 4, word-bits: 8}
  - {name: Fanout, entries: 0, instances: 1, word-bits: 8}
  - {name: DRAM, technology: DRAM, instances: 1, word-bits: 8}
)";
    const std::string prob = "problem:\n  shape: cnn-layer.yaml\n  R: 3\n  S: 3\n  P: 8\n  Q: 8\n  C: 4\n  K: 8\n  N: 1\n"
                             "  Wstride: 2\n";
    const std::string constraints = R"(mapspace:
  constraints: small
  constraints_small:
  - {target: Fanout, type: spatial, factors: K4 C1, permutation: KC}
  - {target: RF, type: temporal, factors: R0 S9 K1}
)";
    const auto sources = [&](const std::string& a, const std::string& p, const std::string& c) {
        return std::vector<TimeloopSource>{{"arch.yaml", a}, {"prob.yaml", p}, {"c.yaml", c}};
    };
    TimeloopImport imp = importTimeloopSources(sources(arch, prob, constraints), {});
    const Workload& w = imp.project.workloads[0].workload;
    // Timeloop's cnn-layer: dimensions R S P Q C K N; Inputs' width is R * Wdilation + P * Wstride.
    QCOMPARE(w.dimNames, (std::vector<std::string>{"R", "S", "P", "Q", "C", "K", "N"}));
    QCOMPARE(w.bounds, (std::vector<std::int64_t>{3, 3, 8, 8, 4, 8, 1}));
    QCOMPARE(w.numTensors(), 3);
    QCOMPARE(w.tensors[0].name, std::string("Weights"));
    QCOMPARE(w.tensors[0].ranks, (std::vector<RankExpression>{{{4, 1}}, {{5, 1}}, {{0, 1}}, {{1, 1}}}));
    QCOMPARE(w.tensors[1].ranks, (std::vector<RankExpression>{{{6, 1}}, {{4, 1}}, {{0, 1}, {2, 2}}, {{1, 1}, {3, 1}}}));
    QCOMPARE(w.tensors[2].ranks, (std::vector<RankExpression>{{{6, 1}}, {{5, 1}}, {{3, 1}}, {{2, 1}}}));
    QVERIFY(w.tensors[2].readWrite && !w.tensors[1].readWrite);
    // The storage list is innermost first; the zero-entry level holds nothing.
    const Architecture& a = imp.project.architecture;
    QCOMPARE(a.numLevels(), 3);
    QCOMPARE(a.levels[0].name, std::string("DRAM"));
    QCOMPARE(a.levels[1].technology, std::string("dummy"));
    QCOMPARE(a.levels[2].size_words, std::optional<std::int64_t>(16));
    QCOMPARE(a.levels[2].instances, std::int64_t{16});
    QCOMPARE(a.compute.instances, std::int64_t{16});
    // R0 is R=3 and S9 is S=3, each with a warning naming its place.
    const auto& cs = imp.project.constraints;
    QCOMPARE(cs.size(), std::size_t{2});
    using Op = FactorConstraint::Op;
    QCOMPARE(cs[1].factors, (std::vector<FactorConstraint>{{"RF", false, "R", Op::Eq, 3}, {"RF", false, "S", Op::Eq, 3},
                                                           {"RF", false, "K", Op::Eq, 1}}));
    QVERIFY(warnedAbout(imp, "R=0 means the whole dimension (R=3)"));
    QVERIFY(warnedAbout(imp, "S=9 exceeds the dimension's bound; set to S=3"));
    QVERIFY(warnedAbout(imp, at("c.yaml", constraints, "R0 S9")));

    // No shape at all: cnn-layer, as Timeloop assumes, with a warning; another shipped shape by name.
    imp = importTimeloopSources(sources(arch, replaced(prob, "  shape: cnn-layer.yaml\n", ""), constraints), {});
    QCOMPARE(imp.project.workloads[0].workload.dimNames.size(), std::size_t{7});
    QVERIFY(warnedAbout(imp, "cnn-layer shape assumed"));
    const std::string gemm = "problem:\n  shape: gemm_ABZ\n  instance: {M: 4, N: 8, K: 2}\n";
    imp = importTimeloopSources({{"arch.yaml", arch}, {"prob.yaml", gemm}}, {});
    const Workload& g = imp.project.workloads[0].workload;
    QCOMPARE(g.dimNames, (std::vector<std::string>{"M", "N", "K"}));
    QCOMPARE(g.tensors[1].name, std::string("B"));
    QCOMPARE(g.tensors[1].ranks, (std::vector<RankExpression>{{{1, 1}}, {{2, 1}}}));

    // An unknown name, and a constraint set that is not there.
    const std::string other = replaced(prob, "cnn-layer.yaml", "depthwise");
    expectError(sources(arch, other, constraints), {at("prob.yaml", other, "depthwise"), "problem.shape", "cnn-layer", "gemm-ABZ"});
    const std::string missing = replaced(constraints, "constraints: small", "constraints: big");
    expectError(sources(arch, prob, missing), {at("c.yaml", missing, "big"), "mapspace.constraints", "constraints_big"});
}

QTEST_APPLESS_MAIN(TestTimeloopImport)
#include "tst_timeloop_import.moc"
