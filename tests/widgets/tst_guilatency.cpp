// GUI-thread stalls while editing and evaluating: a probe timer ticks every 5 ms on the GUI
// thread and records the longest gap between ticks while a burst of loop-factor edits
// (each an undo command, a loop-nest rebuild and a debounced background evaluation) and
// undos run on the Eyeriss-like example. The figure is printed and must stay under 50 ms
// (docs/gui.md).
#include "EvaluationPanel.h"
#include "MainWindow.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

using nestor::app::MainWindow;
namespace commands = nestor::app::commands;

class TestGuiLatency : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void editingNeverStallsTheEventLoop();
};

void TestGuiLatency::editingNeverStallsTheEventLoop()
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml")));
    QVERIFY(w.selectMapping(QStringLiteral("row-stationary")));
    QTRY_VERIFY_WITH_TIMEOUT(!w.isEvaluating(), 20000);

    qint64 worstGap = 0;
    QElapsedTimer sinceTick;
    QTimer probe;
    probe.setInterval(5);
    connect(&probe, &QTimer::timeout, this, [&] {
        worstGap = std::max(worstGap, sinceTick.restart());
    });
    sinceTick.start();
    probe.start();

    // GLB `for P in [0:8)` through 1, 2, 4, 8 (the DRAM P loop absorbs it), with pauses
    // longer than the debounce so every edit is evaluated and shown, then undo them all.
    const int factors[] = {4, 2, 1, 8, 2, 4};
    QElapsedTimer total;
    total.start();
    for (int f : factors) {
        QVERIFY(commands::setLoopFactor(*w.document(), {QStringLiteral("row-stationary"), 1, commands::LoopKind::Temporal, 2}, f, f).isEmpty());
        QTest::qWait(150);
    }
    while (w.document()->undoStack()->canUndo()) {
        w.document()->undoStack()->undo();
        QTest::qWait(150);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!w.isEvaluating(), 20000);
    probe.stop();
    qInfo("longest GUI-thread stall while editing/evaluating: %lld ms over %lld ms", worstGap, total.elapsed());
    QVERIFY2(worstGap < 50, qPrintable(QStringLiteral("%1 ms").arg(worstGap)));
}

QTEST_MAIN(TestGuiLatency)
#include "tst_guilatency.moc"
