#pragma once
// The engine's search algorithms (searchAlgorithms()) as the items of a combo box, each with its
// description as tooltip; `current` chosen. The Search tab and the Network tab's Find Mappings share it.
#include <QString>

class QComboBox;

namespace nestor::app {

void fillSearchAlgorithms(QComboBox* box, const QString& current);

} // namespace nestor::app
