#pragma once
// Algorithm 1 of Thistle (Vaidya et al., CGO'22): symbolic data footprints (DF) and data
// volumes (DV) of every tensor at every level of a multi-level tiled loop nest, for any loop
// permutation and any number of levels, with affine (strided / dilated) rank extents.
//
// The nest mirrors a Nestor Mapping of perfect factors: storage levels outermost first, each
// with temporal loops (outermost first) and spatial loops (inside them, towards the level's
// children). Every loop's trip count is a variable x_v; a dimension's tile extent at a level
// is the product of the trip counts of its loops at that level and below.
//
// Which cost-model quantity each expression is (Timeloop semantics, docs/solvers.md):
//  * footprint(t, L): the tile of tensor t held by ONE instance of storage level L =
//    Evaluation.levels[L].tensors[t].utilized_capacity. Loops of L itself and of every level
//    below it (temporal and spatial) span the tile: a rank sum_j a_j*d_j has extent
//    sum_j a_j*(T_j - 1) + 1 (e.g. h + r - 1, x*h + r - x).
//  * instanceVolume(t, L), L > 0: words delivered into ONE instance of L by its parent over the
//    whole run: Algorithm 1 applied to the temporal loops above L, innermost first, with
//    CanHoist carried across level boundaries (a stationary tile stays resident through the
//    loops of the next level up as well). The innermost present loop sweeps a window (replace:
//    Timeloop's delta keeps the overlap of equal translations); every loop outside it
//    multiplies (a wrap-around changes the translation and Timeloop refetches the whole tile).
//    Spatial loops above L do not move one instance's tile.
//  * fills(t, L) = instanceVolume x every spatial trip count above L
//    = Evaluation.levels[L].tensors[t].fills for a read-only tensor (sum over instances).
//    For the read-write tensor, fills = this - partition_size x utilized_instances (the first
//    fill of each partial sum is elided) and the parent's updates equal parentAccesses below.
//  * parentAccesses(t, L): accesses of L's parent serving those fills =
//    instanceVolume x the parent's spatial trip counts of dimensions t depends on x every
//    spatial trip count above the parent. Children that need the same data share one parent
//    read (multicast); children on different positions of a dimension t uses read separately,
//    overlapping halos included (Timeloop merges only identical deltas). This is
//    Evaluation.levels[parent].tensors[t].reads for a read-only tensor and .updates for the
//    read-write tensor (spatial reduction), with ModelOptions::linkTransfers off.
//
// Two evaluations of each expression: exact (integers, at concrete trip counts; loops with trip
// count 1 are transparent, as they are in the cost model) and the posynomial of the geometric
// program. The posynomial keeps every loop of the permutation (a present loop of trip count 1
// still stops hoisting) and drops the negative constant of a strided extent (x*h + r - x with
// r < x is bounded by x*h + r), so it is an upper bound that is exact whenever every loop
// has a trip count above 1 and every extent constant is non-negative.
#include "solvers/thistle/Posynomial.h"
#include "workload/Workload.h"

#include <cstdint>
#include <vector>

namespace nestor::thistle {

struct NestLoop {
    int dim = 0;
    int var = 0;  // index of its trip-count variable
};

struct NestLevel {
    std::vector<NestLoop> temporal;  // outermost first
    std::vector<NestLoop> spatial;   // any order (the order changes no count)
};

struct TileNest {
    int numVars = 0;
    std::vector<NestLevel> levels;  // storage levels, outermost first
};

// A footprint or volume: prod(scale) x prod over ranks of extent(rank, T), where the tile
// extent T_d of dimension d is the product of tile[d]'s variables (1 when empty).
struct TileExpr {
    int tensor = 0;
    std::vector<int> scale;              // variables multiplied in (outer loops of a volume)
    std::vector<std::vector<int>> tile;  // per dimension: variables spanning its extent
    // A volume's innermost present loop (dimension, variable), -1 for a footprint. Its sweep
    // of c steps moves the tile box B by tau_k = a_k * T_d along every rank k using d and
    // fetches |B| + (c - 1) * (|B| - prod_k max(0, extent_k - tau_k)) words: Timeloop's delta
    // of boxes. That is the paper's replace(c^{l-1}, c^l c^{l-1}) when consecutive tiles
    // touch or overlap (tau_k <= extent_k); with a gap (stride above the filter span, e.g. a
    // 1x1 stride-2 conv) the skipped points are not fetched and the paper's form overcounts.
    // The posynomial keeps the paper's form (an upper bound).
    // The sweep's step is the tile of d below the sweep loop, which exceeds the instance's
    // tile when spatial loops of d lie between (each instance then jumps over its neighbours'
    // tiles): T_step = product of sweepStep, the paper's replace uses c * T_step.
    // Loops of d directly outside the innermost present one (no moving loop between) continue
    // the same sweep with the same translation, and Timeloop keeps the overlap across them:
    // they join it (c = product of sweepVars).
    int sweepDim = -1;
    std::vector<int> sweepVars;
    std::vector<int> sweepStep;
    // Further out, a loop of d separated from the sweep only by loops t does not depend on
    // (which wrap without moving the tile) continues the sweep on the iterations where it
    // advances: positions stay contiguous, the translation is the sweep's, so only the new
    // words are fetched. Each entry is (those absent loops, the loop of d). The paper
    // multiplies instead; the posynomial does too (scale), an upper bound.
    std::vector<std::pair<std::vector<int>, int>> chain;

    std::int64_t exact(const Workload& w, const std::vector<std::int64_t>& trips) const;
    // `fixed` (optional, per variable): a value > 0 makes the variable a constant (a loop whose
    // trip count is not free, e.g. the filter loops Thistle keeps whole), so that h + r - 1
    // with r fixed keeps its exact non-negative constant.
    Posynomial posynomial(const Workload& w, const std::vector<double>* fixed = nullptr) const;
};

TileExpr footprintExpr(const Workload& w, const TileNest& nest, int tensor, int level);
// Structural Algorithm 1 (every loop counts, as in the paper); see the header comment.
TileExpr instanceVolumeExpr(const Workload& w, const TileNest& nest, int tensor, int level);
// The same walk at concrete trip counts, skipping loops of trip count 1.
TileExpr instanceVolumeExprAt(const Workload& w, const TileNest& nest, int tensor, int level,
                              const std::vector<std::int64_t>& trips);

// Spatial multipliers (variables) of the quantities in the header comment.
std::vector<int> spatialAbove(const TileNest& nest, int level);             // every spatial loop of levels < level
std::vector<int> parentSpatial(const Workload& w, const TileNest& nest, int tensor, int level);

std::int64_t productOf(const std::vector<int>& vars, const std::vector<std::int64_t>& trips);
Posynomial monomialOf(const std::vector<int>& vars);

// Exact counts at concrete trip counts, for one tensor and storage level L > 0.
std::int64_t exactFills(const Workload& w, const TileNest& nest, int tensor, int level, const std::vector<std::int64_t>& trips);
std::int64_t exactParentAccesses(const Workload& w, const TileNest& nest, int tensor, int level,
                                 const std::vector<std::int64_t>& trips);

} // namespace nestor::thistle
