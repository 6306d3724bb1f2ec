// The GUI thread never evaluates: selecting a mapping and editing it queue the evaluation on
// the global thread pool and return, the event loop keeps turning, and the figures appear only
// when a pool thread has run it. Proved without clocks: every thread of the pool is held by
// blocking tasks, so an evaluation can only complete if something ran it on the GUI thread
// (a synchronous call, or a QFuture::result() that steals the queued task). The window stays
// hidden: Qt's raster engine splits large fills into tasks on the same global pool, so
// painting a shown window would wait for the blocked pool too. The longest GUI stall in
// milliseconds is measured by bench/bench_gui_responsiveness, not here.
#include "EvaluationPanel.h"
#include "MainWindow.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "model/Model.h"

#include <QEventLoop>
#include <QFuture>
#include <QProgressBar>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <QTimer>
#include <QUndoStack>

#include <atomic>

using nestor::app::MainWindow;
namespace commands = nestor::app::commands;

namespace {

constexpr int kHangGuardMs = 120000;  // waits end when their condition holds; this only stops a hang
const QString kMapping = QStringLiteral("row-stationary");

// Holds every thread of a pool until release(): work queued on the pool meanwhile cannot start.
class PoolBlocker {
public:
    explicit PoolBlocker(QThreadPool* pool) : threads_(pool->maxThreadCount())
    {
        for (int i = 0; i < threads_; ++i)
            pool->start([this] {
                started_.release();
                gate_.acquire();
                done_.release();
            });
        started_.acquire(threads_);  // all of them hold a thread now
    }
    ~PoolBlocker()
    {
        release();
        done_.acquire(threads_);  // the tasks touch the semaphores until they return
    }
    void release()
    {
        if (released_) return;
        released_ = true;
        gate_.release(threads_);
    }

private:
    int threads_;
    bool released_ = false;
    QSemaphore started_, gate_, done_;
};

// Runs the GUI thread's event loop for `turns` passes (a zero-interval timer fires once per pass).
void turnEventLoop(int turns)
{
    QEventLoop loop;
    int passes = 0;
    QTimer tick;
    tick.setInterval(0);
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        if (++passes == turns) loop.quit();
    });
    tick.start();
    loop.exec();
}

// The figures the engine gives for the project's mapping as it stands now.
nestor::Evaluation evaluateDirectly(const MainWindow& w, const QString& mapping)
{
    const nestor::Project& p = *w.project();
    const nestor::ProjectMapping* pm = p.findMapping(mapping.toStdString());
    return nestor::evaluate(p.findWorkload(pm->workload)->workload, p.architecture, pm->mapping);
}

QProgressBar* busyIndicator(MainWindow& w) { return w.statusBar()->findChild<QProgressBar*>(); }

} // namespace

class TestGuiThread : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void selectingAMappingEvaluatesOnAPoolThread();
    void aBurstOfEditsEvaluatesOnceOnAPoolThread();
};

void TestGuiThread::selectingAMappingEvaluatesOnAPoolThread()
{
    MainWindow w;  // not shown: see the top of the file
    QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml")));
    QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating(); }, kHangGuardMs));
    QVERIFY(!w.evaluationPanel()->lastValidEvaluation());
    QSignalSpy displayed(&w, &MainWindow::evaluationDisplayed);

    PoolBlocker blocker(QThreadPool::globalInstance());
    std::atomic<bool> probeRan{false};  // the blocker holds the pool, or this test proves nothing
    QFuture<void> probe = QtConcurrent::run([&] { probeRan = true; });
    QVERIFY(w.selectMapping(kMapping));  // returns with the evaluation queued
    QVERIFY(w.isEvaluating());
    QVERIFY(!busyIndicator(w)->isHidden());
    turnEventLoop(1000);
    QVERIFY(displayed.isEmpty());
    QVERIFY(!w.evaluationPanel()->lastValidEvaluation());
    QVERIFY(w.isEvaluating());
    QVERIFY(!probeRan);

    blocker.release();
    probe.waitForFinished();
    QVERIFY(probeRan);
    QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating(); }, kHangGuardMs));
    QCOMPARE(displayed.size(), 1);
    QCOMPARE(displayed.at(0).at(0).toString(), kMapping);
    QVERIFY(busyIndicator(w)->isHidden());
    const nestor::Evaluation* shown = w.evaluationPanel()->lastValidEvaluation();
    QVERIFY(shown);
    const nestor::Evaluation direct = evaluateDirectly(w, kMapping);
    QVERIFY(direct.valid);
    QCOMPARE(shown->energy_pJ, direct.energy_pJ);
    QCOMPARE(shown->cycles, direct.cycles);
}

// Edits in a row (no event loop between them: they are one burst however slow the machine)
// restart the debounce and are evaluated once, for the final state, on a pool thread.
void TestGuiThread::aBurstOfEditsEvaluatesOnceOnAPoolThread()
{
    MainWindow w;  // not shown: see the top of the file
    QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml")));
    QVERIFY(w.selectMapping(kMapping));
    QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating(); }, kHangGuardMs));
    QVERIFY(w.evaluationPanel()->lastValidEvaluation());
    const nestor::Evaluation before = *w.evaluationPanel()->lastValidEvaluation();
    QSignalSpy displayed(&w, &MainWindow::evaluationDisplayed);

    PoolBlocker blocker(QThreadPool::globalInstance());
    // GLB `for P in [0:8)` through 4, 2, 1, 8, 2 (the DRAM P loop absorbs it; the edits merge
    // into one undo step), then undo and redo it: P = 2.
    const commands::LoopRef glbP{kMapping, 1, nestor::LoopKind::Temporal, 2};
    for (int f : {4, 2, 1, 8, 2})
        QVERIFY(commands::setLoopFactor(*w.document(), glbP, f, f).isEmpty());
    w.document()->undoStack()->undo();
    w.document()->undoStack()->redo();
    QVERIFY(w.isEvaluating());
    // The debounce fires and queues the evaluation (the busy indicator shows it), then the
    // event loop keeps turning while the evaluation waits for a pool thread.
    QVERIFY(QTest::qWaitFor([&] { return !busyIndicator(w)->isHidden(); }, kHangGuardMs));
    turnEventLoop(1000);
    QVERIFY(displayed.isEmpty());
    QVERIFY(w.isEvaluating());
    QCOMPARE(w.evaluationPanel()->lastValidEvaluation()->energy_pJ, before.energy_pJ);  // old figures stay

    blocker.release();
    QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating(); }, kHangGuardMs));
    turnEventLoop(100);  // a second, stray result would arrive now
    QCOMPARE(displayed.size(), 1);
    const nestor::Evaluation direct = evaluateDirectly(w, kMapping);
    QVERIFY(direct.valid);
    QVERIFY(direct.energy_pJ != before.energy_pJ);  // the edit matters, so stale figures would be caught
    const nestor::Evaluation* shown = w.evaluationPanel()->lastValidEvaluation();
    QCOMPARE(shown->energy_pJ, direct.energy_pJ);
    QCOMPARE(shown->cycles, direct.cycles);
}

QTEST_MAIN(TestGuiThread)
#include "tst_guithread.moc"
