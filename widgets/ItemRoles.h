#pragma once
// Item data roles shared by several models and the delegates that read them.
#include <Qt>

namespace nestor::widgets {

// A shorter form of a cell's DisplayRole text ("11.14 M" for "11,141,120") that
// CompactTextDelegate paints when the column is too narrow for the exact text. The exact
// text stays the DisplayRole (copy, export) and is in the cell's tooltip.
inline constexpr int CompactTextRole = Qt::UserRole + 64;

} // namespace nestor::widgets
