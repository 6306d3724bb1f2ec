#pragma once
// ResNet-18 (He et al.) as VTA layers, int8: conv1 7x7/2, max-pool 3x3/2, four stages of two
// basic blocks (3x3 convs, 1x1/2 downsampling convs, residual adds with ReLU), and the
// classifier. VTA's ALU cannot divide, so the global 7x7 average pool is lowered as a global
// max-pool (same data movement, one ALU op per element). Requantization shifts are chosen to
// keep random int8 activations in range (about half a bit per doubling of the reduction).
#include "sim/vta/lowering/LayerSpec.h"

#include <vector>

namespace nestor::vta {

// `imageSize` 224 is the network of the paper; smaller sizes (multiples of 32) keep the same
// layers with smaller activations, for tests.
std::vector<LayerSpec> resnet18Layers(int imageSize = 224, int batch = 1);

// The shift used for a reduction of `terms` products of int8 values.
int requantShift(std::uint64_t terms);

} // namespace nestor::vta
