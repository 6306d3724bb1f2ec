#include "search/EvaluatedSet.h"

#include <algorithm>

namespace nestor {

bool ParetoArchive::wouldJoin(double energy_pJ, double cycles) const
{
    for (const auto& q : points_)
        if (q.energy_pJ <= energy_pJ && q.cycles <= cycles) return false;  // dominated or equal
    return true;
}

bool ParetoArchive::offer(const EvaluatedPoint& p)
{
    if (!wouldJoin(p.energy_pJ, p.cycles)) return false;
    std::erase_if(points_, [&](const EvaluatedPoint& q) { return p.energy_pJ <= q.energy_pJ && p.cycles <= q.cycles; });
    points_.push_back(p);
    return true;
}

std::vector<EvaluatedPoint> ParetoArchive::sortedByCycles() const
{
    std::vector<EvaluatedPoint> v = points_;
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.cycles < b.cycles; });
    return v;
}

long Reservoir::slotForNext()
{
    ++seen_;
    if (capacity_ == 0) return -1;
    if (seen_ <= capacity_) return static_cast<long>(seen_ - 1);
    const std::uint64_t j = std::uniform_int_distribution<std::uint64_t>(0, seen_ - 1)(rng_);
    return j < capacity_ ? static_cast<long>(j) : -1;
}

void Reservoir::store(long slot, const EvaluatedPoint& p)
{
    if (slot < 0) return;
    const auto i = static_cast<std::size_t>(slot);
    if (i == points_.size()) points_.push_back(p);
    else points_[i] = p;
}

} // namespace nestor
