// Every example project (examples/*.yaml) must read without errors, give every workload at
// least one mapping, and every mapping must evaluate as valid with the one cost model.
// NESTOR_EXAMPLES_DIR is set by tests/CMakeLists.txt (or tests/engine/examples.cmake).
#include "arch/EnergyModels.h"
#include "common/Error.h"
#include "io/ProjectYaml.h"
#include "model/Model.h"

#include <QtTest/QtTest>

#include <QDir>
#include <QFileInfo>

#include <map>
#include <memory>
#include <set>

#ifndef NESTOR_EXAMPLES_DIR
#error "NESTOR_EXAMPLES_DIR must name the examples folder"
#endif

using namespace nestor;

namespace {

QString examplesDir() { return QString::fromUtf8(NESTOR_EXAMPLES_DIR); }

QStringList exampleFiles()
{
    // The top-level projects and the teaching gallery.
    QStringList files = QDir(examplesDir()).entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
    for (const QString& f : QDir(examplesDir() + QStringLiteral("/teaching")).entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
        files << QStringLiteral("teaching/") + f;
    return files;
}

std::string joinDiagnostics(const Diagnostics& ds)
{
    std::string s;
    for (const auto& d : ds) s += "\n    " + d.toString();
    return s;
}

} // namespace

class TestExamples : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void filesPresent();
    void projectsRead_data();
    void projectsRead();
    void mappingsValid_data();
    void mappingsValid();
    void eyerissReferenceMapping();

private:
    struct Loaded {
        std::unique_ptr<Project> project;
        std::string error;
    };
    std::map<QString, Loaded> loaded_;
};

void TestExamples::initTestCase()
{
    for (const QString& f : exampleFiles()) {
        Loaded l;
        try {
            l.project = std::make_unique<Project>(readProject(QDir(examplesDir()).filePath(f).toStdString()));
            applyEnergyModel(l.project->architecture, l.project->energyModel);
        } catch (const std::exception& e) {
            l.project.reset();
            l.error = e.what();
        }
        loaded_[f] = std::move(l);
    }
}

void TestExamples::filesPresent()
{
    const QStringList files = exampleFiles();
    for (const char* expected : {"eyeriss-like.yaml", "simba-like.yaml", "alexnet.yaml", "vgg16.yaml", "mobilenet.yaml",
                                 "resnet50.yaml", "resnet18-thistle.yaml", "yolo9000-thistle.yaml"})
        QVERIFY2(files.contains(QString::fromLatin1(expected)), expected);
}

void TestExamples::projectsRead_data()
{
    QTest::addColumn<QString>("file");
    for (const QString& f : exampleFiles()) QTest::newRow(qPrintable(f)) << f;
}

void TestExamples::projectsRead()
{
    QFETCH(QString, file);
    const Loaded& l = loaded_.at(file);
    QVERIFY2(l.project, qPrintable(file + QStringLiteral(": ") + QString::fromStdString(l.error)));
    const Project& p = *l.project;

    const Diagnostics archErrors = p.architecture.validate();
    QVERIFY2(archErrors.empty(), joinDiagnostics(archErrors).c_str());
    QVERIFY(!p.workloads.empty());
    QVERIFY(!p.mappings.empty());

    std::set<std::string> mapped;
    for (const auto& m : p.mappings) {
        QVERIFY2(p.findWorkload(m.workload) != nullptr, m.mapping.name.c_str());
        mapped.insert(m.workload);
    }
    for (const auto& w : p.workloads) {
        const Diagnostics wErrors = w.workload.validate("workloads." + w.workload.name);
        QVERIFY2(wErrors.empty(), joinDiagnostics(wErrors).c_str());
        QVERIFY2(mapped.count(w.workload.name) == 1, ("workload without a mapping: " + w.workload.name).c_str());
    }
    for (const auto& n : p.networks)
        for (const auto& [layer, repeat] : n.layers) {
            QVERIFY2(p.findWorkload(layer) != nullptr, ("network " + n.name + " names unknown layer " + layer).c_str());
            QVERIFY(repeat >= 1);
        }
    if (!p.jobMapping.empty()) QVERIFY(p.findMapping(p.jobMapping) != nullptr);
    if (!p.jobWorkload.empty()) QVERIFY(p.findWorkload(p.jobWorkload) != nullptr);
    // Energies must be there (given or from the energy model) for every level that stores data.
    for (const auto& lvl : p.architecture.levels)
        if (!lvl.isSpatialOnly()) QVERIFY2(lvl.energy.read_pJ > 0.0, lvl.name.c_str());
    QVERIFY(p.architecture.compute.mac_energy_pJ > 0.0);
}

void TestExamples::mappingsValid_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("mapping");
    for (const auto& [file, l] : loaded_) {
        if (!l.project) continue;  // reported by projectsRead
        for (const auto& m : l.project->mappings) {
            const QString name = QString::fromStdString(m.mapping.name);
            QTest::newRow(qPrintable(file + QStringLiteral(" / ") + name)) << file << name;
        }
    }
}

void TestExamples::mappingsValid()
{
    QFETCH(QString, file);
    QFETCH(QString, mapping);
    const Project& p = *loaded_.at(file).project;
    const ProjectMapping* pm = p.findMapping(mapping.toStdString());
    QVERIFY(pm != nullptr);
    const ProjectWorkload* pw = p.findWorkload(pm->workload);
    QVERIFY(pw != nullptr);

    const Diagnostics mErrors = pm->mapping.validate(pw->workload, p.architecture);
    QVERIFY2(mErrors.empty(), joinDiagnostics(mErrors).c_str());

    const Evaluation ev = evaluate(pw->workload, p.architecture, pm->mapping);
    QVERIFY2(ev.valid, joinDiagnostics(ev.errors).c_str());
    QCOMPARE(ev.macs, pw->workload.macs());
    QVERIFY(ev.cycles >= ev.compute_cycles);
    // Every MAC is done by some instance: compute steps x busy MACs cover all MACs.
    QVERIFY(ev.compute_cycles * ev.utilized_macs >= ev.macs);
    QVERIFY(ev.utilized_macs <= p.architecture.compute.instances);
    QVERIFY(ev.utilization > 0.0 && ev.utilization <= 1.0 + 1e-12);
    QVERIFY(ev.energy_pJ > 0.0);
    QCOMPARE(ev.levels.size(), p.architecture.levels.size());
    for (std::size_t i = 0; i < ev.levels.size(); ++i) {
        const auto& lvl = p.architecture.levels[i];
        if (const auto eff = lvl.effectiveSizeWords()) QVERIFY(ev.levels[i].capacity_used_words <= *eff);
    }
}

void TestExamples::eyerissReferenceMapping()
{
    // eyeriss-like.yaml's "row-stationary" mapping is the mapping of Timeloop's Eyeriss exercise
    // (reference case ispass20-tl+acc-eyeriss-int16) on the same VGG conv3_1 layer, with C split
    // 8 x 4 instead of 4 x 8. Its loop nest has the same trip counts, so the reference's
    // figures that depend only on them must come out: 924844032 MACs on 168 busy MACs in
    // 5505024 steps (924844032 / 168), and the GLB tiles of the reference (Inputs 32 channels x
    // 10 x 16 = 5120 words, Outputs 64 x 8 x 14 = 7168 words).
    const auto it = loaded_.find(QStringLiteral("eyeriss-like.yaml"));
    QVERIFY(it != loaded_.end() && it->second.project);
    const Project& p = *it->second.project;
    const ProjectMapping* pm = p.findMapping("row-stationary");
    QVERIFY(pm != nullptr);
    const ProjectWorkload* pw = p.findWorkload(pm->workload);
    QVERIFY(pw != nullptr);
    const Evaluation ev = evaluate(pw->workload, p.architecture, pm->mapping);
    QVERIFY2(ev.valid, joinDiagnostics(ev.errors).c_str());
    QCOMPARE(ev.macs, std::int64_t(924844032));
    QCOMPARE(ev.compute_cycles, std::int64_t(5505024));
    QCOMPARE(ev.utilized_macs, std::int64_t(168));
    const int glb = p.architecture.levelIndex("GLB");
    QVERIFY(glb >= 0);
    const int inputs = pw->workload.tensorIndex("Inputs");
    const int outputs = pw->workload.tensorIndex("Outputs");
    QCOMPARE(ev.levels[glb].tensors[inputs].utilized_capacity, std::int64_t(5120));
    QCOMPARE(ev.levels[glb].tensors[outputs].utilized_capacity, std::int64_t(7168));
    // The psum spad holds 8 partial sums (M 8), the weights spad 96 weights (R 3 x C 4 x M 8),
    // the ifmap spad 12 inputs (C 4 x R-window 3).
    QCOMPARE(ev.levels[p.architecture.levelIndex("psum_spad")].capacity_used_words, std::int64_t(8));
    QCOMPARE(ev.levels[p.architecture.levelIndex("weights_spad")].capacity_used_words, std::int64_t(96));
    QCOMPARE(ev.levels[p.architecture.levelIndex("ifmap_spad")].capacity_used_words, std::int64_t(12));
}

QTEST_GUILESS_MAIN(TestExamples)
#include "tst_examples.moc"
