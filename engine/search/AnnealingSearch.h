#pragma once
// Simulated annealing over a mapspace. The state is a point; a move shifts one prime factor
// of a dimension to another loop slot (two times in five the dimension's factors are redrawn
// instead), redraws the loop order of one slot, or flips one keep choice. Costs are
// log(first metric), so the temperature is a relative scale: a move that is 10% worse is
// accepted with probability exp(-0.095 / T). The temperature decays geometrically from 0.5;
// when it falls below 1e-3 the walk restarts from this thread's best point. It starts from
// uniform random points until one is valid.
#include "search/SearchAlgorithm.h"

#include <random>

namespace nestor {

class AnnealingSearch : public SearchAlgorithm {
public:
    explicit AnnealingSearch(const SearchContext& ctx);
    bool next(MapspacePoint& p) override;
    void report(bool valid, double cost, bool improved) override;

private:
    void mutate(MapspacePoint& p);
    SearchContext ctx_;
    std::mt19937_64 rng_;
    bool haveCurrent_ = false;
    MapspacePoint current_, proposed_, best_;
    double currentCost_ = 0, bestCost_ = 0;
    double temperature_ = 0.5;
    std::vector<int> movableDims_;
};

} // namespace nestor
