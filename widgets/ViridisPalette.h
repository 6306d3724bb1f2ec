#pragma once
// The viridis colour map (perceptually uniform, colour-blind safe), interpolated from
// nine anchor colours. Used for every categorical series so charts look alike.
#include <QColor>
#include <QList>

namespace nestor::widgets::ViridisPalette {

QColor at(double t);                 // t in [0, 1], clamped
// n colours spread evenly from dark purple to green-yellow; the palest yellow is left
// out so that every colour reads on a white background.
QList<QColor> categorical(int n);

} // namespace nestor::widgets::ViridisPalette
