#pragma once
// What a search keeps of the valid mappings it evaluated besides the best: the exact
// energy-vs-delay Pareto front over all of them, and a uniform sample (reservoir) for a
// scatter plot. Points are kept as mapspace points; Mapspace::toMapping rebuilds them.
#include "mapspace/Mapspace.h"
#include "model/Evaluation.h"

#include <cstdint>
#include <random>
#include <vector>

namespace nestor {

// The figures a scatter or a front needs of one evaluated mapping.
struct EvaluatedFigures {
    double energy_pJ = 0;
    double cycles = 0;
    double edp_J_s = 0;
    double utilization = 0;

    static EvaluatedFigures of(const Evaluation& e) { return {e.energy_pJ, double(e.cycles), e.edp_J_s, e.utilization}; }
};

struct EvaluatedPoint : EvaluatedFigures {
    MapspacePoint point;
};

// Non-dominated points in (energy, cycles), both minimized. A point equal in both to one
// already kept is not added (the first one found stays), so the front has no duplicates.
class ParetoArchive {
public:
    // False when a kept point is at least as good in both (then offer() would not add it).
    bool wouldJoin(double energy_pJ, double cycles) const;
    // Returns true when the point joined the front (dropping the points it dominates).
    bool offer(const EvaluatedPoint& p);
    const std::vector<EvaluatedPoint>& points() const { return points_; }
    std::vector<EvaluatedPoint> sortedByCycles() const;

private:
    std::vector<EvaluatedPoint> points_;
};

// Algorithm R: after n offers, each of them is kept with probability capacity / n.
class Reservoir {
public:
    Reservoir(std::size_t capacity, std::uint64_t seed) : capacity_(capacity), rng_(seed) {}
    // Counts one more offered point; returns where to store it, or -1 to drop it.
    long slotForNext();
    void store(long slot, const EvaluatedPoint& p);
    void offer(const EvaluatedPoint& p) { store(slotForNext(), p); }
    const std::vector<EvaluatedPoint>& points() const { return points_; }

private:
    std::size_t capacity_;
    std::uint64_t seen_ = 0;
    std::mt19937_64 rng_;
    std::vector<EvaluatedPoint> points_;
};

} // namespace nestor
