#pragma once
// Shape inference for the ONNX import (io/OnnxImport.h): what is known of a tensor, the helpers
// the op rules share, and the rules of the ops that carry no MACs (OnnxShapeOps.cpp). Internal
// to engine/io.
#include "io/OnnxProtobuf.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nestor::onnximport {

using Shape = std::vector<std::int64_t>;
inline constexpr std::int64_t kMaxDim = (std::int64_t{1} << 31) - 1;

// What is known of one tensor of the graph.
struct Value {
    bool known = false;
    Shape shape;
    bool constant = false;                // integer contents known (shape vectors, axes)
    std::vector<std::int64_t> values;
    bool real = false;                    // real contents known (Resize / Upsample scales)
    std::vector<double> reals;
    bool initializer = false;             // weights: a MatMul/Gemm operand that is one is an fc
    std::string unknownReason;            // why the shape is not known (names the node)
};

// Thrown by an op's shape rule; the caller turns it into an unknown shape (off the MAC path)
// or an error (on it).
struct ShapeFailure {
    std::string message;
};

[[noreturn]] void failShape(const std::string& message);
std::string shapeText(const Shape& s);
// The product of s[from, to); fails at 2^62 elements.
std::int64_t product(const Shape& s, std::size_t from = 0, std::size_t to = SIZE_MAX);
std::int64_t attrInt(const OnnxNode& n, const std::string& name, std::int64_t def);
std::optional<std::vector<std::int64_t>> attrInts(const OnnxNode& n, const std::string& name);
// An axis in [-rank, rank) (with `insert`, [-rank - 1, rank]) made non-negative.
std::int64_t normAxis(std::int64_t axis, std::size_t rank, bool insert = false);
Value known(Shape s);
Value knownConstant(std::vector<std::int64_t> values);  // a 1-D integer tensor

// One spatial dimension of a convolution or pooling window.
struct Window {
    std::int64_t in, kernel, stride, dilation, padBegin, padEnd;
};
std::int64_t windowOutput(const Window& w, const std::string& autoPad, bool ceilMode);

// The window parameters of a Conv/Pool node with `spatial` spatial dims.
struct WindowAttrs {
    Shape kernel, strides, dilations, pads;
    std::string autoPad;
};
WindowAttrs windowAttrs(const OnnxNode& n, std::size_t spatial, const Shape* kernelFromWeights);

// The inputs of one node as the importer knows them: absent inputs are null.
class OpInputs {
public:
    OpInputs(std::vector<std::string> names, std::vector<const Value*> values)
        : names_(std::move(names)), values_(std::move(values))
    {
    }
    std::size_t size() const { return values_.size(); }
    bool present(std::size_t k) const { return k < values_.size() && values_[k]; }
    // The k-th input, which must be present and have a known shape (else ShapeFailure).
    const Value& at(std::size_t k) const;
    // Null when absent; ShapeFailure when present with an unknown shape.
    const Value* optional(std::size_t k) const { return present(k) ? &at(k) : nullptr; }

private:
    std::vector<std::string> names_;
    std::vector<const Value*> values_;
};

// The outputs of a node without MACs, in order (fewer than the node has: the rest are unknown).
// Throws ShapeFailure when the op is not supported or its shape cannot be inferred.
std::vector<Value> inferShapeOp(const OnnxNode& n, const OpInputs& in);

} // namespace nestor::onnximport
