// Ready-made layer shapes in Timeloop's naming (N M C P Q R S; G for groups).
#include "workload/Workload.h"

namespace nestor {

namespace {

void requirePositive(const std::string& layer, const char* field, std::int64_t v)
{
    if (v <= 0)
        throw NestorError(layer + "." + field, "must be a positive integer (got " + std::to_string(v) + ")");
}

ProjectionTerm term(const Workload& w, const char* dim, std::int64_t coef = 1) { return {w.dimIndex(dim), coef}; }

void checkConv(const ConvParams& p)
{
    const std::pair<const char*, std::int64_t> fields[] = {
        {"N", p.N}, {"M", p.M}, {"C", p.C}, {"P", p.P}, {"Q", p.Q}, {"R", p.R}, {"S", p.S},
        {"stride", p.strideH}, {"stride", p.strideW}, {"dilation", p.dilationH}, {"dilation", p.dilationW},
        {"groups", p.groups}};
    for (const auto& [f, v] : fields) requirePositive(p.name, f, v);
}

// Inputs rank for an output index with stride s and a filter index with dilation d.
RankExpression window(const Workload& w, const char* out, std::int64_t stride, const char* filt, std::int64_t dil)
{
    return {term(w, filt, dil), term(w, out, stride)};
}

// The size limits (docs/project-format.md) hold for what a builder returns, so that a layer
// edited in the GUI is checked like one read from a file.
Workload checkedLayer(Workload w)
{
    Diagnostics d = w.validate(w.name);
    if (!d.empty()) throw NestorError(std::move(d));
    return w;
}

} // namespace

Workload makeConv2d(const ConvParams& p)
{
    checkConv(p);
    Workload w;
    w.name = p.name;
    const bool grouped = p.groups > 1;
    w.dimNames = {"N", "M", "C", "P", "Q", "R", "S"};
    w.bounds = {p.N, p.M, p.C, p.P, p.Q, p.R, p.S};
    if (grouped) {
        w.dimNames.push_back("G");
        w.bounds.push_back(p.groups);
    }
    Tensor weights{"Weights", false, {{term(w, "C")}, {term(w, "M")}, {term(w, "R")}, {term(w, "S")}}};
    Tensor inputs{"Inputs", false, {{term(w, "N")}, {term(w, "C")},
                                    window(w, "P", p.strideH, "R", p.dilationH),
                                    window(w, "Q", p.strideW, "S", p.dilationW)}};
    Tensor outputs{"Outputs", true, {{term(w, "N")}, {term(w, "M")}, {term(w, "P")}, {term(w, "Q")}}};
    if (grouped) {
        weights.ranks.push_back({term(w, "G")});
        inputs.ranks.push_back({term(w, "G")});
        outputs.ranks.push_back({term(w, "G")});
    }
    w.tensors = {weights, inputs, outputs};
    return checkedLayer(std::move(w));
}

Workload makeDepthwise(const ConvParams& p)
{
    checkConv(p);
    Workload w;
    w.name = p.name;
    w.dimNames = {"N", "C", "P", "Q", "R", "S"};
    w.bounds = {p.N, p.C, p.P, p.Q, p.R, p.S};
    w.tensors = {
        Tensor{"Weights", false, {{term(w, "C")}, {term(w, "R")}, {term(w, "S")}}},
        Tensor{"Inputs", false, {{term(w, "N")}, {term(w, "C")},
                                 window(w, "P", p.strideH, "R", p.dilationH),
                                 window(w, "Q", p.strideW, "S", p.dilationW)}},
        Tensor{"Outputs", true, {{term(w, "N")}, {term(w, "C")}, {term(w, "P")}, {term(w, "Q")}}}};
    return checkedLayer(std::move(w));
}

Workload makeGemm(const std::string& name, std::int64_t M, std::int64_t N, std::int64_t K)
{
    requirePositive(name, "M", M);
    requirePositive(name, "N", N);
    requirePositive(name, "K", K);
    Workload w;
    w.name = name;
    w.dimNames = {"M", "N", "K"};
    w.bounds = {M, N, K};
    w.tensors = {Tensor{"A", false, {{term(w, "M")}, {term(w, "K")}}},
                 Tensor{"B", false, {{term(w, "K")}, {term(w, "N")}}},
                 Tensor{"Outputs", true, {{term(w, "M")}, {term(w, "N")}}}};
    return checkedLayer(std::move(w));
}

Workload makeFullyConnected(const std::string& name, std::int64_t batch, std::int64_t outFeatures, std::int64_t inFeatures)
{
    ConvParams p;
    p.name = name;
    p.N = batch;
    p.M = outFeatures;
    p.C = inFeatures;
    requirePositive(name, "batch", batch);
    requirePositive(name, "out_features", outFeatures);
    requirePositive(name, "in_features", inFeatures);
    return makeConv2d(p);
}

} // namespace nestor
