#include "mapspace/Divisors.h"

#include <algorithm>
#include <numeric>

namespace nestor {

namespace {

using u64 = std::uint64_t;
__extension__ typedef unsigned __int128 u128;  // (a GCC/Clang extension: no pedantic warning)

u64 mulMod(u64 a, u64 b, u64 m) { return static_cast<u64>(static_cast<u128>(a) * b % m); }

u64 powMod(u64 a, u64 e, u64 m)
{
    u64 r = 1;
    for (a %= m; e > 0; e >>= 1) {
        if (e & 1) r = mulMod(r, a, m);
        a = mulMod(a, a, m);
    }
    return r;
}

constexpr u64 kWitnesses[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};  // exact for every n < 2^64

bool isPrime(u64 n)
{
    if (n < 2) return false;
    for (u64 p : kWitnesses)
        if (n % p == 0) return n == p;
    u64 d = n - 1;
    int r = 0;
    for (; (d & 1) == 0; d >>= 1) ++r;
    for (u64 a : kWitnesses) {
        u64 x = powMod(a, d, n);
        if (x == 1 || x == n - 1) continue;
        bool composite = true;
        for (int i = 1; i < r && composite; ++i) {
            x = mulMod(x, x, n);
            composite = x != n - 1;
        }
        if (composite) return false;
    }
    return true;
}

// A non-trivial factor of an odd composite n without factors below 1000 (Floyd cycle finding;
// the constant c walks deterministically until a split is found).
u64 rhoFactor(u64 n)
{
    for (u64 c = 1;; ++c) {
        u64 x = 2, y = 2, d = 1;
        auto f = [&](u64 v) { return (mulMod(v, v, n) + c) % n; };
        while (d == 1) {
            x = f(x);
            y = f(f(y));
            d = std::gcd(x > y ? x - y : y - x, n);
        }
        if (d != n) return d;
    }
}

void factorInto(u64 n, std::vector<std::int64_t>& out)
{
    if (n == 1) return;
    if (isPrime(n)) {
        out.push_back(static_cast<std::int64_t>(n));
        return;
    }
    const u64 d = rhoFactor(n);
    factorInto(d, out);
    factorInto(n / d, out);
}

} // namespace

std::vector<std::int64_t> primeFactors(std::int64_t value)
{
    std::vector<std::int64_t> out;
    if (value <= 1) return out;
    u64 n = static_cast<u64>(value);
    for (u64 p = 2; p < 1000 && p * p <= n; p += (p == 2 ? 1 : 2))
        while (n % p == 0) {
            out.push_back(static_cast<std::int64_t>(p));
            n /= p;
        }
    factorInto(n, out);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::int64_t> divisorsOf(std::int64_t n)
{
    std::vector<std::int64_t> divs{1};
    const std::vector<std::int64_t> primes = primeFactors(n);
    for (std::size_t i = 0; i < primes.size();) {
        std::size_t j = i;
        while (j < primes.size() && primes[j] == primes[i]) ++j;
        const std::size_t base = divs.size();
        std::int64_t power = 1;
        for (std::size_t e = i; e < j; ++e) {
            power *= primes[i];
            for (std::size_t k = 0; k < base; ++k) divs.push_back(divs[k] * power);
        }
        i = j;
    }
    std::sort(divs.begin(), divs.end());
    return divs;
}

} // namespace nestor
