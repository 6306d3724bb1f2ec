// The workbench on the bundled examples, offscreen: edit a loop factor, see the figures
// change, undo; invalid edits; save/load round trip; autosave recovery; layer and
// architecture editing; comparison; network evaluation; exports. Settings and the
// recovery file live in a temporary test location (QStandardPaths test mode).
#include "ArchitectureDiagram.h"
#include "ArchitectureEditor.h"
#include "AutosaveController.h"
#include "RecoveryStore.h"
#include "CapacityChart.h"
#include "CompareView.h"
#include "ComparisonChart.h"
#include "EnergyBreakdownChart.h"
#include "EvaluationPanel.h"
#include "EvaluationSummaryView.h"
#include "LayerEditor.h"
#include "LoopNestView.h"
#include "MainWindow.h"
#include "NetworkChart.h"
#include "NetworkView.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "RooflineChart.h"
#include "io/ProjectYaml.h"
#include "models/LayerTableModel.h"
#include "models/LoopNestModel.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using nestor::app::MainWindow;
using nestor::widgets::EvaluationSummaryView;
namespace commands = nestor::app::commands;

namespace {

const QString kExample = QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml");
// row-stationary, level GLB (1): temporal [[M, 2], [C, 8], [P, 8]]; DRAM (0): [[Q, 4], [C, 4], [P, 7], [M, 4]].
constexpr int kGlb = 1;
constexpr int kWeightsSpad = 5;  // temporal [[R, 3], [C, 4]], 192 words

bool waitForEvaluation(MainWindow& w)
{
    QSignalSpy displayed(&w, &MainWindow::evaluationDisplayed);
    return QTest::qWaitFor([&] { return !w.isEvaluating(); }, 20000) && (displayed.size() > 0 || !w.isEvaluating());
}

QString metric(MainWindow& w, EvaluationSummaryView::Metric m)
{
    return w.evaluationPanel()->summaryView()->metricText(m);
}

qint64 fileSize(const QString& path)
{
    return QFileInfo(path).size();
}

} // namespace

class TestWorkbench : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void editFactorReevaluatesAndUndoRestores();
    void rejectedEditLeavesDocumentUnchanged();
    void invalidMappingKeepsLastValidFigures();
    void moveAndKeepEditsAreUndoable();
    void saveLoadRoundTrip();
    void autosaveIsOfferedBack();
    void layerAndArchitectureEdits();
    void comparesTwoMappings();
    void comparesTheTeachingGallery();
    void evaluatesNetwork();
    void exportsChartsAndResults();

private:
    bool openExample(MainWindow& w);
    QTemporaryDir dir_;
};

void TestWorkbench::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("NestorTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_workbench"));
}

void TestWorkbench::init()
{
    QDir(nestor::app::RecoveryStore::defaultDirectory()).removeRecursively();
}

bool TestWorkbench::openExample(MainWindow& w)
{
    w.show();
    if (!w.openProject(kExample) || !w.selectMapping(QStringLiteral("row-stationary"))) return false;
    return waitForEvaluation(w) && w.evaluationPanel()->lastValidEvaluation();
}

void TestWorkbench::editFactorReevaluatesAndUndoRestores()
{
    MainWindow w;
    QVERIFY(openExample(w));
    const nestor::Mapping original = w.project()->findMapping("row-stationary")->mapping;
    const QString energy = metric(w, EvaluationSummaryView::Metric::Energy);
    const QString edp = metric(w, EvaluationSummaryView::Metric::Edp);
    QVERIFY(!energy.isEmpty() && energy != QStringLiteral("—"));
    QVERIFY(!w.document()->isModified());

    // Through the view, as a user would: GLB `for P in [0:8)` becomes 4; DRAM's P absorbs it (7 -> 14).
    auto* nest = w.evaluationPanel()->loopNestView()->loopNestModel();
    const QModelIndex p = nest->loopIndex(kGlb, nestor::LoopKind::Temporal, 2);
    QVERIFY(p.isValid());
    QVERIFY(nest->flags(p) & Qt::ItemIsEditable);
    QCOMPARE(p.data(Qt::EditRole).toString(), QStringLiteral("8"));
    nest->setData(p, QStringLiteral("4"));
    QVERIFY(w.document()->isModified());
    QCOMPARE(w.document()->undoStack()->count(), 1);
    const nestor::Mapping& edited = w.project()->findMapping("row-stationary")->mapping;
    QCOMPARE(edited.levels[kGlb].temporal[2].bound, 4);
    QCOMPARE(edited.levels[0].temporal[2].bound, 14);
    QVERIFY(waitForEvaluation(w));
    QVERIFY(w.evaluationPanel()->lastValidEvaluation());
    QVERIFY(!w.evaluationPanel()->isShowingStale());
    QVERIFY2(metric(w, EvaluationSummaryView::Metric::Energy) != energy || metric(w, EvaluationSummaryView::Metric::Edp) != edp,
             qPrintable(energy));
    QCOMPARE(nest->loopIndex(kGlb, nestor::LoopKind::Temporal, 2).data().toString().trimmed(), QStringLiteral("for P in [0:4)"));

    w.document()->undoStack()->undo();
    QVERIFY(!w.document()->isModified());
    QVERIFY(waitForEvaluation(w));
    QCOMPARE(metric(w, EvaluationSummaryView::Metric::Energy), energy);
    QCOMPARE(metric(w, EvaluationSummaryView::Metric::Edp), edp);
    QCOMPARE(w.project()->findMapping("row-stationary")->mapping.levels[0].temporal[2].bound, original.levels[0].temporal[2].bound);
    w.document()->undoStack()->redo();
    QCOMPARE(w.project()->findMapping("row-stationary")->mapping.levels[kGlb].temporal[2].bound, 4);
}

void TestWorkbench::rejectedEditLeavesDocumentUnchanged()
{
    MainWindow w;
    QVERIFY(openExample(w));
    const std::string before = nestor::writeProject(*w.project());
    // 28 columns on a 14-wide array: the spatial factor exceeds the fanout.
    const QString error = commands::setLoopFactor(*w.document(), {QStringLiteral("row-stationary"), 2, nestor::LoopKind::SpatialX, 0}, 28, 28);
    QVERIFY(!error.isEmpty());
    // Through the view the reason is shown in the banner.
    auto* nest = w.evaluationPanel()->loopNestView()->loopNestModel();
    nest->setData(nest->loopIndex(2, nestor::LoopKind::SpatialX, 0), QStringLiteral("28"));
    QVERIFY2(w.evaluationPanel()->editError().contains(QStringLiteral("spatial")), qPrintable(w.evaluationPanel()->editError()));
    nest->setData(nest->loopIndex(kGlb, nestor::LoopKind::Temporal, 0), QStringLiteral("two"));
    QVERIFY(w.evaluationPanel()->editError().contains(QStringLiteral("positive number")));
    QCOMPARE(nestor::writeProject(*w.project()), before);
    QCOMPARE(w.document()->undoStack()->count(), 0);
    QVERIFY(!w.document()->isModified());
    // A good edit clears the banner.
    nest->setData(nest->loopIndex(kGlb, nestor::LoopKind::Temporal, 2), QStringLiteral("4"));
    QVERIFY(w.evaluationPanel()->editError().isEmpty());
    // So does an undo, a redo, an accepted edit elsewhere, or another mapping: no stale banner.
    auto rejectOne = [&] {
        nest->setData(nest->loopIndex(kGlb, nestor::LoopKind::Temporal, 0), QStringLiteral("two"));
        QVERIFY(!w.evaluationPanel()->editError().isEmpty());
    };
    rejectOne();
    w.document()->undoStack()->undo();
    QVERIFY(w.evaluationPanel()->editError().isEmpty());
    rejectOne();
    w.document()->undoStack()->redo();
    QVERIFY(w.evaluationPanel()->editError().isEmpty());
    rejectOne();
    QCOMPARE(w.architectureEditor()->setProperty(kGlb, QStringLiteral("read_bw"), QStringLiteral("16")), QString());
    QVERIFY(w.evaluationPanel()->editError().isEmpty());
    rejectOne();
    QVERIFY(w.selectMapping(QStringLiteral("row-stationary")));
    QVERIFY(w.evaluationPanel()->editError().isEmpty());
}

void TestWorkbench::invalidMappingKeepsLastValidFigures()
{
    MainWindow w;
    QVERIFY(openExample(w));
    const QString energy = metric(w, EvaluationSummaryView::Metric::Energy);
    // weights_spad C 4 -> 16: a 3 x 16 x 8 = 384-word weight tile in a 192-word spad.
    QVERIFY(commands::setLoopFactor(*w.document(), {QStringLiteral("row-stationary"), kWeightsSpad, nestor::LoopKind::Temporal, 1}, 16, 16).isEmpty());
    QVERIFY(waitForEvaluation(w));
    QVERIFY(w.evaluationPanel()->isShowingStale());
    QCOMPARE(metric(w, EvaluationSummaryView::Metric::Energy), energy + QStringLiteral(" *"));
    QVERIFY(w.evaluationPanel()->summaryView()->statusText().contains(QStringLiteral("invalid")));
    auto* nest = w.evaluationPanel()->loopNestView()->loopNestModel();
    QCOMPARE(nest->index(0, 0).data(nestor::widgets::LoopNestModel::RowKindRole).toInt(),
             int(nestor::widgets::LoopNestModel::RowKind::Errors));
    // The document stays a valid project: it saves and reads back.
    const QString path = dir_.filePath(QStringLiteral("overflow.yaml"));
    QVERIFY(w.saveProjectAs(path));
    QVERIFY_THROWS_NO_EXCEPTION(nestor::readProject(path.toStdString()));
    w.document()->undoStack()->undo();
    QVERIFY(waitForEvaluation(w));
    QVERIFY(!w.evaluationPanel()->isShowingStale());
    QCOMPARE(metric(w, EvaluationSummaryView::Metric::Energy), energy);
}

void TestWorkbench::moveAndKeepEditsAreUndoable()
{
    MainWindow w;
    QVERIFY(openExample(w));
    const auto glb = [&] { return w.project()->findMapping("row-stationary")->mapping.levels[kGlb]; };
    const int firstDim = glb().temporal[0].dim;
    auto* view = w.evaluationPanel()->loopNestView();
    view->setCurrentIndex(view->loopNestModel()->loopIndex(kGlb, nestor::LoopKind::Temporal, 0));
    QVERIFY(view->moveCurrentLoop(1));
    QCOMPARE(glb().temporal[1].dim, firstDim);
    // The moved loop stays selected.
    QVERIFY(waitForEvaluation(w));
    QCOMPARE(view->currentIndex().data(nestor::widgets::LoopNestModel::LoopIndexRole).toInt(), 1);
    // Bypass Inputs at the GLB.
    QVERIFY(commands::setKeep(*w.document(), QStringLiteral("row-stationary"), kGlb, 1, false).isEmpty());
    QVERIFY(!glb().keep[1]);
    QCOMPARE(w.document()->undoStack()->count(), 2);
    w.document()->undoStack()->undo();
    w.document()->undoStack()->undo();
    QCOMPARE(glb().temporal[0].dim, firstDim);
    QVERIFY(glb().keep.empty() || glb().keep[1]);
    QVERIFY(!w.document()->isModified());

    // The loop nest's other requests (its context menu): move the GLB's first loop to DRAM,
    // add a loop, remove it, each one undo step; the mapping stays a mapping of the layer.
    const auto dram = [&] { return w.project()->findMapping("row-stationary")->mapping.levels[0]; };
    const std::size_t dramLoops = dram().temporal.size();
    emit view->loopRelocateRequested(kGlb, nestor::LoopKind::Temporal, 0, 0, nestor::LoopKind::Temporal);
    QCOMPARE(dram().temporal.size(), dramLoops + 1);
    QCOMPARE(dram().temporal.back().dim, firstDim);
    emit view->loopAddRequested(0, nestor::LoopKind::Temporal, 0);
    QCOMPARE(dram().temporal.size(), dramLoops + 2);
    emit view->loopRemoveRequested(0, nestor::LoopKind::Temporal, int(dramLoops + 1));
    QCOMPARE(dram().temporal.size(), dramLoops + 1);
    QCOMPARE(w.document()->undoStack()->count(), 3);
    emit view->repairRequested();  // nothing to repair: refused, shown, no step
    QVERIFY(!w.evaluationPanel()->editError().isEmpty());
    QCOMPARE(w.document()->undoStack()->count(), 3);
    for (int i = 0; i < 3; ++i) w.document()->undoStack()->undo();
    QVERIFY(!w.document()->isModified());
}

void TestWorkbench::saveLoadRoundTrip()
{
    MainWindow w;
    QVERIFY(openExample(w));
    const QString path = dir_.filePath(QStringLiteral("roundtrip.yaml"));
    QVERIFY(w.saveProjectAs(path));
    QCOMPARE(w.document()->path(), QFileInfo(path).absoluteFilePath());
    const nestor::Project original = nestor::readProject(kExample.toStdString());
    const nestor::Project reread = nestor::readProject(path.toStdString());
    QCOMPARE(nestor::writeProject(reread), nestor::writeProject(original));

    // An edited project round-trips too, and saving marks it clean.
    QVERIFY(commands::setLoopFactor(*w.document(), {QStringLiteral("row-stationary"), kGlb, nestor::LoopKind::Temporal, 2}, 4, 4).isEmpty());
    QVERIFY(w.document()->isModified());
    QVERIFY(w.saveProject());
    QVERIFY(!w.document()->isModified());
    QCOMPARE(nestor::writeProject(nestor::readProject(path.toStdString())), nestor::writeProject(*w.project()));
    // No temporary files are left beside it.
    QCOMPARE(QDir(dir_.path()).entryList({QStringLiteral("roundtrip*")}, QDir::Files).size(), 1);
}

void TestWorkbench::autosaveIsOfferedBack()
{
    using nestor::app::RecoveryStore;
    QString id;
    {
        MainWindow w;
        QVERIFY(openExample(w));
        w.enableAutosave(30);
        QVERIFY(commands::setLoopFactor(*w.document(), {QStringLiteral("row-stationary"), kGlb, nestor::LoopKind::Temporal, 2}, 4, 4).isEmpty());
        id = w.autosave()->id();
        QTRY_VERIFY_WITH_TIMEOUT(w.autosave()->hasRecovery(), 5000);
        QCOMPARE(RecoveryStore().readInfo(id).origin, QFileInfo(kExample).absoluteFilePath());
        // The window is destroyed without closing: as after a crash, the recovery file stays.
    }
    std::vector<nestor::app::RecoveryClaim> claims = RecoveryStore().claimOrphans();
    QCOMPARE(claims.size(), size_t(1));
    QCOMPARE(claims[0].info().id, id);
    MainWindow again;
    again.show();
    again.enableAutosave(30);
    nestor::Project recovered = claims[0].readProject();
    QVERIFY(again.restoreRecovery(std::move(claims[0]), std::move(recovered)));
    QVERIFY(again.document()->isModified());
    QCOMPARE(again.document()->path(), QFileInfo(kExample).absoluteFilePath());
    QCOMPARE(again.project()->findMapping("row-stationary")->mapping.levels[kGlb].temporal[2].bound, 4);
    QVERIFY(waitForEvaluation(again));
    // Saving elsewhere makes it clean, which drops the recovery file.
    QVERIFY(again.saveProjectAs(dir_.filePath(QStringLiteral("recovered.yaml"))));
    QVERIFY(!QFileInfo::exists(RecoveryStore().projectFile(id)));
}

void TestWorkbench::layerAndArchitectureEdits()
{
    MainWindow w;
    QVERIFY(openExample(w));
    auto* layers = w.layerEditor()->model();
    QCOMPARE(layers->rowCount(), 1);
    // M 256 -> 128 through the table.
    layers->setData(layers->index(0, nestor::widgets::LayerTableModel::M), 128);
    QCOMPARE(w.project()->workloads[0].spec.conv.M, 128);
    QCOMPARE(w.project()->workloads[0].workload.macs(), 128LL * 128 * 56 * 56 * 9);
    // The mapping no longer covers M: the evaluation says so and the last valid figures stay.
    QVERIFY(waitForEvaluation(w));
    QVERIFY(w.evaluationPanel()->isShowingStale());
    // Invalid values are refused inline.
    layers->setData(layers->index(0, nestor::widgets::LayerTableModel::P), 0);
    QVERIFY(w.layerEditor()->message().contains(QStringLiteral("positive")));
    QCOMPARE(w.project()->workloads[0].spec.conv.P, 56);
    // Duplicate, rename, remove; removing a layer a mapping uses is refused.
    QVERIFY(commands::duplicateWorkload(*w.document(), 0).isEmpty());
    QCOMPARE(w.project()->workloads.size(), std::size_t(2));
    QVERIFY(!commands::removeWorkload(*w.document(), 0).isEmpty());
    QVERIFY(commands::removeWorkload(*w.document(), 1).isEmpty());
    layers->setData(layers->index(0, nestor::widgets::LayerTableModel::Name), QStringLiteral("conv3_1b"));
    QCOMPARE(w.project()->findMapping("row-stationary")->workload, std::string("conv3_1b"));
    for (int i = 0; i < 4; ++i) w.document()->undoStack()->undo();
    QCOMPARE(w.project()->workloads[0].spec.conv.M, 256);
    QCOMPARE(w.project()->workloads[0].workload.name, std::string("conv3_1"));

    // Architecture: GLB size through the editor, then a rejected value.
    auto* arch = w.architectureEditor();
    QVERIFY(arch->setProperty(kGlb, QStringLiteral("size_words"), QStringLiteral("32768")).isEmpty());
    QCOMPARE(*w.project()->architecture.levels[kGlb].size_words, 32768);
    QVERIFY(!arch->setProperty(kGlb, QStringLiteral("word_bits"), QStringLiteral("-3")).isEmpty());
    QVERIFY(arch->diagram()->firstPeLevel() > kGlb);
    w.document()->undoStack()->undo();
    QCOMPARE(*w.project()->architecture.levels[kGlb].size_words, 65536);
}

void TestWorkbench::comparesTwoMappings()
{
    MainWindow w;
    QVERIFY(openExample(w));
    auto* compare = w.compareView();
    QSignalSpy updated(compare, &nestor::app::CompareView::comparisonUpdated);
    QVERIFY(compare->pin(QStringLiteral("row-stationary")));
    QVERIFY(compare->pin(QStringLiteral("conv3_1-rs")));
    QTRY_VERIFY_WITH_TIMEOUT(!compare->isEvaluating() && compare->evaluations().size() == 2, 20000);
    QVERIFY(compare->evaluations()[0].valid && compare->evaluations()[1].valid);
    QCOMPARE(compare->metricsTable()->columnCount(), 3);  // two pins and their difference
    QVERIFY(compare->metricsTable()->item(0, 2)->text().endsWith(QStringLiteral("%")));
    QCOMPARE(compare->nestTable()->rowCount(), w.project()->architecture.numLevels());
    QVERIFY(compare->nestTable()->item(kGlb, 0)->text().contains(QStringLiteral("for P [0:8)")));
    QCOMPARE(compare->chart()->seriesCount(), 2);
    // The same mapping on a second architecture (a saved copy with a smaller MAC energy).
    nestor::Project other = *w.project();
    other.architecture.name = "cheaper-macs";
    other.architecture.compute.mac_energy_pJ /= 2;
    const QString otherPath = dir_.filePath(QStringLiteral("other-arch.yaml"));
    nestor::saveProject(other, otherPath.toStdString());
    QVERIFY(compare->pinWithArchitecture(QStringLiteral("row-stationary"), otherPath));
    QTRY_VERIFY_WITH_TIMEOUT(!compare->isEvaluating() && compare->evaluations().size() == 3, 20000);
    QVERIFY(compare->evaluations()[2].energy_pJ < compare->evaluations()[0].energy_pJ);
    QVERIFY(compare->metricsTable()->horizontalHeaderItem(2)->text().contains(QStringLiteral("cheaper-macs")));
}

void TestWorkbench::comparesTheTeachingGallery()
{
    MainWindow w;
    QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/teaching/dataflows.yaml")));
    auto* compare = w.compareView();
    QCOMPARE(compare->pinAllOfLayer(QStringLiteral("row-stationary")), 5);
    QTRY_VERIFY_WITH_TIMEOUT(!compare->isEvaluating() && compare->evaluations().size() == 5, 20000);
    QCOMPARE(compare->metricsTable()->horizontalHeaderItem(0)->text(), QStringLiteral("output-stationary"));
    // What the gallery's texts say: row-stationary reuses every tensor in the PEs and is the
    // cheapest per MAC, and the only one of the five the GLB's bandwidth does not slow down.
    const auto& e = compare->evaluations();
    for (int i = 0; i < 5; ++i) QVERIFY(e[std::size_t(i)].valid);
    for (int i : {0, 1, 2, 4}) {
        QVERIFY(e[3].pJ_per_mac < e[std::size_t(i)].pJ_per_mac);
        QVERIFY(e[std::size_t(i)].utilization < 0.5);
    }
    QCOMPARE(e[3].utilization, 1.0);
    QCOMPARE(compare->chart()->seriesCount(), 5);
}

void TestWorkbench::evaluatesNetwork()
{
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/alexnet.yaml")));
    auto* net = w.networkView();
    QSignalSpy finished(net, &nestor::app::NetworkView::finished);
    net->selectNetwork(QString::fromStdString(w.project()->networks.empty() ? std::string() : w.project()->networks[0].name));
    net->start();
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().first().toBool(), true);
    QVERIFY(!net->results().empty());
    double energy = 0;
    for (const auto& r : net->results())
        if (r.evaluation.valid) energy += r.evaluation.energy_pJ * double(r.repeat);
    QVERIFY(energy > 0);
    QCOMPARE(net->totals().energy_pJ, energy);
    QCOMPARE(net->chart()->layerCount(), int(net->results().size()));
    // Cancel right after starting: it stops with a partial (possibly empty) result.
    net->start();
    net->cancel();
    QVERIFY(finished.wait(30000));
}

void TestWorkbench::exportsChartsAndResults()
{
    MainWindow w;
    QVERIFY(openExample(w));
    auto* panel = w.evaluationPanel();
    QVERIFY(!panel->rooflineChart()->roofline().roofs.empty());  // the GLB's bandwidth
    QVERIFY(panel->rooflineChart()->roofline().operating.intensity_macs_per_byte > 0);
    QVERIFY(panel->capacityChart()->barCount() >= 3);
    QVERIFY(w.compareView()->pin(QStringLiteral("row-stationary")));
    QTRY_VERIFY_WITH_TIMEOUT(!w.compareView()->isEvaluating(), 20000);
    const QStringList files{QStringLiteral("roofline.png"), QStringLiteral("roofline.pdf"), QStringLiteral("capacity.png"),
                            QStringLiteral("capacity.pdf"), QStringLiteral("energy.png"), QStringLiteral("energy.pdf"),
                            QStringLiteral("compare.png"), QStringLiteral("compare.pdf"), QStringLiteral("network.png"),
                            QStringLiteral("network.pdf"), QStringLiteral("results.csv"), QStringLiteral("results.json")};
    QVERIFY(panel->rooflineChart()->exportPng(dir_.filePath(files[0]), 640, 400));
    QVERIFY(panel->rooflineChart()->exportPdf(dir_.filePath(files[1]), 640, 400));
    QVERIFY(panel->capacityChart()->exportPng(dir_.filePath(files[2]), 640, 400));
    QVERIFY(panel->capacityChart()->exportPdf(dir_.filePath(files[3]), 640, 400));
    QVERIFY(panel->energyChart()->exportPng(dir_.filePath(files[4]), 640, 400));
    QVERIFY(panel->energyChart()->exportPdf(dir_.filePath(files[5]), 640, 400));
    QVERIFY(w.compareView()->chart()->exportPng(dir_.filePath(files[6]), 640, 400));
    QVERIFY(w.compareView()->chart()->exportPdf(dir_.filePath(files[7]), 640, 400));
    QVERIFY(w.networkView()->chart()->exportPng(dir_.filePath(files[8]), 640, 400));
    QVERIFY(w.networkView()->chart()->exportPdf(dir_.filePath(files[9]), 640, 400));
    QVERIFY(w.exportResults(dir_.filePath(files[10])));
    QVERIFY(w.exportResults(dir_.filePath(files[11])));
    for (const QString& f : files) QVERIFY2(fileSize(dir_.filePath(f)) > 0, qPrintable(f));
    QFile csv(dir_.filePath(files[10]));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QVERIFY(csv.readAll().contains("GLB"));
    QFile json(dir_.filePath(files[11]));
    QVERIFY(json.open(QIODevice::ReadOnly));
    QVERIFY(json.readAll().trimmed().startsWith('{'));
}

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
