// The search panel, the Pareto charts, the Jobs dock and the Properties dock, offscreen.
// Searches run on a small conv layer added to the Eyeriss-like example, in the perfect-
// factorization mapspace (mappings with remainders evaluate far slower), so each test takes
// a second or two. Settings and recovery files live in a test location. No assertion depends
// on machine speed: every wait ends as soon as its condition holds and only guards against a
// hang (kHangGuardMs); how fast Cancel returns is measured by bench/bench_gui_responsiveness.
#include "CompareView.h"
#include "MainWindow.h"
#include "NetworkView.h"
#include "ParetoChart.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "ProjectTreeDock.h"
#include "PropertiesDock.h"
#include "SearchProgressChart.h"
#include "jobs/JobsDock.h"
#include "search/SearchPanel.h"
#include "core/MapspaceConstraints.h"

#include <qcustomplot.h>

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <cmath>

using nestor::app::JobsDock;
using nestor::app::MainWindow;
using nestor::app::SearchPanel;
using nestor::app::SearchSettings;
namespace commands = nestor::app::commands;

namespace {

const QString kExample = QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml");
const QString kSmall = QStringLiteral("small");
constexpr int kHangGuardMs = 120000;  // far beyond any healthy run, even on a loaded machine

// The example plus a small conv layer (16 x 16 channels, 14 x 14 outputs, 3 x 3 filters).
bool openWithSmallLayer(MainWindow& w)
{
    if (!w.openProject(kExample)) return false;
    nestor::LayerSpec spec;
    spec.type = "conv";
    spec.conv.M = 16;
    spec.conv.C = 16;
    spec.conv.P = 14;
    spec.conv.Q = 14;
    spec.conv.R = 3;
    spec.conv.S = 3;
    return commands::addWorkload(*w.document(), kSmall, spec).isEmpty();
}

SearchSettings smallSearch(qint64 seed)
{
    SearchSettings s;
    s.layer = kSmall;
    s.mapspaces = {QStringLiteral("pfm")};
    s.algorithm = QStringLiteral("random");
    s.threads = 1;
    s.evaluationBudget = 3000;
    s.victoryCondition = 0;
    s.timeout = 100000;
    s.seed = seed;
    return s;
}

bool waitForRuns(SearchPanel* panel)
{
    return QTest::qWaitFor([&] { return !panel->isRunning(); }, kHangGuardMs);
}

} // namespace

class TestSearchPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void searchRunsInBackgroundAndIsDeterministic();
    void cancelReturnsBestSoFar();
    void searchHonoursTheProjectConstraints();
    void addingTheBestMappingIsUndoable();
    void paretoChartShowsTheNonDominatedPoints();
    void energyDelayPointOpensAndPins();
    void sweepPlotsAreaAgainstEdp();
    void jobsDockShowsAndRemovesJobs();
    void networkEvaluationIsAJob();
    void propertiesDockShowsTheSelection();
    void openingAnotherProjectLeavesNothingOfTheFirst();
    void openingAnotherProjectDiscardsRunningJobs();

private:
    QTemporaryDir dir_;
};

void TestSearchPanel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("NestorTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_searchpanel"));
}

void TestSearchPanel::searchRunsInBackgroundAndIsDeterministic()
{
    MainWindow w;
    w.show();
    QVERIFY(openWithSmallLayer(w));
    SearchPanel* panel = w.searchPanel();
    QVERIFY(panel->setSettings(smallSearch(7)));
    QSignalSpy finished(panel, &SearchPanel::runFinished);

    QVERIFY(panel->run());
    QVERIFY(panel->isRunning());  // run() returned before the search ended
    QCOMPARE(w.jobsDock()->runningCount(), 1);
    QVERIFY(waitForRuns(panel));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(w.jobsDock()->runningCount(), 0);

    const SearchPanel::RunRecord first = panel->runs().at(0);  // a copy: the next run grows the list
    QVERIFY(first.finished);
    QVERIFY2(first.outcome.failure.isEmpty(), qPrintable(first.outcome.failure));
    QVERIFY(first.outcome.result.found);
    QCOMPARE(first.outcome.result.evaluated, 3000);
    // The curve got every improvement, and ends at the best.
    nestor::widgets::SearchProgressChart* curve = panel->progressChart();
    QCOMPARE(curve->runCount(), 1);
    QCOMPARE(curve->improvementCount(0), int(first.outcome.result.curve.size()));
    QCOMPARE(curve->lastValue(0), first.outcome.result.bestMetrics.front());
    // The table shows the best mapping's figures.
    QTableWidget* table = panel->resultsTable();
    QCOMPARE(table->rowCount(), 1);
    for (int c = 4; c < table->columnCount(); ++c) {
        QVERIFY(table->item(0, c));
        QVERIFY2(!table->item(0, c)->text().isEmpty(), qPrintable(QString::number(c)));
    }
    QVERIFY(table->item(0, 10)->text().contains(QLatin1Char('%')));

    // Same seed, same result; the first curve stays beside the second.
    QVERIFY(panel->run());
    QVERIFY(waitForRuns(panel));
    QCOMPARE(curve->runCount(), 2);
    const auto& second = panel->runs().at(1);
    QCOMPARE(second.outcome.result.bestMetrics, first.outcome.result.bestMetrics);
    QCOMPARE(second.outcome.result.curve.size(), first.outcome.result.curve.size());
    for (std::size_t i = 0; i < first.outcome.result.curve.size(); ++i) {
        QCOMPARE(second.outcome.result.curve[i].evaluated, first.outcome.result.curve[i].evaluated);
        QCOMPARE(second.outcome.result.curve[i].value, first.outcome.result.curve[i].value);
    }
    QCOMPARE(panel->energyDelayChart()->seriesCount(), 2);

    panel->clearRuns();
    QCOMPARE(curve->runCount(), 0);
    QCOMPARE(table->rowCount(), 0);
}

// As nestor-cli search: the project's constraints apply unless unchecked; the best mapping
// then passes the independent constraint checker, and the unconstrained mapspace is larger.
void TestSearchPanel::searchHonoursTheProjectConstraints()
{
    MainWindow w;
    QVERIFY(openWithSmallLayer(w));
    SearchPanel* panel = w.searchPanel();
    SearchSettings s = smallSearch(3);
    QVERIFY(s.useConstraints);  // the default
    QVERIFY(panel->setSettings(s));
    QVERIFY(panel->run());
    QVERIFY(waitForRuns(panel));
    s.useConstraints = false;
    QVERIFY(panel->setSettings(s));
    QCOMPARE(panel->settings().useConstraints, false);
    QVERIFY(panel->run());
    QVERIFY(waitForRuns(panel));
    const auto& constrained = panel->runs().at(0).outcome;
    const auto& free = panel->runs().at(1).outcome;
    QVERIFY(constrained.result.found && free.result.found);
    const nestor::Project& p = w.document()->project();
    const nestor::Workload& layer = p.findWorkload(kSmall.toStdString())->workload;
    const nestor::MapspaceConstraints c = p.constraintsFor(layer);
    QVERIFY(!c.factors.empty());
    QVERIFY(nestor::checkConstraints(c, constrained.result.best, layer, p.architecture).empty());
    QVERIFY(!nestor::checkConstraints(c, free.result.best, layer, p.architecture).empty());
    QVERIFY(free.mapspaceSize > constrained.mapspaceSize);
}

void TestSearchPanel::cancelReturnsBestSoFar()
{
    MainWindow w;
    w.show();
    QVERIFY(openWithSmallLayer(w));
    SearchPanel* panel = w.searchPanel();
    SearchSettings s = smallSearch(3);
    s.evaluationBudget = 0;  // no limit: only Cancel ends it
    QVERIFY(panel->setSettings(s));
    QVERIFY(panel->run());
    const int job = panel->runs().at(0).job;
    QVERIFY(w.jobsDock()->isRunning(job));
    QVERIFY(QTest::qWaitFor([&] { return panel->runs().at(0).progress.hasBest; }, kHangGuardMs));
    QVERIFY(panel->isRunning());
    // The search has its own thread: the Mapping tab still evaluates meanwhile.
    QVERIFY(w.selectMapping(QStringLiteral("row-stationary")));
    QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating(); }, kHangGuardMs));
    QVERIFY(panel->isRunning());

    // No budget and no victory rule: Cancel is what stops this search (column 11 says so).
    QVERIFY(w.jobsDock()->cancelJob(job));
    QVERIFY(waitForRuns(panel));

    const auto& run = panel->runs().at(0);
    QVERIFY(run.outcome.result.cancelled);
    QVERIFY(run.outcome.result.found);
    QVERIFY(!w.jobsDock()->isRunning(job));
    QVERIFY(w.jobsDock()->status(job).contains(QStringLiteral("cancelled")));
    QVERIFY(!panel->resultsTable()->item(0, 7)->text().isEmpty());  // the best so far is shown
    QCOMPARE(panel->resultsTable()->item(0, 11)->text(), QStringLiteral("cancelled"));
}

void TestSearchPanel::addingTheBestMappingIsUndoable()
{
    MainWindow w;
    w.show();
    QVERIFY(openWithSmallLayer(w));
    SearchPanel* panel = w.searchPanel();
    QVERIFY(panel->setSettings(smallSearch(11)));
    QVERIFY(panel->run());
    QVERIFY(waitForRuns(panel));

    const std::size_t mappings = w.project()->mappings.size();
    const int undoCount = w.document()->undoStack()->count();
    const QString name = panel->addBestToProject(0);
    QVERIFY2(!name.isEmpty(), qPrintable(panel->lastError()));
    QCOMPARE(w.project()->mappings.size(), mappings + 1);
    QCOMPARE(w.document()->undoStack()->count(), undoCount + 1);
    const nestor::ProjectMapping* pm = w.project()->findMapping(name.toStdString());
    QVERIFY(pm);
    QCOMPARE(QString::fromStdString(pm->workload), kSmall);
    QCOMPARE(w.currentMapping(), name);  // opened in the Mapping tab
    QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::Tab::Mapping));
    QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating(); }, kHangGuardMs));

    // Adding it again picks a free name.
    const QString again = panel->addBestToProject(0);
    QVERIFY(!again.isEmpty() && again != name);

    w.document()->undoStack()->undo();
    w.document()->undoStack()->undo();
    QCOMPARE(w.project()->mappings.size(), mappings);
    QVERIFY(!w.project()->findMapping(name.toStdString()));
    w.document()->undoStack()->redo();
    QVERIFY(w.project()->findMapping(name.toStdString()));
}

void TestSearchPanel::paretoChartShowsTheNonDominatedPoints()
{
    nestor::widgets::ParetoChart chart;
    chart.resize(600, 400);
    chart.show();
    // (delay, energy): (1, 10), (2, 5) and (4, 1) are the front; (3, 6) and (2, 8) are dominated
    // by (2, 5); (5, 1) by (4, 1); (2, 5) appears twice (both on the front).
    const QVector<QPointF> points{{1, 10}, {2, 5}, {3, 6}, {4, 1}, {2, 8}, {5, 1}, {2, 5}};
    QCOMPARE(chart.addSeries(QStringLiteral("hand-made"), points), 0);
    QCOMPARE(chart.frontIndices(0), (std::vector<int>{0, 1, 3, 6}));
    QCOMPARE(chart.pointCount(0), 7);

    // A second series has its own front.
    QCOMPARE(chart.addSeries(QStringLiteral("other"), {{10, 10}, {20, 20}}), 1);
    QCOMPARE(chart.frontIndices(1), (std::vector<int>{0}));

    // Clicking a point reports it.
    chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QSignalSpy clicked(&chart, &nestor::widgets::ParetoChart::pointClicked);
    const QPointF pixel = chart.pixelOf(0, 3);
    QTest::mouseClick(chart.plot(), Qt::LeftButton, {}, pixel.toPoint());
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.at(0).at(0).toInt(), 0);
    QCOMPARE(clicked.at(0).at(1).toInt(), 3);
    QCOMPARE(chart.pointAt(QPoint(-100, -100)).first, -1);

    chart.clear();
    QCOMPARE(chart.seriesCount(), 0);
}

void TestSearchPanel::energyDelayPointOpensAndPins()
{
    MainWindow w;
    w.show();
    QVERIFY(openWithSmallLayer(w));
    SearchPanel* panel = w.searchPanel();
    QVERIFY(panel->setSettings(smallSearch(5)));
    QVERIFY(panel->run());
    QVERIFY(waitForRuns(panel));
    nestor::widgets::ParetoChart* chart = panel->energyDelayChart();
    QCOMPARE(chart->seriesCount(), 1);
    QVERIFY(chart->pointCount(0) > 1);
    const std::vector<int> front = chart->frontIndices(0);
    QVERIFY(!front.empty());
    // Every front point is really non-dominated among the sample.
    const auto& sample = panel->runs().at(0).outcome.sample;
    for (int f : front)
        for (const auto& other : sample)
            QVERIFY(!(other.cycles <= sample[std::size_t(f)].cycles && other.energy_pJ <= sample[std::size_t(f)].energy_pJ &&
                      (other.cycles < sample[std::size_t(f)].cycles || other.energy_pJ < sample[std::size_t(f)].energy_pJ)));

    const QString png = dir_.filePath(QStringLiteral("energy-delay.png"));
    QVERIFY(chart->exportPng(png, 700, 450));
    QVERIFY(QFileInfo(png).size() > 1000);

    const int pins = w.compareView()->pinCount();
    const int undoCount = w.document()->undoStack()->count();
    chart->clickPoint(0, front.front());
    QCOMPARE(w.document()->undoStack()->count(), undoCount + 1);
    QCOMPARE(w.compareView()->pinCount(), pins + 1);
    QVERIFY(w.currentMapping().endsWith(QStringLiteral("-pareto")));
    QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::Tab::Mapping));
    QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating() && !w.compareView()->isEvaluating(); }, kHangGuardMs));
}

void TestSearchPanel::sweepPlotsAreaAgainstEdp()
{
    MainWindow w;
    w.show();
    QVERIFY(openWithSmallLayer(w));
    SearchPanel* panel = w.searchPanel();
    SearchSettings s = smallSearch(2);
    s.sweepBudget = 300;
    QVERIFY(panel->setSettings(s));
    QSignalSpy done(panel, &SearchPanel::sweepFinished);
    QVERIFY(panel->startSweep());
    QCOMPARE(w.jobsDock()->runningCount(), 1);
    QVERIFY(QTest::qWaitFor([&] { return !panel->isSweeping(); }, kHangGuardMs));
    QVERIFY(done.size() == 1 || done.wait(kHangGuardMs));
    QCOMPARE(done.at(0).at(0).toBool(), true);
    QCOMPARE(int(panel->sweepResults().size()), int(nestor::defaultSweepArrays().size()));
    for (const auto& item : panel->sweepResults()) {
        QVERIFY2(item.point.error.empty(), item.point.error.c_str());
        QCOMPARE(item.architecture.compute.instances, item.point.array.x * item.point.array.y);
        QVERIFY(item.best());
    }
    nestor::widgets::ParetoChart* chart = panel->areaEdpChart();
    QCOMPARE(chart->seriesCount(), 1);
    QVERIFY(!chart->frontIndices(0).empty());
    // Areas grow with the array.
    const auto& r = panel->sweepResults();
    QVERIFY(r.front().point.area_um2 < r.back().point.area_um2);
    // Hovering a point says which PE array it is (the first configuration swept: 2x7).
    const QString tip = chart->toolTipOf(0, 0);
    QVERIFY2(tip.contains(QString::fromStdString(r.front().point.array.name()) + QStringLiteral(" PE array")), qPrintable(tip));
    QVERIFY(QTest::qWaitFor([&] { return w.jobsDock()->runningCount() == 0; }, kHangGuardMs));

    const QString png = dir_.filePath(QStringLiteral("area-edp.pdf"));
    QVERIFY(chart->exportPdf(png, 700, 450));
    QVERIFY(QFileInfo(png).size() > 1000);

    const int pins = w.compareView()->pinCount();
    chart->clickPoint(0, chart->frontIndices(0).front());
    QCOMPARE(w.compareView()->pinCount(), pins + 1);
    QVERIFY(w.project()->findMapping(w.currentMapping().toStdString()));
    QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating() && !w.compareView()->isEvaluating(); }, kHangGuardMs));
}

void TestSearchPanel::jobsDockShowsAndRemovesJobs()
{
    JobsDock dock;
    dock.show();
    bool cancelled = false;
    const int a = dock.addJob(QStringLiteral("first"), [&] { cancelled = true; });
    const int b = dock.addJob(QStringLiteral("second"), {});
    QCOMPARE(dock.jobCount(), 2);
    QCOMPARE(dock.runningCount(), 2);
    QCOMPARE(dock.title(a), QStringLiteral("first"));
    dock.setProgress(a, 5, 10);
    dock.setStatus(a, QStringLiteral("half way"));
    QCOMPARE(dock.status(a), QStringLiteral("half way"));

    // The Cancel button asks the job's owner; the job ends when the owner says so.
    auto* cancel = dock.findChild<QWidget*>(QStringLiteral("job%1").arg(a))->findChild<QPushButton*>(QStringLiteral("cancelJob"));
    QVERIFY(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(cancelled);
    QVERIFY(dock.isRunning(a));
    QVERIFY(!dock.cancelJob(a));  // once
    dock.finishJob(a, QStringLiteral("cancelled"));
    QVERIFY(!dock.isRunning(a));
    QCOMPARE(dock.runningCount(), 1);
    QCOMPARE(dock.status(a), QStringLiteral("cancelled"));

    dock.clearFinished();
    QCOMPARE(dock.jobCount(), 1);
    QVERIFY(!dock.contains(a));
    dock.finishJob(b, QStringLiteral("done"));
    QSignalSpy removed(&dock, &JobsDock::jobRemoved);
    dock.removeJob(b);
    QCOMPARE(removed.size(), 1);
    QCOMPARE(dock.jobCount(), 0);
}

void TestSearchPanel::networkEvaluationIsAJob()
{
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/alexnet.yaml")));
    QSignalSpy added(w.jobsDock(), &JobsDock::jobAdded);
    QSignalSpy finished(w.networkView(), &nestor::app::NetworkView::finished);
    w.networkView()->start();
    QCOMPARE(added.size(), 1);
    const int id = added.at(0).at(0).toInt();
    QVERIFY(finished.size() == 1 || finished.wait(kHangGuardMs));
    QVERIFY(!w.jobsDock()->isRunning(id));
    QCOMPARE(w.jobsDock()->status(id), QStringLiteral("done"));
}

void TestSearchPanel::propertiesDockShowsTheSelection()
{
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(kExample));
    QTreeWidget* tree = w.projectDock()->tree();
    auto select = [&](const QString& text) {
        const auto items = tree->findItems(text, Qt::MatchExactly | Qt::MatchRecursive);
        if (items.isEmpty()) return false;
        tree->setCurrentItem(items.front());
        return true;
    };
    nestor::app::PropertiesDock* props = w.propertiesDock();
    QVERIFY(select(QStringLiteral("GLB")));
    QCOMPARE(props->currentKind(), QStringLiteral("level"));
    QVERIFY(props->value(QStringLiteral("Size")).contains(QStringLiteral("words")));
    QVERIFY(select(QStringLiteral("conv3_1")));
    QCOMPARE(props->currentKind(), QStringLiteral("workload"));
    QCOMPARE(props->value(QStringLiteral("M")), QStringLiteral("256"));
    QVERIFY(select(QStringLiteral("row-stationary")));
    QCOMPARE(props->currentKind(), QStringLiteral("mapping"));
    QCOMPARE(props->value(QStringLiteral("Layer")), QStringLiteral("conv3_1"));
    QVERIFY(props->value(QStringLiteral("DRAM")).contains(QStringLiteral("Q 4")));
    // Q (the paper's Y) across the columns, filter columns S (FY) and M (K) down the rows.
    QCOMPARE(props->value(QStringLiteral("Dataflow")), QStringLiteral("Y|FYK (row-stationary)"));
    QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating(); }, kHangGuardMs));
    QVERIFY(QTest::qWaitFor([&] { return !props->value(QStringLiteral("Cycles")).isEmpty(); }, kHangGuardMs));
}

namespace {

// Nothing of the previous project: runs, plots, sweep points, network results, pins, the
// mapping shown, finished Jobs-dock rows, and the search's layer list is the new project's.
void verifyNothingOf(MainWindow& w, const QString& oldLayer)
{
    SearchPanel* panel = w.searchPanel();
    QVERIFY(!panel->isRunning());
    QVERIFY(!panel->isSweeping());
    QCOMPARE(int(panel->runs().size()), 0);
    QCOMPARE(panel->progressChart()->runCount(), 0);
    QCOMPARE(panel->energyDelayChart()->seriesCount(), 0);
    QCOMPARE(panel->areaEdpChart()->seriesCount(), 0);
    QCOMPARE(panel->resultsTable()->rowCount(), 0);
    QCOMPARE(int(panel->sweepResults().size()), 0);
    QVERIFY(!panel->addBestToProject(0).size());
    QCOMPARE(int(w.networkView()->results().size()), 0);
    QVERIFY(!w.networkView()->isRunning());
    QCOMPARE(w.compareView()->pinCount(), 0);
    QVERIFY(w.currentMapping().isEmpty());
    QCOMPARE(w.jobsDock()->jobCount(), 0);
    QVERIFY(!w.document()->project().findWorkload(oldLayer.toStdString()));
    panel->setSettings(smallSearch(1));  // the old layer is not offered any more
    QVERIFY(panel->settings().layer != oldLayer);
}

} // namespace

void TestSearchPanel::openingAnotherProjectLeavesNothingOfTheFirst()
{
    MainWindow w;
    w.show();
    QVERIFY(openWithSmallLayer(w));
    SearchPanel* panel = w.searchPanel();
    QVERIFY(panel->setSettings(smallSearch(5)));
    QVERIFY(panel->run());
    QVERIFY(waitForRuns(panel));
    QCOMPARE(int(panel->runs().size()), 1);
    QVERIFY(panel->runs().at(0).outcome.result.found);
    QSignalSpy networkDone(w.networkView(), &nestor::app::NetworkView::finished);
    w.networkView()->start();
    QVERIFY(networkDone.size() == 1 || networkDone.wait(kHangGuardMs));
    QVERIFY(!w.networkView()->results().empty());
    QVERIFY(!panel->addEnergyDelayPoint(0, 0).isEmpty());  // pins it in Compare
    QVERIFY(w.compareView()->pinCount() > 0);
    QVERIFY(w.jobsDock()->jobCount() > 0);

    QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/alexnet.yaml")));
    verifyNothingOf(w, kSmall);
    QTest::qWait(100);  // nothing arrives late either
    verifyNothingOf(w, kSmall);
}

void TestSearchPanel::openingAnotherProjectDiscardsRunningJobs()
{
    MainWindow w;
    w.show();
    QVERIFY(openWithSmallLayer(w));
    SearchPanel* panel = w.searchPanel();
    SearchSettings s = smallSearch(6);
    s.evaluationBudget = 0;  // runs until cancelled
    QVERIFY(panel->setSettings(s));
    QVERIFY(panel->run());
    QVERIFY(panel->startSweep());
    QVERIFY(QTest::qWaitFor([&] { return panel->runs().at(0).progress.evaluated > 0; }, kHangGuardMs));

    QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/alexnet.yaml")));
    verifyNothingOf(w, kSmall);
    QTest::qWait(300);  // the discarded runs stop and deliver nothing
    verifyNothingOf(w, kSmall);
}

QTEST_MAIN(TestSearchPanel)
#include "tst_searchpanel.moc"
