#include "search/AnnealingSearch.h"

#include <cmath>

namespace nestor {

namespace {
constexpr double kStartTemperature = 0.5;
constexpr double kCooling = 0.998;
constexpr double kRestartTemperature = 1e-3;
} // namespace

AnnealingSearch::AnnealingSearch(const SearchContext& ctx) : ctx_(ctx), rng_(threadSeed(ctx.seed, ctx.threadId))
{
    const Workload& w = ctx.space->workload();
    for (int d = 0; d < w.numDims(); ++d)
        if (w.bounds[d] > 1) movableDims_.push_back(d);
}

void AnnealingSearch::mutate(MapspacePoint& p)
{
    const Mapspace& s = *ctx_.space;
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    const double r = u01(rng_);
    if ((r < 0.2 && s.numFreeKeeps() > 0) || (movableDims_.empty() && s.numFreeKeeps() > 0)) {
        const int bit = std::uniform_int_distribution<int>(0, s.numFreeKeeps() - 1)(rng_);
        p.keepBits ^= std::uint64_t(1) << bit;
        return;
    }
    if (r < 0.5 || movableDims_.empty()) {
        const int slot = std::uniform_int_distribution<int>(0, s.numSlots() - 1)(rng_);
        const std::uint64_t n = s.orderCount(p, slot);
        if (n > 1) p.orders[slot] = std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_);
        return;
    }
    const int d = movableDims_[std::uniform_int_distribution<std::size_t>(0, movableDims_.size() - 1)(rng_)];
    // Mostly small steps (one prime factor changes slot); sometimes a jump (the dimension redrawn).
    if (r >= 0.8 || !s.moveFactor(d, rng_, p)) s.resampleDimension(d, rng_, p);
    // orders index loops that may have appeared or vanished: keep indices within range
    for (int i = 0; i < s.numSlots(); ++i) {
        const std::uint64_t n = s.orderCount(p, i);
        if (p.orders[i] >= n) p.orders[i] = n > 1 ? std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_) : 0;
    }
}

const Mapspace* AnnealingSearch::perfectStarts()
{
    if (perfectTried_) return perfect_.get();
    perfectTried_ = true;
    const Mapspace& s = *ctx_.space;
    if (s.kind() == MapspaceKind::Pfm) return nullptr;
    try {
        perfect_ = std::make_unique<Mapspace>(s.workload(), s.architecture(), MapspaceKind::Pfm, s.constraints());
    } catch (const NestorError&) {  // (no perfect factorization meets the constraints: uniform starts only)
    }
    return perfect_.get();
}

bool AnnealingSearch::next(MapspacePoint& p)
{
    if (!haveCurrent_) {
        const Mapspace* perfect = invalidStarts_ >= kUniformStarts && invalidStarts_ % 2 == 1 ? perfectStarts() : nullptr;
        proposed_ = (perfect ? *perfect : *ctx_.space).randomPoint(rng_);
    } else {
        proposed_ = current_;
        mutate(proposed_);
    }
    p = proposed_;
    return true;
}

void AnnealingSearch::report(bool valid, double cost, bool)
{
    if (!valid) {
        if (!haveCurrent_) ++invalidStarts_;
        return;
    }
    if (!haveCurrent_) {
        haveCurrent_ = true;
        current_ = best_ = proposed_;
        currentCost_ = bestCost_ = cost;
        return;
    }
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    if (cost <= currentCost_ || u01(rng_) < std::exp(-(cost - currentCost_) / temperature_)) {
        current_ = proposed_;
        currentCost_ = cost;
    }
    if (cost < bestCost_) {
        best_ = proposed_;
        bestCost_ = cost;
    }
    temperature_ *= kCooling;
    if (temperature_ < kRestartTemperature) {
        temperature_ = kStartTemperature;
        current_ = best_;
        currentCost_ = bestCost_;
    }
}

} // namespace nestor
