#pragma once
// Overflow-checked integer arithmetic and the one bound that keeps the model's arithmetic exact.
//
// The bound (docs/project-format.md, "Size limits"): every count the model can produce stays
// below 2^62, so a sum of two counts cannot wrap a signed 64-bit integer either. Validation
// (Workload, Architecture, Mapping) derives from it what must be checked; whatever passes
// evaluates without overflow.
#include <cstdint>
#include <cstdio>
#include <string>

namespace nestor {

inline constexpr int kCountLimitLog2 = 62;
inline constexpr std::int64_t kCountLimit = std::int64_t{1} << kCountLimitLog2;

// a * b; false (and *out untouched) when it does not fit in 64 bits.
inline bool checkedMul(std::int64_t a, std::int64_t b, std::int64_t* out)
{
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) return false;
    *out = r;
    return true;
}

inline bool checkedAdd(std::int64_t a, std::int64_t b, std::int64_t* out)
{
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r)) return false;
    *out = r;
    return true;
}

// Product and sum of non-negative values, saturated at kCountLimit: exact below the limit, and
// kCountLimit whenever the true result is at or above it (so `< kCountLimit` checks the true value).
inline std::int64_t limitedMul(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (!checkedMul(a, b, &r) || r > kCountLimit) return kCountLimit;
    return r;
}

inline std::int64_t limitedAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (!checkedAdd(a, b, &r) || r > kCountLimit) return kCountLimit;
    return r;
}

inline bool belowCountLimit(std::int64_t v) { return v < kCountLimit; }

// An approximate magnitude for messages about values that may not fit: "1.18e+21".
inline std::string approximateMagnitude(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

} // namespace nestor
