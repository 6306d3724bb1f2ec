// The one GUI adapter for engine jobs (app/gui/jobs/BackgroundJob): progress and typed events
// reach the GUI thread in the order the job sent them, an exception becomes failed(message),
// cancel reaches the job through the contract's flag, and the Jobs dock shows each run.
#include "jobs/BackgroundJob.h"
#include "jobs/JobsDock.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <stdexcept>
#include <string>
#include <vector>

using namespace nestor;
using namespace nestor::app;

namespace {

struct StepDone {
    int step = 0;
};

// Waits until `job` has finished, without a timing assertion on how long it took.
void waitFinished(BackgroundJob& job, QSignalSpy& finished)
{
    while (finished.isEmpty()) QVERIFY(finished.wait(5000) || !finished.isEmpty());
    QVERIFY(!job.isRunning());
}

} // namespace

class TestBackgroundJob : public QObject {
    Q_OBJECT
private slots:
    void progressAndEventsArriveInOrderOnTheGuiThread()
    {
        JobsDock dock;
        BackgroundJob job;
        job.showIn(&dock, QStringLiteral("counting"));
        QThread* gui = QThread::currentThread();
        std::vector<std::string> received;   // written on the GUI thread only
        bool allOnGuiThread = true;
        connect(&job, &BackgroundJob::progressed, this, [&](const JobProgress& p) {
            allOnGuiThread = allOnGuiThread && QThread::currentThread() == gui;
            received.push_back("progress " + std::to_string(int(p.fraction * 4)) + " " + p.message);
        });
        int result = 0;
        QSignalSpy finished(&job, &BackgroundJob::finished);
        QSignalSpy failed(&job, &BackgroundJob::failed);
        job.start<int>(
            [&received, &allOnGuiThread, gui](RunningJob& run) {
                // (gui by value: the handler runs on the GUI thread after this closure may be gone)
                QueuedEventSink<StepDone> steps(run, [&received, &allOnGuiThread, gui](const StepDone& s) {
                    allOnGuiThread = allOnGuiThread && QThread::currentThread() == gui;
                    received.push_back("step " + std::to_string(s.step));
                });
                for (int i = 1; i <= 4; ++i) {
                    steps.onEvent({i});
                    run.reportProgress({i / 4.0, "step " + std::to_string(i) + " of 4"});
                }
                return 42;
            },
            [&](int r) {
                allOnGuiThread = allOnGuiThread && QThread::currentThread() == gui;
                received.push_back("done");
                result = r;
            });
        QVERIFY(job.isRunning());
        const int row = job.dockJob();
        QVERIFY(dock.isRunning(row));
        waitFinished(job, finished);
        const std::vector<std::string> expected = {"step 1", "progress 1 step 1 of 4", "step 2", "progress 2 step 2 of 4",
                                                   "step 3", "progress 3 step 3 of 4", "step 4", "progress 4 step 4 of 4",
                                                   "done"};
        QCOMPARE(received, expected);
        QVERIFY(allOnGuiThread);
        QCOMPARE(result, 42);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(finished.count(), 1);
        QVERIFY(!dock.isRunning(row));
        QCOMPARE(dock.status(row), QStringLiteral("done"));
    }

    void anExceptionBecomesAFailureWithItsMessage()
    {
        JobsDock dock;
        BackgroundJob job;
        job.showIn(&dock, QStringLiteral("doomed"));
        QSignalSpy finished(&job, &BackgroundJob::finished);
        QSignalSpy failed(&job, &BackgroundJob::failed);
        bool delivered = false;
        job.start<int>([](RunningJob&) -> int { throw std::runtime_error("layer conv1: no valid mapping"); },
                       [&](int) { delivered = true; });
        const int row = job.dockJob();
        waitFinished(job, finished);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().first().toString(), QStringLiteral("layer conv1: no valid mapping"));
        QVERIFY(!delivered);
        QVERIFY(dock.status(row).contains(QStringLiteral("layer conv1: no valid mapping")));
    }

    void cancelStopsTheJobThroughTheContractsFlag()
    {
        JobsDock dock;
        BackgroundJob job;
        job.showIn(&dock, QStringLiteral("endless"));
        QSignalSpy finished(&job, &BackgroundJob::finished);
        std::atomic<bool> started{false};
        int polls = -1;
        job.start<int>(
            [&started](RunningJob& run) {
                started = true;
                int n = 0;
                while (!run.cancelRequested()) {   // runs until cancelled: only cancel ends it
                    ++n;
                    QThread::yieldCurrentThread();
                }
                return n;
            },
            [&](int n) { polls = n; });
        while (!started) QThread::yieldCurrentThread();
        const int row = job.dockJob();
        QVERIFY(dock.cancelJob(row));   // the dock's Cancel button
        waitFinished(job, finished);
        QVERIFY(polls >= 0);            // the job returned, and its result was delivered
        QCOMPARE(dock.status(row), QStringLiteral("cancelled"));
    }

    void aNewRunSupersedesTheRunningOne()
    {
        BackgroundJob job;
        QSignalSpy finished(&job, &BackgroundJob::finished);
        std::vector<int> delivered;
        std::atomic<bool> firstStarted{false};
        job.start<int>(
            [&firstStarted](RunningJob& run) {
                firstStarted = true;
                while (!run.cancelRequested()) QThread::yieldCurrentThread();
                return 1;
            },
            [&](int r) { delivered.push_back(r); });
        while (!firstStarted) QThread::yieldCurrentThread();
        job.start<int>([](RunningJob&) { return 2; }, [&](int r) { delivered.push_back(r); });
        waitFinished(job, finished);
        job.waitForDone();
        QCoreApplication::processEvents();
        QCOMPARE(delivered, std::vector<int>{2});
        QCOMPARE(finished.count(), 1);
    }
};

QTEST_MAIN(TestBackgroundJob)
#include "tst_backgroundjob.moc"
