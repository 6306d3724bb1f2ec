// The Simulator tab (app/gui/simulator) and its utilization timeline (widgets/UtilizationTimeline):
// a program vector runs in the background and the tab shows what the engine computed: the check
// against the vector's expected results, the cycle model's total, one lane per module with a
// span per traced interval, and hover text naming the instruction. A broken vector shows its
// located error; a deadlocking program its report. The timeline's geometry (spans under pixels,
// zoom limits) is checked on hand-made lanes.
#include "MainWindow.h"
#include "ParetoChart.h"
#include "UtilizationTimeline.h"
#include "simulator/SimulatorView.h"
#include "sim/vta/Program.h"
#include "sim/vta/TimingModel.h"
#include "sim/vta/VectorFile.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace nestor;
using namespace nestor::app;
using widgets::TimelineLane;
using widgets::TimelineSpan;
using widgets::UtilizationTimeline;

namespace {

const QString kVectors = QStringLiteral(NESTOR_TEST_DATA_DIR "/vta");
constexpr int kHangGuardMs = 60000;

bool runAndWait(SimulatorView& view, const QString& path)
{
    QSignalSpy finished(&view, &SimulatorView::finished);
    if (!view.runVector(path)) return false;
    return finished.size() == 1 || finished.wait(kHangGuardMs);
}

} // namespace

class TestSimulatorView : public QObject {
    Q_OBJECT
private slots:
    void runsAVectorAndShowsItsTimeline()
    {
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        w.showTab(MainWindow::Tab::Simulator);
        SimulatorView* view = w.simulatorView();
        const QString path = kVectors + QStringLiteral("/vectors/vis_c_matmul_loops.json");
        QVERIFY(runAndWait(*view, path));
        QVERIFY(view->lastOutcome());
        const SimulationOutcome& o = *view->lastOutcome();
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        QVERIFY2(o.passed, qPrintable(o.report));
        QVERIFY(o.report.startsWith(QStringLiteral("PASS")));

        // The engine's own figures for the same inputs.
        const vta::ProgramVector vec = vta::loadVector(path.toStdString(), nullptr);
        Diagnostics problems;
        const vta::Program program = vta::buildProgram(vec.insns, vta::IsaLayout(vec.config), problems);
        const vta::TimingResult t = vta::simulateTiming(program, vec.config, view->timingConfig());
        QVERIFY(o.cycles);
        QCOMPARE(*o.cycles, t.cycles);

        UtilizationTimeline* timeline = view->timeline();
        QCOMPARE(int(timeline->lanes().size()), vta::kTraceLanes);
        QCOMPARE(timeline->totalCycles(), t.trace.totalCycles);
        for (int l = 0; l < vta::kTraceLanes; ++l)
            QCOMPARE(timeline->lanes()[std::size_t(l)].spans.size(), t.trace.lanes[std::size_t(l)].size());
        // Hovering the compute lane's first busy GEMM names it with its disassembly.
        const int compute = int(vta::Module::Compute);
        const auto& spans = t.trace.lanes[std::size_t(compute)];
        int gemm = -1;
        for (std::size_t i = 0; i < spans.size() && gemm < 0; ++i)
            if (spans[i].opcode == vta::Opcode::Gemm && spans[i].activity == vta::Activity::Busy) gemm = int(i);
        QVERIFY(gemm >= 0);
        timeline->zoomTo(spans[std::size_t(gemm)].begin, spans[std::size_t(gemm)].end);  // the span fills the lane
        const QString tip = timeline->toolTipAt(timeline->pixelOf(compute, gemm));
        QVERIFY2(tip.contains(QStringLiteral("GEMM")) && tip.contains(QStringLiteral("busy")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("#%1 ").arg(spans[std::size_t(gemm)].insnIndex)));

        // The II=4 core is slower on the same program.
        vta::TimingConfig slow = view->timingConfig();
        slow.gemmII = 4;
        view->setTimingConfig(slow);
        QVERIFY(runAndWait(*view, path));
        QVERIFY(*view->lastOutcome()->cycles > t.cycles);
    }

    void brokenVectorsSayWhyAndWhere()
    {
        SimulatorView view;
        QVERIFY(runAndWait(view, kVectors + QStringLiteral("/bad/bad_json_trailing_comma.json")));
        const SimulationOutcome& bad = *view.lastOutcome();
        QVERIFY(!bad.error.isEmpty());
        QVERIFY2(bad.error.contains(QStringLiteral("bad_json_trailing_comma.json:")), qPrintable(bad.error));
        QCOMPARE(view.timeline()->totalCycles(), std::uint64_t(0));

        QVERIFY(runAndWait(view, kVectors + QStringLiteral("/bad/deadlock_cycle.json")));
        const SimulationOutcome& deadlock = *view.lastOutcome();
        QVERIFY(deadlock.error.isEmpty());
        QVERIFY(!deadlock.passed);
        QVERIFY2(deadlock.report.contains(QStringLiteral("deadlock"), Qt::CaseInsensitive), qPrintable(deadlock.report));
        QVERIFY(!deadlock.cycles);

        QVERIFY(runAndWait(view, QStringLiteral("/no/such/vector.json")));
        QVERIFY(!view.lastOutcome()->error.isEmpty());
    }

    void runsResNet18WithALayerRuler()
    {
        SimulatorView view;
        QSignalSpy finished(&view, &SimulatorView::finished);
        QVERIFY(view.runResNet18(32));
        QVERIFY(finished.wait(kHangGuardMs) || finished.size() == 1);
        QVERIFY(view.lastNetwork());
        const vta::NetworkRun& run = *view.lastNetwork();
        QVERIFY2(!run.error, run.error ? run.error->c_str() : "");
        QVERIFY(!run.layers.empty());
        QCOMPARE(view.layerTable()->rowCount(), int(run.layers.size()));
        QCOMPARE(view.layerTable()->item(0, 0)->text(), QString::fromStdString(run.layers.front().name));
        QVERIFY(view.timeline()->totalCycles() >= run.totalCycles);
        QCOMPARE(view.rooflinePlot()->graphCount(), 2);  // the roof and the layers
        // Layers follow one another on the time axis.
        for (std::size_t i = 1; i < run.layers.size(); ++i)
            QVERIFY(run.layers[i].firstCycle >= run.layers[i - 1].firstCycle + run.layers[i - 1].cycles);

        // Cancel stops a full-size run early, and the tab is usable again.
        finished.clear();
        QVERIFY(view.runResNet18(224));
        QVERIFY(!view.runResNet18(224));  // one run at a time
        view.cancel();
        QVERIFY(finished.wait(kHangGuardMs) || finished.size() == 1);
        QVERIFY(!view.isRunning());
        QVERIFY(view.runResNet18(32));
        QVERIFY(finished.wait(kHangGuardMs) || finished.size() == 2);
    }

    void sweepPlotsAreaAgainstCyclesAndOpensAPoint()
    {
        SimulatorView view;
        QSignalSpy finished(&view, &SimulatorView::finished);
        QVERIFY(view.runSweep(32));
        QVERIFY(finished.wait(kHangGuardMs) || finished.size() == 1);
        const std::vector<vta::SweepPoint>& points = view.sweepPoints();
        QVERIFY(!points.empty());
        int mapped = 0, front = 0;
        for (const vta::SweepPoint& p : points) {
            mapped += !p.error && p.cycles > 0;
            front += p.pareto;
        }
        QCOMPARE(view.paretoChart()->seriesCount(), 1);
        QCOMPARE(view.paretoChart()->pointCount(0), mapped);
        QVERIFY(front >= 1);
        // Hover names the configuration; a click runs that configuration's network.
        QVERIFY(view.paretoChart()->toolTipOf(0, 0).contains(QStringLiteral("bus")));
        finished.clear();
        view.paretoChart()->clickPoint(0, view.paretoChart()->frontIndices(0).front());
        QVERIFY(finished.wait(kHangGuardMs) || finished.size() == 1);
        QVERIFY(view.lastNetwork());
        QVERIFY(!view.lastNetwork()->layers.empty());
    }

    void timelineGeometry()
    {
        UtilizationTimeline t;
        t.resize(670, 200);  // a 592-pixel plot: 70 px of lane names, 8 px right margin
        std::vector<TimelineLane> lanes(2);
        lanes[0].name = QStringLiteral("a");
        lanes[1].name = QStringLiteral("b");
        for (std::uint64_t k = 0; k < 100000; ++k)  // 10^5 one-cycle spans every other cycle
            lanes[0].spans.push_back({2 * k, 2 * k + 1, Qt::blue, false, QStringLiteral("s%1").arg(k)});
        lanes[1].spans.push_back({50, 150, Qt::red, true, QStringLiteral("stall")});
        t.setLanes(lanes, 200000);
        QCOMPARE(t.visibleBegin(), std::uint64_t(0));
        QCOMPARE(t.visibleEnd(), std::uint64_t(200000));
        t.grab();  // draws 10^5 spans into 592 columns

        t.zoomTo(100, 110);
        QCOMPARE(t.visibleEnd() - t.visibleBegin(), std::uint64_t(10));
        QCOMPARE(t.toolTipAt(t.pixelOf(0, 52)).section(QLatin1Char('\n'), 0, 0), QStringLiteral("a: s52"));
        QVERIFY(t.toolTipAt(t.pixelOf(1, 0)).contains(QStringLiteral("cycles 50 – 150 (100)")));
        t.zoomTo(0, 3);  // below the 10-cycle minimum
        QCOMPARE(t.visibleEnd() - t.visibleBegin(), std::uint64_t(10));
        t.zoomTo(199990, 400000);  // past the end: clamped to the run
        QCOMPARE(t.visibleEnd(), std::uint64_t(200000));
        t.showAll();
        QCOMPARE(t.visibleEnd(), std::uint64_t(200000));
    }
};

QTEST_MAIN(TestSimulatorView)
#include "tst_simulator_view.moc"
