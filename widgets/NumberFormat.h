#pragma once
// How the views print engine figures: exact counts with digit grouping, energies and
// areas with an engineering prefix, fractions as percentages. One place, so every view
// and export agrees.
#include <QString>

#include <cstdint>

namespace nestor::widgets {

// A unit with an engineering prefix and the divisor that converts a base value into it.
struct ScaledUnit {
    double divisor = 1.0;
    QString unit;
};

namespace NumberFormat {

QString count(std::int64_t n);                    // "1,234,567" (locale grouping)
// `significant` digits (at least 3) and a k / M / G / T / P / E suffix from 10,000 up
// ("11.14 M", "295 k"); counts below 10,000, or whose compact form is no shorter, as count(). For narrow columns; the exact count goes alongside.
QString compactCount(std::int64_t n, int significant = 4);
QString decimal(double v, int significant = 4);   // "3.142", "12,350"; exponent outside [1e-3, 1e9)
QString percent(double fraction);                 // 0.875 -> "87.5 %"
ScaledUnit energyUnitFor(double pJ);              // largest of fJ..J that keeps |value| >= 1
QString energy(double pJ);                        // "12.35 µJ"
QString area(double um2);                         // "456 µm²" or "1.234 mm²"
QString scientific(double v, const QString& unit); // "1.23e-09 J·s"

} // namespace NumberFormat
} // namespace nestor::widgets
