#pragma once
// The solver results as CSV, one row per layer and design (fixed architecture, layer-wise
// co-design, single architecture): the same file from `nestor-cli optimize/codesign --csv` and
// the GUI's Solver tab.
#include "solvers/thistle/NetworkCodesign.h"

#include <string>
#include <vector>

namespace nestor::thistle {

// `layers` in the order codesignNetwork() got them.
std::string codesignCsv(const std::vector<const Workload*>& layers, const NetworkCodesign& result);

} // namespace nestor::thistle
