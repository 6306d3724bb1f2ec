#include "NumberFormat.h"

#include <QLocale>

#include <algorithm>
#include <array>
#include <cmath>

namespace nestor::widgets::NumberFormat {

QString count(std::int64_t n)
{
    return QLocale().toString(static_cast<qlonglong>(n));
}

QString compactCount(std::int64_t n, int significant)
{
    significant = std::max(3, significant);  // 999 k and 1.00 M need three
    const double a = std::fabs(double(n));
    if (a < 1e4) return count(n);
    struct Suffix { double scale; char letter; };
    static constexpr std::array<Suffix, 6> suffixes{{{1e3, 'k'}, {1e6, 'M'}, {1e9, 'G'}, {1e12, 'T'}, {1e15, 'P'}, {1e18, 'E'}}};
    std::size_t i = 0;
    while (i + 1 < suffixes.size() && a >= suffixes[i + 1].scale) ++i;
    auto decimalsFor = [significant](double scaled) { return std::max(0, significant - 1 - int(std::floor(std::log10(scaled)))); };
    // 999,960 rounds to "1,000 k" at four digits: that is "1.000 M".
    const double scaled = a / suffixes[i].scale;
    const double p = std::pow(10.0, decimalsFor(scaled));
    if (std::round(scaled * p) / p >= 1000.0 && i + 1 < suffixes.size()) ++i;
    const double v = double(n) / suffixes[i].scale;
    const QString compact = QLocale().toString(v, 'f', decimalsFor(std::fabs(v) >= 1.0 ? std::fabs(v) : 1.0)) +
                            QLatin1Char(' ') + QLatin1Char(suffixes[i].letter);
    const QString exact = count(n);
    return compact.size() < exact.size() ? compact : exact;  // "12,288", not "12.29 k"
}

QString decimal(double v, int significant)
{
    if (!std::isfinite(v)) return QStringLiteral("—");
    const double a = std::fabs(v);
    if (a == 0.0) return QStringLiteral("0");
    if (a >= 1e9 || a < 1e-3) return QLocale().toString(v, 'e', significant - 1);
    const int integerDigits = int(std::floor(std::log10(a))) + 1;
    return QLocale().toString(v, 'f', std::max(0, significant - integerDigits));
}

QString percent(double fraction)
{
    return QLocale().toString(fraction * 100.0, 'f', 1) + QStringLiteral(" %");
}

ScaledUnit energyUnitFor(double pJ)
{
    struct Prefix { double pJ; const char* unit; };
    static constexpr std::array<Prefix, 6> prefixes{{
        {1e12, "J"}, {1e9, "mJ"}, {1e6, "µJ"}, {1e3, "nJ"}, {1.0, "pJ"}, {1e-3, "fJ"}}};
    const double a = std::fabs(pJ);
    for (const Prefix& p : prefixes) {
        if (a >= p.pJ) return {p.pJ, QString::fromUtf8(p.unit)};
    }
    return {1.0, QStringLiteral("pJ")};  // zero (and tiny values) stay in pJ
}

QString energy(double pJ)
{
    const ScaledUnit u = energyUnitFor(pJ);
    return decimal(pJ / u.divisor) + QLatin1Char(' ') + u.unit;
}

QString area(double um2)
{
    if (std::fabs(um2) >= 1e5) return decimal(um2 / 1e6) + QStringLiteral(" mm²");
    return decimal(um2) + QStringLiteral(" µm²");
}

QString scientific(double v, const QString& unit)
{
    return QLocale().toString(v, 'e', 3) + QLatin1Char(' ') + unit;
}

} // namespace nestor::widgets::NumberFormat
