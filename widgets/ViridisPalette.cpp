#include "ViridisPalette.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace nestor::widgets::ViridisPalette {

namespace {
// Nine equally spaced samples of viridis (0, 1/8, ..., 1).
constexpr std::array<QRgb, 9> kAnchors{{
    0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C, 0x28AE80, 0x5DC863, 0xADDC30, 0xFDE725}};
constexpr double kLastCategorical = 0.85;
} // namespace

QColor at(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    const double pos = t * double(kAnchors.size() - 1);
    const int i = std::min(int(std::floor(pos)), int(kAnchors.size()) - 2);
    const double f = pos - double(i);
    const QColor a(kAnchors[std::size_t(i)]);
    const QColor b(kAnchors[std::size_t(i) + 1]);
    auto mix = [f](int x, int y) { return int(std::lround(double(x) + f * double(y - x))); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

QList<QColor> categorical(int n)
{
    QList<QColor> colors;
    for (int i = 0; i < n; ++i)
        colors.append(at(n == 1 ? 0.45 : kLastCategorical * double(i) / double(n - 1)));
    return colors;
}

} // namespace nestor::widgets::ViridisPalette
