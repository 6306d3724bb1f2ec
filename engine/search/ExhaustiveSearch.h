#pragma once
// Exhaustive search: every factorization of this thread's share (index = k * threads + id),
// every loop order of every slot and every keep choice. For small spaces; stops only when
// exhausted (or at the budget / on cancel).
#include "search/SearchAlgorithm.h"

namespace nestor {

class ExhaustiveSearch : public SearchAlgorithm {
public:
    explicit ExhaustiveSearch(const SearchContext& ctx);
    bool next(MapspacePoint& p) override;
    void report(bool, double, bool) override {}
    bool usesTerminationRules() const override { return false; }

private:
    bool advanceSubspace();
    SearchContext ctx_;
    long double index_;
    bool started_ = false;
    MapspacePoint cur_;
    std::vector<std::uint64_t> orderCounts_;
};

} // namespace nestor
