#pragma once
// A geometric program in log space, solved with Ipopt (kept private to this module: no Ipopt
// header appears in any header of engine/solvers). With x = exp(y) a posynomial
// sum_k c_k prod_i x_i^a_ki becomes sum_k exp(a_k . y + log c_k), and its logarithm is
// convex in y; so  minimize log f0(y)  s.t.  log f_i(y) <= 0,  E y = b  is a convex program
// whose KKT point is the global optimum.
#include "solvers/thistle/Posynomial.h"

#include <atomic>
#include <string>
#include <vector>

namespace nestor::thistle {

struct LinearEquality {
    std::vector<int> vars;  // sum of these y's
    double rhs = 0.0;       // equals rhs
};

struct GpProblem {
    int numVars = 0;
    std::vector<double> lower, upper, start;  // bounds and starting point of y = log x
    Posynomial objective;                      // over the y's variables (x = exp(y))
    std::vector<Posynomial> atMostOne;         // each posynomial <= 1
    std::vector<std::string> constraintNames;  // same order, for messages
    std::vector<LinearEquality> equalities;
};

struct GpSolverOptions {
    bool verbose = false;         // Ipopt's own banner and iteration log on stdout
    bool exactHessian = true;     // the log-sum-exp Hessians (else Ipopt's limited-memory quasi-Newton)
    int maxIterations = 3000;
    double maxCpuSeconds = 20.0;
    double tolerance = 1e-8;
    const std::atomic<bool>* cancel = nullptr;
};

struct GpResult {
    bool solved = false;           // Ipopt reported an optimal (or acceptable) point
    std::string status;            // Ipopt's status in words
    std::vector<double> y;         // log x at the returned point
    double objective = 0.0;        // f0(exp(y)), not its logarithm
    double maxViolation = 0.0;     // max over constraints of log f_i(y) (<= ~0 when feasible) and |E y - b|
    std::vector<double> inequalityMultipliers;  // >= 0, one per atMostOne
    std::vector<double> equalityMultipliers;
    std::vector<double> boundMultipliersLower, boundMultipliersUpper;
    int iterations = 0;
};

GpResult solveGp(const GpProblem& problem, const GpSolverOptions& options = {});

// log of a posynomial at y and its gradient (exposed for tests of the KKT conditions).
double logPosynomial(const Posynomial& p, const std::vector<double>& y, std::vector<double>* gradient);

} // namespace nestor::thistle
