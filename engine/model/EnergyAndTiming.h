#pragma once
// From exact counts to energy, bandwidth throttling, cycles and utilization (Timeloop's
// rules, semantics.md sections 5 and 6).
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/CountHistogram.h"
#include "model/Evaluation.h"

#include <vector>

namespace nestor::model {

// counts[level][tensor]: per-instance counts behind the totals in ev.
void applyEnergyAndTiming(const Architecture& a, const Mapping& m, const std::vector<std::vector<TensorCounts>>& counts,
                          Evaluation& ev);

} // namespace nestor::model
