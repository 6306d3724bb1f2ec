// The energy chart's level names never run into each other: on the Eyeriss-like example
// (DRAM, GLB, ifmap_spad, weights_spad, psum_spad, compute) at widths from cramped to wide,
// any two names drawn on the same line and unrotated are apart by their measured text widths,
// and every legend entry shows its whole name.
#include "EnergyBreakdownChart.h"
#include "EvaluationPanel.h"
#include "MainWindow.h"

#include <qcustomplot.h>

#include <QFontMetrics>
#include <QStandardPaths>
#include <QTest>

using nestor::app::MainWindow;
using nestor::widgets::EnergyBreakdownChart;

class TestEnergyChartLabels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("NestorTests"));
    }

    void namesDoNotOverlap_data()
    {
        QTest::addColumn<int>("width");
        for (int width : {300, 400, 560, 900, 1400}) QTest::newRow(qPrintable(QString::number(width))) << width;
    }

    void namesDoNotOverlap()
    {
        QFETCH(int, width);
        MainWindow w;
        w.show();
        QVERIFY(w.openProject(QStringLiteral(NESTOR_EXAMPLES_DIR "/eyeriss-like.yaml")));
        QVERIFY(w.selectMapping(QStringLiteral("row-stationary")));
        QVERIFY(QTest::qWaitFor([&] { return !w.isEvaluating() && w.evaluationPanel()->lastValidEvaluation(); }, 20000));
        // A chart of its own, at exactly the width under test.
        EnergyBreakdownChart chart;
        chart.resize(width, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setEvaluation(*w.evaluationPanel()->lastValidEvaluation());
        chart.replotNow();
        QCustomPlot* plot = chart.plot();
        const auto* ticker = dynamic_cast<QCPAxisTickerText*>(plot->xAxis->ticker().data());
        QVERIFY(ticker);
        const QMap<double, QString> ticks = const_cast<QCPAxisTickerText*>(ticker)->ticks();
        QStringList names;
        for (const QString& label : ticks) names << label.trimmed();
        QCOMPARE(names, (QStringList{QStringLiteral("DRAM"), QStringLiteral("GLB"), QStringLiteral("ifmap_spad"),
                                     QStringLiteral("weights_spad"), QStringLiteral("psum_spad"), QStringLiteral("compute")}));
        if (plot->xAxis->tickLabelRotation() == 0) {
            // Names on the same line (a leading newline puts one a line lower) must not touch.
            const QFontMetrics metrics(plot->xAxis->tickLabelFont());
            double lastRight[2] = {-1e9, -1e9};
            for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
                const int line = it.value().startsWith(QLatin1Char('\n')) ? 1 : 0;
                const double half = metrics.horizontalAdvance(it.value().trimmed()) / 2.0;
                const double centre = plot->xAxis->coordToPixel(it.key());
                QVERIFY2(centre - half > lastRight[line], qPrintable(QStringLiteral("%1 overlaps its neighbour at width %2")
                                                                         .arg(it.value().trimmed()).arg(width)));
                lastRight[line] = centre + half;
            }
        }
        // Every legend entry (Weights, Inputs, Outputs, Leakage, MACs) has room for its whole
        // name; a legend wrapped into rows has empty cells.
        int entries = 0;
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
            if (!item) continue;
            ++entries;
            const int textWidth = QFontMetrics(plot->legend->font()).horizontalAdvance(item->plottable()->name());
            QVERIFY2(item->rect().width() >= plot->legend->iconSize().width() + plot->legend->iconTextPadding() + textWidth,
                     qPrintable(item->plottable()->name()));
        }
        QCOMPARE(entries, 5);
    }
};

QTEST_MAIN(TestEnergyChartLabels)
#include "tst_energy_chart_labels.moc"
