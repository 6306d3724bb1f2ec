#pragma once
// Timeloop's random family:
//   random         every draw is a uniform factorization, uniform loop orders, uniform keeps;
//   random-pruned  a uniform factorization, then up to maxOrdersPerVisit uniform loop orders
//                  (each with uniform keeps) before the next factorization;
//   hybrid         a uniform factorization, then up to maxOrdersPerVisit loop orders, each
//                  swept over every keep choice (random keeps when there are more than 64).
#include "search/SearchAlgorithm.h"

#include <random>

namespace nestor {

class RandomSearch : public SearchAlgorithm {
public:
    enum class Mode { Random, RandomPruned, Hybrid };
    RandomSearch(const SearchContext& ctx, Mode mode);
    bool next(MapspacePoint& p) override;
    void report(bool, double, bool) override {}

private:
    SearchContext ctx_;
    Mode mode_;
    std::mt19937_64 rng_;
    MapspacePoint cur_;
    int ordersLeft_ = 0;       // orders still to try on the current factorization
    std::uint64_t keepsLeft_ = 0;  // hybrid: keep choices still to sweep on the current order
};

} // namespace nestor
