#pragma once
// A VTA activity trace (engine/sim/vta/ActivityTrace.h) as timeline lanes: load, compute (GEMM
// and ALU in their own colours), store and fetch; busy spans in the colour of their instruction's
// opcode, stalls hatched in the colour of their cause; each span labelled with the instruction's
// index, disassembly and activity.
#include "UtilizationTimeline.h"
#include "sim/vta/ActivityTrace.h"
#include "sim/vta/Instruction.h"

#include <vector>

namespace nestor::app {

// Where a layer's program starts on a network's time axis, to name the spans of a network run.
struct TraceLayerStart {
    std::uint64_t cycle = 0;
    QString name;
};

// `insns` (by program index) names the spans; without it only the opcode is shown. With
// `layers` (ascending cycles) each span also names the layer whose program it belongs to.
std::vector<widgets::TimelineLane> vtaTraceLanes(const vta::ActivityTrace& trace, const std::vector<vta::Instruction>* insns,
                                                 const std::vector<TraceLayerStart>* layers = nullptr);
std::vector<widgets::TimelineLegendEntry> vtaTraceLegend();

} // namespace nestor::app
