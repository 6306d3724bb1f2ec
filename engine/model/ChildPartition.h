#pragma once
// The partition of a child: the distinct words of a tensor that one child ever holds. The
// temporal loops above it run through every index combination they reach (residual rule
// included); spatial loops above it are fixed at the child's (or its instance's) index, which
// only its category matters for. A child idle in a residual context covers nothing there.
#include "model/NestLayout.h"
#include "model/SpatialCategory.h"
#include "workload/Workload.h"

#include <cstdint>
#include <vector>

namespace nestor::model {

struct ChildPlace {
    int leafPos = 0;                        // first spatial loop of the stage's level
    int boundary = 0;                       // first loop of the child's level
    bool macStage = false;                  // children are MACs (tiles of one word)
    const std::vector<walker::Cat>* instanceCats = nullptr;  // per nest position (< leafPos used)
    const std::vector<walker::Cat>* childCats = nullptr;     // per child spatial loop (leafPos..boundary)
};

std::int64_t childDistinctWords(const Workload& w, const NestLayout& nest, int tensor, const ChildPlace& place);

} // namespace nestor::model
