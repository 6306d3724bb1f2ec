#pragma once
// Prime factors and divisors of positive 64-bit integers. Deterministic Miller-Rabin and
// Pollard's rho: a dimension of 2^31-1 or 2^61-1 is factored in microseconds, where trial
// division up to its square root would take seconds.
#include <cstdint>
#include <vector>

namespace nestor {

// Ascending, with multiplicity; empty for n <= 1.
std::vector<std::int64_t> primeFactors(std::int64_t n);
// Ascending; {1} for n <= 1.
std::vector<std::int64_t> divisorsOf(std::int64_t n);

} // namespace nestor
