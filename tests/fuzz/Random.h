#pragma once
// A small deterministic PRNG (SplitMix64) with our own range reduction, so the same seed gives
// the same campaign with any standard library (std::uniform_int_distribution is not portable).
#include <cstdint>
#include <vector>

namespace nestor::fuzz {

class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next()
    {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n); n > 0. The modulo bias is irrelevant for fuzzing.
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
    bool chance(unsigned percent) { return below(100) < percent; }
    template <class T> const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

private:
    std::uint64_t state_;
};

// The seed of input number `index` of a campaign: inputs are independent of each other, so a
// finding replays from (campaign seed, index) alone.
inline std::uint64_t inputSeed(std::uint64_t campaignSeed, std::uint64_t index)
{
    Random r(campaignSeed * 0x100000001b3ULL ^ (index + 0x51ed270b2fULL));
    r.next();
    return r.next();
}

} // namespace nestor::fuzz
