// GUI responsiveness on the Eyeriss-like example (offscreen):
//  (i)  the longest GUI-thread stall while editing: a probe timer ticks every 5 ms on the GUI
//       thread and the longest gap between ticks is recorded while six loop-factor edits and
//       their undos run, each followed by a pause longer than the debounce so every one is
//       evaluated and shown (target: under 50 ms; tests/widgets/tst_guithread checks, without
//       clocks, that no evaluation runs on the GUI thread);
//  (ii) how fast Cancel in the Jobs dock ends a search: from the click to the panel's run
//       finished with its best so far (target: under 1 s).
// Usage: bench_gui_responsiveness [runs of each, default 3]
#include "MainWindow.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "jobs/JobsDock.h"
#include "search/SearchPanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using nestor::app::MainWindow;
using nestor::app::SearchPanel;
namespace commands = nestor::app::commands;

namespace {

constexpr int kWaitMs = 120000;  // a wait that lasts longer than this is reported as a hang
const QString kExample = QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml");
const QString kMapping = QStringLiteral("row-stationary");

const char* verdict(bool met) { return met ? "met" : "NOT met"; }

// Longest gap between 5 ms probe ticks during the edit burst, in ms; -1 if something failed.
qint64 longestStallWhileEditing()
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    if (!w.openProject(kExample) || !w.selectMapping(kMapping) || !QTest::qWaitFor([&] { return !w.isEvaluating(); }, kWaitMs))
        return -1;
    qint64 worstGap = 0;
    QElapsedTimer sinceTick;
    QTimer probe;
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, [&] { worstGap = std::max(worstGap, sinceTick.restart()); });
    sinceTick.start();
    probe.start();
    // GLB `for P in [0:8)` through 4, 2, 1, 8, 2, 4 (the DRAM P loop absorbs it), then six
    // alternating undos and redos: the edits merge into one undo step, and twelve changes
    // keep the load of the original six edits and six undos.
    const commands::LoopRef glbP{kMapping, 1, nestor::LoopKind::Temporal, 2};
    for (int f : {4, 2, 1, 8, 2, 4}) {
        if (!commands::setLoopFactor(*w.document(), glbP, f, f).isEmpty()) return -1;
        QTest::qWait(150);
    }
    for (int i = 0; i < 6; ++i) {
        if (i % 2 == 0) w.document()->undoStack()->undo();
        else w.document()->undoStack()->redo();
        QTest::qWait(150);
    }
    if (!QTest::qWaitFor([&] { return !w.isEvaluating(); }, kWaitMs)) return -1;
    return worstGap;
}

// Milliseconds from Cancel to the end of an unbounded search of a small layer; -1 on failure.
qint64 cancelToFinished()
{
    MainWindow w;
    w.show();
    if (!w.openProject(kExample)) return -1;
    nestor::LayerSpec spec;
    spec.type = "conv";
    spec.conv.M = 16;
    spec.conv.C = 16;
    spec.conv.P = 14;
    spec.conv.Q = 14;
    spec.conv.R = 3;
    spec.conv.S = 3;
    if (!commands::addWorkload(*w.document(), QStringLiteral("small"), spec).isEmpty()) return -1;
    nestor::app::SearchSettings s;
    s.layer = QStringLiteral("small");
    s.mapspaces = {QStringLiteral("pfm")};
    s.algorithm = QStringLiteral("random");
    s.threads = 1;
    s.evaluationBudget = 0;  // only Cancel ends it
    s.victoryCondition = 0;
    s.timeout = 100000;
    s.seed = 3;
    SearchPanel* panel = w.searchPanel();
    if (!panel->setSettings(s) || !panel->run()) return -1;
    const int job = panel->runs().at(0).job;
    if (!QTest::qWaitFor([&] { return panel->runs().at(0).progress.hasBest; }, kWaitMs)) return -1;
    QElapsedTimer timer;
    timer.start();
    if (!w.jobsDock()->cancelJob(job) || !QTest::qWaitFor([&] { return !panel->isRunning(); }, kWaitMs)) return -1;
    const qint64 ms = timer.elapsed();
    const auto& run = panel->runs().at(0);
    return run.outcome.result.cancelled && run.outcome.result.found ? ms : -1;
}

// Measures `runs` times, then prints one line (Qt's warnings go to stderr meanwhile).
bool report(const char* what, int runs, qint64 (*measure)(), qint64 targetMs)
{
    QString runsText;
    qint64 worst = 0;
    for (int i = 0; i < runs; ++i) {
        const qint64 ms = measure();
        if (ms < 0) {
            std::printf("%s: FAILED (the example did not load, an edit was refused or a wait hung)\n", what);
            return false;
        }
        runsText += QStringLiteral(" %1 ms").arg(ms);
        worst = std::max(worst, ms);
    }
    std::printf("%s:%s; worst %lld ms, target < %lld ms: %s\n", what, qPrintable(runsText), static_cast<long long>(worst),
                static_cast<long long>(targetMs), verdict(worst < targetMs));
    std::fflush(stdout);
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);  // settings and recovery files out of the user's way
    QCoreApplication::setOrganizationName(QStringLiteral("NestorBench"));
    QCoreApplication::setApplicationName(QStringLiteral("bench_gui_responsiveness"));
    const int runs = argc > 1 ? std::atoi(argv[1]) : 3;
    if (runs <= 0) {
        std::fprintf(stderr, "usage: bench_gui_responsiveness [runs of each > 0]\n");
        return 2;
    }
    const bool ok = report("Longest GUI-thread stall while editing and evaluating", runs, longestStallWhileEditing, 50) &&
                    report("Cancel to search finished (Jobs dock)", runs, cancelToFinished, 1000);
    return ok ? 0 : 1;
}
