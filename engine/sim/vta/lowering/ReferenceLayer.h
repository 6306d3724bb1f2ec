#pragma once
// The plain int8 reference (reference/ReferenceOps.h) of one layer as the lowering describes it,
// so that a lowered program's output can be compared with what the layer should compute
// (NetworkRun's checkReference, and the lowering tests).
#include "sim/vta/lowering/LayerSpec.h"
#include "sim/vta/reference/ReferenceOps.h"

#include <cstdint>
#include <vector>

namespace nestor::vta {

// `inputs`: one tensor (two for Add); `weights` in the layout ReferenceOps expects for the kind.
reference::Tensor8 referenceLayerOutput(const LayerSpec& layer, const std::vector<const reference::Tensor8*>& inputs,
                                        const std::vector<std::int8_t>& weights);

} // namespace nestor::vta
