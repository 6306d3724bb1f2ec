#include "sim/vta/reference/ReferenceOps.h"

#include <algorithm>

namespace nestor::vta::reference {

Tensor8::Tensor8(int n_, int c_, int h_, int w_)
    : n(n_), c(c_), h(h_), w(w_), data(static_cast<std::size_t>(n_) * c_ * h_ * w_, 0)
{
}

std::size_t Tensor8::index(int in, int ic, int y, int x) const
{
    return ((static_cast<std::size_t>(in) * c + ic) * h + y) * w + x;
}

std::int8_t requantize(std::int32_t acc, int shift, bool relu)
{
    const std::int32_t shifted = acc >> shift;  // arithmetic on every supported compiler (C++20 defines it)
    const std::int32_t lo = relu ? 0 : -128;
    return static_cast<std::int8_t>(std::clamp(shifted, lo, 127));
}

namespace {

int outSize(int in, int kernel, int stride, int pad) { return (in + 2 * pad - kernel) / stride + 1; }

// The input value at (y, x), or 0 in the padding.
std::int32_t padded(const Tensor8& t, int in, int ic, int y, int x)
{
    if (y < 0 || y >= t.h || x < 0 || x >= t.w) return 0;
    return t.at(in, ic, y, x);
}

// Sums of int8 products can exceed int32 only for absurd reduction sizes; wrap like the hardware.
std::int32_t wrapAdd(std::int32_t a, std::int32_t b)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

} // namespace

Tensor8 conv2d(const Tensor8& input, const std::vector<std::int8_t>& weights, int k, int r, int s, int stride, int pad,
               int shift, bool relu)
{
    const int oh = outSize(input.h, r, stride, pad);
    const int ow = outSize(input.w, s, stride, pad);
    Tensor8 out(input.n, k, oh, ow);
    for (int in = 0; in < input.n; ++in)
        for (int ok = 0; ok < k; ++ok)
            for (int y = 0; y < oh; ++y)
                for (int x = 0; x < ow; ++x) {
                    std::int32_t acc = 0;
                    for (int ic = 0; ic < input.c; ++ic)
                        for (int dy = 0; dy < r; ++dy)
                            for (int dx = 0; dx < s; ++dx) {
                                const std::int32_t v = padded(input, in, ic, y * stride - pad + dy, x * stride - pad + dx);
                                const std::int32_t wv =
                                    weights[((static_cast<std::size_t>(ok) * input.c + ic) * r + dy) * s + dx];
                                acc = wrapAdd(acc, v * wv);
                            }
                    out.at(in, ok, y, x) = requantize(acc, shift, relu);
                }
    return out;
}

Tensor8 dense(const Tensor8& input, const std::vector<std::int8_t>& weights, int out, int shift, bool relu)
{
    const int features = input.c * input.h * input.w;
    Tensor8 result(input.n, out, 1, 1);
    for (int in = 0; in < input.n; ++in)
        for (int o = 0; o < out; ++o) {
            std::int32_t acc = 0;
            for (int i = 0; i < features; ++i)
                acc = wrapAdd(acc, std::int32_t{input.data[static_cast<std::size_t>(in) * features + i]} *
                                       weights[static_cast<std::size_t>(o) * features + i]);
            result.at(in, o, 0, 0) = requantize(acc, shift, relu);
        }
    return result;
}

Tensor8 depthwiseConv2d(const Tensor8& input, const std::vector<std::int8_t>& weights, int r, int s, int stride,
                        int pad, int shift, bool relu)
{
    const int oh = outSize(input.h, r, stride, pad);
    const int ow = outSize(input.w, s, stride, pad);
    Tensor8 out(input.n, input.c, oh, ow);
    for (int in = 0; in < input.n; ++in)
        for (int ic = 0; ic < input.c; ++ic)
            for (int y = 0; y < oh; ++y)
                for (int x = 0; x < ow; ++x) {
                    std::int32_t acc = 0;
                    for (int dy = 0; dy < r; ++dy)
                        for (int dx = 0; dx < s; ++dx)
                            acc = wrapAdd(acc, padded(input, in, ic, y * stride - pad + dy, x * stride - pad + dx) *
                                                   weights[(static_cast<std::size_t>(ic) * r + dy) * s + dx]);
                    out.at(in, ic, y, x) = requantize(acc, shift, relu);
                }
    return out;
}

Tensor8 maxPool(const Tensor8& input, int r, int s, int stride, int pad)
{
    const int oh = outSize(input.h, r, stride, pad);
    const int ow = outSize(input.w, s, stride, pad);
    Tensor8 out(input.n, input.c, oh, ow);
    for (int in = 0; in < input.n; ++in)
        for (int ic = 0; ic < input.c; ++ic)
            for (int y = 0; y < oh; ++y)
                for (int x = 0; x < ow; ++x) {
                    std::int32_t best = padded(input, in, ic, y * stride - pad, x * stride - pad);
                    for (int dy = 0; dy < r; ++dy)
                        for (int dx = 0; dx < s; ++dx)
                            best = std::max(best, padded(input, in, ic, y * stride - pad + dy, x * stride - pad + dx));
                    out.at(in, ic, y, x) = static_cast<std::int8_t>(best);
                }
    return out;
}

Tensor8 add(const Tensor8& a, const Tensor8& b, int shift, bool relu)
{
    Tensor8 out(a.n, a.c, a.h, a.w);
    for (std::size_t i = 0; i < a.data.size(); ++i)
        out.data[i] = requantize(std::int32_t{a.data[i]} + b.data[i], shift, relu);
    return out;
}

} // namespace nestor::vta::reference
