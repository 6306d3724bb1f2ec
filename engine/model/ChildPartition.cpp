#include "model/ChildPartition.h"

#include "model/DistinctWords.h"
#include "model/ExactBudget.h"
#include "common/SmallVector.h"

#include <algorithm>
#include <string>

namespace nestor::model {
namespace {

using walker::Cat;

// A child's partition is a union of intervals per dimension. Enumerating every iteration of the
// loops of a dimension costs its trip counts (2^31 for a prime dimension in one loop); instead
// every run of loops whose iterations cover one contiguous range is collapsed into that range,
// and only the rest is enumerated, up to this many intervals.
constexpr std::size_t kMaxPartitionIntervals = std::size_t{1} << 20;

// What the loops k.. of a dimension cover from a base b: [b + offset, b + offset + length), or
// nothing (`empty`: the child is idle in that context); `collapsed` = false when the range is
// not one interval, so the frame must be enumerated.
struct Block {
    bool collapsed = false;
    bool empty = false;
    std::int64_t offset = 0, length = 0;
};

class CoveredIntervals {
public:
    CoveredIntervals(const Workload& w, const NestLayout& nest, int d, const ChildPlace& place)
        : nest_(nest), place_(place), d_(d), bound_(w.bounds[d]), imperfect_(nest.dimImperfect(d))
    {
        for (int p = 0; p < place.boundary; ++p) {
            const NestLoop& l = nest.loops[p];
            if (l.dim != d) continue;
            loops_.push_back(&l);
            if (!l.spatial()) fixed_.push_back(-1);
            else if (p < place.leafPos) fixed_.push_back(walker::representative((*place.instanceCats)[p], l));
            else fixed_.push_back(walker::representative((*place.childCats)[p - place.leafPos], l));
        }
        const std::size_t n = loops_.size();
        blocks_.resize(2 * (n + 1));
        for (std::size_t k = n + 1; k-- > 0;)
            for (int last = 0; last < 2; ++last) blocks_[2 * k + last] = blockAt(k, last != 0);
    }

    // Sorted, disjoint intervals of the positions the child ever covers, into `out` (its storage
    // reused: this runs on every miss of the cache below).
    void run(Intervals& out) const
    {
        struct Frame {
            std::size_t k;
            std::int64_t base;
            bool allLast;
        };
        out.clear();
        SmallVector<Frame, 64> stack;
        stack.push_back({0, 0, true});
        while (!stack.empty()) {
            const Frame f = stack.back();
            stack.pop_back();
            const Block& b = block(f.k, f.allLast);
            if (b.collapsed) {
                if (b.empty) continue;
                const std::int64_t lo = f.base + b.offset, hi = std::min(bound_, lo + b.length);
                if (lo < hi) out.push_back({lo, hi});
                if (out.size() > kMaxPartitionIntervals) throw ExactBudgetExceeded(tooMany());
                continue;
            }
            const NestLoop& l = *loops_[f.k];
            const std::int64_t trips = tripsOf(l, f.allLast);
            const std::int64_t fx = fixed_[f.k];
            if (fx >= 0) {
                stack.push_back({f.k + 1, f.base + fx * l.stride, f.allLast && fx == trips - 1});
                continue;
            }
            if (stack.size() + static_cast<std::size_t>(trips) > kMaxPartitionIntervals) throw ExactBudgetExceeded(tooMany());
            for (std::int64_t i = 0; i < trips; ++i) stack.push_back({f.k + 1, f.base + i * l.stride, f.allLast && i == trips - 1});
        }
        mergeIntervalsInPlace(out);
    }

private:
    std::int64_t tripsOf(const NestLoop& l, bool allLast) const { return (imperfect_ && allLast) ? l.residual : l.bound; }
    const Block& block(std::size_t k, bool allLast) const { return blocks_[2 * k + (allLast ? 1 : 0)]; }
    std::string tooMany() const
    {
        return "exact evaluation exceeds " + std::to_string(kMaxPartitionIntervals) +
               " intervals in one child's partition of dimension " + std::to_string(d_);
    }

    // Needs the blocks of k + 1.
    Block blockAt(std::size_t k, bool allLast) const
    {
        if (k == loops_.size())
            return {true, false, 0, place_.macStage ? 1 : nest_.innerExtent(place_.boundary, d_, imperfect_ && allLast)};
        const NestLoop& l = *loops_[k];
        const std::int64_t trips = tripsOf(l, allLast);
        const std::int64_t fx = fixed_[k];
        if (fx >= 0) {
            if (fx >= trips) return {true, true, 0, 0};  // idle in this context
            Block b = block(k + 1, allLast && fx == trips - 1);
            if (b.collapsed && !b.empty) b.offset += fx * l.stride;
            return b;
        }
        const Block& last = block(k + 1, allLast);
        if (trips == 1) return last;
        const Block& inner = block(k + 1, false);  // every iteration but the last
        if (!inner.collapsed || !last.collapsed) return {};
        if (inner.empty && last.empty) return {true, true, 0, 0};
        // Iterations 0 .. trips-2 form one range when each starts inside or right after the one before.
        std::int64_t lo = 0, hi = 0;
        bool have = false;
        if (!inner.empty) {
            if (trips > 2 && l.stride > inner.length) return {};
            lo = inner.offset;
            hi = (trips - 2) * l.stride + inner.offset + inner.length;
            have = true;
        }
        if (!last.empty) {
            const std::int64_t llo = (trips - 1) * l.stride + last.offset, lhi = llo + last.length;
            if (have && (llo > hi || lo > lhi)) return {};  // a gap before the last iteration
            lo = have ? std::min(lo, llo) : llo;
            hi = have ? std::max(hi, lhi) : lhi;
        }
        return {true, false, lo, hi - lo};
    }

    const NestLayout& nest_;
    const ChildPlace& place_;
    int d_;
    std::int64_t bound_;
    bool imperfect_;
    // (inline for the usual handful of loops per dimension: built on every cache miss)
    SmallVector<const NestLoop*, 16> loops_;
    SmallVector<std::int64_t, 16> fixed_;  // per loop: the child's fixed index (spatial), -1 = temporal
    SmallVector<Block, 34> blocks_;        // [2 * k + allLast]
};

} // namespace

namespace {

// A mask of the dimensions a tensor's ranks read (dimensions past 63: all of them).
bool readsDimension(std::uint64_t mask, int d) { return d >= 64 || ((mask >> d) & 1u) != 0; }

// A dimension's covered intervals depend only on the values in this key: the dimension's bound,
// the residual rule, the child's extent below the boundary (outside and in the residual
// context), and each loop of the dimension above the boundary with the child's fixed index in
// it. Kinds of child and instance differ in a few dimensions only, and consecutive stages share
// most loops, so the intervals are kept per thread, keyed on everything they depend on. Every
// dimension's key in one pass over the loops (a pass per dimension showed in Ruby's profile).
void dimensionKeys(const Workload& w, const NestLayout& nest, const ChildPlace& place, std::uint64_t wanted,
                   std::vector<std::vector<std::int64_t>>& keys)
{
    const int dims = w.numDims();
    keys.resize(static_cast<std::size_t>(dims));
    thread_local std::vector<std::int64_t> full, last;
    full.resize(static_cast<std::size_t>(dims));
    last.resize(static_cast<std::size_t>(dims));
    nest.innerExtents(place.boundary, dims, full.data(), last.data());
    for (int d = 0; d < dims; ++d) {
        std::vector<std::int64_t>& key = keys[static_cast<std::size_t>(d)];
        key.clear();
        if (!readsDimension(wanted, d)) continue;
        key.push_back(w.bounds[d]);
        key.push_back(std::int64_t{place.macStage} | std::int64_t{nest.dimImperfect(d)} << 1);
        key.push_back(full[static_cast<std::size_t>(d)]);
        key.push_back(last[static_cast<std::size_t>(d)]);
    }
    for (int p = 0; p < place.boundary; ++p) {
        const NestLoop& l = nest.loops[p];
        if (!readsDimension(wanted, l.dim)) continue;
        std::int64_t fixed = -1;
        if (l.spatial()) {
            fixed = p < place.leafPos ? walker::representative((*place.instanceCats)[p], l)
                                      : walker::representative((*place.childCats)[p - place.leafPos], l);
        }
        keys[static_cast<std::size_t>(l.dim)].insert(keys[static_cast<std::size_t>(l.dim)].end(), {l.bound, l.residual, l.stride, fixed});
    }
}

struct CachedIntervals {
    std::uint64_t hash = 0;
    bool filled = false;
    std::vector<std::int64_t> key;
    Intervals intervals;
};

std::uint64_t hashKey(const std::vector<std::int64_t>& key)
{
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (std::int64_t v : key) h = (h ^ static_cast<std::uint64_t>(v)) * 0x100000001b3ull + (h >> 29);
    return h;
}

} // namespace

std::int64_t childDistinctWords(const Workload& w, const NestLayout& nest, int tensor, const ChildPlace& place)
{
    constexpr std::size_t kCacheSlots = 256;  // direct-mapped: a miss only recomputes
    thread_local std::vector<CachedIntervals> cache(kCacheSlots);
    thread_local std::vector<std::vector<std::int64_t>> keys;
    thread_local std::vector<Intervals> positions;
    positions.resize(static_cast<std::size_t>(w.numDims()));
    // Only the dimensions the tensor's ranks read.
    std::uint64_t wanted = 0;
    for (const auto& rank : w.tensors[tensor].ranks)
        for (const auto& term : rank) wanted |= term.dim < 64 ? std::uint64_t{1} << term.dim : ~std::uint64_t{0};
    dimensionKeys(w, nest, place, wanted, keys);
    for (int d = 0; d < w.numDims(); ++d) {
        if (!readsDimension(wanted, d)) continue;
        const std::vector<std::int64_t>& key = keys[static_cast<std::size_t>(d)];
        const std::uint64_t h = hashKey(key);
        CachedIntervals& slot = cache[h % kCacheSlots];
        if (!slot.filled || slot.hash != h || slot.key != key) {
            slot.filled = false;  // (until run() returns: it may throw halfway)
            CoveredIntervals(w, nest, d, place).run(slot.intervals);
            slot.key = key;
            slot.hash = h;
            slot.filled = true;
        }
        positions[d] = slot.intervals;
    }
    std::int64_t total = 1;
    for (const auto& rank : w.tensors[tensor].ranks) total *= countRankValues(rank, positions);
    return total;
}

} // namespace nestor::model
