#include "search/ExhaustiveSearch.h"

namespace nestor {

ExhaustiveSearch::ExhaustiveSearch(const SearchContext& ctx) : ctx_(ctx), index_(ctx.threadId) {}

bool ExhaustiveSearch::advanceSubspace()
{
    // odometer: keep bits fastest, then slot orders from the last slot
    const Mapspace& s = *ctx_.space;
    if (++cur_.keepBits < s.keepCount()) return true;
    cur_.keepBits = 0;
    for (int i = s.numSlots() - 1; i >= 0; --i) {
        if (++cur_.orders[i] < orderCounts_[i]) return true;
        cur_.orders[i] = 0;
    }
    return false;
}

bool ExhaustiveSearch::next(MapspacePoint& p)
{
    const Mapspace& s = *ctx_.space;
    if (!started_ || !advanceSubspace()) {
        if (started_) index_ += static_cast<long double>(ctx_.threads);
        started_ = true;
        if (index_ >= s.factorizationCount()) return false;
        s.factorizationAt(index_, cur_);
        orderCounts_.resize(s.numSlots());
        for (int i = 0; i < s.numSlots(); ++i) orderCounts_[i] = s.orderCount(cur_, i);
        cur_.keepBits = 0;
    }
    p = cur_;
    return true;
}

} // namespace nestor
