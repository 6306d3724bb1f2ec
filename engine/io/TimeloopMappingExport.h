#pragma once
// A mapping in Timeloop's mapping YAML:
//
//   mapping:
//     - target: GLB
//       type: temporal
//       factors: C=4 M=2 P=16,5 ...    # every dimension; "P=16,5" = bound 16, residual 5
//       permutation: PMC...            # innermost first
//     - target: GLB
//       type: spatial
//       factors: ...
//       permutation: ...               # X loops (innermost first), then Y loops
//       split: 1                       # number of X loops
//     - target: GLB
//       type: bypass
//       keep: [Inputs]
//       bypass: [Weights, Outputs]
//
// Timeloop allows one loop per dimension in each block: a mapping with a dimension twice
// in one level's temporal (or spatial) block cannot be written and throws NestorError.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <string>

namespace nestor {

std::string timeloopMappingYaml(const Mapping& m, const Workload& w, const Architecture& a);

} // namespace nestor
