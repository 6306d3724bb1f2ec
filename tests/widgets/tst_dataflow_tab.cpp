// The Dataflow tab (app/gui/teaching) on examples/eyeriss-like.yaml, mapping row-stationary:
// it follows the Mapping tab's current mapping, defaults to the PE-level scratchpad, steps,
// scrubs through the 64-bit slider scale, jumps to the next tile change (checked against the
// frames themselves), shows an invalid mapping's error instead of a picture, and exports (PNG,
// PDF, SVG, PNG sequence, animated GIF).
//
// Hand-derived figures (from the YAML): the temporal loops are DRAM Q4 C4 P7 M4, GLB M2 C8 P8,
// weights_spad R3 C4, psum_spad M8, so the nest has 4*4*7*4 * 2*8*8 * 3*4 * 8 = 5,505,024 steps.
// ifmap_spad (level 4, 14 x 12 instances) keeps only Inputs and has no loops of its own: an
// Inputs tile there spans every loop below it (R, C of weights_spad; M of psum_spad), so it
// changes only when a loop above it that Inputs depend on advances: the innermost such loop is
// GLB's P, which advances every 3*4*8 = 96 steps.
#include "DataflowView.h"
#include "MainWindow.h"
#include "MappingSession.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "teaching/DataflowTab.h"
#include "core/Project.h"
#include "teaching/LoopNestProgress.h"
#include "teaching/PlaybackControls.h"
#include "teaching/RunningTotals.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImageReader>
#include <QLabel>
#include <QSlider>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using nestor::app::DataflowTab;
using nestor::app::MainWindow;
using nestor::app::PlaybackControls;
namespace commands = nestor::app::commands;
namespace trace = nestor::trace;

namespace {

const QString kExample = QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml");
constexpr std::int64_t kSteps = 5505024;
constexpr int kIfmapSpad = 4;
constexpr int kWeightsSpad = 5;
constexpr int kInputs = 1;
constexpr std::int64_t kInputsTileSteps = 96;

bool open(MainWindow& w)
{
    if (!w.openProject(kExample) || !w.selectMapping(QStringLiteral("row-stationary"))) return false;
    return QTest::qWaitFor([&] { return !w.isEvaluating() && w.dataflowTab()->hasTrace(); }, 20000);
}

std::vector<std::vector<trace::Range>> tilesOf(const trace::StepFrame& f, int tensor)
{
    std::vector<std::vector<trace::Range>> tiles;
    for (const trace::InstanceFrame& i : f.instances) tiles.push_back(i.tiles[std::size_t(tensor)].ranks);
    return tiles;
}

} // namespace

class TestDataflowTab : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void followsTheCurrentMappingAndSteps()
    {
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QVERIFY(open(w));
        w.showTab(MainWindow::Tab::Dataflow);
        QCOMPARE(w.tabs()->tabText(int(MainWindow::Tab::Dataflow)), QStringLiteral("Dataflow"));
        DataflowTab* tab = w.dataflowTab();
        QVERIFY2(tab->errorText().isEmpty(), qPrintable(tab->errorText()));
        QCOMPARE(tab->level(), kIfmapSpad);
        QCOMPARE(tab->tensor(), kInputs);
        QCOMPARE(tab->levelChooser()->currentData().toInt(), kIfmapSpad);
        QCOMPARE(tab->numSteps(), kSteps);
        QCOMPARE(tab->view()->context().meshX, 14);
        QCOMPARE(tab->view()->context().meshY, 12);
        QCOMPARE(int(tab->view()->frame().instances.size()), 168);
        QCOMPARE(tab->view()->frame().step, 0);

        // Step forward and back.
        tab->playback()->stepForward();
        QCOMPARE(tab->currentStep(), 1);
        QCOMPARE(tab->view()->frame().step, 1);
        // The innermost loop (psum_spad's M) advanced, and only it.
        QCOMPARE(tab->loopNest()->advancedRows(), std::vector<int>{int(tab->stepTrace()->loops().size()) - 1});
        tab->playback()->stepBack();
        QCOMPARE(tab->view()->frame().step, 0);

        // The counts line follows: this step's and, from the background, the totals so far.
        QTRY_VERIFY2_WITH_TIMEOUT(!tab->isBusy() && !tab->countsText().contains(QStringLiteral("summing")), qPrintable(tab->countsText() + QString::number(tab->isBusy())), 20000);
        QVERIFY2(tab->countsText().startsWith(QStringLiteral("Inputs at ifmap_spad")), qPrintable(tab->countsText()));

        // Scrub: the last slider position is the last step; the middle one rounds half-way.
        QCOMPARE(tab->playback()->slider()->maximum(), PlaybackControls::kSliderMax);
        tab->playback()->scrubTo(PlaybackControls::kSliderMax);
        QCOMPARE(tab->currentStep(), kSteps - 1);
        QCOMPARE(tab->view()->frame().step, kSteps - 1);
        tab->playback()->slider()->setValue(PlaybackControls::kSliderMax / 2);   // as a drag does
        QCOMPARE(tab->currentStep(), 2752512);   // round(50000 * 5505023 / 100000) = round(2752511.5)
        QCOMPARE(tab->view()->frame().step, 2752512);

        // Another level: the weights scratchpad holds Weights.
        tab->setLevel(kWeightsSpad);
        QCOMPARE(tab->tensor(), 0);
        QCOMPARE(tab->view()->context().levelName, QStringLiteral("weights_spad"));
        QCOMPARE(tab->view()->frame().step, 2752512);
    }

    void runningTotalsAgreeWithOneWindow()
    {
        // The "so far" sums start from the last known sum (adding or subtracting the steps in
        // between); every route must equal one countWindow over [0, target].
        MainWindow w;
        QVERIFY(open(w));
        const trace::StepTrace& t = *w.dataflowTab()->stepTrace();
        nestor::NullJobContext job;
        const std::int64_t target = 600;   // more than two chunks
        const auto direct = t.countWindow(0, target + 1);
        QCOMPARE(*nestor::app::totalsThrough(t, target, {}, job), direct);
        QCOMPARE(*nestor::app::totalsThrough(t, target, {99, t.countWindow(0, 100)}, job), direct);     // forward
        QCOMPARE(*nestor::app::totalsThrough(t, target, {700, t.countWindow(0, 701)}, job), direct);    // backward
        QCOMPARE(*nestor::app::totalsThrough(t, target, {target, direct}, job), direct);                // known
        QCOMPARE(*nestor::app::totalsThrough(t, 0, {1500, t.countWindow(0, 1501)}, job), t.countWindow(0, 1));  // restart
        std::atomic<bool> cancel{true};
        nestor::FlagJobContext cancelled(&cancel);
        QVERIFY(!nestor::app::totalsThrough(t, target, {}, cancelled));
    }

    void sliderScaleIsExactFor64BitStepCounts()
    {
        // Few steps: one slider position per step.
        QCOMPARE(PlaybackControls::sliderMaximum(10), 9);
        for (int p = 0; p <= 9; ++p) {
            QCOMPARE(PlaybackControls::stepAt(p, 10), p);
            QCOMPARE(PlaybackControls::positionOf(p, 10), p);
        }
        QCOMPARE(PlaybackControls::sliderMaximum(1), 0);
        QCOMPARE(PlaybackControls::stepAt(5, 1), 0);
        // 10^18 + 1 steps: position p is step p * 10^13, exactly (no 64-bit overflow).
        const std::int64_t n = 1000000000000000001;
        QCOMPARE(PlaybackControls::stepAt(PlaybackControls::kSliderMax, n), n - 1);
        QCOMPARE(PlaybackControls::stepAt(1, n), std::int64_t(10000000000000));
        QCOMPARE(PlaybackControls::stepAt(PlaybackControls::kSliderMax + 7, n), n - 1);   // clamped
        QCOMPARE(PlaybackControls::positionOf(n / 2, n), PlaybackControls::kSliderMax / 2);
        QCOMPARE(PlaybackControls::positionOf(n - 1, n), PlaybackControls::kSliderMax);
    }

    void playsForwardAndPauses()
    {
        MainWindow w;
        QVERIFY(open(w));
        DataflowTab* tab = w.dataflowTab();
        tab->playback()->setStepsPerSecond(1000);
        tab->playback()->setStride(3);
        tab->playback()->play();
        QVERIFY(tab->playback()->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(tab->currentStep() > 0, 20000);
        tab->playback()->pause();
        QVERIFY(!tab->playback()->isPlaying());
        // 1000 steps/s at 30 frames/s: 33 steps a frame, times the stride 3.
        QCOMPARE(tab->currentStep() % 99, 0);
        QCOMPARE(tab->view()->frame().step, tab->currentStep());
        // Playing from the last step starts again at 0.
        tab->goToStep(kSteps - 1);
        tab->playback()->play();
        QCOMPARE(tab->currentStep(), 0);
        tab->playback()->pause();
    }

    void nextTileChangeJumpsToWhereTheTileDiffers()
    {
        MainWindow w;
        QVERIFY(open(w));
        DataflowTab* tab = w.dataflowTab();
        tab->nextTileChange();
        QTRY_COMPARE_WITH_TIMEOUT(tab->currentStep(), kInputsTileSteps, 20000);
        // Checked on the frames: no Inputs tile changes in steps 1..95, one does at 96.
        const trace::StepTrace& t = *tab->stepTrace();
        const auto first = tilesOf(t.frame(0), kInputs);
        for (std::int64_t s = 1; s < kInputsTileSteps; ++s) QVERIFY(tilesOf(t.frame(s), kInputs) == first);
        QVERIFY(tilesOf(t.frame(kInputsTileSteps), kInputs) != first);
        // The picture marks the new tiles at that step.
        QCOMPARE(tab->view()->cellState(0), nestor::widgets::DataflowView::CellState::Filled);
        tab->playback()->stepForward();
        QCOMPARE(tab->view()->cellState(0), nestor::widgets::DataflowView::CellState::Reused);
    }

    void anInvalidMappingShowsItsError()
    {
        MainWindow w;
        QVERIFY(open(w));
        DataflowTab* tab = w.dataflowTab();
        // The document's commands keep factor products valid, so the broken mapping is handed to
        // the tab directly: weights_spad C 4 -> 16 alone makes C's factors cover 512, not 128.
        const nestor::Project& p = *w.project();
        const nestor::Workload& layer = p.workloads.front().workload;
        nestor::Mapping bad = p.mappings.front().mapping;
        bad.levels[kWeightsSpad].temporal[1] = nestor::makeLoop(layer.dimIndex("C"), 16);
        tab->showMapping(QStringLiteral("broken"), layer, p.architecture, bad);
        QVERIFY(!tab->errorText().isEmpty());
        QVERIFY2(tab->errorText().contains(QStringLiteral("C")), qPrintable(tab->errorText()));
        QVERIFY(!tab->hasTrace());
        QVERIFY(!tab->view()->hasFrame());
        QCOMPARE(tab->playback()->numSteps(), 0);
        const auto* label = tab->findChild<QLabel*>(QStringLiteral("dataflowError"));
        QVERIFY(label && label->text().contains(tab->errorText()));
        QVERIFY(!tab->exportFramePng(QDir::temp().filePath(QStringLiteral("never.png"))));

        // An edit of the current mapping in the document (here: the same factor, which the command
        // rebalances against GLB's C so that the product stays valid) rebuilds the picture.
        QVERIFY(commands::setLoopFactor(*w.document(), {QStringLiteral("row-stationary"), kWeightsSpad, nestor::LoopKind::Temporal, 1}, 16, 16)
                    .isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(tab->hasTrace(), 20000);
        QVERIFY(tab->errorText().isEmpty());
        QCOMPARE(tab->numSteps(), kSteps);   // the same loops, regrouped: as many steps
        const nestor::Mapping& edited = w.project()->mappings.front().mapping;
        QCOMPARE(edited.levels[kWeightsSpad].temporal[1].bound, 16);
    }

    void exportsFramesAndSequences()
    {
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QVERIFY(open(w));
        w.showTab(MainWindow::Tab::Dataflow);
        DataflowTab* tab = w.dataflowTab();
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("frame.png")), pdf = dir.filePath(QStringLiteral("frame.pdf"));
        QVERIFY(tab->exportFramePng(png));
        QCOMPARE(QImage(png).size(), tab->view()->grab().size());
        QVERIFY(tab->exportFramePdf(pdf));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        QString error;
        QCOMPARE(tab->exportPngSequence(dir.filePath(QStringLiteral("seq")), 94, 97, &error), 3);
        const QStringList files = QDir(dir.filePath(QStringLiteral("seq"))).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files, (QStringList{QStringLiteral("frame_00001.png"), QStringLiteral("frame_00002.png"), QStringLiteral("frame_00003.png")}));
        // Frames 95 and 96 differ (96 brings new Inputs tiles), 94 and 95 are the same picture but for the step.
        const QImage a(dir.filePath(QStringLiteral("seq/frame_00002.png"))), b(dir.filePath(QStringLiteral("seq/frame_00003.png")));
        QVERIFY(a != b);
        QCOMPARE(tab->exportPngSequence(dir.filePath(QStringLiteral("seq2")), 5, 5, &error), -1);
        QVERIFY(!error.isEmpty());
        // SVG and animated GIF (their content: tst_svg_paint_device, tst_gif_writer); the GIF
        // plays one step per frame at the playback speed: 4 steps/s = 25 hundredths of a second.
        const QString svg = dir.filePath(QStringLiteral("frame.svg"));
        QVERIFY(tab->exportFrameSvg(svg, &error));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QVERIFY(svgFile.readAll().contains("<svg"));
        tab->playback()->setStepsPerSecond(4);
        const QString gif = dir.filePath(QStringLiteral("steps.gif"));
        QCOMPARE(tab->exportGif(gif, 94, 97, &error), 3);
        QImageReader reader(gif, "gif");
        QCOMPARE(reader.imageCount(), 3);
        QVERIFY(!reader.read().isNull());
        QCOMPARE(reader.nextImageDelay(), 250);
    }
};

QTEST_MAIN(TestDataflowTab)
#include "tst_dataflow_tab.moc"
