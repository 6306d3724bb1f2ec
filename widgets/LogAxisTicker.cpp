#include "LogAxisTicker.h"

#include <cmath>

namespace nestor::widgets {

namespace {
QVector<double> ticksWithMantissas(double lower, double upper, std::initializer_list<int> mantissas)
{
    QVector<double> ticks;
    for (int exponent = int(std::floor(std::log10(lower))); exponent <= int(std::ceil(std::log10(upper))); ++exponent) {
        const double decade = std::pow(10.0, exponent);
        for (int m : mantissas) {
            const double t = m * decade;
            // Relative tolerance: 0.2 * 10 is not exactly 2 in binary.
            if (t >= lower * (1 - 1e-9) && t <= upper * (1 + 1e-9)) ticks.push_back(t);
        }
    }
    return ticks;
}
} // namespace

QVector<double> LogAxisTicker::denseTicks(double lower, double upper)
{
    if (!(lower > 0) || !(upper > lower)) return {};
    // Decade ticks are enough when at least two powers of ten lie in the range.
    if (ticksWithMantissas(lower, upper, {1}).size() >= 2) return {};
    QVector<double> ticks = ticksWithMantissas(lower, upper, {1, 2, 5});
    if (ticks.size() < 2) ticks = ticksWithMantissas(lower, upper, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    return ticks;
}

void LogAxisTicker::generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                             QVector<double>& ticks, QVector<double>* subTicks, QVector<QString>* tickLabels)
{
    const QVector<double> dense = denseTicks(range.lower, range.upper);
    if (dense.isEmpty()) {
        QCPAxisTickerLog::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
        return;
    }
    ticks = dense;
    if (subTicks) subTicks->clear();
    if (tickLabels) {
        tickLabels->clear();
        // Plain numbers: "0.2  0.5  1  2" reads better than powers of ten inside one decade.
        for (double t : ticks) tickLabels->push_back(locale.toString(t, 'g', 3));
    }
}

void useLogScale(QCPAxis* axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<LogAxisTicker>::create());
}

} // namespace nestor::widgets
