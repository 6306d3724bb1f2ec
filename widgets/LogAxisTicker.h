#pragma once
// A log-axis ticker that never leaves an axis with a single label: over wide ranges it ticks
// decades like QCPAxisTickerLog; over ranges holding fewer than two powers of ten (a Pareto front
// from 0.18 to 6 mm², a roofline zoomed on one layer) it ticks 1-2-5 steps, or every integer
// multiple of the decade when even those give fewer than two labels.
#include <qcustomplot.h>

namespace nestor::widgets {

class LogAxisTicker : public QCPAxisTickerLog {
public:
    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
                  QVector<double>* subTicks, QVector<QString>* tickLabels) override;

    // The 1-2-5 (or 1..9) ticks inside [lower, upper]; empty when decade ticks give at least two
    // labels. Exposed for tests.
    static QVector<double> denseTicks(double lower, double upper);
};

// Puts `axis` on a logarithmic scale with a LogAxisTicker.
void useLogScale(QCPAxis* axis);

} // namespace nestor::widgets
