// Log axes never show a single tick label: narrow ranges get 1-2-5 ticks, wide ones decades.
// Expected ticks are written out by hand.
#include "LogAxisTicker.h"

#include <QtTest>

using nestor::widgets::LogAxisTicker;

class TestLogAxisTicker : public QObject {
    Q_OBJECT
private slots:
    void narrowRangeGetsOneTwoFive()
    {
        // The VTA area-vs-cycles front: 0.18 to 6.3 mm^2 (1.54 decades) had one label, "10^0".
        const QVector<double> t = LogAxisTicker::denseTicks(0.18, 6.3);
        const QVector<double> expected{0.2, 0.5, 1, 2, 5};
        QCOMPARE(t.size(), expected.size());
        for (int i = 0; i < t.size(); ++i) QVERIFY(qAbs(t[i] - expected[i]) < 1e-12);
    }
    void veryNarrowRangeGetsEveryMultiple()
    {
        // 2.1 .. 4.9 holds no 1-2-5 tick, so every multiple of the decade: 3 and 4.
        const QVector<double> t = LogAxisTicker::denseTicks(2.1, 4.9);
        QCOMPARE(t, (QVector<double>{3, 4}));
    }
    void wideRangeKeepsDecades()
    {
        QVERIFY(LogAxisTicker::denseTicks(0.01, 1e4).isEmpty());
        QVERIFY(LogAxisTicker::denseTicks(1, 100).isEmpty());    // labels 1, 10, 100
        QVERIFY(LogAxisTicker::denseTicks(0.5, 20).isEmpty());   // labels 1, 10
        QVERIFY(!LogAxisTicker::denseTicks(0.5, 9).isEmpty());   // only 1 would be labelled
    }
    void labelsArePlainNumbers()
    {
        LogAxisTicker ticker;
        QVector<double> ticks, subTicks;
        QVector<QString> labels;
        ticker.generate(QCPRange(0.19, 5.3), QLocale::c(), QLatin1Char('e'), 0, ticks, &subTicks, &labels);
        QCOMPARE(labels, (QStringList{"0.2", "0.5", "1", "2", "5"}));
        QVERIFY(subTicks.isEmpty());
    }
    void badRangesFallBackToDecades()
    {
        QVERIFY(LogAxisTicker::denseTicks(0, 5).isEmpty());
        QVERIFY(LogAxisTicker::denseTicks(5, 1).isEmpty());
        QVERIFY(LogAxisTicker::denseTicks(-1, 5).isEmpty());
    }
};

QTEST_MAIN(TestLogAxisTicker)
#include "tst_log_axis_ticker.moc"
