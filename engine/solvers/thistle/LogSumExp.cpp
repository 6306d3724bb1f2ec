#include "solvers/thistle/LogSumExp.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nestor::thistle {

LogSumExp::LogSumExp(const Posynomial& p)
{
    begin_.push_back(0);
    for (const Monomial& m : p.terms) {
        logCoef_.push_back(std::log(m.coef));
        for (const auto& [v, e] : m.powers) {
            var_.push_back(v);
            exponent_.push_back(e);
        }
        begin_.push_back(static_cast<int>(var_.size()));
    }
    weight_.resize(logCoef_.size());
}

double LogSumExp::evaluate(const double* y, double* gradient)
{
    // Largest exponent factored out: no overflow for large tiles.
    const std::size_t terms = logCoef_.size();
    double zmax = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < terms; ++k) {
        double z = logCoef_[k];
        for (int i = begin_[k]; i < begin_[k + 1]; ++i) z += exponent_[static_cast<std::size_t>(i)] * y[var_[static_cast<std::size_t>(i)]];
        weight_[k] = z;
        zmax = std::max(zmax, z);
    }
    double s = 0.0;
    for (std::size_t k = 0; k < terms; ++k) {
        weight_[k] = std::exp(weight_[k] - zmax);
        s += weight_[k];
    }
    for (double& w : weight_) w /= s;
    if (gradient) {
        for (std::size_t k = 0; k < terms; ++k)
            for (int i = begin_[k]; i < begin_[k + 1]; ++i)
                gradient[var_[static_cast<std::size_t>(i)]] += weight_[k] * exponent_[static_cast<std::size_t>(i)];
    }
    return zmax + std::log(s);
}

void LogSumExp::addHessian(double factor, const double* gradient, int n, double* lowerDense) const
{
    if (factor == 0.0) return;
    for (std::size_t k = 0; k < logCoef_.size(); ++k) {
        const double fw = factor * weight_[k];
        for (int i = begin_[k]; i < begin_[k + 1]; ++i) {
            const int vi = var_[static_cast<std::size_t>(i)];
            const double ai = fw * exponent_[static_cast<std::size_t>(i)];
            for (int j = begin_[k]; j < begin_[k + 1]; ++j) {
                const int vj = var_[static_cast<std::size_t>(j)];
                if (vj <= vi) lowerDense[vi * n + vj] += ai * exponent_[static_cast<std::size_t>(j)];
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        if (gradient[i] == 0.0) continue;
        const double fg = factor * gradient[i];
        for (int j = 0; j <= i; ++j) lowerDense[i * n + j] -= fg * gradient[j];
    }
}

} // namespace nestor::thistle
