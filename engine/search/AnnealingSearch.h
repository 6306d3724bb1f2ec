#pragma once
// Simulated annealing over a mapspace. The state is a point; a move shifts one prime factor
// of a dimension to another loop slot (two times in five the dimension's factors are redrawn
// instead), redraws the loop order of one slot, or flips one keep choice. Costs are
// log(first metric), so the temperature is a relative scale: a move that is 10% worse is
// accepted with probability exp(-0.095 / T). The temperature decays geometrically from 0.5;
// when it falls below 1e-3 the walk restarts from this thread's best point. It starts from
// uniform random points until one is valid. In a mapspace of imperfect factors, where on a large
// layer a uniform draw may almost never fit the buffers, every other start after the first
// kUniformStarts invalid ones is drawn from the perfect factorizations of the same constraints
// (PFM, a subset of every mapspace; its points are points of this one).
#include "search/SearchAlgorithm.h"

#include <memory>
#include <random>

namespace nestor {

class AnnealingSearch : public SearchAlgorithm {
public:
    explicit AnnealingSearch(const SearchContext& ctx);
    bool next(MapspacePoint& p) override;
    void report(bool valid, double cost, bool improved) override;

    static constexpr int kUniformStarts = 200;

private:
    void mutate(MapspacePoint& p);
    // The PFM mapspace of the same workload, architecture and constraints, built on first
    // need; null when this space is PFM or that one cannot be built.
    const Mapspace* perfectStarts();
    SearchContext ctx_;
    std::mt19937_64 rng_;
    bool haveCurrent_ = false;
    MapspacePoint current_, proposed_, best_;
    double currentCost_ = 0, bestCost_ = 0;
    double temperature_ = 0.5;
    std::vector<int> movableDims_;
    int invalidStarts_ = 0;
    bool perfectTried_ = false;
    std::unique_ptr<Mapspace> perfect_;
};

} // namespace nestor
