#pragma once
// A bounds-checked reader of the protobuf wire format, and the parts of an ONNX model
// (onnx/onnx.proto) that the importer needs. No protobuf library: the file is untrusted input,
// every length is checked against the buffer before it is used, and weights (raw_data of the
// initializers, often hundreds of MB) are skipped in place: only their dims are kept.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

// One field of a message as it sits in the buffer.
struct ProtoField {
    std::uint32_t number = 0;
    int wireType = 0;            // 0 varint, 1 64-bit, 2 length-delimited, 5 32-bit
    std::uint64_t value = 0;     // varint, 64-bit and 32-bit fields
    const std::uint8_t* data = nullptr;  // length-delimited: payload (points into the buffer)
    std::size_t size = 0;
    std::size_t offset = 0;      // byte offset of the field's tag in the whole file
};

// Walks the fields of one message in [data, data + size). `base` is the offset of `data` in the
// file and `context` names the message ("ModelProto.graph.node[3]") in error messages.
class ProtoReader {
public:
    ProtoReader(const std::uint8_t* data, std::size_t size, std::size_t base, std::string context, std::string file);
    // The next field, or false at the end of the message. Throws NestorError on malformed input.
    bool next(ProtoField& f);
    // Packed or unpacked repeated varints (int64 fields): appends to `out`, at most `limit`.
    void readVarints(const ProtoField& f, std::vector<std::int64_t>& out, std::size_t limit) const;
    // Packed or unpacked repeated fixed-width values (`width` 4: float, 8: double), as their
    // bits: appends to `out`, at most `limit`.
    void readFixed(const ProtoField& f, std::size_t width, std::vector<std::uint64_t>& out, std::size_t limit) const;
    [[noreturn]] void fail(std::size_t offset, const std::string& message) const;
    const std::string& context() const { return context_; }
    // The reader of a length-delimited field's payload, one level deeper.
    ProtoReader sub(const ProtoField& f, const std::string& context) const;

private:
    std::uint64_t varint(std::size_t& pos, const char* what) const;
    const std::uint8_t* data_;
    std::size_t size_, base_, pos_ = 0;
    std::string context_, file_;
};

// What the importer reads of an ONNX model.
struct OnnxTensor {            // TensorProto (initializer or Constant value)
    std::string name;
    std::vector<std::int64_t> dims;
    int dataType = 0;
    bool hasValues = false;    // integer contents read (small INT64/INT32 tensors only)
    std::vector<std::int64_t> values;
    bool hasFloats = false;    // real contents read (small FLOAT/DOUBLE tensors only: Resize scales)
    std::vector<double> floats;
};

struct OnnxDim {
    std::int64_t value = -1;   // -1 when not given
    std::string param;         // symbolic name (dim_param)
};

struct OnnxValueInfo {
    std::string name;
    bool hasShape = false;
    std::vector<OnnxDim> dims;
};

struct OnnxAttribute {
    std::string name;
    int type = 0;
    std::int64_t i = 0;
    float f = 0;
    std::string s;
    std::vector<std::int64_t> ints;
    std::vector<double> floats;
    bool hasTensor = false;
    OnnxTensor t;
};

struct OnnxNode {
    std::string name, opType, domain;
    std::vector<std::string> inputs, outputs;
    std::vector<OnnxAttribute> attributes;
    std::size_t offset = 0;    // byte offset of the node in the file
    const OnnxAttribute* attribute(const std::string& n) const;
};

struct OnnxModel {
    std::string graphName;
    std::vector<OnnxNode> nodes;
    std::vector<OnnxTensor> initializers;
    std::vector<OnnxValueInfo> inputs, outputs, valueInfo;
};

// Element counts up to this are read from INT64/INT32 tensors (shape vectors, axes, pads) and
// FLOAT/DOUBLE ones (scales).
inline constexpr std::size_t kOnnxMaxIntValues = 64;

// Parses an ONNX ModelProto. `file` names the input in errors ("m.onnx: byte 1234:
// ModelProto.graph.node[3].attribute[0]: length 99999 runs past the end of the message").
OnnxModel parseOnnxModel(const std::uint8_t* data, std::size_t size, const std::string& file);
// Reads the whole file and parses it (a file above 4 GiB is refused: protobuf's own limit is 2 GiB).
OnnxModel readOnnxModel(const std::string& path);

} // namespace nestor
