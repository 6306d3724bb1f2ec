#pragma once
// A plain reference of the int8 arithmetic the VTA lowering performs, written with nested loops
// and no knowledge of VTA's layouts or tiling, to check the lowered programs against:
// int32 accumulation of int8 products, an arithmetic right shift, clipping to [lo, 127].
// Padding contributes zeros everywhere (also to max-pooling: VTA's LOAD pads with zeros).
#include <cstdint>
#include <vector>

namespace nestor::vta::reference {

struct Tensor8 {
    int n = 0, c = 0, h = 0, w = 0;  // NCHW
    std::vector<std::int8_t> data;

    Tensor8() = default;
    Tensor8(int n_, int c_, int h_, int w_);
    std::int8_t& at(int in, int ic, int y, int x) { return data[index(in, ic, y, x)]; }
    std::int8_t at(int in, int ic, int y, int x) const { return data[index(in, ic, y, x)]; }
    std::size_t index(int in, int ic, int y, int x) const;
};

// clip(acc >> shift, lo, 127), the shift arithmetic (rounding towards minus infinity).
std::int8_t requantize(std::int32_t acc, int shift, bool relu);

// weights: K x C x R x S (row-major). Output K channels.
Tensor8 conv2d(const Tensor8& input, const std::vector<std::int8_t>& weights, int k, int r, int s, int stride,
               int pad, int shift, bool relu);
// weights: out x in; input N x in x 1 x 1.
Tensor8 dense(const Tensor8& input, const std::vector<std::int8_t>& weights, int out, int shift, bool relu);
// weights: C x R x S.
Tensor8 depthwiseConv2d(const Tensor8& input, const std::vector<std::int8_t>& weights, int r, int s, int stride,
                        int pad, int shift, bool relu);
Tensor8 maxPool(const Tensor8& input, int r, int s, int stride, int pad);
Tensor8 add(const Tensor8& a, const Tensor8& b, int shift, bool relu);

} // namespace nestor::vta::reference
