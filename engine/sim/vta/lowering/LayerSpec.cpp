#include "sim/vta/lowering/LayerSpec.h"

namespace nestor::vta {

const char* layerKindName(LayerKind k)
{
    switch (k) {
    case LayerKind::Conv: return "conv";
    case LayerKind::Dense: return "dense";
    case LayerKind::Depthwise: return "depthwise";
    case LayerKind::MaxPool: return "maxpool";
    case LayerKind::Add: return "add";
    }
    return "?";
}

std::uint64_t LayerSpec::ops() const
{
    const std::uint64_t outputs = std::uint64_t(n) * outC() * outH() * outW();
    switch (kind) {
    case LayerKind::Conv: return outputs * std::uint64_t(c) * r * s;
    case LayerKind::Dense: return outputs * std::uint64_t(c);
    case LayerKind::Depthwise: return outputs * std::uint64_t(r) * s;
    case LayerKind::MaxPool: return outputs * std::uint64_t(r) * s;
    case LayerKind::Add: return outputs;
    }
    return 0;
}

std::uint64_t LayerSpec::weightCount() const
{
    switch (kind) {
    case LayerKind::Conv: return std::uint64_t(k) * c * r * s;
    case LayerKind::Dense: return std::uint64_t(k) * c;
    case LayerKind::Depthwise: return std::uint64_t(c) * r * s;
    default: return 0;
    }
}

Diagnostics LayerSpec::validate() const
{
    Diagnostics d;
    auto bad = [&](const char* field, const std::string& why) { d.push_back(Diagnostic{name + "." + field, why, {}}); };
    for (auto [field, v] : {std::pair{"n", n}, {"c", c}, {"h", h}, {"w", w}, {"k", k}, {"r", r}, {"s", s}, {"stride", stride}})
        if (v < 1 || v > 65535) bad(field, "must be in 1..65535, is " + std::to_string(v));
    if (pad < 0 || pad > 15) bad("pad", "must be in 0..15 (the LOAD padding field has 4 bits), is " + std::to_string(pad));
    if (shift < 0 || shift > 31) bad("shift", "must be in 0..31, is " + std::to_string(shift));
    if (!d.empty()) return d;
    if (h + 2 * pad < r || w + 2 * pad < s) bad("r", "the window is larger than the padded input");
    if (pad >= r || pad >= s) bad("pad", "must be smaller than the window (r, s): a tile would read only padding");
    if (kind == LayerKind::Dense && (h != 1 || w != 1 || r != 1 || s != 1 || pad != 0 || stride != 1))
        bad("kind", "dense takes h = w = r = s = stride = 1 and pad = 0");
    if ((kind == LayerKind::Depthwise || kind == LayerKind::MaxPool || kind == LayerKind::Add) && k != c)
        bad("k", std::string(layerKindName(kind)) + " keeps the channels: k must equal c");
    if (kind == LayerKind::Add && (r != 1 || s != 1 || stride != 1 || pad != 0))
        bad("kind", "add takes r = s = stride = 1 and pad = 0");
    const std::size_t wantInputs = kind == LayerKind::Add ? 2 : 1;
    if (inputs.size() != wantInputs)
        bad("inputs", std::string(layerKindName(kind)) + " takes " + std::to_string(wantInputs) + " input(s), has " +
                          std::to_string(inputs.size()));
    return d;
}

LayerSpec convLayer(std::string name, int n, int c, int h, int w, int k, int r, int s, int stride, int pad, int shift,
                    bool relu, std::vector<int> inputs)
{
    LayerSpec l;
    l.name = std::move(name);
    l.kind = LayerKind::Conv;
    l.n = n, l.c = c, l.h = h, l.w = w, l.k = k, l.r = r, l.s = s, l.stride = stride, l.pad = pad;
    l.shift = shift, l.relu = relu, l.inputs = std::move(inputs);
    return l;
}

LayerSpec denseLayer(std::string name, int n, int in, int out, int shift, bool relu, std::vector<int> inputs)
{
    LayerSpec l = convLayer(std::move(name), n, in, 1, 1, out, 1, 1, 1, 0, shift, relu, std::move(inputs));
    l.kind = LayerKind::Dense;
    return l;
}

} // namespace nestor::vta
