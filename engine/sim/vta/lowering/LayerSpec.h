#pragma once
// One int8 layer of a network as the VTA lowering sees it: NCHW activations, KCRS weights, and
// the requantization VTA's TVM flow applies after the int32 accumulation (an arithmetic right
// shift, then clipping to [lo, 127] with MAX/MIN; lo = 0 fuses a ReLU).
#include "common/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nestor::vta {

enum class LayerKind : std::uint8_t { Conv, Dense, Depthwise, MaxPool, Add };
const char* layerKindName(LayerKind k);

struct LayerSpec {
    std::string name;
    LayerKind kind = LayerKind::Conv;
    int n = 1, c = 1, h = 1, w = 1;  // input activation (Dense: h = w = 1, c = input features)
    int k = 1;                       // output channels (Depthwise, MaxPool, Add: k = c)
    int r = 1, s = 1;                // kernel / pooling window
    int stride = 1, pad = 0;
    int shift = 0;                   // requantization: acc >> shift (Conv, Dense, Depthwise, Add)
    bool relu = false;               // clip low bound 0 instead of -128
    // Producers of the inputs, by index in the network's layer list; -1 is the network input.
    // Add has two, every other kind one.
    std::vector<int> inputs;

    int outH() const { return (h + 2 * pad - r) / stride + 1; }
    int outW() const { return (w + 2 * pad - s) / stride + 1; }
    int outC() const { return kind == LayerKind::Conv || kind == LayerKind::Dense ? k : c; }
    // Useful multiply-accumulates (Conv, Dense, Depthwise) or element operations (MaxPool, Add).
    std::uint64_t ops() const;
    std::uint64_t weightCount() const;  // int8 weights the layer reads (0 for MaxPool, Add)
    // Each problem names "<layer name>.<field>".
    Diagnostics validate() const;
};

// Convenience constructors.
LayerSpec convLayer(std::string name, int n, int c, int h, int w, int k, int r, int s, int stride, int pad,
                    int shift, bool relu, std::vector<int> inputs = {-1});
LayerSpec denseLayer(std::string name, int n, int in, int out, int shift, bool relu, std::vector<int> inputs = {-1});

} // namespace nestor::vta
