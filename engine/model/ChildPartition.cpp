#include "model/ChildPartition.h"

#include "model/DistinctWords.h"

namespace nestor::model {
namespace {

using walker::Cat;

// Positions of dimension d that the child ever covers.
void coveredPositions(const Workload& w, const NestLayout& nest, int d, const ChildPlace& place,
                      std::vector<std::uint8_t>& covered)
{
    // Per-thread scratch: a search computes partitions for every candidate.
    thread_local std::vector<const NestLoop*> loops;
    thread_local std::vector<std::int64_t> fixed;  // -1 = temporal
    loops.clear();
    fixed.clear();
    for (int p = 0; p < place.boundary; ++p) {
        const NestLoop& l = nest.loops[p];
        if (l.dim != d) continue;
        loops.push_back(&l);
        if (!l.spatial()) fixed.push_back(-1);
        else if (p < place.leafPos) fixed.push_back(walker::representative((*place.instanceCats)[p], l));
        else fixed.push_back(walker::representative((*place.childCats)[p - place.leafPos], l));
    }
    covered.assign(static_cast<std::size_t>(w.bounds[d]), 0);
    const bool imp = nest.dimImperfect(d);
    // Depth-first over the loops of d, outermost first, carrying "all outer at last".
    struct Frame {
        std::size_t k;
        std::int64_t base;
        bool allLast;
    };
    thread_local std::vector<Frame> stack;
    stack.assign(1, Frame{0, 0, true});
    while (!stack.empty()) {
        const Frame f = stack.back();
        stack.pop_back();
        if (f.k == loops.size()) {
            const std::int64_t ext = place.macStage ? 1 : nest.innerExtent(place.boundary, d, imp && f.allLast);
            for (std::int64_t x = f.base; x < f.base + ext && x < w.bounds[d]; ++x) covered[static_cast<std::size_t>(x)] = 1;
            continue;
        }
        const NestLoop& l = *loops[f.k];
        const std::int64_t trips = (imp && f.allLast) ? l.residual : l.bound;
        if (fixed[f.k] >= 0) {
            if (fixed[f.k] >= trips) continue;  // this child is idle then
            stack.push_back({f.k + 1, f.base + fixed[f.k] * l.stride, f.allLast && fixed[f.k] == trips - 1});
        } else {
            for (std::int64_t i = 0; i < trips; ++i) stack.push_back({f.k + 1, f.base + i * l.stride, f.allLast && i == trips - 1});
        }
    }
}

} // namespace

std::int64_t childDistinctWords(const Workload& w, const NestLayout& nest, int tensor, const ChildPlace& place)
{
    thread_local std::vector<Intervals> positions;
    thread_local std::vector<std::uint8_t> covered;
    positions.resize(static_cast<std::size_t>(w.numDims()));
    for (int d = 0; d < w.numDims(); ++d) {
        coveredPositions(w, nest, d, place, covered);
        positions[d] = intervalsOf(covered);
    }
    std::int64_t total = 1;
    for (const auto& rank : w.tensors[tensor].ranks) total *= countRankValues(rank, positions);
    return total;
}

} // namespace nestor::model
