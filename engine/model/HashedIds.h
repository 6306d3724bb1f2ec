#pragma once
// Items numbered as they are met (0, 1, 2, ...), found again by a hash of their content: the
// closed forms number the deltas and joint states they meet, thousands per stage where children
// of many kinds join, and a linear search for each showed in their profile. Buckets hold the
// latest id of each hash class, ids chain to the previous one of the same bucket; clearing is a
// stamp, so a table kept across analyses costs nothing to reset.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace nestor::model {

// A hash for HashedIds of a run of small integers (ids, masks, coordinates), folded into h:
// start from kHashSeed, and fold more runs in as needed.
constexpr std::uint64_t kHashSeed = 0x9e3779b97f4a7c15ull;
template <class It>
std::uint64_t hashMore(std::uint64_t h, It first, It last)
{
    using Value = std::remove_cvref_t<decltype(*first)>;
    for (; first != last; ++first) h = (h ^ static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<Value>>(*first))) * 0xff51afd7ed558ccdull;
    return h;
}

class HashedIds {
public:
    // Forgets every id.
    void clear()
    {
        next_.clear();
        if (++stamp_ == 0) {  // stamps wrapped
            std::fill(stamps_.begin(), stamps_.end(), 0u);
            stamp_ = 1;
        }
    }
    // The id of an item with hash h for which same(id) holds, or -1.
    template <class Same>
    int find(std::uint64_t h, Same&& same) const
    {
        const std::size_t b = bucket(h);
        if (stamps_[b] != stamp_) return -1;
        for (int id = heads_[b]; id >= 0; id = next_[static_cast<std::size_t>(id)])
            if (same(id)) return id;
        return -1;
    }
    // Registers the next id (the number of ids so far) under hash h.
    void add(std::uint64_t h)
    {
        const std::size_t b = bucket(h);
        next_.push_back(stamps_[b] == stamp_ ? heads_[b] : -1);
        stamps_[b] = stamp_;
        heads_[b] = static_cast<int>(next_.size()) - 1;
    }

private:
    static constexpr std::size_t kBuckets = 4096;
    static std::size_t bucket(std::uint64_t h) { return static_cast<std::size_t>((h ^ (h >> 29) ^ (h >> 47)) & (kBuckets - 1)); }
    std::vector<std::uint32_t> stamps_ = std::vector<std::uint32_t>(kBuckets, 0u);
    std::vector<int> heads_ = std::vector<int>(kBuckets, -1);
    std::vector<int> next_;
    std::uint32_t stamp_ = 1;
};

} // namespace nestor::model
