#include "search/RandomSearch.h"

#include <algorithm>

namespace nestor {

RandomSearch::RandomSearch(const SearchContext& ctx, Mode mode)
    : ctx_(ctx), mode_(mode), rng_(threadSeed(ctx.seed, ctx.threadId))
{
}

bool RandomSearch::next(MapspacePoint& p)
{
    const Mapspace& s = *ctx_.space;
    if (mode_ == Mode::Random) {
        s.randomCandidate(rng_, p);  // (one given up partway is rejected by the driver's capacity check)
        return true;
    }
    const bool sweepKeeps = mode_ == Mode::Hybrid && s.keepCount() <= 64;
    if (sweepKeeps && keepsLeft_ > 0) {
        --keepsLeft_;
        cur_.keepBits = (cur_.keepBits + 1) % s.keepCount();
        p = cur_;
        return true;
    }
    if (ordersLeft_ <= 0) {
        s.randomFactorization(rng_, cur_);
        long double orders = 1;
        for (int i = 0; i < s.numSlots(); ++i) orders *= static_cast<long double>(s.orderCount(cur_, i));
        ordersLeft_ = static_cast<int>(std::min<long double>(orders, std::max(1, ctx_.maxOrdersPerVisit)));
    }
    --ordersLeft_;
    s.randomOrders(rng_, cur_);
    s.randomKeeps(rng_, cur_);
    if (sweepKeeps) keepsLeft_ = s.keepCount() - 1;
    p = cur_;
    return true;
}

} // namespace nestor
