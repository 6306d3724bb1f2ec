#pragma once
// The flattened loop nest of a mapping and its odometer: global step <-> temporal loop indices
// with exact residual trips (Mapping.h's rule), rank and unrank by counting, and the trips,
// activity and dimension ranges that one instance sees at given indices. Internal to trace/.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <cstdint>
#include <vector>

namespace nestor::trace::detail {

using i64 = std::int64_t;

struct FlatLoop {
    int dim = 0;
    i64 bound = 1, residual = 1;
    int level = 0;
    LoopKind kind = LoopKind::Temporal;
    int indexInLevel = 0;
    int temporalIndex = -1;   // position among the temporal loops; -1 for spatial loops
};

class NestOdometer {
public:
    NestOdometer(const Workload& w, const Architecture& a, const Mapping& m);

    int numLevels() const { return L_; }
    int numDims() const { return D_; }
    int numLoops() const { return static_cast<int>(loops_.size()); }
    int numTemporal() const { return static_cast<int>(temporal_.size()); }
    const std::vector<FlatLoop>& loops() const { return loops_; }
    const std::vector<int>& temporalPositions() const { return temporal_; }
    // Flat positions: level i's loops are [tBegin(i), lEnd(i)); spatial Y from yBegin, X from xBegin.
    int tBegin(int i) const { return tBegin_[i]; }
    int yBegin(int i) const { return yBegin_[i]; }
    int xBegin(int i) const { return xBegin_[i]; }
    int lEnd(int i) const { return lEnd_[i]; }
    i64 fanX(int i) const { return fanX_[i]; }
    i64 fanY(int i) const { return fanY_[i]; }
    i64 fan(int i) const { return fan_[i]; }
    // Instances of level i (i == numLevels(): the MACs).
    i64 instances(int i) const { return inst_[i]; }

    i64 numSteps() const { return steps_; }
    // Temporal indices (size numTemporal()) of global step `step` (0 <= step < numSteps()).
    std::vector<i64> unrank(i64 step) const;
    i64 rank(const std::vector<i64>& temporalIdx) const;

    // Full index vector (all flat loops) for an instance of level `level` (its spatial indices
    // of the levels above it) and temporal indices; false when the instance sits outside the
    // fanout the mapping uses (x or y beyond the spatial loops' product).
    bool fillSpatial(int level, i64 instance, std::vector<i64>& idx) const;
    void fillTemporal(const std::vector<i64>& temporalIdx, std::vector<i64>& idx) const;

    // Walks flat loops [0, end) with the instance's own trips: false when an index is beyond its
    // trip (the instance is idle); else the dimension base and extent of the tile below `end`.
    // base and ext: arrays of numDims() entries, or null.
    bool walk(const std::vector<i64>& idx, int end, i64* base, i64* ext) const;
    // Does the instance whose spatial indices (levels < level) are in idx do any work at these
    // temporal indices: its own loops fit and some MAC below it fits (max trips below).
    bool busy(const std::vector<i64>& idx, int level) const;
    // The previous position of the temporal loops in [0, end) in the instance's own sequence
    // (loops >= end untouched); false at the first position.
    bool previous(std::vector<i64>& idx, int end) const;
    // The last position of the temporal loops in [from, end) given the outer indices: each at its trip - 1.
    void setLast(std::vector<i64>& idx, int from, int end) const;

    i64 trip(const FlatLoop& l, bool allLast) const { return allLast ? l.residual : l.bound; }
    // The flat position at which walk() failed last (an index beyond its trip); -1 if none.
    int walkFailure(const std::vector<i64>& idx, int end) const;

private:
    i64 count(int q, unsigned ctx) const { return count_[static_cast<std::size_t>(q) * (1u << D_) + ctx]; }

    int L_ = 0, D_ = 0;
    std::vector<FlatLoop> loops_;
    std::vector<int> temporal_;
    std::vector<int> tBegin_, yBegin_, xBegin_, lEnd_;
    std::vector<i64> fanX_, fanY_, fan_, inst_;
    std::vector<i64> strideAfter_;                    // per flat loop: product of the bounds of inner loops of its dim
    std::vector<std::vector<i64>> innerCov_, innerProd_; // per boundary and dim: covered size / bound product below
    std::vector<i64> count_;   // steps of the global nest from flat position q on, per context
    i64 steps_ = 0;
};

} // namespace nestor::trace::detail
