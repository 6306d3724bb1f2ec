#pragma once
// A TileNest at concrete trip counts as a Nestor Mapping: per storage level the temporal loops
// (outermost first) and the spatial loops on X, loops of one iteration left out, every tensor
// kept at every level (the Thistle hierarchy keeps all three tensors in each memory).
#include "mapping/Mapping.h"
#include "solvers/thistle/Algorithm1.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nestor::thistle {

Mapping toMapping(const TileNest& nest, const std::vector<std::int64_t>& trips, const std::string& name);

} // namespace nestor::thistle
