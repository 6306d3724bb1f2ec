#pragma once
// A minimal protobuf ENCODER for ONNX models, written for the tests from the field numbers of
// onnx/onnx.proto, independently of the reader under test (engine/io/OnnxProtobuf.cpp).
// Initializers carry dims only (no weights): the importer needs nothing else.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace onnxenc {

using Bytes = std::string;

inline void varint(Bytes& b, std::uint64_t v)
{
    while (v >= 0x80) {
        b += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    b += static_cast<char>(v);
}
inline void tag(Bytes& b, int field, int wire) { varint(b, (static_cast<std::uint64_t>(field) << 3) | static_cast<unsigned>(wire)); }
inline void intField(Bytes& b, int field, std::int64_t v) { tag(b, field, 0); varint(b, static_cast<std::uint64_t>(v)); }
inline void bytesField(Bytes& b, int field, const Bytes& payload)
{
    tag(b, field, 2);
    varint(b, payload.size());
    b += payload;
}

// TensorProto: dims = 1, data_type = 2, int64_data = 7 (packed), name = 8.
inline Bytes tensor(const std::string& name, const std::vector<std::int64_t>& dims, int dataType = 1,
                    const std::vector<std::int64_t>& int64s = {})
{
    Bytes t;
    for (auto d : dims) intField(t, 1, d);
    intField(t, 2, dataType);
    if (!int64s.empty()) {
        Bytes packed;
        for (auto v : int64s) varint(packed, static_cast<std::uint64_t>(v));
        bytesField(t, 7, packed);
    }
    bytesField(t, 8, name);
    return t;
}

inline void fixed32(Bytes& b, float v)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    for (int i = 0; i < 4; ++i) b += static_cast<char>((bits >> (8 * i)) & 0xff);
}

// A FLOAT tensor with contents: float_data = 4 (packed), or raw_data = 9 as numpy_helper writes it.
inline Bytes floatTensor(const std::string& name, const std::vector<std::int64_t>& dims, const std::vector<float>& values,
                         bool raw)
{
    Bytes t;
    for (auto d : dims) intField(t, 1, d);
    intField(t, 2, 1);
    Bytes data;
    for (auto v : values) fixed32(data, v);
    bytesField(t, raw ? 9 : 4, data);
    bytesField(t, 8, name);
    return t;
}

// AttributeProto: name = 1, i = 3, s = 4, t = 5, ints = 8, type = 20 (INT 2, STRING 3, TENSOR 4, INTS 7).
inline Bytes attrInt(const std::string& name, std::int64_t v)
{
    Bytes a;
    bytesField(a, 1, name);
    intField(a, 3, v);
    intField(a, 20, 2);
    return a;
}
inline Bytes attrInts(const std::string& name, const std::vector<std::int64_t>& v)
{
    Bytes a;
    bytesField(a, 1, name);
    for (auto x : v) intField(a, 8, x);  // unpacked, as onnx's Python helper writes them
    intField(a, 20, 7);
    return a;
}
inline Bytes attrFloats(const std::string& name, const std::vector<float>& v)
{
    Bytes a;
    bytesField(a, 1, name);
    for (auto x : v) {  // floats = 7, unpacked 32-bit values; type FLOATS = 6
        tag(a, 7, 5);
        fixed32(a, x);
    }
    intField(a, 20, 6);
    return a;
}
inline Bytes attrString(const std::string& name, const std::string& v)
{
    Bytes a;
    bytesField(a, 1, name);
    bytesField(a, 4, v);
    intField(a, 20, 3);
    return a;
}
inline Bytes attrTensor(const std::string& name, const Bytes& t)
{
    Bytes a;
    bytesField(a, 1, name);
    bytesField(a, 5, t);
    intField(a, 20, 4);
    return a;
}

// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5.
inline Bytes node(const std::string& op, const std::string& name, const std::vector<std::string>& in,
                  const std::vector<std::string>& out, const std::vector<Bytes>& attrs = {})
{
    Bytes n;
    for (const auto& s : in) bytesField(n, 1, s);
    for (const auto& s : out) bytesField(n, 2, s);
    if (!name.empty()) bytesField(n, 3, name);
    bytesField(n, 4, op);
    for (const auto& a : attrs) bytesField(n, 5, a);
    return n;
}

// ValueInfoProto{name = 1, type = 2}; TypeProto.tensor_type = 1; Tensor{elem_type = 1, shape = 2};
// TensorShapeProto.dim = 1; Dimension{dim_value = 1, dim_param = 2}. A negative dim here is
// written as dim_param "N" (symbolic) when `symbolic`, else as the value.
struct Dim {
    std::int64_t value = 0;
    std::string param;
};
inline Bytes valueInfo(const std::string& name, const std::vector<Dim>& dims)
{
    Bytes shape;
    for (const auto& d : dims) {
        Bytes dim;
        if (d.param.empty()) intField(dim, 1, d.value);
        else bytesField(dim, 2, d.param);
        bytesField(shape, 1, dim);
    }
    Bytes tensorType;
    intField(tensorType, 1, 1);
    bytesField(tensorType, 2, shape);
    Bytes type;
    bytesField(type, 1, tensorType);
    Bytes v;
    bytesField(v, 1, name);
    bytesField(v, 2, type);
    return v;
}
inline std::vector<Dim> dims(const std::vector<std::int64_t>& v)
{
    std::vector<Dim> d;
    for (auto x : v) d.push_back({x, {}});
    return d;
}

// GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12, value_info = 13.
struct Graph {
    std::vector<Bytes> nodes, initializers, inputs, outputs, valueInfos;
    std::string name = "test";
    Bytes encode() const
    {
        Bytes g;
        for (const auto& n : nodes) bytesField(g, 1, n);
        bytesField(g, 2, name);
        for (const auto& t : initializers) bytesField(g, 5, t);
        for (const auto& i : inputs) bytesField(g, 11, i);
        for (const auto& o : outputs) bytesField(g, 12, o);
        for (const auto& v : valueInfos) bytesField(g, 13, v);
        return g;
    }
    // ModelProto: ir_version = 1, producer_name = 2, graph = 7.
    Bytes model() const
    {
        Bytes m;
        intField(m, 1, 7);
        bytesField(m, 2, "nestor-tests");
        bytesField(m, 7, encode());
        return m;
    }
    void weight(const std::string& name, const std::vector<std::int64_t>& d) { initializers.push_back(tensor(name, d)); }
    void input(const std::string& name, const std::vector<std::int64_t>& d) { inputs.push_back(valueInfo(name, dims(d))); }
};

} // namespace onnxenc
