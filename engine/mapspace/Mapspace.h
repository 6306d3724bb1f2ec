#pragma once
// A mapspace over (workload, architecture, constraints): loop factors (perfect or with Ruby
// remainders), loop orders per slot and keep/bypass choices. Nothing is materialized: counts
// come from per-dimension dynamic programs coupled through the spatial fanouts, so a space of
// 1e12 points or more is ready at once; points are decoded from an index or sampled.
//
// Loop slots, outermost first: per storage level its temporal loops (none for a spatial-only
// level, size 0), then spatial Y (when fanoutY > 1), then spatial X (when fanoutX > 1).
// Each slot holds at most one loop per dimension, as in Timeloop.
//
// Pruning: loops of bound 1 are not emitted, so a slot with k non-unit loops has k! orders
// (a unit loop cannot change any count). Fixed permutation prefixes take the innermost places.
// `pruneUnitLoops = false` keeps every dimension in every temporal slot (numDims! orders) and
// exists to test that the pruning changes nothing.
//
// Backing store (level 0) keeps every tensor; spatial-only levels keep nothing; other
// (level, tensor) pairs are free unless a constraint fixes them.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "mapspace/DimensionFactorizer.h"
#include "core/MapspaceConstraints.h"
#include "mapspace/MapspaceKind.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <random>
#include <vector>

namespace nestor {

struct MapspaceSlot {
    enum class Kind { Temporal, SpatialY, SpatialX };
    int level = 0;
    Kind kind = Kind::Temporal;
    std::int64_t fanout = 1;       // spatial slots
    bool imperfect = false;        // remainders allowed
};

struct MapspacePoint {
    std::vector<LoopFactor> factors;     // [slot * numDims + dim]
    std::vector<std::uint64_t> orders;   // per slot: index of the order of its free loops, < k!
    std::uint64_t keepBits = 0;          // one bit per free (level, tensor) keep choice
    // Given up partway by Mapspace::randomCandidate: the dimensions decoded already outgrow a
    // level, the others are left at bound 1. Not a mapping: never to be evaluated.
    bool givenUp = false;
};

struct MapspaceSize {
    long double factorizations = 0;  // loop-factor assignments
    bool factorizationsExact = true;
    long double orders = 0;          // sum over factorizations of the loop orders (or a bound)
    bool ordersExact = true;
    long double keepChoices = 1;
    long double total = 0;           // orders x keepChoices
    bool exact = true;               // false: total is an upper bound (or beyond 2^64)
};

struct MapspaceOptions {
    bool pruneUnitLoops = true;
    // Orders are summed exactly by enumeration when there are at most this many factorizations.
    long double exactOrderEnumerationLimit = 20000;
};

class Mapspace {
public:
    // Throws NestorError when the workload, architecture or constraints are invalid, when
    // the constraints leave no factorization, or when the factor tables would take more than
    // kMaxTableBuildSteps steps (a huge dimension in a mapspace with temporal remainders).
    // `cancel` is polled while the constructor runs: once set, it throws MapspaceCancelled.
    Mapspace(Workload w, Architecture a, MapspaceKind kind, MapspaceConstraints c = {}, MapspaceOptions opt = {},
             const std::atomic<bool>* cancel = nullptr);

    // Bounds construction work: a few seconds at most.
    static constexpr std::int64_t kMaxTableBuildSteps = 100'000'000;

    const Workload& workload() const { return w_; }
    const Architecture& architecture() const { return a_; }
    const MapspaceConstraints& constraints() const { return c_; }
    MapspaceKind kind() const { return kind_; }
    const std::vector<MapspaceSlot>& loopSlots() const { return slots_; }
    int numSlots() const { return static_cast<int>(slots_.size()); }

    long double factorizationCount() const { return total_; }
    bool factorizationCountExact() const { return total_ < 1.8e19L; }
    MapspaceSize size() const;

    // Factorization number `index` in [0, factorizationCount()) (exact order below 2^64).
    void factorizationAt(long double index, MapspacePoint& p) const;
    void randomFactorization(std::mt19937_64& rng, MapspacePoint& p) const;
    // Redraws the factors of one dimension uniformly, keeping the others (spatial fanouts
    // stay within limits).
    void resampleDimension(int dim, std::mt19937_64& rng, MapspacePoint& p) const;
    // A local move: one prime factor of a dimension goes from one loop slot to another
    // (within the slots' bound constraints and fanouts). Only for a dimension whose factors
    // in p are all perfect; returns false (p unchanged) when no such move exists.
    bool moveFactor(int dim, std::mt19937_64& rng, MapspacePoint& p) const;

    std::uint64_t orderCount(const MapspacePoint& p, int slot) const;  // k! (saturating)
    void randomOrders(std::mt19937_64& rng, MapspacePoint& p) const;
    int numFreeKeeps() const { return static_cast<int>(freeKeeps_.size()); }
    std::uint64_t keepCount() const { return std::uint64_t(1) << freeKeeps_.size(); }
    void randomKeeps(std::mt19937_64& rng, MapspacePoint& p) const;
    MapspacePoint randomPoint(std::mt19937_64& rng) const;
    void randomPoint(std::mt19937_64& rng, MapspacePoint& p) const;  // into p, reusing its storage
    // A random search's candidate: randomPoint()'s draw, but given up as soon as the dimensions
    // decoded so far outgrow a level's capacity (the others at bound 1, free keeps bypassed):
    // false then, p is left partial (p.givenUp) and exceedsCapacity(p) holds. Random sampling rejects most
    // of its candidates so, without decoding, ordering and building them whole; a candidate
    // given up draws no orders or keeps, so the stream moves on as for a candidate that fits.
    bool randomCandidate(std::mt19937_64& rng, MapspacePoint& p) const;

    Mapping toMapping(const MapspacePoint& p, const std::string& name = "search") const;
    // Same, into `m`, reusing its storage (a search's per-thread scratch mapping).
    void toMapping(const MapspacePoint& p, Mapping& m, const std::string& name = "search") const;
    // Whether some level's tiles of p outgrow its capacity: the model's capacity check (the
    // words each kept tensor's largest tile spans at each level), made on the point itself so
    // that a search skips building and evaluating the mapping of a candidate that cannot fit
    // (most random candidates). Same verdict as evaluate()'s "capacity exceeded".
    bool exceedsCapacity(const MapspacePoint& p) const;
    // Constraints that are checked on the evaluation (minimum utilization).
    bool accepts(const Evaluation& ev) const { return meetsUtilization(c_, ev.utilization); }

private:
    struct DimSpace {
        DimensionFactorizer factorizer;
        std::vector<std::vector<std::int64_t>> tuples;   // feasible spatial tuples
        std::vector<long double> counts;                 // factorizations per tuple
        std::vector<std::uint64_t> exactCounts;          // the same, when every count is below 2^63 (else empty)
        std::vector<DimensionFactorizer::Table> tables;  // per tuple (empty when too large)
    };
    void buildSlots();
    void buildDimension(int d, MapspaceBuildGuard& guard);
    void indexDimension(DimSpace& ds) const;
    void buildCoupling(MapspaceBuildGuard& guard);
    NestorError noFactorizationError() const;
    // The index (strides_) of the spatial tuple whose entries are t's times u's.
    std::size_t productIndex(const std::vector<std::int64_t>& t, const std::vector<std::int64_t>& u) const;
    bool fits(const std::vector<std::int64_t>& t, const std::vector<std::int64_t>& u) const;
    template <class Count>  // long double or std::uint64_t (exactCounts)
    void decodeDimension(int d, int k, Count x, MapspacePoint& p) const;
    // False when stopOverCapacity and the dimensions decoded so far outgrow a level (p partial).
    template <class Count>
    bool factorizationIn(Count x, const std::vector<std::vector<Count>>& completions,
                         std::vector<Count> DimSpace::*counts, bool stopOverCapacity, MapspacePoint& p) const;
    bool factorizationFrom(long double index, bool stopOverCapacity, MapspacePoint& p) const;
    bool drawFactorization(std::mt19937_64& rng, bool stopOverCapacity, MapspacePoint& p) const;
    // exceedsCapacity's levels and randomCandidate's bound (MapspaceCapacity.cpp): per level
    // with a capacity, the tensors kept whatever the keep choices and those kept by choice
    // (tensor, keep bit); per dimension, the ranks it enters.
    struct CapacityLevel {
        int level = 0;
        std::int64_t words = 0;
        std::vector<int> tensors;
        std::vector<std::pair<int, int>> freeTensors;
    };
    struct DimensionTerm {
        int tensor = 0, rank = 0;
        std::int64_t coef = 1;
    };
    void buildCapacityLevels();
    // Dimension d's extent in the tiles below each level (ext[level]), as the model finds it.
    void extentsOfDimension(const MapspacePoint& p, int d, std::array<std::int64_t, 64>& ext) const;
    // Adds dimension d of p to rankSums (per capacity level, tensor and rank: the rank's extent
    // so far); true when a level's tiles then outgrow it.
    bool outgrowsCapacity(const MapspacePoint& p, int d, std::vector<std::int64_t>& rankSums) const;
    // The order randomCandidate decodes the dimensions in: greedily, the dimension that gives up
    // most of a fixed sample of draws not yet given up, per unit of its decoding cost, comes next.
    void buildDecodeOrder();
    // The free (permuted) and fixed (innermost first) loops of a slot.
    void slotLoops(const MapspacePoint& p, int slot, std::vector<int>& free, std::vector<int>& fixedInnermostFirst) const;

    Workload w_;
    Architecture a_;
    MapspaceKind kind_;
    MapspaceConstraints c_;
    MapspaceOptions opt_;
    std::vector<MapspaceSlot> slots_;
    std::vector<int> spatialSlots_;                      // slot index of each spatial slot
    std::vector<int> levelSlots_;                        // level i's slots: [levelSlots_[i], levelSlots_[i + 1])
    std::vector<std::vector<std::int64_t>> lo_, hi_;    // [slot][dim] bound range
    std::vector<std::vector<int>> fixedOrder_;           // [slot] fixed innermost-first dims (temporal)
    std::vector<DimSpace> dims_;
    std::vector<std::int64_t> strides_;                  // tuple index strides
    std::vector<std::vector<long double>> H_;            // [dim][tuple] completions of dims >= dim
    std::vector<std::vector<std::uint64_t>> exactH_;     // the same, when every count is below 2^63 (else empty)
    long double total_ = 0;
    std::vector<std::pair<int, int>> freeKeeps_;         // (level, tensor)
    std::vector<std::vector<int>> fixedKeep_;            // [level][tensor]: -1 free, 0 bypass, 1 keep
    std::vector<CapacityLevel> capacityLevels_;          // innermost first; empty: no tile can outgrow a level
    bool boundable_ = false;                             // false: randomCandidate never gives up early
    std::vector<std::vector<DimensionTerm>> termsOfDim_;
    std::vector<int> decodeOrder_;  // the dimensions in decoding order (any gives the same point)
    int maxRanks_ = 0;
};

} // namespace nestor
