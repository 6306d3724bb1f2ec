#include "io/OnnxShapes.h"

#include "common/CheckedMath.h"

namespace nestor::onnximport {

void failShape(const std::string& message) { throw ShapeFailure{message}; }

std::string shapeText(const Shape& s)
{
    std::string t = "[";
    for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
}

std::int64_t product(const Shape& s, std::size_t from, std::size_t to)
{
    std::int64_t p = 1;
    for (std::size_t i = from; i < std::min(to, s.size()); ++i)
        if (!checkedMul(p, s[i], &p) || p >= kCountLimit) failShape("tensor of shape " + shapeText(s) + " has 2^62 or more elements");
    return p;
}

std::int64_t attrInt(const OnnxNode& n, const std::string& name, std::int64_t def)
{
    const OnnxAttribute* a = n.attribute(name);
    return a ? a->i : def;
}

std::optional<std::vector<std::int64_t>> attrInts(const OnnxNode& n, const std::string& name)
{
    const OnnxAttribute* a = n.attribute(name);
    if (!a) return std::nullopt;
    return a->ints;
}

std::int64_t normAxis(std::int64_t axis, std::size_t rank, bool insert)
{
    const auto r = static_cast<std::int64_t>(rank) + (insert ? 1 : 0);
    if (axis < -r || axis >= r) failShape("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    return axis < 0 ? axis + r : axis;
}

Value known(Shape s)
{
    Value v;
    v.known = true;
    v.shape = std::move(s);
    return v;
}

Value knownConstant(std::vector<std::int64_t> values)
{
    Value v = known({static_cast<std::int64_t>(values.size())});
    v.constant = true;
    v.values = std::move(values);
    return v;
}

std::int64_t windowOutput(const Window& w, const std::string& autoPad, bool ceilMode)
{
    if (w.kernel < 1 || w.stride < 1 || w.dilation < 1)
        failShape("kernel, strides and dilations must be positive (kernel " + std::to_string(w.kernel) + ", stride " +
                  std::to_string(w.stride) + ", dilation " + std::to_string(w.dilation) + ")");
    const std::int64_t span = w.dilation * (w.kernel - 1) + 1;
    std::int64_t out = 0;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
        out = (w.in + w.stride - 1) / w.stride;  // padding makes the output ceil(in / stride)
    } else {
        const bool valid = autoPad == "VALID";
        if (!valid && autoPad != "NOTSET" && !autoPad.empty()) failShape("unknown auto_pad '" + autoPad + "'");
        if (w.padBegin < 0 || w.padEnd < 0) failShape("negative pads");
        const std::int64_t padded = w.in + (valid ? 0 : w.padBegin + w.padEnd);
        if (padded < span) failShape("window of " + std::to_string(span) + " does not fit the padded input of " + std::to_string(padded));
        out = ceilMode ? (padded - span + w.stride - 1) / w.stride + 1 : (padded - span) / w.stride + 1;
        // A last window that would start in the end padding is dropped (PyTorch's and
        // onnxruntime's rule with ceil_mode).
        if (ceilMode && (out - 1) * w.stride >= w.in + (valid ? 0 : w.padBegin)) --out;
    }
    if (out < 1) failShape("output size " + std::to_string(out));
    return out;
}

WindowAttrs windowAttrs(const OnnxNode& n, std::size_t spatial, const Shape* kernelFromWeights)
{
    WindowAttrs w;
    if (auto k = attrInts(n, "kernel_shape")) w.kernel = *k;
    else if (kernelFromWeights) w.kernel = *kernelFromWeights;
    else failShape("no kernel_shape");
    w.strides = attrInts(n, "strides").value_or(Shape(spatial, 1));
    w.dilations = attrInts(n, "dilations").value_or(Shape(spatial, 1));
    w.pads = attrInts(n, "pads").value_or(Shape(2 * spatial, 0));
    const OnnxAttribute* ap = n.attribute("auto_pad");
    w.autoPad = ap ? ap->s : "NOTSET";
    if (w.kernel.size() != spatial || w.strides.size() != spatial || w.dilations.size() != spatial || w.pads.size() != 2 * spatial)
        failShape("kernel_shape/strides/dilations/pads do not match " + std::to_string(spatial) + " spatial dimensions");
    for (const Shape* list : {&w.kernel, &w.strides, &w.dilations, &w.pads})
        for (auto v : *list)
            if (v < -kMaxDim || v > kMaxDim) failShape("kernel_shape/strides/dilations/pads value " + std::to_string(v) + " is out of range");
    return w;
}

const Value& OpInputs::at(std::size_t k) const
{
    if (!present(k)) failShape("input " + std::to_string(k) + " is missing");
    const Value& v = *values_[k];
    if (!v.known) failShape("the shape of input '" + names_[k] + "' is unknown: " + v.unknownReason);
    return v;
}

} // namespace nestor::onnximport
