// The workbench's layout holds from 1366x768 up: every tab is shown at 1366x768 and 1920x1080
// (offscreen), and every plot on it gets a usable plot area (at least kMinPlotWidth x
// kMinPlotHeight pixels) that no legend covers by more than kMaxLegendShare. The numbers are
// the layout's promise, stated here, not measured off the current code. On the Mapping tab every
// column of the access table and of the loop nest lies wholly inside its viewport (no horizontal
// scrolling), and a count shown compacted ("11.14 M") has its exact figure in the tooltip.
#include "CompareView.h"
#include "EvaluationPanel.h"
#include "EvaluationSummaryView.h"
#include "LoopNestView.h"
#include "NumberFormat.h"
#include "models/AccessCountModel.h"
#include "MainWindow.h"
#include "ProjectDocument.h"
#include "NetworkView.h"
#include "search/SearchPanel.h"

#include <qcustomplot.h>

#include <QHeaderView>
#include <QLocale>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace nestor::app;

namespace {

constexpr int kMinPlotWidth = 200;
constexpr int kMinPlotHeight = 120;
constexpr double kMaxLegendShare = 0.25;
constexpr int kHangGuardMs = 60000;

const QString kExample = QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml");

QString describe(const QCustomPlot* plot)
{
    QStringList path;
    for (const QObject* o = plot; o; o = o->parent())
        if (!o->objectName().isEmpty() || o->metaObject()->className() != QByteArray("QWidget"))
            path.prepend(o->objectName().isEmpty() ? QString::fromLatin1(o->metaObject()->className()) : o->objectName());
    return path.join(QLatin1Char('/'));
}

// Checks every visible plot of the window; returns how many were checked.
int checkVisiblePlots(MainWindow& w, const QString& where)
{
    int checked = 0;
    for (QCustomPlot* plot : w.findChildren<QCustomPlot*>()) {
        if (!plot->isVisible()) continue;
        plot->replot(QCustomPlot::rpImmediateRefresh);  // lays the plot out at its current size
        const QRect area = plot->axisRect()->rect();
        const QString name = where + QLatin1String(": ") + describe(plot);
        if (area.width() < kMinPlotWidth || area.height() < kMinPlotHeight) {
            QTest::qFail(qPrintable(QStringLiteral("%1: plot area %2 x %3 px, below %4 x %5")
                                        .arg(name).arg(area.width()).arg(area.height()).arg(kMinPlotWidth).arg(kMinPlotHeight)),
                         __FILE__, __LINE__);
            return -1;
        }
        if (plot->legend && plot->legend->visible()) {
            const QRect covered = plot->legend->outerRect().intersected(area);
            const double share = double(covered.width()) * covered.height() / (double(area.width()) * area.height());
            if (share > kMaxLegendShare) {
                QTest::qFail(qPrintable(QStringLiteral("%1: the legend covers %2 % of the plot area").arg(name).arg(100 * share, 0, 'f', 0)),
                             __FILE__, __LINE__);
                return -1;
            }
        }
        ++checked;
    }
    return checked;
}

// Every visible column of `view` ends inside its viewport.
bool allColumnsVisible(const QAbstractItemView* view, const QHeaderView* header, const QString& name)
{
    const int width = view->viewport()->width();
    for (int c = 0; c < header->count(); ++c) {
        if (header->isSectionHidden(c)) continue;
        const int end = header->sectionViewportPosition(c) + header->sectionSize(c);
        if (header->sectionViewportPosition(c) < 0 || end > width) {
            QTest::qFail(qPrintable(QStringLiteral("%1: column %2 (%3) spans %4..%5 px, the viewport is %6 px wide")
                                        .arg(name).arg(c)
                                        .arg(header->model()->headerData(c, Qt::Horizontal).toString())
                                        .arg(header->sectionViewportPosition(c)).arg(end).arg(width)),
                         __FILE__, __LINE__);
            return false;
        }
    }
    return true;
}

// The access table's count cells whose exact text is wider than their column (so the view shows
// them compacted); each tooltip must hold the exact count, grouped as the locale writes it.
// Returns how many were checked, -1 on a failure.
int checkCompactedCounts(const QTableView* table)
{
    using nestor::widgets::AccessCountModel;
    const QAbstractItemModel* model = table->model();
    int compacted = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        for (int c = AccessCountModel::InstancesColumn; c <= AccessCountModel::CapacityColumn; ++c) {
            const QModelIndex i = model->index(r, c);
            const QVariant raw = i.data(AccessCountModel::RawValueRole);
            QFont font = table->font();
            if (const QVariant f = i.data(Qt::FontRole); f.isValid()) font = f.value<QFont>();
            if (QFontMetrics(font).horizontalAdvance(i.data().toString()) <= table->columnWidth(c)) continue;
            const QString exact = QLocale().toString(raw.toLongLong());
            if (!i.data(Qt::ToolTipRole).toString().contains(exact)) {
                QTest::qFail(qPrintable(QStringLiteral("access table (%1, %2) is compacted, its tooltip lacks %3: %4")
                                            .arg(r).arg(c).arg(exact, i.data(Qt::ToolTipRole).toString())),
                             __FILE__, __LINE__);
                return -1;
            }
            ++compacted;
        }
    }
    return compacted;
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
    void compactCounts()
    {
        using nestor::widgets::NumberFormat::compactCount;
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCOMPARE(compactCount(9'999), QStringLiteral("9,999"));
        QCOMPARE(compactCount(294'912), QStringLiteral("294,912"));  // "294.9 k" is no shorter
        QCOMPARE(compactCount(294'912, 3), QStringLiteral("295 k"));
        QCOMPARE(compactCount(11'141'120), QStringLiteral("11.14 M"));
        QCOMPARE(compactCount(-11'141'120), QStringLiteral("-11.14 M"));
        QCOMPARE(compactCount(924'844'032), QStringLiteral("924.8 M"));
        QCOMPARE(compactCount(999'999'999), QStringLiteral("1.000 G"));  // not "1,000 M"
        QCOMPARE(compactCount(2'000'000'000'000), QStringLiteral("2.000 T"));
        QLocale::setDefault(QLocale::system());
    }

    void everyTabAndChartHasRoom_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void everyTabAndChartHasRoom()
    {
        QFETCH(QSize, screen);
        MainWindow w;
        w.resize(screen);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(kExample));
        QVERIFY(w.selectDefaultMapping());
        QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating(); }, kHangGuardMs));
        for (const nestor::ProjectMapping& m : w.document()->project().mappings)
            QVERIFY(w.compareView()->pin(QString::fromStdString(m.mapping.name)));
        QVERIFY(QTest::qWaitFor([&] { return !w.compareView()->isEvaluating(); }, kHangGuardMs));

        int plots = 0;
        w.showTab(MainWindow::Tab::Mapping);
        QCoreApplication::processEvents();
        const QTableView* access = w.evaluationPanel()->summaryView()->accessCountTable();
        const nestor::widgets::LoopNestView* nest = w.evaluationPanel()->loopNestView();
        QVERIFY(access->model()->rowCount() > 0);
        QVERIFY(allColumnsVisible(access, access->horizontalHeader(), QStringLiteral("access table")));
        QVERIFY(allColumnsVisible(nest, nest->header(), QStringLiteral("loop nest")));
        const int compacted = checkCompactedCounts(access);
        QVERIFY(compacted >= 0);
        // At 1366 x 768 the largest counts (DRAM reads, 11,141,120) do not fit exactly: some are compacted.
        if (screen.width() < 1600) QVERIFY(compacted > 0);
        for (auto chart : {EvaluationPanel::Chart::Energy, EvaluationPanel::Chart::Roofline, EvaluationPanel::Chart::Capacity}) {
            w.evaluationPanel()->showChart(chart);
            QCoreApplication::processEvents();
            const int n = checkVisiblePlots(w, QStringLiteral("Mapping tab, chart %1").arg(int(chart)));
            QVERIFY(n >= 1);
            plots += n;
        }
        for (auto tab : {MainWindow::Tab::Compare, MainWindow::Tab::Network}) {
            w.showTab(tab);
            QCoreApplication::processEvents();
            const int n = checkVisiblePlots(w, QStringLiteral("tab %1").arg(int(tab)));
            QVERIFY(n >= 0);
            plots += n;
        }
        w.showTab(MainWindow::Tab::Search);
        QTabWidget* searchCharts = w.searchPanel()->chartTabs();
        for (int i = 0; i < searchCharts->count(); ++i) {
            searchCharts->setCurrentIndex(i);
            QCoreApplication::processEvents();
            const int n = checkVisiblePlots(w, QStringLiteral("Search tab, chart %1").arg(i));
            QVERIFY(n >= 1);
            plots += n;
        }
        QVERIFY(plots >= 6);
    }
};

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
