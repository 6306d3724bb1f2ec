#pragma once
// A mapping as a loop nest in the style of Timeloop's map.txt:
//
//   DRAM [ Weights:294912 Inputs:430592 Outputs:802816 ]
//   ----------------------------------------------------
//   | for Q in [0:4)
//   |   for P in [0:16) (residual 5)
//
//   GLB [ Inputs:5120 ]
//   -------------------
//   |     par-for M in [0:4) (X)
//   ...
//   |       << Compute >>
//
// Header tile sizes (utilized capacity per kept tensor) appear when an Evaluation is
// given; otherwise the header lists the kept tensors. Unit loops are omitted. Within a
// level, spatial Y loops are printed outside (above) the spatial X loops, as in the nest.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <string>

namespace nestor {

std::string loopNestText(const Mapping& m, const Workload& w, const Architecture& a, const Evaluation* ev = nullptr);

} // namespace nestor
