#include "sim/vta/lowering/ReferenceLayer.h"

namespace nestor::vta {

reference::Tensor8 referenceLayerOutput(const LayerSpec& l, const std::vector<const reference::Tensor8*>& in,
                                        const std::vector<std::int8_t>& w)
{
    switch (l.kind) {
    case LayerKind::Conv: return reference::conv2d(*in[0], w, l.k, l.r, l.s, l.stride, l.pad, l.shift, l.relu);
    case LayerKind::Dense: return reference::dense(*in[0], w, l.k, l.shift, l.relu);
    case LayerKind::Depthwise: return reference::depthwiseConv2d(*in[0], w, l.r, l.s, l.stride, l.pad, l.shift, l.relu);
    case LayerKind::MaxPool: return reference::maxPool(*in[0], l.r, l.s, l.stride, l.pad);
    case LayerKind::Add: return reference::add(*in[0], *in[1], l.shift, l.relu);
    }
    return {};
}

} // namespace nestor::vta
