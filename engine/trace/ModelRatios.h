#pragma once
// The model's whole-run multicast ratio of every parent of one stage, for the step trace's
// scaling through bypassing levels (Timeloop's masking; Model.cpp's accessesThroughBypass).
// Walking a stage's whole run measures the same ratio independently, but costs its full
// number of steps; this asks the model's stage analysis instead, at the cost of one stage.
// Internal to trace/.
#include "trace/NestOdometer.h"

#include <vector>

namespace nestor::trace::detail {

// Per instance of level `stage` (the odometer's hierarchical numbering), the ratio of the words
// its children receive to the words it reads for tensor `tensor` over the whole run; 1 for an
// instance that never reads.
std::vector<double> modelMulticastRatios(const Workload& w, const Mapping& m, const NestOdometer& nest, int stage,
                                         int tensor);

} // namespace nestor::trace::detail
