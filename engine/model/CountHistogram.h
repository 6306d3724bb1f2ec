#pragma once
// Per-instance counts of one action at one level for one tensor, as (instances, count) pairs:
// instances differ under imperfect factors, and energy rounds every instance's count up to
// whole vector accesses separately.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace nestor::model {

struct CountHistogram {
    std::vector<std::pair<std::int64_t, std::int64_t>> entries;  // (instances, count per instance)

    void add(std::int64_t instances, std::int64_t count)
    {
        if (instances > 0) entries.push_back({instances, count});
    }
    std::int64_t total() const
    {
        std::int64_t s = 0;
        for (const auto& [n, c] : entries) s += n * c;
        return s;
    }
    std::int64_t min() const
    {
        std::int64_t m = entries.empty() ? 0 : entries.front().second;
        for (const auto& e : entries) m = std::min(m, e.second);
        return m;
    }
    std::int64_t max() const
    {
        std::int64_t m = entries.empty() ? 0 : entries.front().second;
        for (const auto& e : entries) m = std::max(m, e.second);
        return m;
    }
    // Sum over instances of ceil(count / block).
    std::int64_t vectorAccesses(int block) const
    {
        std::int64_t s = 0;
        for (const auto& [n, c] : entries) s += n * ((std::max<std::int64_t>(c, 0) + block - 1) / block);
        return s;
    }
};

struct TensorCounts {
    CountHistogram reads, fills, updates;
};

} // namespace nestor::model
