#include "io/OnnxProtobuf.h"

#include "common/Error.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>

namespace nestor {

ProtoReader::ProtoReader(const std::uint8_t* data, std::size_t size, std::size_t base, std::string context, std::string file)
    : data_(data), size_(size), base_(base), context_(std::move(context)), file_(std::move(file))
{
}

void ProtoReader::fail(std::size_t offset, const std::string& message) const
{
    throw NestorError(context_, "byte " + std::to_string(offset) + ": " + message, SourceLocation{file_, 0, 0});
}

std::uint64_t ProtoReader::varint(std::size_t& pos, const char* what) const
{
    const std::size_t start = pos;
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= size_) fail(base_ + start, std::string("truncated varint (") + what + ")");
        const std::uint8_t b = data_[pos++];
        // The tenth byte may carry only the top bit of a 64-bit value.
        if (shift == 63 && (b & 0x7e) != 0) fail(base_ + start, std::string("varint longer than 64 bits (") + what + ")");
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if ((b & 0x80) == 0) return v;
    }
    fail(base_ + start, std::string("varint longer than 10 bytes (") + what + ")");
}

bool ProtoReader::next(ProtoField& f)
{
    if (pos_ >= size_) return false;
    f = ProtoField{};
    f.offset = base_ + pos_;
    const std::uint64_t tag = varint(pos_, "field tag");
    f.number = static_cast<std::uint32_t>(tag >> 3);
    f.wireType = static_cast<int>(tag & 7);
    if (tag >> 3 == 0 || tag >> 3 > 0x1fffffff) fail(f.offset, "invalid field number " + std::to_string(tag >> 3));
    const auto need = [&](std::size_t n, const std::string& what) {
        if (size_ - pos_ < n)
            fail(f.offset, what + " of field " + std::to_string(f.number) + " needs " + std::to_string(n) + " bytes, " +
                               std::to_string(size_ - pos_) + " left in the message");
    };
    switch (f.wireType) {
    case 0: f.value = varint(pos_, "field value"); break;
    case 1:
    case 5: {
        const std::size_t n = f.wireType == 1 ? 8 : 4;
        need(n, n == 8 ? "64-bit value" : "32-bit value");
        for (std::size_t i = 0; i < n; ++i) f.value |= static_cast<std::uint64_t>(data_[pos_ + i]) << (8 * i);
        pos_ += n;
        break;
    }
    case 2: {
        const std::uint64_t len = varint(pos_, "length");
        if (len > size_ - pos_)
            fail(f.offset, "length " + std::to_string(len) + " of field " + std::to_string(f.number) +
                               " runs past the end of the message (" + std::to_string(size_ - pos_) + " bytes left)");
        f.data = data_ + pos_;
        f.size = static_cast<std::size_t>(len);
        pos_ += f.size;
        break;
    }
    default:
        fail(f.offset, "unsupported wire type " + std::to_string(f.wireType) + " of field " + std::to_string(f.number) +
                           " (groups or corrupt data)");
    }
    return true;
}

void ProtoReader::readVarints(const ProtoField& f, std::vector<std::int64_t>& out, std::size_t limit) const
{
    auto push = [&](std::uint64_t v) {
        if (out.size() >= limit) fail(f.offset, "more than " + std::to_string(limit) + " integers in field " + std::to_string(f.number));
        out.push_back(static_cast<std::int64_t>(v));
    };
    if (f.wireType == 0) {
        push(f.value);
        return;
    }
    if (f.wireType != 2) fail(f.offset, "field " + std::to_string(f.number) + " should hold integers");
    ProtoReader packed(f.data, f.size, base_ + static_cast<std::size_t>(f.data - data_), context_, file_);
    while (packed.pos_ < packed.size_) push(packed.varint(packed.pos_, "packed integer"));
}

void ProtoReader::readFixed(const ProtoField& f, std::size_t width, std::vector<std::uint64_t>& out, std::size_t limit) const
{
    auto push = [&](std::uint64_t v) {
        if (out.size() >= limit) fail(f.offset, "more than " + std::to_string(limit) + " values in field " + std::to_string(f.number));
        out.push_back(v);
    };
    if (f.wireType == (width == 8 ? 1 : 5)) {
        push(f.value);
        return;
    }
    if (f.wireType != 2 || f.size % width != 0)
        fail(f.offset, "field " + std::to_string(f.number) + " should hold " + std::to_string(width * 8) + "-bit values");
    for (std::size_t at = 0; at < f.size; at += width) {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(f.data[at + i]) << (8 * i);
        push(v);
    }
}

ProtoReader ProtoReader::sub(const ProtoField& f, const std::string& context) const
{
    if (f.wireType != 2) fail(f.offset, "field " + std::to_string(f.number) + " should be a message (" + context + ")");
    return ProtoReader(f.data, f.size, base_ + static_cast<std::size_t>(f.data - data_), context, file_);
}

const OnnxAttribute* OnnxNode::attribute(const std::string& n) const
{
    for (const auto& a : attributes)
        if (a.name == n) return &a;
    return nullptr;
}

namespace {

// Field numbers from onnx/onnx.proto.
namespace field {
constexpr std::uint32_t kModelGraph = 7;
constexpr std::uint32_t kGraphNode = 1, kGraphName = 2, kGraphInitializer = 5, kGraphInput = 11, kGraphOutput = 12,
                        kGraphValueInfo = 13;
constexpr std::uint32_t kNodeInput = 1, kNodeOutput = 2, kNodeName = 3, kNodeOpType = 4, kNodeAttribute = 5, kNodeDomain = 7;
constexpr std::uint32_t kAttrName = 1, kAttrF = 2, kAttrI = 3, kAttrS = 4, kAttrT = 5, kAttrFloats = 7, kAttrInts = 8,
                        kAttrType = 20;
constexpr std::uint32_t kTensorDims = 1, kTensorDataType = 2, kTensorFloatData = 4, kTensorInt32Data = 5, kTensorInt64Data = 7,
                        kTensorName = 8, kTensorRawData = 9, kTensorDoubleData = 10;
constexpr std::uint32_t kValueInfoName = 1, kValueInfoType = 2;
constexpr std::uint32_t kTypeTensorType = 1;
constexpr std::uint32_t kTypeTensorShape = 2;
constexpr std::uint32_t kShapeDim = 1;
constexpr std::uint32_t kDimValue = 1, kDimParam = 2;
} // namespace field

constexpr int kFloat = 1, kInt32 = 6, kInt64 = 7, kDouble = 11;

double fromBits(std::uint64_t bits, std::size_t width)
{
    if (width == 8) {
        double d = 0;
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }
    const auto b32 = static_cast<std::uint32_t>(bits);
    float f = 0;
    static_assert(sizeof(float) == sizeof(b32));
    std::memcpy(&f, &b32, sizeof f);
    return f;
}

// A FLOAT or DOUBLE tensor's contents when it holds at most kOnnxMaxIntValues of them.
void readFloats(const ProtoReader& r, OnnxTensor& t, const std::vector<ProtoField>& data, const ProtoField* raw)
{
    const std::size_t width = t.dataType == kDouble ? 8 : 4;
    if (data.empty() && raw && raw->size / width > kOnnxMaxIntValues) return;  // weights
    std::vector<std::uint64_t> bits;
    try {
        if (!data.empty())
            for (const auto& f : data) r.readFixed(f, width, bits, kOnnxMaxIntValues);
        else if (raw)
            r.readFixed(*raw, width, bits, kOnnxMaxIntValues);
        else
            return;
    } catch (const NestorError&) {
        return;  // too many for scales: weights, not kept
    }
    for (auto b : bits) t.floats.push_back(fromBits(b, width));
    t.hasFloats = true;
}
constexpr std::size_t kMaxRank = 64;       // dims of one tensor
constexpr std::size_t kMaxStringBytes = 1 << 16;
constexpr std::size_t kMaxNodes = 1 << 22;

std::string text(const ProtoReader& r, const ProtoField& f, const char* what)
{
    if (f.wireType != 2) r.fail(f.offset, std::string(what) + " should be a string");
    if (f.size > kMaxStringBytes) r.fail(f.offset, std::string(what) + " is longer than " + std::to_string(kMaxStringBytes) + " bytes");
    return std::string(reinterpret_cast<const char*>(f.data), f.size);
}

std::int64_t integer(const ProtoReader& r, const ProtoField& f, const char* what)
{
    if (f.wireType != 0) r.fail(f.offset, std::string(what) + " should be an integer (varint)");
    return static_cast<std::int64_t>(f.value);
}

// Contents whose count differs from the dims' product (a malformed file) are not trusted: only
// the shape is kept, so no rule indexes past them.
void dropContentsUnlikeDims(OnnxTensor& t)
{
    std::size_t count = 1;
    for (auto d : t.dims) {
        if (d < 0 || d > std::int64_t(kOnnxMaxIntValues)) {
            count = kOnnxMaxIntValues + 1;
            break;
        }
        count *= std::size_t(d);
        if (count > kOnnxMaxIntValues) break;
    }
    if (t.hasValues && t.values.size() != count) {
        t.hasValues = false;
        t.values.clear();
    }
    if (t.hasFloats && t.floats.size() != count) {
        t.hasFloats = false;
        t.floats.clear();
    }
}

OnnxTensor readTensor(ProtoReader r)
{
    OnnxTensor t;
    ProtoField f;
    ProtoField raw;
    bool hasRaw = false;
    std::vector<std::int64_t> ints;
    bool hasInts = false;
    std::vector<ProtoField> realData;  // float_data / double_data fields
    while (r.next(f)) {
        switch (f.number) {
        case field::kTensorFloatData:
        case field::kTensorDoubleData:
            if (realData.size() < kOnnxMaxIntValues) realData.push_back(f);
            break;
        case field::kTensorDims: r.readVarints(f, t.dims, kMaxRank); break;
        case field::kTensorDataType: t.dataType = static_cast<int>(integer(r, f, "data_type")); break;
        case field::kTensorName: t.name = text(r, f, "name"); break;
        case field::kTensorInt64Data:
        case field::kTensorInt32Data:
            // Large integer tensors are not shapes: stop collecting, keep reading past them.
            if (!hasInts || ints.size() <= kOnnxMaxIntValues) {
                hasInts = true;
                std::vector<std::int64_t> more;
                try {
                    r.readVarints(f, more, kOnnxMaxIntValues + 1);
                } catch (const NestorError&) {
                    if (f.wireType != 2) throw;
                    more.assign(kOnnxMaxIntValues + 1, 0);  // too many for a shape: not kept
                }
                if (f.number == field::kTensorInt32Data)
                    for (auto& v : more) v = static_cast<std::int32_t>(v);
                ints.insert(ints.end(), more.begin(), more.end());
            }
            break;
        case field::kTensorRawData:
            if (f.wireType != 2) r.fail(f.offset, "raw_data should be bytes");
            raw = f;
            hasRaw = true;
            break;
        default: break;
        }
    }
    if (t.dataType == kFloat || t.dataType == kDouble) readFloats(r, t, realData, hasRaw ? &raw : nullptr);
    if (t.dataType != kInt64 && t.dataType != kInt32) {
        dropContentsUnlikeDims(t);
        return t;
    }
    if (hasInts && ints.size() <= kOnnxMaxIntValues) {
        t.values = std::move(ints);
        t.hasValues = true;
    } else if (hasRaw) {
        const std::size_t width = t.dataType == kInt64 ? 8 : 4;
        if (raw.size % width != 0) r.fail(raw.offset, "raw_data of " + std::to_string(raw.size) + " bytes is not a whole number of elements");
        if (raw.size / width <= kOnnxMaxIntValues) {
            for (std::size_t at = 0; at < raw.size; at += width) {
                std::uint64_t v = 0;
                for (std::size_t i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(raw.data[at + i]) << (8 * i);
                t.values.push_back(width == 8 ? static_cast<std::int64_t>(v) : static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
            }
            t.hasValues = true;
        }
    }
    dropContentsUnlikeDims(t);
    return t;
}

OnnxValueInfo readValueInfo(ProtoReader r)
{
    OnnxValueInfo v;
    ProtoField f;
    while (r.next(f)) {
        if (f.number == field::kValueInfoName) v.name = text(r, f, "name");
        if (f.number != field::kValueInfoType) continue;
        ProtoReader type = r.sub(f, r.context() + ".type");
        ProtoField tf;
        while (type.next(tf)) {
            if (tf.number != field::kTypeTensorType) continue;  // sequences and maps carry no shape we use
            ProtoReader tensor = type.sub(tf, type.context() + ".tensor_type");
            ProtoField sf;
            while (tensor.next(sf)) {
                if (sf.number != field::kTypeTensorShape) continue;
                v.hasShape = true;
                v.dims.clear();
                ProtoReader shape = tensor.sub(sf, tensor.context() + ".shape");
                ProtoField df;
                while (shape.next(df)) {
                    if (df.number != field::kShapeDim) continue;
                    if (v.dims.size() >= kMaxRank) shape.fail(df.offset, "more than " + std::to_string(kMaxRank) + " dimensions");
                    ProtoReader dim = shape.sub(df, shape.context() + ".dim[" + std::to_string(v.dims.size()) + "]");
                    OnnxDim d;
                    ProtoField xf;
                    while (dim.next(xf)) {
                        if (xf.number == field::kDimValue) d.value = integer(dim, xf, "dim_value");
                        else if (xf.number == field::kDimParam) d.param = text(dim, xf, "dim_param");
                    }
                    v.dims.push_back(std::move(d));
                }
            }
        }
    }
    return v;
}

OnnxAttribute readAttribute(ProtoReader r)
{
    OnnxAttribute a;
    ProtoField f;
    while (r.next(f)) {
        switch (f.number) {
        case field::kAttrName: a.name = text(r, f, "name"); break;
        case field::kAttrType: a.type = static_cast<int>(integer(r, f, "type")); break;
        case field::kAttrI: a.i = integer(r, f, "i"); break;
        case field::kAttrF: {
            if (f.wireType != 5) r.fail(f.offset, "f should be a 32-bit float");
            const auto bits = static_cast<std::uint32_t>(f.value);
            static_assert(sizeof(float) == sizeof(bits));
            std::memcpy(&a.f, &bits, sizeof bits);
            break;
        }
        case field::kAttrS: a.s = text(r, f, "s"); break;
        case field::kAttrInts: r.readVarints(f, a.ints, 4096); break;
        case field::kAttrFloats: {
            std::vector<std::uint64_t> bits;
            r.readFixed(f, 4, bits, 4096 - a.floats.size());
            for (auto b : bits) a.floats.push_back(fromBits(b, 4));
            break;
        }
        case field::kAttrT:
            a.t = readTensor(r.sub(f, r.context() + ".t"));
            a.hasTensor = true;
            break;
        default: break;  // graphs (If/Loop bodies), strings: not needed
        }
    }
    return a;
}

OnnxNode readNode(ProtoReader r, std::size_t offset)
{
    OnnxNode n;
    n.offset = offset;
    ProtoField f;
    while (r.next(f)) {
        switch (f.number) {
        case field::kNodeInput: n.inputs.push_back(text(r, f, "input")); break;
        case field::kNodeOutput: n.outputs.push_back(text(r, f, "output")); break;
        case field::kNodeName: n.name = text(r, f, "name"); break;
        case field::kNodeOpType: n.opType = text(r, f, "op_type"); break;
        case field::kNodeDomain: n.domain = text(r, f, "domain"); break;
        case field::kNodeAttribute:
            if (n.attributes.size() >= 1024) r.fail(f.offset, "more than 1024 attributes");
            n.attributes.push_back(readAttribute(r.sub(f, r.context() + ".attribute[" + std::to_string(n.attributes.size()) + "]")));
            break;
        default: break;
        }
    }
    return n;
}

void readGraph(ProtoReader r, OnnxModel& m)
{
    ProtoField f;
    while (r.next(f)) {
        switch (f.number) {
        case field::kGraphName: m.graphName = text(r, f, "name"); break;
        case field::kGraphNode:
            if (m.nodes.size() >= kMaxNodes) r.fail(f.offset, "more than " + std::to_string(kMaxNodes) + " nodes");
            m.nodes.push_back(readNode(r.sub(f, "ModelProto.graph.node[" + std::to_string(m.nodes.size()) + "]"), f.offset));
            break;
        case field::kGraphInitializer:
            if (m.initializers.size() >= kMaxNodes) r.fail(f.offset, "more than " + std::to_string(kMaxNodes) + " initializers");
            m.initializers.push_back(readTensor(r.sub(f, "ModelProto.graph.initializer[" + std::to_string(m.initializers.size()) + "]")));
            break;
        case field::kGraphInput:
            m.inputs.push_back(readValueInfo(r.sub(f, "ModelProto.graph.input[" + std::to_string(m.inputs.size()) + "]")));
            break;
        case field::kGraphOutput:
            m.outputs.push_back(readValueInfo(r.sub(f, "ModelProto.graph.output[" + std::to_string(m.outputs.size()) + "]")));
            break;
        case field::kGraphValueInfo:
            if (m.valueInfo.size() >= kMaxNodes) r.fail(f.offset, "more than " + std::to_string(kMaxNodes) + " value_info entries");
            m.valueInfo.push_back(readValueInfo(r.sub(f, "ModelProto.graph.value_info[" + std::to_string(m.valueInfo.size()) + "]")));
            break;
        default: break;
        }
    }
}

} // namespace

OnnxModel parseOnnxModel(const std::uint8_t* data, std::size_t size, const std::string& file)
{
    ProtoReader r(data, size, 0, "ModelProto", file);
    OnnxModel m;
    bool hasGraph = false;
    ProtoField f;
    try {
        while (r.next(f)) {
            if (f.number != field::kModelGraph) continue;
            if (f.wireType != 2) r.fail(f.offset, "field 7 (graph) should be a message: not an ONNX model");
            readGraph(r.sub(f, "ModelProto.graph"), m);
            hasGraph = true;
        }
    } catch (const NestorError& e) {
        // Broken before any graph was found: most likely not an ONNX file at all (text, YAML).
        if (hasGraph || e.diagnostics().size() != 1 || e.diagnostics()[0].field != "ModelProto") throw;
        Diagnostic d = e.diagnostics()[0];
        d.message += " (is this an ONNX model file?)";
        throw NestorError(Diagnostics{d});
    }
    if (!hasGraph) throw NestorError("ModelProto", "no graph (field 7): not an ONNX model", SourceLocation{file, 0, 0});
    return m;
}

OnnxModel readOnnxModel(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw NestorError("", std::filesystem::is_directory(path, ec) ? "is a directory, not an ONNX file" : "no such file",
                          SourceLocation{path, 0, 0});
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw NestorError("", "cannot open ONNX file", SourceLocation{path, 0, 0});
    const std::streamoff size = in.tellg();
    if (size < 0) throw NestorError("", "cannot read ONNX file (not a regular file?)", SourceLocation{path, 0, 0});
    if (static_cast<std::uint64_t>(size) > (std::uint64_t{1} << 32))
        throw NestorError("", "file of " + std::to_string(size) + " bytes is larger than 4 GiB", SourceLocation{path, 0, 0});
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    in.seekg(0);
    if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size))
        throw NestorError("", "cannot read ONNX file", SourceLocation{path, 0, 0});
    return parseOnnxModel(bytes.data(), bytes.size(), path);
}

} // namespace nestor
