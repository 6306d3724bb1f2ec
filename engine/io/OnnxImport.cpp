#include "io/OnnxImport.h"

#include "common/CheckedMath.h"
#include "common/Error.h"
#include "io/OnnxShapes.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <unordered_map>

namespace nestor {

namespace {

using namespace onnximport;

std::string sanitize(const std::string& s)
{
    std::string r;
    for (char c : s) r += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
    while (!r.empty() && (r.front() == '_' || r.front() == '.' || r.front() == '-')) r.erase(r.begin());
    while (!r.empty() && (r.back() == '_' || r.back() == '.')) r.pop_back();
    return r;
}
struct LayerUse {
    ProjectWorkload layer;
    std::int64_t repeat = 1;
};

ProjectWorkload fcLayer(const std::string& name, std::int64_t batch, std::int64_t out, std::int64_t in)
{
    ProjectWorkload pw;
    pw.spec.type = "fc";
    pw.spec.fcBatch = batch;
    pw.spec.fcOut = out;
    pw.spec.fcIn = in;
    pw.workload = makeFullyConnected(name, batch, out, in);
    return pw;
}

ProjectWorkload gemmLayer(const std::string& name, std::int64_t m, std::int64_t n, std::int64_t k)
{
    ProjectWorkload pw;
    pw.spec.type = "gemm";
    pw.spec.gemmM = m;
    pw.spec.gemmN = n;
    pw.spec.gemmK = k;
    pw.workload = makeGemm(name, m, n, k);
    return pw;
}

class Importer {
public:
    Importer(const OnnxModel& m, const OnnxImportOptions& o, std::string file) : model_(m), opt_(o), file_(std::move(file)) {}
    OnnxImportResult run();

private:
    [[noreturn]] void nodeError(std::size_t i, const std::string& message) const
    {
        throw NestorError(nodeLabel(i), message, SourceLocation{file_, 0, 0});
    }
    std::string nodeLabel(std::size_t i) const
    {
        const OnnxNode& n = model_.nodes[i];
        return "graph.node[" + std::to_string(i) + "] '" + n.name + "' (" + n.opType + ")";
    }
    void setupInputs();
    std::vector<std::size_t> topologicalOrder() const;
    void infer(std::size_t i);
    OpInputs inputsOf(std::size_t i) const;
    const Value& input(std::size_t i, std::size_t k) const;  // a known input (else ShapeFailure)
    void unknownOutputs(std::size_t i, const std::string& reason);
    void addLayer(std::size_t i, ProjectWorkload pw, std::int64_t repeat);
    // The data and weight inputs' positions differ in the quantized ops (QLinearConv: 0 and 3).
    void conv(std::size_t i, std::size_t dataIn, std::size_t weightIn);
    void convTranspose(std::size_t i);
    void gemm(std::size_t i);
    void matmul(std::size_t i, std::size_t aIn, std::size_t bIn);
    std::string layerName(std::size_t i);

    const OnnxModel& model_;
    OnnxImportOptions opt_;
    std::string file_;
    std::unordered_map<std::string, Value> values_;
    std::set<std::string> initializers_;
    std::vector<LayerUse> layers_;
    std::vector<std::string> warnings_;
    std::set<std::string> usedNames_;
    std::map<std::string, std::vector<std::string>> skipped_;  // op type -> nodes skipped
    std::unordered_map<std::string, const OnnxValueInfo*> declared_;  // value_info / outputs
};

OpInputs Importer::inputsOf(std::size_t i) const
{
    const OnnxNode& n = model_.nodes[i];
    std::vector<const Value*> values;
    for (const auto& name : n.inputs) values.push_back(name.empty() ? nullptr : &values_.at(name));
    return OpInputs(n.inputs, std::move(values));
}

// The `k`-th input, which must have a known shape: a MAC layer cannot be sized otherwise.
const Value& Importer::input(std::size_t i, std::size_t k) const { return inputsOf(i).at(k); }

void Importer::setupInputs()
{
    for (const auto& t : model_.initializers) {
        Value v;
        v.known = true;
        v.shape = t.dims;
        v.initializer = true;
        v.constant = t.hasValues;
        v.values = t.values;
        v.real = t.hasFloats;
        v.reals = t.floats;
        for (auto d : t.dims)
            if (d < 0 || d > kMaxDim)
                throw NestorError("graph.initializer '" + t.name + "'", "dimension " + std::to_string(d) + " is out of range",
                                  SourceLocation{file_, 0, 0});
        values_[t.name] = std::move(v);
        initializers_.insert(t.name);
    }
    std::vector<std::string> symbolic;
    for (const auto& in : model_.inputs) {
        if (initializers_.count(in.name)) continue;  // a weight listed as input (older exporters)
        Value v;
        if (!in.hasShape) {
            v.unknownReason = "graph input '" + in.name + "' has no shape";
        } else {
            v.known = true;
            for (const auto& d : in.dims) {
                if (d.value > kMaxDim || (d.value <= 0 && d.param.empty() && d.value != -1))
                    throw NestorError("graph.input '" + in.name + "'", "dimension " + std::to_string(d.value) + " is out of range (1 .. 2^31-1)",
                                      SourceLocation{file_, 0, 0});
                if (d.value > 0) {
                    v.shape.push_back(d.value);
                } else {
                    v.shape.push_back(opt_.batch);
                    symbolic.push_back(in.name + "[" + std::to_string(v.shape.size() - 1) + "]" + (d.param.empty() ? "" : " '" + d.param + "'"));
                }
            }
        }
        values_[in.name] = std::move(v);
    }
    if (!symbolic.empty()) {
        std::string list;
        for (const auto& s : symbolic) list += (list.empty() ? "" : ", ") + s;
        warnings_.push_back("symbolic input dimensions set to the batch size " + std::to_string(opt_.batch) + ": " + list);
    }
    for (const auto& v : model_.valueInfo) declared_[v.name] = &v;
    for (const auto& v : model_.outputs) declared_[v.name] = &v;
}

std::vector<std::size_t> Importer::topologicalOrder() const
{
    const auto& nodes = model_.nodes;
    std::unordered_map<std::string, std::size_t> producer;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (const auto& o : nodes[i].outputs) {
            if (o.empty()) continue;
            if (values_.count(o)) nodeError(i, "output '" + o + "' is also a graph input or initializer");
            if (!producer.emplace(o, i).second) nodeError(i, "output '" + o + "' is also produced by " + nodeLabel(producer[o]));
        }
    std::vector<std::vector<std::size_t>> users(nodes.size());
    std::vector<std::size_t> pending(nodes.size(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (const auto& in : nodes[i].inputs) {
            if (in.empty() || values_.count(in)) continue;
            auto p = producer.find(in);
            if (p == producer.end()) nodeError(i, "input '" + in + "' is produced by no node, initializer or graph input");
            users[p->second].push_back(i);
            ++pending[i];
        }
    // Kahn's algorithm, lowest index first: the file's order whenever it is already topological.
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (pending[i] == 0) ready.push(i);
    std::vector<std::size_t> order;
    while (!ready.empty()) {
        const std::size_t i = ready.top();
        ready.pop();
        order.push_back(i);
        for (auto u : users[i])
            if (--pending[u] == 0) ready.push(u);
    }
    if (order.size() != nodes.size())
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (pending[i] != 0) nodeError(i, "the graph has a cycle through this node");
    return order;
}

std::string Importer::layerName(std::size_t i)
{
    const OnnxNode& n = model_.nodes[i];
    std::string base = sanitize(n.name);
    if (base.empty()) {
        base = n.opType;
        std::transform(base.begin(), base.end(), base.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        base = sanitize(base) + "_" + std::to_string(i);
    }
    std::string name = base;
    for (int k = 2; usedNames_.count(name); ++k) name = base + "_" + std::to_string(k);
    usedNames_.insert(name);
    return name;
}

void Importer::addLayer(std::size_t i, ProjectWorkload pw, std::int64_t repeat)
{
    layers_.push_back({std::move(pw), repeat});
    (void)i;
}

void Importer::conv(std::size_t i, std::size_t dataIn, std::size_t weightIn)
{
    const OnnxNode& n = model_.nodes[i];
    const Shape x = input(i, dataIn).shape;
    const Shape w = input(i, weightIn).shape;
    if (x.size() != 3 && x.size() != 4) failShape("input " + shapeText(x) + ": only 1-D and 2-D convolutions map to Nestor layers");
    if (w.size() != x.size()) failShape("weights " + shapeText(w) + " do not match input " + shapeText(x));
    const std::size_t spatial = x.size() - 2;
    const Shape kernel(w.begin() + 2, w.end());
    const WindowAttrs a = windowAttrs(n, spatial, &kernel);
    if (a.kernel != kernel) failShape("kernel_shape " + shapeText(a.kernel) + " differs from the weights' " + shapeText(kernel));
    const std::int64_t g = attrInt(n, "group", 1);
    if (g < 1 || g > kMaxDim) failShape("group " + std::to_string(g) + " is out of range");
    const std::int64_t M = w[0], Cg = w[1];
    if (g < 1 || Cg * g != x[1] || M % g != 0)
        failShape("group " + std::to_string(g) + " does not fit input channels " + std::to_string(x[1]) + " and weights " + shapeText(w));
    Shape out{x[0], M};
    std::vector<std::int64_t> o(spatial);
    for (std::size_t d = 0; d < spatial; ++d) {
        o[d] = windowOutput({x[2 + d], a.kernel[d], a.strides[d], a.dilations[d], a.pads[d], a.pads[d + spatial]}, a.autoPad, false);
        out.push_back(o[d]);
    }
    ConvParams c;
    c.name = layerName(i);
    c.N = x[0];
    // A 1-D convolution runs along the horizontal axis (Q, S); P = R = 1.
    c.P = spatial == 2 ? o[0] : 1;
    c.Q = o[spatial - 1];
    c.R = spatial == 2 ? a.kernel[0] : 1;
    c.S = a.kernel[spatial - 1];
    c.strideH = spatial == 2 ? a.strides[0] : 1;
    c.strideW = a.strides[spatial - 1];
    c.dilationH = spatial == 2 ? a.dilations[0] : 1;
    c.dilationW = a.dilations[spatial - 1];
    ProjectWorkload pw;
    if (g == 1) {
        c.M = M;
        c.C = x[1];
        pw.spec.type = "conv";
        pw.spec.conv = c;
        pw.workload = makeConv2d(c);
    } else if (Cg == 1 && M == g) {
        c.C = g;
        pw.spec.type = "depthwise";
        pw.spec.conv = c;
        pw.workload = makeDepthwise(c);
    } else {
        c.M = M / g;
        c.C = Cg;
        c.groups = g;
        pw.spec.type = "grouped";
        pw.spec.conv = c;
        pw.workload = makeConv2d(c);
    }
    addLayer(i, std::move(pw), 1);
    Value& v = values_[n.outputs.at(0)];
    v.known = true;
    v.shape = out;
}

void Importer::convTranspose(std::size_t i)
{
    // A transposed convolution scatters each input point over a window: not the gather loop
    // nest of a Nestor convolution. Its output shape keeps the rest of the graph importable.
    const OnnxNode& n = model_.nodes[i];
    const Shape x = input(i, 0).shape;
    const Shape w = input(i, 1).shape;
    if (x.size() < 3 || w.size() != x.size()) failShape("input " + shapeText(x) + " and weights " + shapeText(w) + " do not match");
    const std::size_t spatial = x.size() - 2;
    const Shape kernel(w.begin() + 2, w.end());
    const WindowAttrs a = windowAttrs(n, spatial, &kernel);
    const std::int64_t g = attrInt(n, "group", 1);
    if (g < 1 || g > kMaxDim) failShape("group " + std::to_string(g) + " is out of range");
    Shape out{x[0], w[1] * g};
    const auto given = attrInts(n, "output_shape");
    const Shape extra = attrInts(n, "output_padding").value_or(Shape(spatial, 0));
    for (auto e : extra)
        if (e < 0 || e > kMaxDim) failShape("output_padding " + std::to_string(e) + " is out of range");
    for (std::size_t d = 0; d < spatial; ++d) {
        std::int64_t o = 0;
        if (given && given->size() >= spatial) o = (*given)[given->size() - spatial + d];
        else if (a.autoPad == "SAME_UPPER" || a.autoPad == "SAME_LOWER") o = x[2 + d] * a.strides[d];
        else
            o = a.strides[d] * (x[2 + d] - 1) + (extra.size() == spatial ? extra[d] : 0) + (a.kernel[d] - 1) * a.dilations[d] + 1 -
                (a.autoPad == "VALID" ? 0 : a.pads[d] + a.pads[d + spatial]);
        if (o < 1 || o > kMaxDim) failShape("output size " + std::to_string(o));
        out.push_back(o);
    }
    warnings_.push_back(nodeLabel(i) + ": ConvTranspose has no exact Nestor layer (it scatters, a Nestor convolution gathers); "
                        "its MACs are not in the network, its output shape " + shapeText(out) + " is");
    Value& v = values_[n.outputs.at(0)];
    v.known = true;
    v.shape = out;
}

void Importer::gemm(std::size_t i)
{
    const OnnxNode& n = model_.nodes[i];
    const Value& A = input(i, 0);
    const Value& B = input(i, 1);
    if (A.shape.size() != 2 || B.shape.size() != 2) failShape("Gemm needs 2-D inputs, got " + shapeText(A.shape) + " and " + shapeText(B.shape));
    const bool ta = attrInt(n, "transA", 0) != 0, tb = attrInt(n, "transB", 0) != 0;
    const std::int64_t M = ta ? A.shape[1] : A.shape[0], K = ta ? A.shape[0] : A.shape[1];
    const std::int64_t N = tb ? B.shape[0] : B.shape[1], Kb = tb ? B.shape[1] : B.shape[0];
    if (K != Kb) failShape("inner dimensions differ: A " + shapeText(A.shape) + (ta ? "^T" : "") + ", B " + shapeText(B.shape) + (tb ? "^T" : ""));
    const std::string name = layerName(i);
    // Weights make a fully connected layer; two activations a GEMM.
    addLayer(i, B.initializer ? fcLayer(name, M, N, K) : gemmLayer(name, M, N, K), 1);
    Value& v = values_[n.outputs.at(0)];
    v.known = true;
    v.shape = {M, N};
}

void Importer::matmul(std::size_t i, std::size_t aIn, std::size_t bIn)
{
    const OnnxNode& n = model_.nodes[i];
    const Value& A = input(i, aIn);
    const Value& B = input(i, bIn);
    Shape a = A.shape, b = B.shape;
    if (a.empty() || b.empty()) failShape("MatMul of a scalar");
    const bool vecA = a.size() == 1, vecB = b.size() == 1;
    if (vecA) a.insert(a.begin(), 1);
    if (vecB) b.push_back(1);
    const std::int64_t M = a[a.size() - 2], K = a.back(), Kb = b[b.size() - 2], N = b.back();
    if (K != Kb) failShape("inner dimensions differ: " + shapeText(A.shape) + " x " + shapeText(B.shape));
    // Batch dimensions broadcast like numpy.
    const std::size_t ra = a.size() - 2, rb = b.size() - 2, rank = std::max(ra, rb);
    Shape batch(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        const std::int64_t da = d + ra >= rank ? a[d + ra - rank] : 1, db = d + rb >= rank ? b[d + rb - rank] : 1;
        if (da != db && da != 1 && db != 1) failShape("batch dimensions do not broadcast: " + shapeText(A.shape) + " x " + shapeText(B.shape));
        batch[d] = std::max(da, db);
    }
    const std::int64_t batches = product(batch);
    Shape out = batch;
    if (!vecA) out.push_back(M);
    if (!vecB) out.push_back(N);
    ProjectWorkload pw;
    const std::string name = layerName(i);
    std::int64_t repeat = 1;
    if (B.initializer && rb == 0) {
        // Shared weights: every batch row goes through the same matrix, one fc layer.
        std::int64_t rows = 0;
        if (!checkedMul(batches, M, &rows) || rows > kMaxDim * kMaxDim) failShape("too many rows");
        pw = fcLayer(name, rows, N, K);
    } else {
        // Independent matrices per batch index (attention): one GEMM repeated `batches` times.
        pw = gemmLayer(name, M, N, K);
        repeat = batches;
    }
    addLayer(i, std::move(pw), repeat);
    Value& v = values_[n.outputs.at(0)];
    v.known = true;
    v.shape = out;
}

void Importer::infer(std::size_t i)
{
    const OnnxNode& n = model_.nodes[i];
    const std::string& op = n.opType;
    // Quantized models (QLinear*, *Integer) have the same loop nests as their float forms.
    const bool convOp = op == "Conv" || op == "ConvInteger" || op == "QLinearConv";
    const bool matmulOp = op == "MatMul" || op == "MatMulInteger" || op == "QLinearMatMul";
    const bool macOp = convOp || matmulOp || op == "Gemm";
    const std::size_t secondIn = op.rfind("QLinear", 0) == 0 ? 3 : 1;  // after x, x_scale, x_zero_point
    if (n.outputs.empty()) return;
    try {
        if (!n.domain.empty() && n.domain != "ai.onnx") failShape("op of domain '" + n.domain + "' is not supported");
        std::vector<Value> results;  // the MAC ops' builders set their output themselves
        if (convOp) conv(i, 0, secondIn);
        else if (op == "Gemm") gemm(i);
        else if (matmulOp) matmul(i, 0, secondIn);
        else if (op == "ConvTranspose") convTranspose(i);
        else results = inferShapeOp(n, inputsOf(i));
        for (std::size_t k = 0; k < results.size() && k < n.outputs.size(); ++k)
            if (!n.outputs[k].empty()) values_[n.outputs[k]] = std::move(results[k]);
        for (const auto& name : n.outputs)
            if (!name.empty() && values_[name].known)
                for (auto d : values_[name].shape)
                    if (d < 1 || d > kMaxDim)
                        failShape("output shape " + shapeText(values_[name].shape) + " has a dimension out of range (1 .. 2^31-1)");
    } catch (const NestorError& e) {
        // A layer builder's own check (size limits): place it at the node.
        nodeError(i, e.what());
    } catch (const ShapeFailure& f) {
        if (macOp) nodeError(i, f.message);
        unknownOutputs(i, f.message);
        return;
    }
    // Outputs no rule gives (Dropout's mask, MaxPool's indices, BatchNormalization's running
    // statistics) feed no layer in an inference graph.
    for (std::size_t k = 0; k < n.outputs.size(); ++k) {
        Value& v = values_[n.outputs[k]];
        if (!n.outputs[k].empty() && !v.known && v.unknownReason.empty())
            v.unknownReason = nodeLabel(i) + ": output " + std::to_string(k) + " is not inferred";
    }
}

// Off the MAC path a shape we cannot infer may not matter: keep the reason, fail only if a layer
// needs it. A shape the file declares (value_info, often written by ONNX's own shape inference)
// stands in for one we cannot infer.
void Importer::unknownOutputs(std::size_t i, const std::string& reason)
{
    const OnnxNode& n = model_.nodes[i];
    bool skipped = false;
    for (const auto& name : n.outputs) {
        if (name.empty()) continue;
        Value v;
        auto declared = declared_.find(name);
        if (declared != declared_.end() && declared->second->hasShape) {
            v.known = true;
            for (const auto& d : declared->second->dims)
                if (d.value >= 1 && d.value <= kMaxDim) v.shape.push_back(d.value);
                else v.known = false;
        }
        if (v.known) {
            warnings_.push_back(nodeLabel(i) + ": " + reason + "; using the shape " + shapeText(v.shape) + " of '" + name +
                                "' declared in the file");
        } else {
            v = Value{};
            v.unknownReason = nodeLabel(i) + ": " + reason;
            skipped = true;
        }
        values_[name] = std::move(v);
    }
    if (skipped) skipped_[n.opType].push_back(nodeLabel(i));
}

OnnxImportResult Importer::run()
{
    if (opt_.batch < 1 || opt_.batch > kMaxDim) throw NestorError("batch", "must be between 1 and 2^31-1", SourceLocation{file_, 0, 0});
    setupInputs();
    for (auto i : topologicalOrder()) infer(i);

    OnnxImportResult r;
    r.network.name = opt_.networkName;
    for (auto& use : layers_) {
        const Workload& w = use.layer.workload;
        std::string ref = w.name;
        bool merged = false;
        for (const auto& existing : r.workloads)
            if (existing.workload.sameShape(w)) {
                ref = existing.workload.name;
                merged = true;
                break;
            }
        if (!merged) r.workloads.push_back(use.layer);
        if (!r.network.layers.empty() && r.network.layers.back().first == ref) r.network.layers.back().second += use.repeat;
        else r.network.layers.emplace_back(ref, use.repeat);
        r.layerCount += use.repeat;
        r.totalMacs = limitedAdd(r.totalMacs, limitedMul(w.macs(), use.repeat));
    }
    if (r.totalMacs >= kCountLimit) throw NestorError("network", "the network has 2^62 or more MACs", SourceLocation{file_, 0, 0});
    if (r.workloads.empty())
        throw NestorError("graph", "no Conv, Gemm or MatMul node: nothing to import as layers", SourceLocation{file_, 0, 0});
    for (const auto& [op, nodes] : skipped_)
        warnings_.push_back("skipped " + std::to_string(nodes.size()) + " node(s) of op " + op + " not on the path to any layer (first: " +
                            nodes.front() + ")");
    r.warnings = std::move(warnings_);
    return r;
}

} // namespace

std::string OnnxImportResult::summary() const
{
    char macs[32];
    std::snprintf(macs, sizeof macs, "%.3g", static_cast<double>(totalMacs));
    return "imported network " + network.name + ": " + std::to_string(layerCount) + " layers (" + std::to_string(workloads.size()) +
           " distinct), " + std::to_string(totalMacs) + " MACs (" + macs + ")";
}

OnnxImportResult importOnnxModel(const OnnxModel& model, const OnnxImportOptions& options)
{
    OnnxImportOptions o = options;
    if (o.networkName.empty()) o.networkName = sanitize(model.graphName).empty() ? "onnx" : sanitize(model.graphName);
    return Importer(model, o, "").run();
}

OnnxImportResult importOnnx(const std::string& path, const OnnxImportOptions& options)
{
    const OnnxModel model = readOnnxModel(path);
    OnnxImportOptions o = options;
    if (o.networkName.empty()) o.networkName = sanitize(std::filesystem::path(path).stem().string());
    if (o.networkName.empty()) o.networkName = "onnx";
    return Importer(model, o, path).run();
}

void addOnnxImportToProject(Project& project, const OnnxImportResult& imported)
{
    if (project.findNetwork(imported.network.name))
        throw NestorError("networks", "the project already has a network named '" + imported.network.name + "' (choose another name)");
    std::map<std::string, std::string> renamed;
    std::vector<ProjectWorkload> added;
    for (ProjectWorkload pw : imported.workloads) {
        const std::string base = pw.workload.name;
        std::string name = base;
        auto taken = [&](const std::string& n) {
            if (project.findWorkload(n)) return true;
            for (const auto& a : added)
                if (a.workload.name == n) return true;
            return false;
        };
        for (int k = 2; taken(name); ++k) name = base + "_" + std::to_string(k);
        pw.workload.name = name;
        pw.spec.conv.name = name;
        renamed[base] = name;
        added.push_back(std::move(pw));
    }
    ProjectNetwork net = imported.network;
    for (auto& [w, repeat] : net.layers) w = renamed.at(w);
    project.workloads.insert(project.workloads.end(), added.begin(), added.end());
    project.networks.push_back(std::move(net));
}

} // namespace nestor
