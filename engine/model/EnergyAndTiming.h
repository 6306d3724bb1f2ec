#pragma once
// From exact counts to energy, bandwidth throttling, cycles and utilization (Timeloop's
// rules, semantics.md sections 5 and 6).
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"

namespace nestor::model {

void applyEnergyAndTiming(const Architecture& a, const Mapping& m, Evaluation& ev);

} // namespace nestor::model
