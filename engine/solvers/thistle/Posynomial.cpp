#include "solvers/thistle/Posynomial.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace nestor::thistle {

double Monomial::value(const std::vector<double>& x) const
{
    double v = coef;
    for (const auto& [var, e] : powers) v *= e == 1.0 ? x[static_cast<std::size_t>(var)] : std::pow(x[static_cast<std::size_t>(var)], e);
    return v;
}

Monomial Monomial::operator*(const Monomial& o) const
{
    Monomial m;
    m.coef = coef * o.coef;
    std::size_t i = 0, j = 0;
    while (i < powers.size() || j < o.powers.size()) {
        if (j == o.powers.size() || (i < powers.size() && powers[i].first < o.powers[j].first)) {
            m.powers.push_back(powers[i++]);
        } else if (i == powers.size() || o.powers[j].first < powers[i].first) {
            m.powers.push_back(o.powers[j++]);
        } else {
            const double e = powers[i].second + o.powers[j].second;
            if (e != 0.0) m.powers.emplace_back(powers[i].first, e);
            ++i;
            ++j;
        }
    }
    return m;
}

Posynomial Posynomial::constant(double c)
{
    Posynomial p;
    if (c > 0) p.terms.push_back(Monomial{c, {}});
    return p;
}

Posynomial Posynomial::variable(int v, double exponent)
{
    Posynomial p;
    p.terms.push_back(Monomial{1.0, {{v, exponent}}});
    return p;
}

double Posynomial::value(const std::vector<double>& x) const
{
    double s = 0.0;
    for (const auto& m : terms) s += m.value(x);
    return s;
}

Posynomial& Posynomial::operator+=(const Posynomial& o)
{
    terms.insert(terms.end(), o.terms.begin(), o.terms.end());
    return *this;
}

Posynomial Posynomial::operator*(const Posynomial& o) const
{
    Posynomial p;
    p.terms.reserve(terms.size() * o.terms.size());
    for (const auto& a : terms)
        for (const auto& b : o.terms) p.terms.push_back(a * b);
    p.simplify();
    return p;
}

Posynomial& Posynomial::scale(double c)
{
    for (auto& m : terms) m.coef *= c;
    return *this;
}

void Posynomial::simplify()
{
    std::map<std::vector<std::pair<int, double>>, double> merged;
    for (const auto& m : terms) merged[m.powers] += m.coef;
    terms.clear();
    for (auto& [powers, c] : merged) terms.push_back(Monomial{c, powers});
}

Posynomial operator+(Posynomial a, const Posynomial& b)
{
    a += b;
    return a;
}

} // namespace nestor::thistle
