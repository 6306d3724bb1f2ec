// The workbench's layout holds from 1366x768 up: every tab is shown at 1366x768 and 1920x1080
// (offscreen), and every plot on it gets a usable plot area (at least kMinPlotWidth x
// kMinPlotHeight pixels) that no legend covers by more than kMaxLegendShare. The numbers are
// the layout's promise, stated here, not measured off the current code.
#include "CompareView.h"
#include "EvaluationPanel.h"
#include "MainWindow.h"
#include "ProjectDocument.h"
#include "NetworkView.h"
#include "search/SearchPanel.h"

#include <qcustomplot.h>

#include <QTabWidget>
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

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
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
