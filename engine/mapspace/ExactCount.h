#pragma once
// Counts of factorizations are kept in long double (they may pass 2^64); where every count of a
// table is below kExactCountLimit they are integers that long double and std::uint64_t both
// hold exactly, and decoding a point runs in std::uint64_t (several times faster). Both
// arithmetics share one quotient.
#include <cmath>
#include <cstdint>

namespace nestor {

inline constexpr long double kExactCountLimit = 9.2e18L;  // below 2^63

// floor(a / b) for counts a, b >= 0
inline long double floorQuotient(long double a, long double b) { return std::floor(a / b); }
inline std::uint64_t floorQuotient(std::uint64_t a, std::uint64_t b) { return a / b; }

} // namespace nestor
