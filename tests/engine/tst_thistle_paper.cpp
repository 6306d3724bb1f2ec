// The Thistle paper's experiment (Vaidya et al., CGO'22, Section V, Fig. 4 and 5) on the
// Table II layers (examples/thistle/resnet18.yaml, yolo9000.yaml) with the 45 nm constants of
// Table III and the Eyeriss baseline (examples/thistle/eyeriss-thistle.arch.yaml). Only robust
// assertions, checked on Nestor's cost model (which decides), not the solver's estimate:
//  * fixed Eyeriss: every MAC reads two operands and updates a partial sum in a 512-register
//    file, so no dataflow can go below 3 x 9.06719e-3 x 512 + 2.2 = 16.13 pJ/MAC;
//  * layer-wise co-design under the same area is better than the fixed Eyeriss on every layer
//    checked (every third one), and within the area;
//  * on the fixed Eyeriss, the solver's design is no worse than what Nestor's own search finds
//    in the solver's mapspace (examples/thistle/resnet18-thistle-mapspace.yaml: filters whole
//    in the registers, every tensor at every level), an independent method: a PFM annealing
//    search of 100,000 evaluations, seed 1, on every ResNet-18 layer.
// The figures themselves are in docs/solvers.md.
#include "arch/EnergyModels.h"
#include "io/ProjectYaml.h"
#include "mapspace/Mapspace.h"
#include "search/SearchDriver.h"
#include "solvers/thistle/ThistleOptimizer.h"

#include <QtTest/QtTest>

using namespace nestor;
using namespace nestor::thistle;

class TstThistlePaper : public QObject {
    Q_OBJECT
private slots:
    void codesignBeatsEyerissOnEveryLayer_data();
    void codesignBeatsEyerissOnEveryLayer();
    void noWorseThanTheSearchOnItsMapspace();
};

void TstThistlePaper::codesignBeatsEyerissOnEveryLayer_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("ResNet-18") << QStringLiteral(NESTOR_EXAMPLES_DIR "/thistle/resnet18.yaml");
    QTest::newRow("Yolo-9000") << QStringLiteral(NESTOR_EXAMPLES_DIR "/thistle/yolo9000.yaml");
}

void TstThistlePaper::codesignBeatsEyerissOnEveryLayer()
{
    QFETCH(QString, file);
    const Project p = readProject(file.toStdString());
    Architecture eyeriss = p.architecture;
    applyEnergyModel(eyeriss, p.energyModel);
    const double budget = eyeriss.area_um2();
    // (19.874 x 512 + 1239.5) x 168 + 6.806 x 65536 = 1917717.984 + 446038.016, Eq. 5 with Table III.
    QVERIFY(std::fabs(budget - 2363756.0) < 1e-6);
    const double floor_pJ = 3 * 9.06719e-3 * 512 + 2.2;

    // Every pruned program is solved; only the best relaxed one is rounded (the CLI rounds 4),
    // to keep the run within minutes.
    OptimizeOptions fixedOpt;
    fixedOpt.topPermutations = 1;
    fixedOpt.candidatesPerPermutation = 3;
    OptimizeOptions co = fixedOpt;
    co.codesign = true;
    co.area_um2 = budget;
    QCOMPARE(static_cast<int>(p.workloads.size()), file.contains("resnet") ? 12 : 11);
    // Every third layer from the first (the first, middle and last stages of each network, 1x1
    // and 3x3 alike), to keep the test run at about two minutes; docs/solvers.md has every layer
    // from `nestor-cli optimize / codesign`.
    for (std::size_t i = 0; i < p.workloads.size(); i += 3) {
        const auto& pw = p.workloads[i];
        const LayerOptimization f = optimizeLayer(pw.workload, eyeriss, fixedOpt);
        QVERIFY2(f.ok, f.error.c_str());
        const LayerOptimization c = optimizeLayer(pw.workload, eyeriss, co);
        QVERIFY2(c.ok, c.error.c_str());
        const double fixedPj = f.best.eval.pJ_per_mac, coPj = c.best.eval.pJ_per_mac;
        qInfo("%s: fixed Eyeriss %.2f pJ/MAC, layer-wise co-design %.2f pJ/MAC (R %lld, S %lld, %lld PEs)", pw.workload.name.c_str(),
              fixedPj, coPj, static_cast<long long>(c.best.registers), static_cast<long long>(c.best.sramWords),
              static_cast<long long>(c.best.pes));
        QVERIFY(fixedPj >= floor_pJ);
        QVERIFY2(coPj < fixedPj, pw.workload.name.c_str());
        QVERIFY(c.best.eval.area_um2 <= budget * (1 + 1e-12));
    }
}

void TstThistlePaper::noWorseThanTheSearchOnItsMapspace()
{
    const Project p = readProject(NESTOR_EXAMPLES_DIR "/thistle/resnet18-thistle-mapspace.yaml");
    Architecture eyeriss = p.architecture;
    applyEnergyModel(eyeriss, p.energyModel);
    QCOMPARE(static_cast<int>(p.workloads.size()), 12);
    for (const auto& pw : p.workloads) {
        const LayerOptimization solver = optimizeLayer(pw.workload, eyeriss, OptimizeOptions{});
        QVERIFY2(solver.ok, solver.error.c_str());
        SearchOptions so;
        so.metrics = {SearchMetric::Energy};
        so.evaluationBudget = 100000;
        so.victoryCondition = 0;
        so.seed = 1;
        const SearchResult search = runSearch(Mapspace(pw.workload, eyeriss, MapspaceKind::Pfm, p.constraintsFor(pw.workload)), so);
        QVERIFY(search.found);
        const double mine = solver.best.eval.pJ_per_mac, theirs = search.bestEvaluation.pJ_per_mac;
        qInfo("%s: solver %.3f pJ/MAC (%s), search %.3f pJ/MAC", pw.workload.name.c_str(), mine, designOriginName(solver.origin), theirs);
        QVERIFY2(mine <= theirs * (1 + 1e-9), pw.workload.name.c_str());
    }
}

QTEST_APPLESS_MAIN(TstThistlePaper)
#include "tst_thistle_paper.moc"
