#include "solvers/thistle/GpSolver.h"

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

#include "solvers/thistle/LogSumExp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

namespace nestor::thistle {

double logPosynomial(const Posynomial& p, const std::vector<double>& y, std::vector<double>* gradient)
{
    // log-sum-exp with the largest exponent factored out (no overflow for large tiles).
    std::vector<double> z(p.terms.size());
    double zmax = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < p.terms.size(); ++k) {
        double v = std::log(p.terms[k].coef);
        for (const auto& [var, e] : p.terms[k].powers) v += e * y[static_cast<std::size_t>(var)];
        z[k] = v;
        zmax = std::max(zmax, v);
    }
    double s = 0.0;
    for (double v : z) s += std::exp(v - zmax);
    if (gradient) {
        std::fill(gradient->begin(), gradient->end(), 0.0);
        for (std::size_t k = 0; k < p.terms.size(); ++k) {
            const double w = std::exp(z[k] - zmax) / s;
            for (const auto& [var, e] : p.terms[k].powers) (*gradient)[static_cast<std::size_t>(var)] += w * e;
        }
    }
    return zmax + std::log(s);
}

namespace {

using Ipopt::Index;
using Ipopt::Number;

// Debian's Ipopt 3.11 factorizes with the sequential MUMPS, whose Fortran modules keep state in
// globals (DMUMPS_LOAD, DMUMPS_BUF ...): two solves at once in one process would share them. Every
// solve in the process holds this lock.
std::mutex& ipoptMutex()
{
    static std::mutex m;
    return m;
}

// Dense Jacobian rows and a dense lower-triangular Hessian (the programs have a few dozen
// variables). Every function is evaluated once per point, with its gradient: Ipopt asks for the
// values, the gradients and the Hessian at the same point in separate calls.
class GpTnlp : public Ipopt::TNLP {
public:
    GpTnlp(const GpProblem& p, bool exactHessian, const std::atomic<bool>* cancel, GpResult& r)
        : p_(p), exactHessian_(exactHessian), cancel_(cancel), r_(r), n_(static_cast<std::size_t>(p.numVars))
    {
        functions_.emplace_back(p.objective);
        for (const auto& c : p.atMostOne) functions_.emplace_back(c);
        values_.resize(functions_.size());
        gradients_.assign(functions_.size() * n_, 0.0);
        hessian_.assign(n_ * n_, 0.0);
    }

    bool get_nlp_info(Index& n, Index& m, Index& nnzJac, Index& nnzHess, IndexStyleEnum& style) override
    {
        n = p_.numVars;
        m = static_cast<Index>(p_.atMostOne.size() + p_.equalities.size());
        nnzJac = m * n;
        nnzHess = exactHessian_ ? n * (n + 1) / 2 : 0;
        style = C_STYLE;
        return true;
    }

    bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override
    {
        for (Index i = 0; i < n; ++i) {
            xl[i] = p_.lower[static_cast<std::size_t>(i)];
            xu[i] = p_.upper[static_cast<std::size_t>(i)];
        }
        const Index mi = static_cast<Index>(p_.atMostOne.size());
        for (Index j = 0; j < m; ++j) {
            if (j < mi) {
                gl[j] = -1e19;
                gu[j] = 0.0;
            } else {
                gl[j] = gu[j] = p_.equalities[static_cast<std::size_t>(j - mi)].rhs;
            }
        }
        return true;
    }

    bool get_starting_point(Index n, bool initX, Number* x, bool, Number*, Number*, Index, bool, Number*) override
    {
        if (initX)
            for (Index i = 0; i < n; ++i) x[i] = p_.start[static_cast<std::size_t>(i)];
        return true;
    }

    bool eval_f(Index, const Number* x, bool, Number& obj) override
    {
        at(x);
        obj = values_[0];
        return std::isfinite(obj);
    }

    bool eval_grad_f(Index, const Number* x, bool, Number* g) override
    {
        at(x);
        std::copy(gradients_.begin(), gradients_.begin() + static_cast<std::ptrdiff_t>(n_), g);
        return true;
    }

    bool eval_g(Index, const Number* x, bool, Index, Number* g) override
    {
        at(x);
        std::size_t j = 0;
        for (; j + 1 < functions_.size(); ++j) g[j] = values_[j + 1];
        for (const auto& e : p_.equalities) {
            double s = 0.0;
            for (int v : e.vars) s += x[v];
            g[j++] = s;
        }
        return true;
    }

    bool eval_jac_g(Index n, const Number* x, bool, Index m, Index, Index* iRow, Index* jCol, Number* values) override
    {
        if (!values) {
            for (Index j = 0; j < m; ++j)
                for (Index i = 0; i < n; ++i) {
                    iRow[j * n + i] = j;
                    jCol[j * n + i] = i;
                }
            return true;
        }
        at(x);
        const std::size_t inequalities = functions_.size() - 1;
        std::copy(gradients_.begin() + static_cast<std::ptrdiff_t>(n_), gradients_.end(), values);
        std::fill(values + inequalities * n_, values + static_cast<std::size_t>(m) * n_, 0.0);
        std::size_t j = inequalities;
        for (const auto& e : p_.equalities) {
            for (int v : e.vars) values[j * n_ + static_cast<std::size_t>(v)] += 1.0;
            ++j;
        }
        return true;
    }

    bool eval_h(Index n, const Number* x, bool, Number objFactor, Index, const Number* lambda, bool, Index, Index* iRow,
                Index* jCol, Number* values) override
    {
        if (!values) {
            Index k = 0;
            for (Index i = 0; i < n; ++i)
                for (Index j = 0; j <= i; ++j) {
                    iRow[k] = i;
                    jCol[k] = j;
                    ++k;
                }
            return true;
        }
        at(x);
        // The equalities are linear: only the objective and the inequalities have curvature.
        std::fill(hessian_.begin(), hessian_.end(), 0.0);
        for (std::size_t f = 0; f < functions_.size(); ++f)
            functions_[f].addHessian(f == 0 ? objFactor : lambda[f - 1], gradients_.data() + f * n_, n, hessian_.data());
        Index k = 0;
        for (Index i = 0; i < n; ++i)
            for (Index j = 0; j <= i; ++j) values[k++] = hessian_[static_cast<std::size_t>(i) * n_ + static_cast<std::size_t>(j)];
        return true;
    }

    bool intermediate_callback(Ipopt::AlgorithmMode, Index iter, Number, Number, Number, Number, Number, Number, Number, Number,
                               Index, const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override
    {
        r_.iterations = iter;
        return !(cancel_ && cancel_->load());
    }

    void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number* zL, const Number* zU, Index m,
                           const Number* g, const Number* lambda, Number, const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override
    {
        r_.solved = status == Ipopt::SUCCESS || status == Ipopt::STOP_AT_ACCEPTABLE_POINT;
        r_.status = statusText(status);
        r_.y.assign(x, x + n);
        r_.boundMultipliersLower.assign(zL, zL + n);
        r_.boundMultipliersUpper.assign(zU, zU + n);
        const std::size_t mi = p_.atMostOne.size();
        r_.inequalityMultipliers.assign(lambda, lambda + mi);
        r_.equalityMultipliers.assign(lambda + mi, lambda + m);
        double viol = -std::numeric_limits<double>::infinity();
        for (Index j = 0; j < m; ++j) {
            const double v = static_cast<std::size_t>(j) < mi ? g[j] : std::fabs(g[j] - p_.equalities[static_cast<std::size_t>(j) - mi].rhs);
            viol = std::max(viol, v);
        }
        r_.maxViolation = m > 0 ? viol : 0.0;
    }

private:
    static std::string statusText(Ipopt::SolverReturn s)
    {
        switch (s) {
        case Ipopt::SUCCESS: return "optimal";
        case Ipopt::STOP_AT_ACCEPTABLE_POINT: return "acceptable";
        case Ipopt::MAXITER_EXCEEDED: return "iteration limit reached";
        case Ipopt::CPUTIME_EXCEEDED: return "time limit reached";
        case Ipopt::LOCAL_INFEASIBILITY: return "infeasible (the constraints cannot all hold)";
        case Ipopt::USER_REQUESTED_STOP: return "cancelled";
        case Ipopt::DIVERGING_ITERATES: return "diverging (unbounded program)";
        case Ipopt::RESTORATION_FAILURE: return "restoration failed (likely infeasible)";
        default: return "solver error " + std::to_string(static_cast<int>(s));
        }
    }

    // Every function's value and gradient at x, unless x is the point of the last call.
    void at(const Number* x)
    {
        if (!point_.empty() && std::equal(point_.begin(), point_.end(), x)) return;
        point_.assign(x, x + n_);
        std::fill(gradients_.begin(), gradients_.end(), 0.0);
        for (std::size_t f = 0; f < functions_.size(); ++f) values_[f] = functions_[f].evaluate(x, gradients_.data() + f * n_);
    }

    const GpProblem& p_;
    const bool exactHessian_;
    const std::atomic<bool>* cancel_;
    GpResult& r_;
    const std::size_t n_;
    std::vector<LogSumExp> functions_;  // the objective, then the inequalities
    std::vector<double> point_, values_, gradients_, hessian_;
};

} // namespace

GpResult solveGp(const GpProblem& problem, const GpSolverOptions& options)
{
    GpResult result;
    const std::lock_guard<std::mutex> lock(ipoptMutex());
    Ipopt::SmartPtr<Ipopt::TNLP> nlp = new GpTnlp(problem, options.exactHessian, options.cancel, result);
    Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
    // Silent unless asked: no banner (sb), no iteration log, no output file.
    app->Options()->SetStringValue("sb", "yes");
    app->Options()->SetIntegerValue("print_level", options.verbose ? 5 : 0);
    app->Options()->SetStringValue("hessian_approximation", options.exactHessian ? "exact" : "limited-memory");
    app->Options()->SetIntegerValue("max_iter", options.maxIterations);
    app->Options()->SetNumericValue("max_cpu_time", options.maxCpuSeconds);
    app->Options()->SetNumericValue("tol", options.tolerance);
    // Each MUMPS call costs ~0.1 ms of fixed overhead on these tiny systems (MUMPS 5.5 sizes its
    // whole instance on every call), more than the factorization itself: the options keep the
    // calls per iteration low. The monotone barrier update solves one system per iteration (the
    // adaptive one solves several); no forced refinement solve; the constraint multipliers
    // start at zero instead of a least-squares estimate (one factorization less).
    app->Options()->SetStringValue("mu_strategy", "monotone");
    app->Options()->SetIntegerValue("min_refinement_steps", 0);
    app->Options()->SetNumericValue("constr_mult_init_max", 0.0);
    if (app->Initialize() != Ipopt::Solve_Succeeded) {
        result.status = "Ipopt could not be initialized";
        return result;
    }
    const Ipopt::ApplicationReturnStatus st = app->OptimizeTNLP(nlp);
    if (result.y.empty()) {
        result.status = "Ipopt stopped before a first iterate (status " + std::to_string(static_cast<int>(st)) + ")";
        return result;
    }
    std::vector<double> x(result.y.size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::exp(result.y[i]);
    result.objective = problem.objective.value(x);
    return result;
}

} // namespace nestor::thistle
