// The Solver tab (app/gui/solver): Thistle in the background on the project's layers. The table
// shows the cost model's figures of the mapping the solver chose (checked here by evaluating that
// mapping again through the engine, the figure the CLI also prints), results can be added to the
// project, pinned in Compare and exported as CSV; an architecture of the wrong shape is refused
// with the reason; Cancel ends a long run; another project clears the results.
#include "GroupedBarChart.h"
#include "MainWindow.h"
#include "ParetoChart.h"
#include "ProjectDocument.h"
#include "arch/EnergyModels.h"
#include "model/Model.h"
#include "solver/DataflowStudyPanel.h"
#include "solver/SolverView.h"
#include "views/CompareView.h"

#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace nestor;
using namespace nestor::app;

namespace {

const QString kThistle = QStringLiteral(NESTOR_EXAMPLES_DIR "/thistle/resnet18.yaml");
constexpr int kHangGuardMs = 120000;

bool solveAndWait(SolverView& view)
{
    QSignalSpy finished(&view, &SolverView::finished);
    if (!view.run()) return false;
    return finished.size() == 1 || finished.wait(kHangGuardMs);
}

SolverView::Settings fixedOnly(const QString& layer)
{
    SolverView::Settings s;
    s.target = layer;
    s.fixedArchitecture = true;
    s.codesign = false;
    s.singleArchitecture = false;
    return s;
}

} // namespace

class TestSolverView : public QObject {
    Q_OBJECT
private slots:
    void refusesAnArchitectureOfAnotherShape()
    {
        MainWindow w;
        QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml")));
        SolverView* view = w.solverView();
        QVERIFY(!view->run());
        QVERIFY2(view->statusText().contains(QStringLiteral("cannot use this architecture")), qPrintable(view->statusText()));
        QVERIFY(view->statusText().contains(QStringLiteral("7 storage levels")));
        QVERIFY(!view->isRunning());
    }

    void climbCheckboxSwitchesTheCostModelClimb()
    {
        MainWindow w;
        QVERIFY(w.openProject(kThistle));
        SolverView* view = w.solverView();
        QVERIFY(view->settings().climb);  // on by default
        SolverView::Settings s = fixedOnly(QStringLiteral("layer12"));
        s.climb = false;
        view->setSettings(s);
        QVERIFY(!view->settings().climb);
        QVERIFY(solveAndWait(*view));
        QCOMPARE(view->rows().size(), std::size_t(1));
        const thistle::LayerOptimization& paper = *view->rows()[0].result;
        QVERIFY2(paper.ok, paper.error.c_str());
        QCOMPARE(paper.polishEvaluations, 0);
        QVERIFY(paper.origin == thistle::DesignOrigin::Rounding);
        const double paperEnergy = paper.best.eval.energy_pJ;

        s.climb = true;
        view->setSettings(s);
        QVERIFY(solveAndWait(*view));
        const thistle::LayerOptimization& climbed = *view->rows()[0].result;
        QVERIFY(climbed.polishEvaluations > 0);
        QVERIFY(climbed.best.eval.energy_pJ <= paperEnergy);
    }

    void solvesALayerOnTheFixedArchitecture()
    {
        MainWindow w;
        QVERIFY(w.openProject(kThistle));
        SolverView* view = w.solverView();
        view->setSettings(fixedOnly(QStringLiteral("layer12")));
        QVERIFY(solveAndWait(*view));
        QVERIFY(view->result());
        QCOMPARE(view->rows().size(), std::size_t(1));
        const thistle::LayerOptimization& r = *view->rows()[0].result;
        QVERIFY2(r.ok, r.error.c_str());

        // The figures shown are the cost model's for the chosen mapping on the project's architecture.
        const Project& p = *w.project();
        Architecture arch = p.architecture;
        applyEnergyModel(arch, p.energyModel);
        const Evaluation e = evaluate(p.findWorkload("layer12")->workload, arch, r.best.mapping);
        QVERIFY(e.valid);
        QCOMPARE(view->table()->item(0, 0)->text(), QStringLiteral("layer12"));
        QCOMPARE(view->table()->item(0, 5)->text().remove(QLatin1Char(',')).toLongLong(), qlonglong(e.cycles));
        QVERIFY(qAbs(view->table()->item(0, 2)->text().toDouble() - e.pJ_per_mac) < 0.01 * e.pJ_per_mac);
        QCOMPARE(view->barChart()->seriesCount(), 1);
        QCOMPARE(view->paretoChart()->pointCount(0), int(r.candidates.size()));
        QVERIFY(!r.candidates.empty());

        // Into the project, as a mapping of layer12 that evaluates to the same figures.
        const std::size_t before = p.mappings.size();
        QCOMPARE(view->addToProject(0), QString());
        QCOMPARE(w.project()->mappings.size(), before + 1);
        const ProjectMapping& added = w.project()->mappings.back();
        QCOMPARE(added.workload, std::string("layer12"));
        QCOMPARE(evaluate(p.findWorkload("layer12")->workload, arch, added.mapping).cycles, e.cycles);

        // Into Compare, with its architecture.
        QVERIFY(view->pinInCompare(0));
        QCOMPARE(w.compareView()->pinCount(), 1);

        // CSV: header and one row naming the layer and its cycles.
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("solver.csv"));
        QVERIFY(view->exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith(QStringLiteral("design,layer,ok,")));
        QVERIFY(lines[1].startsWith(QStringLiteral("fixed,layer12,1,")));
        QVERIFY(lines[1].contains(QStringLiteral(",%1,").arg(e.cycles)));

        // Another project: nothing of this one stays.
        QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/thistle/yolo9000.yaml")));
        QVERIFY(!view->result());
        QCOMPARE(view->table()->rowCount(), 0);
    }

    // A co-designed result opened in the workbench: the project's architecture becomes the
    // design (its register file, SRAM and PE count) with the design's mapping, which the cost
    // model then scores as the solver's table did; one Undo restores the project.
    void opensACodesignedDesignInTheWorkbench()
    {
        MainWindow w;
        QVERIFY(w.openProject(kThistle));
        SolverView* view = w.solverView();
        SolverView::Settings s;
        s.target = QStringLiteral("layer12");
        s.fixedArchitecture = false;
        s.codesign = true;
        s.singleArchitecture = false;
        view->setSettings(s);
        QVERIFY(solveAndWait(*view));
        QCOMPARE(view->rows().size(), std::size_t(1));
        const thistle::LayerOptimization& r = *view->rows()[0].result;
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.candidates.size() >= 2);
        view->selectRow(0);

        // A point of the Pareto plot chooses the candidate that opens.
        const int pick = int(r.candidates.size()) - 1;
        view->paretoChart()->clickPoint(0, pick);
        QCOMPARE(view->selectedCandidate(), pick);
        const thistle::SolvedCandidate& c = r.candidates[std::size_t(pick)];

        const Architecture original = w.project()->architecture;
        const std::size_t mappings = w.project()->mappings.size();
        const int steps = w.document()->undoStack()->count();
        QSignalSpy opened(view, &SolverView::mappingOpened);
        QCOMPARE(view->addToProject(0, view->selectedCandidate()), QString());
        QCOMPARE(opened.size(), 1);
        QCOMPARE(w.document()->undoStack()->count(), steps + 1);
        const Project& p = *w.project();
        QCOMPARE(p.architecture.name, original.name);
        QCOMPARE(*p.architecture.levels[2].size_words, c.registers);
        QCOMPARE(*p.architecture.levels[1].size_words, c.sramWords);
        QCOMPARE(p.architecture.levels[2].instances, c.pes);
        QCOMPARE(p.mappings.size(), mappings + 1);
        const ProjectMapping& added = p.mappings.back();
        QCOMPARE(QString::fromStdString(added.mapping.name), opened.front().front().toString());
        Architecture now = p.architecture;
        applyEnergyModel(now, p.energyModel);
        const Evaluation e = evaluate(p.findWorkload("layer12")->workload, now, added.mapping);
        QVERIFY(e.valid);
        QCOMPARE(e.cycles, c.eval.cycles);
        QVERIFY(qAbs(e.energy_pJ - c.eval.energy_pJ) <= 1e-9 * c.eval.energy_pJ);

        w.document()->undoStack()->undo();
        QCOMPARE(w.project()->mappings.size(), mappings);
        QCOMPARE(w.project()->architecture.levels[2].instances, original.levels[2].instances);
        QCOMPARE(*w.project()->architecture.levels[1].size_words, *original.levels[1].size_words);
    }

    void cancelEndsALongRun()
    {
        MainWindow w;
        QVERIFY(w.openProject(kThistle));
        SolverView* view = w.solverView();
        SolverView::Settings s;
        s.target = QStringLiteral("network:resnet18");
        view->setSettings(s);
        QSignalSpy finished(view, &SolverView::finished);
        QVERIFY(view->run());
        QVERIFY(view->isRunning());
        QTest::qWait(200);
        view->cancel();
        QVERIFY(finished.size() == 1 || finished.wait(kHangGuardMs));
        QVERIFY(!view->isRunning());
        QVERIFY(view->result());
        QVERIFY(view->result()->cancelled);
    }

    // Interstellar's table: the dataflows of a small conv layer, ranked by energy, each row's
    // mapping really in its dataflow (its spatial loops are the U|V asked for).
    void studiesTheDataflowsOfALayer()
    {
        MainWindow w;
        QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/teaching/dataflows.yaml")));
        DataflowStudyPanel* panel = w.dataflowStudyPanel();
        panel->setLayer(QStringLiteral("conv"));
        panel->setBudget(100);
        QSignalSpy finished(panel, &DataflowStudyPanel::finished);
        QVERIFY(panel->run());
        QVERIFY(finished.size() == 1 || finished.wait(kHangGuardMs));
        QVERIFY(panel->study());
        // M C P Q R S all above 1 (N = 1): 6 x 5 ordered pairs, hand-counted.
        QCOMPARE(panel->study()->rows.size(), std::size_t(30));
        QCOMPARE(panel->table()->rowCount(), 30);
        double last = 0;
        int found = 0;
        for (const auto& r : panel->study()->rows) {
            if (!r.found) continue;
            ++found;
            QVERIFY(r.eval.energy_pJ >= last);  // ranked by energy
            last = r.eval.energy_pJ;
        }
        QVERIFY(found > 0);
        const auto& best = panel->study()->rows.front();
        QVERIFY(best.found);
        QCOMPARE(panel->table()->item(0, 4)->text(), QStringLiteral("+0.0 %"));
        const std::size_t before = w.project()->mappings.size();
        QCOMPARE(panel->addToProject(0), QString());
        QCOMPARE(w.project()->mappings.size(), before + 1);
        QVERIFY(panel->pinInCompare(0));
    }

    void refusesNothingToSolve()
    {
        MainWindow w;
        QVERIFY(w.openProject(kThistle));
        SolverView* view = w.solverView();
        SolverView::Settings s = fixedOnly(QStringLiteral("layer12"));
        s.fixedArchitecture = false;
        view->setSettings(s);
        QVERIFY(!view->run());
        QVERIFY(view->statusText().contains(QStringLiteral("fixed architecture, the co-design or both")));
    }
};

QTEST_MAIN(TestSolverView)
#include "tst_solver_view.moc"
