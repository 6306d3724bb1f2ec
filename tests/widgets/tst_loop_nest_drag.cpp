// Dragging loops in the Mapping tab's loop nest, offscreen, on the Eyeriss-like example's
// row-stationary mapping of conv3_1 (N 1, M 256, C 128, P 56, Q 56, R 3, S 3):
//   DRAM (0)                     temporal [Q 4] [C 4] [P 7] [M 4]
//   GLB (1)                      temporal [M 2] [C 8] [P 8]
//   inter_PE_column_spatial (2)  spatial X [Q 14]
//   inter_PE_spatial (3)         spatial Y [M 4] [S 3]   (fanout in Y: 168 / 14 = 12)
//   weights_spad (5)             temporal [R 3] [C 4]
//   psum_spad (6)                temporal [M 8]
// The expected nests below are worked out by hand from that listing. Every drop is the MIME
// payload the model gives for the dragged row, dropped through the view (a QDropEvent on its
// viewport) or the model's drop handling, as Qt's drag does.
#include "EvaluationPanel.h"
#include "LoopNestView.h"
#include "MainWindow.h"
#include "ProjectDocument.h"
#include "models/LoopNestModel.h"

#include <QDropEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

#include <map>
#include <memory>

using nestor::LoopKind;
using nestor::app::MainWindow;
using nestor::widgets::LoopNestModel;
using nestor::widgets::LoopNestView;

namespace {

const QString kExample = QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml");
const QString kMapping = QStringLiteral("row-stationary");
constexpr int kDram = 0, kGlb = 1, kPeSpatial = 3;

bool waitForEvaluation(MainWindow& w)
{
    return QTest::qWaitFor([&] { return !w.isEvaluating(); }, 20000);
}

// The conv3_1 sizes, from the example's workload line.
const std::map<std::string, std::int64_t> kLayerSizes = {{"N", 1},  {"M", 256}, {"C", 128}, {"P", 56},
                                                         {"Q", 56}, {"R", 3},   {"S", 3}};

} // namespace

class TestLoopNestDrag : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void dropOnALevelRowMovesTheLoopThereInnermost();
    void dropOnALoopOrBetweenLoopsReorders();
    void dropOnTheOtherListSwitchesTemporalAndSpatial();
    void refusedDropShowsTheContextMenusMessage();
    void dropsThatGoNowhereAreRefused();
    void aReadOnlyNestDragsNothing();

private:
    const nestor::Mapping& mapping() const { return window_->project()->findMapping(kMapping.toStdString())->mapping; }
    LoopNestView* view() const { return window_->evaluationPanel()->loopNestView(); }
    LoopNestModel* model() const { return view()->loopNestModel(); }
    int undoSteps() const { return window_->document()->undoStack()->count(); }
    nestor::Loop loop(const char* dim, std::int64_t bound) const;
    QModelIndex levelRow(int level) const;
    // What Qt's drag carries for the loop's row.
    std::unique_ptr<QMimeData> dragged(int level, LoopKind kind, int index) const;
    // Every dimension's loops still multiply to the layer's size.
    void verifyFactorsCoverTheLayer() const;
    // One undo step was added, and undoing it gives back `before`.
    void verifyOneUndoRestores(const nestor::Mapping& before, int stepsBefore);

    std::unique_ptr<MainWindow> window_;
};

void TestLoopNestDrag::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("NestorTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_loop_nest_drag"));
}

void TestLoopNestDrag::init()
{
    window_ = std::make_unique<MainWindow>();
    window_->resize(1366, 768);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY(window_->openProject(kExample));
    QVERIFY(window_->selectMapping(kMapping));
    window_->showTab(MainWindow::Tab::Mapping);
    QVERIFY(waitForEvaluation(*window_));
    QVERIFY(view()->isVisible());
}

void TestLoopNestDrag::cleanup()
{
    window_.reset();
}

nestor::Loop TestLoopNestDrag::loop(const char* dim, std::int64_t bound) const
{
    const nestor::Workload& w = window_->project()->findWorkload("conv3_1")->workload;
    for (int d = 0; d < w.numDims(); ++d)
        if (w.dimNames[std::size_t(d)] == dim) return nestor::makeLoop(d, bound);
    qFatal("no dimension %s", dim);
}

QModelIndex TestLoopNestDrag::levelRow(int level) const
{
    for (int r = 0; r < model()->rowCount(); ++r) {
        const QModelIndex i = model()->index(r, 0);
        if (i.data(LoopNestModel::RowKindRole).toInt() == int(LoopNestModel::RowKind::Level) &&
            i.data(LoopNestModel::LevelRole).toInt() == level)
            return i;
    }
    return {};
}

std::unique_ptr<QMimeData> TestLoopNestDrag::dragged(int level, LoopKind kind, int index) const
{
    const QModelIndex row = model()->loopIndex(level, kind, index);
    if (!row.isValid() || !(model()->flags(row) & Qt::ItemIsDragEnabled)) return nullptr;
    return std::unique_ptr<QMimeData>(model()->mimeData({row}));
}

void TestLoopNestDrag::verifyFactorsCoverTheLayer() const
{
    const nestor::Workload& w = window_->project()->findWorkload("conv3_1")->workload;
    std::map<std::string, std::int64_t> product;
    for (const nestor::LevelMapping& lm : mapping().levels)
        for (const auto* list : {&lm.temporal, &lm.spatialX, &lm.spatialY})
            for (const nestor::Loop& l : *list) {
                auto& p = product.try_emplace(w.dimNames[std::size_t(l.dim)], 1).first->second;
                p *= l.bound;
            }
    for (const auto& [dim, size] : kLayerSizes) QCOMPARE(product.count(dim) ? product[dim] : 1, size);
}

void TestLoopNestDrag::verifyOneUndoRestores(const nestor::Mapping& before, int stepsBefore)
{
    QCOMPARE(undoSteps(), stepsBefore + 1);
    window_->document()->undoStack()->undo();
    QVERIFY(mapping() == before);
}

void TestLoopNestDrag::dropOnALevelRowMovesTheLoopThereInnermost()
{
    const nestor::Mapping before = mapping();
    const int steps = undoSteps();
    // GLB's `for M in [0:2)` dragged over the DRAM row, then dropped in its middle.
    const std::unique_ptr<QMimeData> data = dragged(kGlb, LoopKind::Temporal, 0);
    QVERIFY(data);
    const QPoint onDram = view()->visualRect(levelRow(kDram)).center();
    QDragEnterEvent enter(onDram, Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view()->viewport(), &enter);
    QVERIFY(enter.isAccepted());
    QDragMoveEvent move(onDram, Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view()->viewport(), &move);
    QVERIFY(move.isAccepted());
    // Over the compute row (the nest's last) there is nowhere to put a loop.
    const QModelIndex compute = model()->index(model()->rowCount() - 1, 0);
    QCOMPARE(compute.data(LoopNestModel::RowKindRole).toInt(), int(LoopNestModel::RowKind::Compute));
    QDragMoveEvent overCompute(view()->visualRect(compute).center(), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view()->viewport(), &overCompute);
    QVERIFY(!overCompute.isAccepted());

    QDropEvent drop(QPointF(onDram), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view()->viewport(), &drop);
    QVERIFY(drop.isAccepted());
    QVERIFY(window_->evaluationPanel()->editError().isEmpty());
    QCOMPARE(mapping().levels[kDram].temporal,
             (std::vector<nestor::Loop>{loop("Q", 4), loop("C", 4), loop("P", 7), loop("M", 4), loop("M", 2)}));
    QCOMPARE(mapping().levels[kGlb].temporal, (std::vector<nestor::Loop>{loop("C", 8), loop("P", 8)}));
    verifyFactorsCoverTheLayer();
    // The moved loop is the one selected.
    QCOMPARE(view()->currentIndex(), model()->loopIndex(kDram, LoopKind::Temporal, 4));
    verifyOneUndoRestores(before, steps);
}

void TestLoopNestDrag::dropOnALoopOrBetweenLoopsReorders()
{
    const nestor::Mapping before = mapping();
    const int steps = undoSteps();
    // GLB's P 8 dropped on its M 2 takes M's place: [P 8] [M 2] [C 8], one step.
    std::unique_ptr<QMimeData> data = dragged(kGlb, LoopKind::Temporal, 2);
    QVERIFY(model()->dropMimeData(data.get(), Qt::MoveAction, -1, -1, model()->loopIndex(kGlb, LoopKind::Temporal, 0)));
    QCOMPARE(mapping().levels[kGlb].temporal, (std::vector<nestor::Loop>{loop("P", 8), loop("M", 2), loop("C", 8)}));
    verifyFactorsCoverTheLayer();
    verifyOneUndoRestores(before, steps);

    // GLB's M 2 dropped between C 8 and P 8 (Qt's row 2 under the GLB row): [C 8] [M 2] [P 8].
    data = dragged(kGlb, LoopKind::Temporal, 0);
    QVERIFY(model()->dropMimeData(data.get(), Qt::MoveAction, 2, 0, levelRow(kGlb)));
    QCOMPARE(mapping().levels[kGlb].temporal, (std::vector<nestor::Loop>{loop("C", 8), loop("M", 2), loop("P", 8)}));
    verifyOneUndoRestores(before, steps);

    // Below the last row of the DRAM (Qt's row 4): DRAM's Q 4 goes innermost there.
    data = dragged(kDram, LoopKind::Temporal, 0);
    QVERIFY(model()->dropMimeData(data.get(), Qt::MoveAction, 4, 0, levelRow(kDram)));
    QCOMPARE(mapping().levels[kDram].temporal,
             (std::vector<nestor::Loop>{loop("C", 4), loop("P", 7), loop("M", 4), loop("Q", 4)}));
    verifyOneUndoRestores(before, steps);
}

void TestLoopNestDrag::dropOnTheOtherListSwitchesTemporalAndSpatial()
{
    const nestor::Mapping before = mapping();
    const int steps = undoSteps();
    // inter_PE_spatial's par-for S 3 dropped on its own level row: a temporal S 3 there.
    std::unique_ptr<QMimeData> data = dragged(kPeSpatial, LoopKind::SpatialY, 1);
    QVERIFY(model()->dropMimeData(data.get(), Qt::MoveAction, -1, -1, levelRow(kPeSpatial)));
    QCOMPARE(mapping().levels[kPeSpatial].temporal, (std::vector<nestor::Loop>{loop("S", 3)}));
    QCOMPARE(mapping().levels[kPeSpatial].spatialY, (std::vector<nestor::Loop>{loop("M", 4)}));
    verifyFactorsCoverTheLayer();
    QCOMPARE(undoSteps(), steps + 1);
    // Dropped back on the spatial M 4 it is spatial again, outermost: [S 3] [M 4].
    data = dragged(kPeSpatial, LoopKind::Temporal, 0);
    QVERIFY(model()->dropMimeData(data.get(), Qt::MoveAction, -1, -1, model()->loopIndex(kPeSpatial, LoopKind::SpatialY, 0)));
    QVERIFY(mapping().levels[kPeSpatial].temporal.empty());
    QCOMPARE(mapping().levels[kPeSpatial].spatialY, (std::vector<nestor::Loop>{loop("S", 3), loop("M", 4)}));
    verifyFactorsCoverTheLayer();
    QCOMPARE(undoSteps(), steps + 2);
    window_->document()->undoStack()->undo();
    window_->document()->undoStack()->undo();
    QVERIFY(mapping() == before);
}

void TestLoopNestDrag::refusedDropShowsTheContextMenusMessage()
{
    const nestor::Mapping before = mapping();
    const int steps = undoSteps();
    // GLB's M 2 dropped on inter_PE_spatial's spatial M 4: 2 x 4 x 3 = 24 across a fanout of 12.
    const std::unique_ptr<QMimeData> data = dragged(kGlb, LoopKind::Temporal, 0);
    model()->dropMimeData(data.get(), Qt::MoveAction, -1, -1, model()->loopIndex(kPeSpatial, LoopKind::SpatialY, 0));
    const QString dropError = window_->evaluationPanel()->editError();
    QVERIFY2(dropError.contains(QStringLiteral("spatial factors multiply to 24 but the fanout in Y is 12")), qPrintable(dropError));
    QVERIFY(mapping() == before);
    QCOMPARE(undoSteps(), steps);
    // The context menu's "Move to level" with "Make it spatial Y" says the same.
    window_->evaluationPanel()->clearEditError();
    emit view()->loopRelocateRequested(kGlb, LoopKind::Temporal, 0, kPeSpatial, LoopKind::SpatialY);
    QCOMPARE(window_->evaluationPanel()->editError(), dropError);
    QCOMPARE(undoSteps(), steps);
}

void TestLoopNestDrag::dropsThatGoNowhereAreRefused()
{
    const std::unique_ptr<QMimeData> data = dragged(kGlb, LoopKind::Temporal, 0);
    const QModelIndex self = model()->loopIndex(kGlb, LoopKind::Temporal, 0);
    QSignalSpy requests(view(), &LoopNestView::loopPlaceRequested);
    // On itself, just below itself (no change), between two level rows, on the compute row.
    QVERIFY(!model()->canDropMimeData(data.get(), Qt::MoveAction, -1, -1, self));
    QVERIFY(!model()->canDropMimeData(data.get(), Qt::MoveAction, 1, 0, levelRow(kGlb)));
    QVERIFY(!model()->canDropMimeData(data.get(), Qt::MoveAction, levelRow(kGlb).row() + 1, 0, {}));
    QVERIFY(!model()->canDropMimeData(data.get(), Qt::MoveAction, -1, -1, model()->index(model()->rowCount() - 1, 0)));
    // A copy is not a move; text is not a loop.
    QVERIFY(!model()->canDropMimeData(data.get(), Qt::CopyAction, -1, -1, levelRow(kDram)));
    QMimeData text;
    text.setText(QStringLiteral("for M in [0:2)"));
    QVERIFY(!model()->canDropMimeData(&text, Qt::MoveAction, -1, -1, levelRow(kDram)));
    QVERIFY(!model()->dropMimeData(&text, Qt::MoveAction, -1, -1, levelRow(kDram)));
    // A loop dragged from another mapping of the project does not land in this one.
    QVERIFY(model()->canDropMimeData(data.get(), Qt::MoveAction, -1, -1, levelRow(kDram)));
    QVERIFY(window_->selectMapping(QStringLiteral("conv3_1-rs")));
    QVERIFY(!model()->canDropMimeData(data.get(), Qt::MoveAction, -1, -1, levelRow(kDram)));
    QCOMPARE(requests.size(), 0);
    QCOMPARE(undoSteps(), 0);
}

void TestLoopNestDrag::aReadOnlyNestDragsNothing()
{
    LoopNestView readOnly;  // as in Compare: not editable
    const nestor::Project& p = *window_->project();
    readOnly.setMapping(p.findWorkload("conv3_1")->workload, p.architecture, mapping());
    LoopNestModel* m = readOnly.loopNestModel();
    const QModelIndex first = m->loopIndex(kGlb, LoopKind::Temporal, 0);
    QVERIFY(first.isValid());
    QVERIFY(!(m->flags(first) & Qt::ItemIsDragEnabled));
    QCOMPARE(readOnly.dragDropMode(), QAbstractItemView::NoDragDrop);
    const std::unique_ptr<QMimeData> data(m->mimeData({first}));
    QVERIFY(!m->canDropMimeData(data.get(), Qt::MoveAction, -1, -1, m->loopIndex(kDram, LoopKind::Temporal, 0)));
}

QTEST_MAIN(TestLoopNestDrag)
#include "tst_loop_nest_drag.moc"
