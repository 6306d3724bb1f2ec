#pragma once
// The mesh of a level that gives `instances` but no mesh (docs/project-format.md, "Meshes").
//
// Timeloop's own rule (BufferLevel::ValidateTopology) is a single row: meshX = instances,
// meshY = 1; it then asserts that every level's meshX and meshY divide those of the level
// below (ArchProperties::DeriveFanouts). Its v4 front-end never leaves a mesh out: it writes
// each level's meshX and meshY as the products of the spatial fanouts above it, so a level
// inserted between two fanouts gets a 2-D mesh. Nestor takes the single row when it fits the
// neighbours' meshes and otherwise the mesh the front-end would have written.
#include "arch/Architecture.h"

#include <cstdint>
#include <vector>

namespace nestor {

// givenMeshX[i]: the mesh_x given for storage level i, 0 = not given; givenComputeMeshX
// likewise for the compute level. Sets meshX of every storage level and of the compute level;
// given meshes are kept as they are (Architecture::validate reports inconsistent ones).
void inferMeshes(Architecture& a, const std::vector<std::int64_t>& givenMeshX, std::int64_t givenComputeMeshX);

} // namespace nestor
