#pragma once
// Posynomials over positive variables x_0..x_{n-1}: sums of monomials c * prod x_i^a_i with
// c > 0 and real exponents. The geometric programs of the Thistle solver are built from them;
// with y = log x every monomial becomes exp(a.y + log c), so log(posynomial) is convex in y.
#include <cstddef>
#include <vector>

namespace nestor::thistle {

struct Monomial {
    double coef = 1.0;                            // > 0
    std::vector<std::pair<int, double>> powers;   // (variable, exponent), sorted by variable, no zero exponents

    double value(const std::vector<double>& x) const;
    Monomial operator*(const Monomial& o) const;
};

struct Posynomial {
    std::vector<Monomial> terms;

    static Posynomial constant(double c);
    static Posynomial variable(int v, double exponent = 1.0);

    double value(const std::vector<double>& x) const;
    bool empty() const { return terms.empty(); }
    Posynomial& operator+=(const Posynomial& o);
    Posynomial operator*(const Posynomial& o) const;
    Posynomial& scale(double c);
    // Merges monomials with equal powers (their coefficients add).
    void simplify();
};

Posynomial operator+(Posynomial a, const Posynomial& b);

} // namespace nestor::thistle
