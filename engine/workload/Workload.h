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
    bool operator==(const ProjectionTerm&) const = default;
};

// One rank of a tensor: sum over terms of coef * dim.
using RankExpression = std::vector<ProjectionTerm>;

struct Tensor {
    std::string name;
    bool readWrite = false;
    std::vector<RankExpression> ranks;
    bool operator==(const Tensor&) const = default;
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
    // Product of all bounds. Exact for a valid workload (below 2^62); kCountLimit (2^62) when
    // the true product is at or above it, so an unvalidated workload never wraps.
    std::int64_t macs() const;
    // Entries of the dense bounding box of the whole tensor (Timeloop semantics:
    // points skipped by strides are counted). Saturates at kCountLimit like macs().
    std::int64_t tensorSize(int t) const;
    bool dependsOn(int t, int dim) const;
    // The same layer under another name: dimensions, bounds and tensors equal.
    bool sameShape(const Workload& o) const { return dimNames == o.dimNames && bounds == o.bounds && tensors == o.tensors; }

    // Empty when valid; otherwise every problem with a field path under `prefix`.
    Diagnostics validate(const std::string& prefix = "workload") const;
};

// Extent of one rank when every dimension d spans ext[d] consecutive indices.
std::int64_t rankExtent(const RankExpression& r, const std::int64_t* ext);

// The access bound of tensor t when the loops of each dimension d multiply to span[d]
// (span = the bounds for the workload alone, the factor products for a mapping): the bounds of
// the dimensions t does not use times, for every term of every rank, coefficient x span.
// Every count of t the model produces (reads, fills, updates, link transfers, tile and
// partition sizes) is at most this bound, and the MACs are too; see docs/project-format.md,
// "Size limits". Saturated at kCountLimit (common/CheckedMath.h).
std::int64_t accessBound(const Workload& w, int t, const std::int64_t* span);
// Problems with the access bounds under `span`: one per tensor over the limit, located at the
// rank where it gets there (`tensorsField`[t].ranks[r]; under `field` when tensorsField is
// empty), else one under `field` when their sum is. `spanText` names span in the message.
Diagnostics checkAccessBounds(const Workload& w, const std::int64_t* span, const std::string& tensorsField,
                              const std::string& field, const std::string& spanText);
// Whether checkAccessBounds finds nothing, without building its texts (a search checks every candidate).
bool accessBoundsBelowLimit(const Workload& w, const std::int64_t* span);

// Ready-made layer shapes. All sizes must be positive and the result valid (size limits
// included); invalid input throws NestorError with fields under the layer's name.
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

} // namespace nestor
