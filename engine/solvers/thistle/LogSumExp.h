#pragma once
// A posynomial in log space, flattened for the solver's inner loop: with y = log x,
// log f(y) = log sum_k exp(a_k . y + log c_k). Exponents sit in one contiguous array (no
// allocation per evaluation), and the evaluation keeps the softmax weights w_k so that the
// Hessian, sum_k w_k a_k a_k^T - g g^T, costs no second pass over the exponentials.
#include "solvers/thistle/Posynomial.h"

#include <vector>

namespace nestor::thistle {

class LogSumExp {
public:
    LogSumExp() = default;
    explicit LogSumExp(const Posynomial& p);

    // log f at y; adds its gradient into `gradient` (zeroed by the caller) when non-null, and
    // keeps the weights for addHessian.
    double evaluate(const double* y, double* gradient);
    // H += factor x (Hessian of log f at the y of the last evaluate with a gradient), into the
    // lower triangle of a dense row-major n x n matrix.
    void addHessian(double factor, const double* gradient, int n, double* lowerDense) const;

private:
    std::vector<double> logCoef_;
    std::vector<int> begin_;        // term k's exponents are [begin_[k], begin_[k + 1])
    std::vector<int> var_;
    std::vector<double> exponent_;
    std::vector<double> weight_;    // softmax weights of the last evaluation
};

} // namespace nestor::thistle
