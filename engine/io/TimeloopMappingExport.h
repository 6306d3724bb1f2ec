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
// Written in the form Timeloop master's parser (src/mapping/parser.cpp) reads: one factor per
// dimension and block, "P=16,5" for bound 16 with residual 5 (the trip count on the last global
// iteration, as in Mapping.h). Unit loops are dropped and adjacent loops of one dimension are
// merged into one factor (exact: the index sequence is the same). A spatial block is written
// for every level with a fanout.
//
// Throws NestorError, before producing any text, listing every part that has no Timeloop form:
// an invalid mapping; a dimension name that is not one letter; two loops of one dimension in a
// block with another dimension between them; a dimension on both axes of one fanout; a factor
// above 2^31 - 1.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <string>

namespace nestor {

std::string timeloopMappingYaml(const Mapping& m, const Workload& w, const Architecture& a);

} // namespace nestor
