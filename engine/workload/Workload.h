#pragma once
// A workload (one layer): named dimensions with bounds and tensors whose ranks are
// affine sums of dimensions (coefficients = strides / dilations). Follows Timeloop's
// problem shape: at most one read-write tensor (the outputs).
#include "common/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

struct ProjectionTerm {
    int dim = 0;           // index into Workload::dimNames
    std::int64_t coef = 1; // stride or dilation factor
};

// One rank of a tensor: sum over terms of coef * dim.
using RankExpression = std::vector<ProjectionTerm>;

struct Tensor {
    std::string name;
    bool readWrite = false;
    std::vector<RankExpression> ranks;
};

struct Workload {
    std::string name;
    std::vector<std::string> dimNames;
    std::vector<std::int64_t> bounds;  // same order as dimNames
    std::vector<Tensor> tensors;

    int numDims() const { return static_cast<int>(dimNames.size()); }
    int numTensors() const { return static_cast<int>(tensors.size()); }
    int dimIndex(const std::string& name) const;      // -1 if unknown
    int tensorIndex(const std::string& name) const;   // -1 if unknown
    std::int64_t macs() const;                        // product of all bounds
    // Entries of the dense bounding box of the whole tensor (Timeloop semantics:
    // points skipped by strides are counted).
    std::int64_t tensorSize(int t) const;
    bool dependsOn(int t, int dim) const;

    // Empty when valid; otherwise every problem with a field path under `prefix`.
    Diagnostics validate(const std::string& prefix = "workload") const;
};

// Extent of one rank when every dimension d spans ext[d] consecutive indices.
std::int64_t rankExtent(const RankExpression& r, const std::int64_t* ext);

// Ready-made layer shapes. All sizes must be positive; invalid input throws NestorError.
struct ConvParams {
    std::string name = "conv";
    std::int64_t N = 1, M = 1, C = 1, P = 1, Q = 1, R = 1, S = 1;
    std::int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
    std::int64_t groups = 1;  // grouped convolution: C and M are per-group counts, G = groups
};
Workload makeConv2d(const ConvParams& p);          // dims N M C P Q R S (+G when groups > 1)
Workload makeDepthwise(const ConvParams& p);       // dims N C P Q R S; M ignored (multiplier 1)
Workload makeGemm(const std::string& name, std::int64_t M, std::int64_t N, std::int64_t K);  // out[M][N] += a[M][K]*b[K][N]
Workload makeFullyConnected(const std::string& name, std::int64_t batch, std::int64_t outFeatures, std::int64_t inFeatures);

// An ordered list of layers (a network), each a workload with an optional repeat count.
struct NetworkLayer {
    Workload workload;
    std::int64_t repeat = 1;
    std::string type;  // "conv", "depthwise", "grouped", "gemm", "fc", "custom"
};
struct Network {
    std::string name;
    std::vector<NetworkLayer> layers;
};

} // namespace nestor
