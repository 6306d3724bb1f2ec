// Output shapes of the ONNX ops that carry no MACs, as the ONNX operator specification gives
// them (docs/onnx-import.md has the table). Small integer tensors (shape vectors, axes) are
// followed through the ops that build Reshape targets in exported graphs: Shape, Gather, Slice,
// Concat, Squeeze/Unsqueeze, Cast and integer Add/Sub/Mul/Div.
#include "io/OnnxShapes.h"

#include "common/CheckedMath.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace nestor::onnximport {

namespace {

using Rule = std::vector<Value> (*)(const OnnxNode&, const OpInputs&);

std::vector<std::int64_t> constInput(const Value* v, const char* what)
{
    if (!v || !v->constant)
        failShape(std::string(what) + " is not a constant (only shapes given by initializers, Constant or Shape/Gather/Concat are followed)");
    return v->values;
}

// Integer arguments from an attribute (older opsets) or else a constant input (newer ones).
std::optional<std::vector<std::int64_t>> attrOrInput(const OnnxNode& n, const char* attr, const OpInputs& in, std::size_t k)
{
    if (auto a = attrInts(n, attr)) return a;
    if (const Value* v = in.optional(k)) return constInput(v, attr);
    return std::nullopt;
}

// Output of a broadcasting elementwise op.
Shape broadcast(const std::vector<const Shape*>& in)
{
    Shape out;
    for (const Shape* sp : in) {
        const Shape& s = *sp;
        if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1);
        for (std::size_t k = 0; k < s.size(); ++k) {
            std::int64_t& o = out[out.size() - s.size() + k];
            if (s[k] == o || s[k] == 1) continue;
            if (o != 1) failShape("shapes do not broadcast at a dimension of " + std::to_string(o) + " vs " + std::to_string(s[k]));
            o = s[k];
        }
    }
    return out;
}

std::vector<Value> one(Value v) { return {std::move(v)}; }

const std::set<std::string>& passThroughOps()
{
    static const std::set<std::string> ops{
        "Relu", "LeakyRelu", "PRelu", "Sigmoid", "Tanh", "Clip", "HardSwish", "HardSigmoid", "Elu", "Selu", "Celu", "Softplus",
        "Softsign", "Gelu", "Erf", "Mish", "ThresholdedRelu", "Sqrt", "Exp", "Log", "Neg", "Abs", "Reciprocal", "Floor", "Ceil",
        "Round", "Sign", "Not", "Dropout", "BatchNormalization", "InstanceNormalization", "LayerNormalization",
        "GroupNormalization", "LpNormalization", "LRN", "Softmax", "LogSoftmax", "Hardmax", "QuantizeLinear", "DequantizeLinear",
        "DynamicQuantizeLinear", "Shrink", "Sin", "Cos", "IsNaN", "IsInf", "Trilu", "CumSum", "ScatterND",
        "ScatterElements", "Scatter"};
    return ops;
}

const std::set<std::string>& broadcastOps()
{
    static const std::set<std::string> ops{"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "Equal", "Less",
                                           "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Where", "Mod",
                                           "BitShift"};
    return ops;
}

// Add/Sub/Mul/Div of small integer vectors (a Reshape target computed from a Shape).
std::optional<std::vector<std::int64_t>> integerArithmetic(const std::string& op, const std::vector<const Value*>& args,
                                                           std::size_t count)
{
    if (args.size() != 2 || (op != "Add" && op != "Sub" && op != "Mul" && op != "Div")) return std::nullopt;
    for (const Value* a : args)
        if (!a->constant || a->shape.size() > 1 || (a->values.size() != 1 && a->values.size() != count)) return std::nullopt;
    std::vector<std::int64_t> out;
    for (std::size_t j = 0; j < count; ++j) {
        const std::int64_t x = args[0]->values[args[0]->values.size() == 1 ? 0 : j];
        const std::int64_t y = args[1]->values[args[1]->values.size() == 1 ? 0 : j];
        std::int64_t r = 0;
        bool ok = true;
        if (op == "Add") ok = checkedAdd(x, y, &r);
        else if (op == "Sub") ok = !__builtin_sub_overflow(x, y, &r);
        else if (op == "Mul") ok = checkedMul(x, y, &r);
        else if (y == 0 || (x == INT64_MIN && y == -1)) ok = false;
        else r = x / y;  // ONNX integer Div truncates, as C++ does
        if (!ok) return std::nullopt;  // the shape is still known; the contents are not
        out.push_back(r);
    }
    return out;
}

std::vector<Value> elementwise(const OnnxNode& n, const OpInputs& in)
{
    std::vector<const Value*> args;
    std::vector<const Shape*> shapes;
    for (std::size_t k = 0; k < in.size(); ++k)
        if (in.present(k)) {
            args.push_back(&in.at(k));
            shapes.push_back(&args.back()->shape);
        }
    Value v = known(broadcast(shapes));
    if (v.shape.size() <= 1 && product(v.shape) <= static_cast<std::int64_t>(kOnnxMaxIntValues))
        if (auto values = integerArithmetic(n.opType, args, static_cast<std::size_t>(product(v.shape)))) {
            v.constant = true;
            v.values = std::move(*values);
        }
    return one(std::move(v));
}

// TensorProto.DataType: UINT8 .. INT64 are 2 .. 7, UINT32 and UINT64 12 and 13.
bool isIntegerType(std::int64_t onnxType) { return (onnxType >= 2 && onnxType <= 7) || onnxType == 12 || onnxType == 13; }

// Identity and casts to integer types keep a shape vector's contents.
std::vector<Value> castLike(const OnnxNode& n, const OpInputs& in)
{
    const Value& x = in.at(0);
    Value v = known(x.shape);
    const bool keeps = n.opType == "Identity" || (n.opType == "Cast" && isIntegerType(attrInt(n, "to", 0)));
    if (keeps && x.constant) {
        v.constant = true;
        v.values = x.values;
    }
    return one(std::move(v));
}

std::vector<Value> constant(const OnnxNode& n, const OpInputs&)
{
    const OnnxAttribute* t = n.attribute("value");
    if (t && t->hasTensor) {
        Value v = known(t->t.dims);
        v.constant = t->t.hasValues;
        v.values = t->t.values;
        v.real = t->t.hasFloats;
        v.reals = t->t.floats;
        return one(std::move(v));
    }
    if (const OnnxAttribute* a = n.attribute("value_int")) {
        Value v = known({});
        v.constant = true;
        v.values = {a->i};
        return one(std::move(v));
    }
    if (const OnnxAttribute* a = n.attribute("value_ints")) return one(knownConstant(a->ints));
    // Real constants (a scale factor before a layer) have a shape too: a scalar or a vector.
    if (const OnnxAttribute* a = n.attribute("value_float")) {
        Value v = known({});
        v.real = true;
        v.reals = {a->f};
        return one(std::move(v));
    }
    if (const OnnxAttribute* a = n.attribute("value_floats")) {
        Value v = known({static_cast<std::int64_t>(a->floats.size())});
        v.real = true;
        v.reals = a->floats;
        return one(std::move(v));
    }
    if (n.attribute("value_string")) return one(known({}));
    failShape("Constant without a tensor, integer or real value");
}

std::vector<Value> pool(const OnnxNode& n, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    if (x.size() < 3) failShape("input " + shapeText(x) + " has no spatial dimensions");
    const std::size_t spatial = x.size() - 2;
    const WindowAttrs a = windowAttrs(n, spatial, nullptr);
    const bool ceilMode = attrInt(n, "ceil_mode", 0) != 0;
    Shape out{x[0], x[1]};
    for (std::size_t d = 0; d < spatial; ++d)
        out.push_back(windowOutput({x[2 + d], a.kernel[d], a.strides[d], a.dilations[d], a.pads[d], a.pads[d + spatial]}, a.autoPad, ceilMode));
    return one(known(out));
}

std::vector<Value> globalPool(const OnnxNode&, const OpInputs& in)
{
    Shape x = in.at(0).shape;
    if (x.size() < 3) failShape("input " + shapeText(x) + " has no spatial dimensions");
    std::fill(x.begin() + 2, x.end(), 1);
    return one(known(x));
}

std::vector<Value> flatten(const OnnxNode& n, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    const auto axis = static_cast<std::size_t>(normAxis(attrInt(n, "axis", 1), x.size(), true));
    return one(known({product(x, 0, axis), product(x, axis)}));
}

std::vector<Value> reshape(const OnnxNode& n, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    const auto given = attrOrInput(n, "shape", in, 1);  // an attribute before opset 5
    if (!given) failShape("no target shape");
    const std::vector<std::int64_t>& target = *given;
    const bool allowZero = attrInt(n, "allowzero", 0) != 0;
    Shape out;
    int inferred = -1;
    std::int64_t rest = 1;
    for (std::size_t k = 0; k < target.size(); ++k) {
        std::int64_t d = target[k];
        if (d == 0 && !allowZero) {
            if (k >= x.size()) failShape("0 at position " + std::to_string(k) + " copies no input dimension");
            d = x[k];
        }
        if (d == -1) {
            if (inferred >= 0) failShape("more than one -1 in the target shape");
            inferred = static_cast<int>(k);
            d = 1;
        } else if (d < 1) {
            failShape("target shape " + shapeText(target) + " has dimension " + std::to_string(d));
        }
        out.push_back(d);
        rest = product({rest, d});
    }
    const std::int64_t total = product(x);
    if (inferred >= 0) {
        if (total % rest != 0) failShape("cannot reshape " + shapeText(x) + " to " + shapeText(target));
        out[static_cast<std::size_t>(inferred)] = total / rest;
    }
    if (product(out) != total) failShape("cannot reshape " + shapeText(x) + " to " + shapeText(target));
    return one(known(out));
}

std::vector<Value> concat(const OnnxNode& n, const OpInputs& in)
{
    const std::int64_t axisAttr = attrInt(n, "axis", 0);
    Shape out;
    bool allConst = true;
    std::vector<std::int64_t> joined;
    std::size_t axis = 0;
    bool first = true;
    for (std::size_t k = 0; k < in.size(); ++k) {
        if (!in.present(k)) continue;
        const Value& v = in.at(k);
        if (first) {
            out = v.shape;
            axis = static_cast<std::size_t>(normAxis(axisAttr, out.size()));
            first = false;
        } else {
            if (v.shape.size() != out.size()) failShape("inputs of different ranks");
            for (std::size_t d = 0; d < out.size(); ++d)
                if (d != axis && v.shape[d] != out[d]) failShape("inputs differ outside the axis: " + shapeText(out) + " vs " + shapeText(v.shape));
            out[axis] += v.shape[axis];
            if (out[axis] > kMaxDim) failShape("concatenated dimension too large");
        }
        allConst = allConst && v.constant && v.shape.size() <= 1;
        if (allConst) joined.insert(joined.end(), v.values.begin(), v.values.end());
    }
    if (first) failShape("no inputs");
    Value v = known(out);
    if (allConst && out.size() == 1 && joined.size() <= kOnnxMaxIntValues) {
        v.constant = true;
        v.values = joined;
    }
    return one(std::move(v));
}

std::vector<Value> transpose(const OnnxNode& n, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    Shape perm = attrInts(n, "perm").value_or(Shape{});
    if (perm.empty())
        for (std::size_t d = x.size(); d-- > 0;) perm.push_back(static_cast<std::int64_t>(d));
    if (perm.size() != x.size()) failShape("perm " + shapeText(perm) + " does not match rank " + std::to_string(x.size()));
    Shape out;
    std::set<std::int64_t> seen;
    for (auto p : perm) {
        const auto d = normAxis(p, x.size());
        if (!seen.insert(d).second) failShape("perm " + shapeText(perm) + " repeats an axis");
        out.push_back(x[static_cast<std::size_t>(d)]);
    }
    return one(known(out));
}

std::vector<Value> squeeze(const OnnxNode& n, const OpInputs& in)
{
    const Value& xv = in.at(0);
    const Shape x = xv.shape;
    const auto axes = attrOrInput(n, "axes", in, 1);
    Shape out;
    if (n.opType == "Squeeze") {
        std::set<std::int64_t> drop;
        if (axes)
            for (auto a : *axes) drop.insert(normAxis(a, x.size()));
        for (std::size_t d = 0; d < x.size(); ++d) {
            const bool remove = axes ? drop.count(static_cast<std::int64_t>(d)) > 0 : x[d] == 1;
            if (remove && x[d] != 1) failShape("cannot squeeze axis " + std::to_string(d) + " of size " + std::to_string(x[d]));
            if (!remove) out.push_back(x[d]);
        }
    } else {
        if (!axes) failShape("Unsqueeze without axes");
        const std::size_t rank = x.size() + axes->size();
        std::set<std::int64_t> add;
        for (auto a : *axes) {
            if (a < -static_cast<std::int64_t>(rank) || a >= static_cast<std::int64_t>(rank)) failShape("axis out of range");
            if (!add.insert(a < 0 ? a + static_cast<std::int64_t>(rank) : a).second) failShape("axes " + shapeText(*axes) + " repeat an axis");
        }
        std::size_t k = 0;
        for (std::size_t d = 0; d < rank; ++d) out.push_back(add.count(static_cast<std::int64_t>(d)) ? 1 : x.at(k++));
    }
    Value v = known(out);
    if (xv.constant) {  // shape vectors pass through unchanged
        v.constant = true;
        v.values = xv.values;
    }
    return one(std::move(v));
}

std::vector<Value> shapeOf(const OnnxNode& n, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    const auto r = static_cast<std::int64_t>(x.size());
    auto clampAxis = [&](std::int64_t a) { return std::clamp(a < 0 ? a + r : a, std::int64_t{0}, r); };
    const std::int64_t start = clampAxis(attrInt(n, "start", 0)), end = clampAxis(attrInt(n, "end", r));
    return one(knownConstant(start < end ? std::vector<std::int64_t>(x.begin() + start, x.begin() + end) : std::vector<std::int64_t>{}));
}

std::vector<Value> sizeOf(const OnnxNode&, const OpInputs& in)
{
    Value v = known({});
    v.constant = true;
    v.values = {product(in.at(0).shape)};
    return one(std::move(v));
}

std::vector<Value> gather(const OnnxNode& n, const OpInputs& in)
{
    const Value& data = in.at(0);
    const Value& idx = in.at(1);
    const auto axis = static_cast<std::size_t>(normAxis(attrInt(n, "axis", 0), data.shape.size()));
    Shape out(data.shape.begin(), data.shape.begin() + static_cast<std::ptrdiff_t>(axis));
    out.insert(out.end(), idx.shape.begin(), idx.shape.end());
    out.insert(out.end(), data.shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1, data.shape.end());
    Value v = known(out);
    if (data.constant && idx.constant && data.shape.size() == 1) {
        v.constant = true;
        for (auto k : idx.values) {
            const std::int64_t at = k < 0 ? k + static_cast<std::int64_t>(data.values.size()) : k;
            if (at < 0 || at >= static_cast<std::int64_t>(data.values.size())) failShape("index " + std::to_string(k) + " out of range");
            v.values.push_back(data.values[static_cast<std::size_t>(at)]);
        }
    }
    return one(std::move(v));
}

std::vector<Value> pad(const OnnxNode& n, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    const std::vector<std::int64_t> pads = attrOrInput(n, "pads", in, 1).value_or(std::vector<std::int64_t>{});
    std::vector<std::int64_t> axes;
    if (const Value* a = in.optional(3)) {  // opset 18: pads for these axes only
        for (auto v : constInput(a, "axes")) axes.push_back(normAxis(v, x.size()));
    } else {
        for (std::size_t d = 0; d < x.size(); ++d) axes.push_back(static_cast<std::int64_t>(d));
    }
    if (pads.size() != 2 * axes.size()) failShape("pads " + shapeText(pads) + " do not match rank " + std::to_string(x.size()));
    for (auto v : pads)
        if (v < -kMaxDim || v > kMaxDim) failShape("pad " + std::to_string(v) + " is out of range");
    Shape out = x;
    for (std::size_t k = 0; k < axes.size(); ++k) {
        std::int64_t& d = out[static_cast<std::size_t>(axes[k])];
        d += pads[k] + pads[k + axes.size()];
        if (d < 1 || d > kMaxDim) failShape("padded size " + std::to_string(d));
    }
    return one(known(out));
}

std::vector<Value> reduce(const OnnxNode& n, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    const auto axes = attrOrInput(n, "axes", in, 1);
    const bool keep = attrInt(n, "keepdims", 1) != 0;
    const bool noopWhenEmpty = attrInt(n, "noop_with_empty_axes", 0) != 0;
    if ((!axes || axes->empty()) && noopWhenEmpty) return one(known(x));
    std::set<std::int64_t> reduced;
    if (axes)
        for (auto a : *axes) reduced.insert(normAxis(a, x.size()));
    Shape out;
    for (std::size_t d = 0; d < x.size(); ++d) {
        const bool r = !axes || axes->empty() || reduced.count(static_cast<std::int64_t>(d));
        if (!r) out.push_back(x[d]);
        else if (keep) out.push_back(1);
    }
    return one(known(out));
}

std::vector<Value> argReduce(const OnnxNode& n, const OpInputs& in)
{
    Shape x = in.at(0).shape;
    const auto axis = static_cast<std::size_t>(normAxis(attrInt(n, "axis", 0), x.size()));
    if (attrInt(n, "keepdims", 1) != 0) x[axis] = 1;
    else x.erase(x.begin() + static_cast<std::ptrdiff_t>(axis));
    return one(known(x));
}

// Slice (opset 10+: starts, ends, axes, steps as inputs; before: attributes), with the
// specification's clamping; a 1-D constant is sliced too (Shape -> Slice in exported graphs).
std::vector<Value> slice(const OnnxNode& n, const OpInputs& in)
{
    const Value& data = in.at(0);
    const Shape& x = data.shape;
    const bool inputs = !n.attribute("starts");
    const std::vector<std::int64_t> starts = inputs ? constInput(in.optional(1), "starts") : *attrInts(n, "starts");
    const std::vector<std::int64_t> ends = inputs ? constInput(in.optional(2), "ends") : attrInts(n, "ends").value_or(Shape{});
    std::optional<std::vector<std::int64_t>> axes = inputs ? std::nullopt : attrInts(n, "axes");
    if (inputs && in.present(3)) axes = constInput(in.optional(3), "axes");
    std::vector<std::int64_t> steps(starts.size(), 1);
    if (inputs && in.present(4)) steps = constInput(in.optional(4), "steps");
    if (!axes) {
        axes.emplace();
        for (std::size_t k = 0; k < starts.size(); ++k) axes->push_back(static_cast<std::int64_t>(k));
    }
    if (ends.size() != starts.size() || axes->size() != starts.size() || steps.size() != starts.size())
        failShape("starts, ends, axes and steps differ in length");
    Shape out = x;
    std::vector<std::int64_t> first(x.size(), 0), stride(x.size(), 1);
    std::set<std::int64_t> seen;
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const auto axis = static_cast<std::size_t>(normAxis((*axes)[k], x.size()));
        if (!seen.insert(static_cast<std::int64_t>(axis)).second) failShape("axes repeat axis " + std::to_string(axis));
        if (steps[k] == 0) failShape("a step of 0");
        const std::int64_t dim = x[axis];
        // Steps beyond any dimension take one element: clamping them keeps the arithmetic small.
        const std::int64_t step = std::clamp(steps[k], -kMaxDim - 1, kMaxDim + 1);
        std::int64_t start = starts[k] < 0 ? std::max(starts[k], -dim) + dim : starts[k];
        std::int64_t end = ends[k] < 0 ? std::max(ends[k], -dim - 1) + dim : ends[k];
        std::int64_t len = 0;
        if (step > 0) {
            start = std::clamp(start, std::int64_t{0}, dim);
            end = std::clamp(end, std::int64_t{0}, dim);
            len = end > start ? (end - start - 1) / step + 1 : 0;
        } else {
            start = std::clamp(start, std::int64_t{0}, dim - 1);
            end = std::clamp(end, std::int64_t{-1}, dim - 1);
            len = start > end ? (start - end - 1) / -step + 1 : 0;
        }
        out[axis] = len;
        first[axis] = start;
        stride[axis] = step;
    }
    Value v = known(out);
    if (data.constant && x.size() == 1 && data.values.size() == std::size_t(x[0]) && out[0] >= 0) {
        v.constant = true;
        for (std::int64_t j = 0; j < out[0]; ++j) v.values.push_back(data.values.at(static_cast<std::size_t>(first[0] + j * stride[0])));
    }
    return one(std::move(v));
}

// Split into the node's outputs: sizes from `split` (attribute, or input from opset 13), else
// equal parts (opset 18's num_outputs: ceil-sized parts, the last smaller).
std::vector<Value> split(const OnnxNode& n, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    const auto axis = static_cast<std::size_t>(normAxis(attrInt(n, "axis", 0), x.size()));
    const std::int64_t dim = x[axis];
    const std::size_t parts = n.outputs.size();
    std::vector<std::int64_t> sizes = attrOrInput(n, "split", in, 1).value_or(std::vector<std::int64_t>{});
    if (sizes.empty()) {
        const std::int64_t count = attrInt(n, "num_outputs", static_cast<std::int64_t>(parts));
        if (count < 1 || static_cast<std::size_t>(count) != parts) failShape("num_outputs differs from the node's outputs");
        const std::int64_t chunk = (dim + count - 1) / count;
        if (!n.attribute("num_outputs") && dim % count != 0)
            failShape("dimension " + std::to_string(dim) + " does not split into " + std::to_string(count) + " equal parts");
        for (std::int64_t k = 0; k < count; ++k) sizes.push_back(std::min(chunk, dim - k * chunk));
    }
    if (sizes.size() != parts) failShape("split " + shapeText(sizes) + " does not match " + std::to_string(parts) + " outputs");
    std::int64_t sum = 0;
    for (auto s : sizes) {
        if (s < 1 || s > dim) failShape("split " + shapeText(sizes) + " has a part of " + std::to_string(s));
        sum += s;
    }
    if (sum != dim) failShape("split " + shapeText(sizes) + " does not add up to " + std::to_string(dim));
    std::vector<Value> out;
    for (auto s : sizes) {
        Shape part = x;
        part[axis] = s;
        out.push_back(known(part));
    }
    return out;
}

// Resize (scales or sizes; opset 18's axes) and the older Upsample (scales input or attribute).
std::vector<Value> resize(const OnnxNode& n, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    std::vector<std::int64_t> axes;
    for (auto a : attrInts(n, "axes").value_or(Shape{})) axes.push_back(normAxis(a, x.size()));
    if (axes.empty())
        for (std::size_t d = 0; d < x.size(); ++d) axes.push_back(static_cast<std::int64_t>(d));
    Shape out = x;
    const bool resizeWithSizes = n.opType == "Resize" && in.present(3);
    if (resizeWithSizes) {
        const auto sizes = constInput(in.optional(3), "sizes");
        if (sizes.size() != axes.size()) failShape("sizes " + shapeText(sizes) + " do not match the axes");
        const OnnxAttribute* policy = n.attribute("keep_aspect_ratio_policy");
        if (policy && policy->s != "stretch") failShape("keep_aspect_ratio_policy '" + policy->s + "' is not supported");
        for (std::size_t k = 0; k < axes.size(); ++k) out[static_cast<std::size_t>(axes[k])] = sizes[k];
        return one(known(out));
    }
    std::vector<double> scales;
    if (const OnnxAttribute* a = n.attribute("scales")) {
        scales = a->floats;
    } else {
        const std::size_t k = n.opType == "Resize" && in.size() > 2 ? 2 : 1;  // Resize-10 and Upsample-9: (X, scales)
        const Value* s = in.optional(k);
        if (!s || !s->real) failShape("the scales are not a constant (an initializer or Constant)");
        scales = s->reals;
    }
    if (scales.size() != axes.size()) failShape("the scales do not match the axes");
    for (std::size_t k = 0; k < axes.size(); ++k) {
        std::int64_t& d = out[static_cast<std::size_t>(axes[k])];
        const double scaled = std::floor(static_cast<double>(d) * scales[k]);
        if (!(scaled >= 1 && scaled <= static_cast<double>(kMaxDim))) failShape("a scale of " + std::to_string(scales[k]) + " makes a size out of range");
        d = static_cast<std::int64_t>(scaled);
    }
    return one(known(out));
}

std::vector<Value> expand(const OnnxNode&, const OpInputs& in)
{
    const Shape x = in.at(0).shape;
    const Shape target = constInput(in.optional(1), "the shape");
    return one(known(broadcast({&x, &target})));
}

std::vector<Value> tile(const OnnxNode&, const OpInputs& in)
{
    Shape x = in.at(0).shape;
    const auto repeats = constInput(in.optional(1), "repeats");
    if (repeats.size() != x.size()) failShape("repeats " + shapeText(repeats) + " do not match rank " + std::to_string(x.size()));
    for (std::size_t d = 0; d < x.size(); ++d) {
        if (repeats[d] < 1 || !checkedMul(x[d], repeats[d], &x[d]) || x[d] > kMaxDim)
            failShape("repeats " + shapeText(repeats) + " make a size out of range");
    }
    return one(known(x));
}

std::vector<Value> constantOfShape(const OnnxNode&, const OpInputs& in)
{
    return one(known(constInput(in.optional(0), "the shape")));
}

// DepthToSpace / SpaceToDepth move blocksize x blocksize channel groups into space and back.
std::vector<Value> depthSpace(const OnnxNode& n, const OpInputs& in)
{
    Shape x = in.at(0).shape;
    const std::int64_t b = attrInt(n, "blocksize", 0);
    if (x.size() != 4) failShape("input " + shapeText(x) + " is not 4-D");
    if (b < 1 || b > 65536) failShape("blocksize " + std::to_string(b));
    if (n.opType == "DepthToSpace") {
        if (x[1] % (b * b) != 0) failShape("channels " + std::to_string(x[1]) + " are not a multiple of blocksize^2");
        x = {x[0], x[1] / (b * b), x[2] * b, x[3] * b};
    } else {
        if (x[2] % b != 0 || x[3] % b != 0) failShape("spatial size is not a multiple of blocksize " + std::to_string(b));
        x = {x[0], x[1] * b * b, x[2] / b, x[3] / b};
    }
    for (auto d : x)
        if (d > kMaxDim) failShape("output " + shapeText(x) + " is out of range");
    return one(known(x));
}

std::vector<Value> topK(const OnnxNode& n, const OpInputs& in)
{
    Shape x = in.at(0).shape;
    const auto axis = static_cast<std::size_t>(normAxis(attrInt(n, "axis", -1), x.size()));
    const std::vector<std::int64_t> k = n.attribute("k") ? std::vector<std::int64_t>{attrInt(n, "k", 0)} : constInput(in.optional(1), "k");
    if (k.size() != 1 || k[0] < 1 || k[0] > x[axis]) failShape("k must be one value from 1 to the axis size " + std::to_string(x[axis]));
    x[axis] = k[0];
    return {known(x), known(x)};
}

std::vector<Value> gatherElements(const OnnxNode&, const OpInputs& in)
{
    in.at(0);
    return one(known(in.at(1).shape));
}

// Range of integer scalars (position ids in transformer exports): max(ceil((limit - start) /
// delta), 0) elements.
std::vector<Value> range(const OnnxNode&, const OpInputs& in)
{
    std::int64_t arg[3];
    for (std::size_t k = 0; k < 3; ++k) {
        const auto v = constInput(in.optional(k), k == 0 ? "start" : k == 1 ? "limit" : "delta");
        if (v.size() != 1) failShape("start, limit and delta must be scalars");
        arg[k] = v[0];
    }
    const auto [start, limit, delta] = arg;
    if (delta == 0) failShape("a delta of 0");
    // In long double: limit - start may not fit 64 bits.
    const long double n = std::ceil((static_cast<long double>(limit) - start) / delta);
    if (n < 1 || n > static_cast<long double>(kMaxDim)) failShape("Range of " + std::to_string(static_cast<double>(n)) + " elements");
    Value v = known({static_cast<std::int64_t>(n)});
    if (n <= static_cast<long double>(kOnnxMaxIntValues)) {
        v.constant = true;
        // Every element lies between start and limit; only the product j * delta needs 128 bits.
        for (std::int64_t j = 0; j < static_cast<std::int64_t>(n); ++j)
            v.values.push_back(static_cast<std::int64_t>(static_cast<__int128>(start) + static_cast<__int128>(j) * delta));
    }
    return one(std::move(v));
}

const std::map<std::string, Rule>& rules()
{
    static const std::map<std::string, Rule> table{
        {"Identity", castLike},
        {"Cast", castLike},
        {"CastLike", castLike},
        {"Constant", constant},
        {"MaxPool", pool},
        {"AveragePool", pool},
        {"LpPool", pool},
        {"GlobalAveragePool", globalPool},
        {"GlobalMaxPool", globalPool},
        {"GlobalLpPool", globalPool},
        {"Flatten", flatten},
        {"Reshape", reshape},
        {"Concat", concat},
        {"Transpose", transpose},
        {"Squeeze", squeeze},
        {"Unsqueeze", squeeze},
        {"Shape", shapeOf},
        {"Size", sizeOf},
        {"Gather", gather},
        {"Pad", pad},
        {"ArgMax", argReduce},
        {"ArgMin", argReduce},
        {"Slice", slice},
        {"Split", split},
        {"Resize", resize},
        {"Upsample", resize},
        {"Expand", expand},
        {"Tile", tile},
        {"ConstantOfShape", constantOfShape},
        {"DepthToSpace", depthSpace},
        {"SpaceToDepth", depthSpace},
        {"TopK", topK},
        {"GatherElements", gatherElements},
        {"Range", range},
    };
    return table;
}

} // namespace

// Ops that turn weights into weights (a MatMul by a transposed or dequantized initializer is a
// fully connected layer, as by the initializer itself).
bool keepsWeights(const std::string& op)
{
    static const std::set<std::string> ops{"Identity", "Cast", "DequantizeLinear", "QuantizeLinear", "Transpose",
                                           "Reshape", "Squeeze", "Unsqueeze", "Flatten"};
    return ops.count(op) > 0;
}

std::vector<Value> inferShapeOp(const OnnxNode& n, const OpInputs& in)
{
    const std::string& op = n.opType;
    std::vector<Value> out;
    if (passThroughOps().count(op)) out = one(known(in.at(0).shape));
    else if (broadcastOps().count(op)) out = elementwise(n, in);
    else if (op.rfind("Reduce", 0) == 0) out = reduce(n, in);
    else if (const auto rule = rules().find(op); rule != rules().end()) out = rule->second(n, in);
    else failShape("op '" + op + "' is not supported by the ONNX import");
    if (out.size() == 1 && keepsWeights(op) && in.present(0) && in.at(0).initializer) out[0].initializer = true;
    return out;
}

} // namespace nestor::onnximport
