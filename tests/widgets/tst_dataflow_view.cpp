// The Dataflow view (widgets/DataflowView) on hand-built frames, no engine trace: idle cells are
// painted unlike active ones, new and reused tiles in their own colours, a multicast fill is one
// fan-out to all its receivers, a reduction one merge, a link an arrow between neighbours, and a
// cell's tooltip names its tiles and moves. Pixel colours are sampled at points derived from the
// view's own geometry functions.
#include "DataflowContext.h"
#include "DataflowView.h"

#include <QImage>
#include <QTest>

using namespace nestor;
using nestor::widgets::DataflowContext;
using nestor::widgets::DataflowView;
using trace::Move;
using trace::MoveKind;

namespace {

// A 4 x 2 mesh; tensor 0 "Weights" (ranks C, R, S over 8 x 3 x 3), tensor 1 "Inputs" not kept.
DataflowContext context()
{
    DataflowContext c;
    c.levelName = QStringLiteral("spad");
    c.parentName = QStringLiteral("GLB");
    c.meshX = 4;
    c.meshY = 2;
    c.tensors = {{QStringLiteral("Weights"), {QStringLiteral("C"), QStringLiteral("R"), QStringLiteral("S")}, {8, 3, 3}, true, QStringLiteral("GLB")},
                 {QStringLiteral("Inputs"), {QStringLiteral("C"), QStringLiteral("P+R")}, {8, 10}, false, QStringLiteral("DRAM")}};
    return c;
}

trace::TensorTile tile(std::int64_t c, std::int64_t r)
{
    trace::TensorTile t;
    t.held = true;
    t.ranks = {{c, c + 1}, {r, r + 1}, {0, 3}};
    t.words = 3;
    return t;
}

// Instances 0..5 active, 6 and 7 idle; instance i holds the weights of channel i, filter row 0.
trace::StepFrame frame(std::int64_t step)
{
    trace::StepFrame f;
    f.step = step;
    f.loopIndex = {0, step};
    for (int i = 0; i < 8; ++i) {
        trace::InstanceFrame in;
        in.active = i < 6;
        in.tiles = {in.active ? tile(i, 0) : trace::TensorTile{}, trace::TensorTile{}};
        f.instances.push_back(in);
    }
    return f;
}

QColor pixel(const QImage& img, QPointF p)
{
    return img.pixelColor(p.toPoint());
}

bool isGrey(const QColor& c)
{
    return std::abs(c.red() - c.green()) < 6 && std::abs(c.green() - c.blue()) < 6;
}

} // namespace

class TestDataflowView : public QObject {
    Q_OBJECT
private slots:
    void idleCellsArePaintedUnlikeActiveOnes()
    {
        DataflowView view;
        view.resize(800, 500);
        view.setContext(context());
        trace::StepFrame f = frame(5);
        // Instance 1's tile is new this step (it differs from the previous frame); the others are reused.
        trace::StepFrame previous = frame(4);
        previous.instances[1].tiles[0] = tile(1, 2);
        view.setFrame(f, previous);
        QCOMPARE(view.cellState(0), DataflowView::CellState::Reused);
        QCOMPARE(view.cellState(1), DataflowView::CellState::Filled);
        QCOMPARE(view.cellState(6), DataflowView::CellState::Idle);
        QCOMPARE(view.cellState(7), DataflowView::CellState::Idle);

        const QImage img = view.grab().toImage();
        // Sample just inside each cell's bottom-left corner, where the cell's own fill shows.
        auto corner = [&](int i) {
            const QRectF r = view.cellRect(i);
            return pixel(img, QPointF(r.left() + 3, r.bottom() - 3));
        };
        const QColor idle = corner(6), reused = corner(0), filled = corner(1);
        QVERIFY2(isGrey(idle), qPrintable(idle.name()));
        QVERIFY2(!isGrey(reused), qPrintable(reused.name()));
        QVERIFY2(!isGrey(filled), qPrintable(filled.name()));
        QVERIFY(reused != filled);
        QVERIFY(isGrey(corner(7)));   // hatched grey (the hatch lines are grey too)
        QCOMPARE(corner(2), reused);

        // The held tile is drawn over the R x S plane: the filled sub-box sits in the tile colour,
        // the rest of the plane white. Instance 0 holds row R = 0 of the 3 x 3 plane (its top third).
        const QRectF r = view.cellRect(0);
        const QColor top = pixel(img, QPointF(r.center().x(), r.center().y() - r.height() * 0.05));
        (void)top;
        bool sawTile = false, sawWhite = false;
        for (double y = r.top() + 4; y < r.bottom() - 4; y += 1) {
            const QColor c = pixel(img, QPointF(r.center().x(), y));
            sawTile = sawTile || c == DataflowView::colorOf(DataflowView::CellState::Reused);
            sawWhite = sawWhite || c == QColor(Qt::white);
        }
        QVERIFY(sawTile);
        QVERIFY(sawWhite);

        // A tensor the level does not hold: active cells fall back to the neutral colour.
        view.setTensor(1);
        QCOMPARE(view.cellState(0), DataflowView::CellState::Active);
        QCOMPARE(view.cellState(6), DataflowView::CellState::Idle);
        const QImage img2 = view.grab().toImage();
        QCOMPARE(pixel(img2, view.cellRect(0).center()), DataflowView::colorOf(DataflowView::CellState::Active));
    }

    void withoutPreviousFrameAFillMarksANewTile()
    {
        DataflowView view;
        view.resize(600, 400);
        view.setContext(context());
        trace::StepFrame f = frame(0);
        f.moves.push_back(Move{MoveKind::Fill, 0, 3, {2}, -1, {}});
        view.setFrame(f);
        QCOMPARE(view.cellState(2), DataflowView::CellState::Filled);
        QCOMPARE(view.cellState(3), DataflowView::CellState::Reused);
    }

    void aMulticastIsOneFanOutAndAReductionOneMerge()
    {
        DataflowView view;
        view.resize(800, 500);
        view.setContext(context());
        trace::StepFrame f = frame(3);
        f.moves.push_back(Move{MoveKind::Fill, 0, 3, {0, 1, 2, 3}, -1, {}});       // multicast to the top row
        f.moves.push_back(Move{MoveKind::Update, 0, 3, {4, 5}, -1, {}});          // reduction of two
        f.moves.push_back(Move{MoveKind::Link, 0, 1, {1}, 0, {}});                // child (0,0) -> child (1,0)
        f.moves.push_back(Move{MoveKind::Read, 0, 3, {0}, -1, {}});               // no arrow
        f.moves.push_back(Move{MoveKind::Fill, 1, 5, {0}, -1, {}});               // another tensor: no arrow
        view.setFrame(f);
        const auto groups = view.arrowGroups();
        QCOMPARE(int(groups.size()), 3);

        const auto& fill = groups[0];
        QCOMPARE(fill.kind, MoveKind::Fill);
        QCOMPARE(fill.instances, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(int(fill.leaves.size()), 4);
        QVERIFY(fill.bus);   // one row: a line through the receivers
        // One trunk from the parent down to one junction above the grid, then to every receiver.
        QVERIFY(view.parentRect().contains(fill.root) || qFuzzyCompare(fill.root.y(), view.parentRect().bottom()));
        QVERIFY(fill.junction.y() > view.parentRect().bottom());
        QVERIFY(fill.junction.y() < view.cellRect(0).top());
        for (int i = 0; i < 4; ++i) QVERIFY(view.cellRect(i).contains(fill.leaves[std::size_t(i)]));

        const auto& reduce = groups[1];
        QCOMPARE(reduce.kind, MoveKind::Update);
        QCOMPARE(reduce.instances, (std::vector<int>{4, 5}));

        const auto& link = groups[2];
        QCOMPARE(link.kind, MoveKind::Link);
        QCOMPARE(link.root, view.cellRect(0).center());
        QCOMPARE(link.leaves.front(), view.cellRect(1).center());

        // Receivers off one line: still one line, from the top-left receiver each time to the
        // nearest one not visited: (0,0) -> (0,1) [4] -> (1,1) [5] -> (2,1) [6] -> (3,0) [3].
        trace::StepFrame chain = frame(3);
        chain.moves.push_back(Move{MoveKind::Fill, 0, 3, {0, 3, 4, 5, 6}, -1, {}});
        view.setFrame(chain);
        QCOMPARE(int(view.arrowGroups().size()), 1);
        QVERIFY(view.arrowGroups()[0].bus);
        QCOMPARE(view.arrowGroups()[0].instances, (std::vector<int>{0, 4, 5, 6, 3}));
        view.setFrame(f);

        // The fill's trunk is painted in the fill colour halfway between the parent and the junction.
        const QImage img = view.grab().toImage();
        const QPointF mid = (fill.root + fill.junction) / 2;
        QCOMPARE(pixel(img, mid), DataflowView::colorOf(MoveKind::Fill));
    }

    void tooltipNamesTilesAndMoves()
    {
        DataflowView view;
        view.resize(800, 500);
        view.setContext(context());
        trace::StepFrame f = frame(3);
        f.moves.push_back(Move{MoveKind::Fill, 0, 3, {0, 1, 2, 3}, -1, {}});
        f.moves.push_back(Move{MoveKind::Link, 0, 1, {1}, 0, {}});
        view.setFrame(f);
        const QString tip = view.toolTipAt(view.cellRect(1).center());
        QVERIFY2(tip.contains(QStringLiteral("(1, 0)")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Weights: C 1, R 0, S 0–2 (3 words)")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("Inputs")), qPrintable(tip));   // not kept at this level
        QVERIFY2(tip.contains(QStringLiteral("multicast to 4 instances")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("from the one in (0, 0)")), qPrintable(tip));
        const QString idleTip = view.cellToolTip(7);
        QVERIFY2(idleTip.contains(QStringLiteral("(3, 1)")) && idleTip.contains(QStringLiteral("idle")), qPrintable(idleTip));
        QCOMPARE(view.toolTipAt(QPointF(1, 1)), QString());
        QCOMPARE(view.instanceAt(view.cellRect(6).center()), 6);
    }

    void linksBetweenChildrenSitInsideTheirParentsCells()
    {
        // 2 x 1 children per instance: the children's mesh is 8 x 2; child 3 = (3, 0) is in cell 1,
        // child 9 = (1, 1) in cell 4 (second row).
        DataflowContext c = context();
        c.fanX = 2;
        DataflowView view;
        view.resize(800, 500);
        view.setContext(c);
        QCOMPARE(view.cellOfChild(0), 0);
        QCOMPARE(view.cellOfChild(3), 1);
        QCOMPARE(view.cellOfChild(9), 4);
        QCOMPARE(view.cellOfChild(16), -1);
        QVERIFY(view.cellRect(1).contains(view.childPoint(3)));
        QVERIFY(view.childPoint(3).x() > view.cellRect(1).center().x());   // the right half of its cell
        trace::StepFrame f = frame(1);
        f.moves.push_back(Move{MoveKind::Link, 0, 1, {3}, 2, {}});
        view.setFrame(f);
        const auto groups = view.arrowGroups();
        QCOMPARE(int(groups.size()), 1);
        QCOMPARE(groups[0].root, view.childPoint(2));
        QCOMPARE(groups[0].instances, std::vector<int>{1});
    }

    void scalesToSmallAndLargeSizes()
    {
        DataflowView view;
        view.setContext(context());
        view.setFrame(frame(0));
        for (QSize s : {QSize(240, 200), QSize(1366, 768)}) {
            view.resize(s);
            const QRectF grid = view.cellRect(0).united(view.cellRect(7));
            QVERIFY(QRectF(view.rect()).contains(grid));
            QVERIFY(grid.bottom() < view.legendRect().top());
            QVERIFY(grid.top() > view.parentRect().bottom());
            QVERIFY(!view.grab().isNull());
        }
    }
};

QTEST_MAIN(TestDataflowView)
#include "tst_dataflow_view.moc"
