// The Thistle solver (engine/solvers/thistle): the geometric programs solved by Ipopt are KKT
// points (checked here with our own gradients) and lower bounds of a brute force over every
// integer factorization of a tiny layer, whose best point the relaxed optimum approaches;
// rounding keeps every candidate feasible for Nestor's cost model; ill-posed programs end with
// an error naming the cause; Ipopt prints nothing unless asked.
#include "arch/EnergyModels.h"
#include "support/ThistleTestArchitecture.h"
#include "model/Model.h"
#include "solvers/thistle/GpSolver.h"
#include "solvers/thistle/LogSumExp.h"
#include "solvers/thistle/NestMapping.h"
#include "solvers/thistle/ThistleOptimizer.h"

#include <QtTest/QtTest>

#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <tuple>
#include <unistd.h>

using namespace nestor;
using namespace nestor::thistle;
using nestor::test::thistleArch;

namespace {

Workload tinyLayer()
{
    ConvParams p;
    p.name = "tiny";
    p.M = 4, p.C = 2, p.P = 4, p.Q = 2, p.R = 3, p.S = 1;
    return makeConv2d(p);
}

ProgramSpec fixedSpec(const Architecture& a)
{
    ProgramSpec s;
    s.registers = static_cast<double>(*a.levels[2].size_words);
    s.sramWords = static_cast<double>(*a.levels[1].size_words);
    s.pes = static_cast<double>(a.levels[2].instances);
    s.eR_pJ = a.levels[2].energy.read_pJ;
    s.eS_pJ = a.levels[1].energy.read_pJ;
    s.eD_pJ = a.levels[0].energy.read_pJ;
    s.eMac_pJ = a.compute.mac_energy_pJ;
    s.tech = Technology::thistle45nm();
    return s;
}

std::vector<double> inY(const ThistleProgram& prog, const std::vector<double>& x)
{
    std::vector<double> y(static_cast<std::size_t>(prog.gp.numVars), 0.0);
    for (std::size_t g = 0; g < prog.yOfVar.size(); ++g)
        if (prog.yOfVar[g] >= 0) y[static_cast<std::size_t>(prog.yOfVar[g])] = x[g];
    return y;
}

// Stationarity, feasibility, dual feasibility and complementarity of Ipopt's point, with our
// own gradients: grad f + sum_i lambda_i grad g_i + sum_j mu_j grad h_j - zL + zU = 0.
void verifyKkt(const GpProblem& gp, const GpResult& r)
{
    const std::size_t n = static_cast<std::size_t>(gp.numVars);
    std::vector<double> grad(n), g(n), lagr(n);
    logPosynomial(gp.objective, r.y, &grad);
    lagr = grad;
    double scale = 1.0;
    for (std::size_t i = 0; i < gp.atMostOne.size(); ++i) {
        const double v = logPosynomial(gp.atMostOne[i], r.y, &g);
        const double lambda = r.inequalityMultipliers[i];
        QVERIFY2(v <= 1e-6, qPrintable(QString::fromStdString(gp.constraintNames[i]) + " violated"));
        QVERIFY(lambda >= -1e-8);
        QVERIFY2(std::fabs(lambda * v) <= 1e-5, "complementarity");
        for (std::size_t k = 0; k < n; ++k) lagr[k] += lambda * g[k];
        scale = std::max(scale, std::fabs(lambda));
    }
    for (std::size_t j = 0; j < gp.equalities.size(); ++j) {
        double s = 0;
        for (int v : gp.equalities[j].vars) {
            s += r.y[static_cast<std::size_t>(v)];
            lagr[static_cast<std::size_t>(v)] += r.equalityMultipliers[j];
        }
        QVERIFY(std::fabs(s - gp.equalities[j].rhs) <= 1e-6);
    }
    for (std::size_t k = 0; k < n; ++k) lagr[k] += -r.boundMultipliersLower[k] + r.boundMultipliersUpper[k];
    for (std::size_t k = 0; k < n; ++k) QVERIFY2(std::fabs(lagr[k]) <= 1e-4 * scale, qPrintable("stationarity, variable " + QString::number(k)));
}

} // namespace

class TstThistleSolver : public QObject {
    Q_OBJECT
private slots:
    void relaxedOptimumIsKktAndBoundsBruteForce();
    void codesignProgramIsKkt();
    void roundingKeepsFeasibility();
    void logSumExpDerivativesMatchHandAndFiniteDifferences();
    void exactHessianAndQuasiNewtonReachTheSameOptimum();
    void roundingVisitsEveryCombinationNearestFirst();
    void roundingOnTwoThreadsGivesTheSequentialResult();
    void areaTooSmallNamesTheCause();
    void layerThatCannotFitNamesTheCause();
    void wrongArchitectureShapeNamesTheField();
    void ipoptPrintsNothingByDefault();
};

void TstThistleSolver::relaxedOptimumIsKktAndBoundsBruteForce()
{
    const Workload w = tinyLayer();
    const Architecture a = thistleArch(16, 64, 4);
    const ThistleLayer L = makeThistleLayer(w);
    const ProgramSpec spec = fixedSpec(a);
    const std::vector<Permutation> perms = prunedPermutations(L);
    QVERIFY(!perms.empty());
    int checked = 0;
    for (std::size_t pi = 0; pi < perms.size(); pi += std::max<std::size_t>(1, perms.size() / 4)) {
        const Permutation& perm = perms[pi];
        const ThistleProgram prog = buildProgram(L, perm, spec);
        const GpResult r = solveGp(prog.gp);
        QVERIFY2(r.solved, r.status.c_str());
        verifyKkt(prog.gp, r);

        // Brute force: every integer factorization of every tiled dimension over its four loops.
        double best = INFINITY;
        const TileNest nest = buildNest(L, perm);
        test::forEachIntegerDesign(L, [&](const std::vector<std::int64_t>& trips) {
            std::vector<double> x = prog.fixedValue;
            for (int d : L.tiled) {
                const std::size_t du = static_cast<std::size_t>(d);
                for (int v : {L.varDram[du], L.varSram[du], L.varPe[du], L.varReg[du]})
                    x[static_cast<std::size_t>(v)] = static_cast<double>(trips[static_cast<std::size_t>(v)]);
            }
            std::vector<double> logx(x.size());
            for (std::size_t g = 0; g < x.size(); ++g) logx[g] = x[g] > 0 ? std::log(x[g]) : 0.0;
            const std::vector<double> y = inY(prog, logx);
            bool feasible = true;
            for (const auto& c : prog.gp.atMostOne) feasible = feasible && logPosynomial(c, y, nullptr) <= 1e-12;
            if (feasible) {
                const double v = std::exp(logPosynomial(prog.gp.objective, y, nullptr));
                best = std::min(best, v);
                // The program's objective bounds the exact integer estimate from above.
                const double exact = exactCounts(L, nest, trips).energy_pJ(spec.eR_pJ, spec.eS_pJ, spec.eD_pJ, spec.eMac_pJ) /
                                     static_cast<double>(w.macs());
                QVERIFY(exact <= v * (1 + 1e-9));
            }
        });
        QVERIFY(std::isfinite(best));
        // The relaxation is a lower bound of every integer point and close to the best one.
        QVERIFY2(r.objective <= best * (1 + 1e-6), qPrintable(QString("relaxed %1 vs integer %2").arg(r.objective).arg(best)));
        QVERIFY2(r.objective >= 0.5 * best, qPrintable(QString("relaxed %1 vs integer %2").arg(r.objective).arg(best)));
        ++checked;
    }
    QVERIFY(checked >= 2);
}

void TstThistleSolver::codesignProgramIsKkt()
{
    ConvParams p;
    p.M = 16, p.C = 8, p.P = 8, p.Q = 8, p.R = 3, p.S = 3;
    const Workload w = makeConv2d(p);
    const ThistleLayer L = makeThistleLayer(w);
    ProgramSpec spec;
    spec.codesign = true;
    spec.tech = Technology::thistle45nm();
    spec.area_um2 = 400000;
    const std::vector<Permutation> perms = prunedPermutations(L);
    const ThistleProgram prog = buildProgram(L, perms.front(), spec);
    const GpResult r = solveGp(prog.gp);
    QVERIFY2(r.solved, r.status.c_str());
    verifyKkt(prog.gp, r);
    // The area constraint is active at the optimum of a small budget... or R, S, P are interior;
    // either way the area used is within the budget.
    const std::vector<double> x = prog.valuesAt(r.y);
    const double area = thistle45nm::totalArea_um2(x[static_cast<std::size_t>(prog.varR)], x[static_cast<std::size_t>(prog.varP)],
                                                   x[static_cast<std::size_t>(prog.varS)]);
    QVERIFY(area <= spec.area_um2 * (1 + 1e-6));
}

void TstThistleSolver::roundingKeepsFeasibility()
{
    ConvParams p;
    p.M = 32, p.C = 16, p.P = 14, p.Q = 14, p.R = 3, p.S = 3;
    const Workload w = makeConv2d(p);
    const ThistleLayer L = makeThistleLayer(w);
    for (bool codesign : {false, true}) {
        const Architecture base = thistleArch(64, 8192, 16);
        ProgramSpec spec = fixedSpec(base);
        spec.codesign = codesign;
        spec.area_um2 = 300000;
        const std::vector<Permutation> perms = prunedPermutations(L);
        int candidates = 0;
        for (std::size_t pi = 0; pi < perms.size() && pi < 6; ++pi) {
            const ThistleProgram prog = buildProgram(L, perms[pi], spec);
            const GpResult r = solveGp(prog.gp);
            QVERIFY2(r.solved, r.status.c_str());
            const std::vector<RoundedCandidate> cands = roundSolution(L, perms[pi], spec, prog, prog.valuesAt(r.y), RoundingOptions{});
            const TileNest nest = buildNest(L, perms[pi]);
            for (std::size_t c = 0; c < cands.size(); c += 7) {
                const RoundedCandidate& rc = cands[c];
                for (int d : L.tiled) {
                    const std::size_t du = static_cast<std::size_t>(d);
                    std::int64_t prod = 1;
                    for (const auto* vars : {&L.varDram, &L.varSram, &L.varPe, &L.varReg}) prod *= rc.trips[static_cast<std::size_t>((*vars)[du])];
                    QCOMPARE(prod, w.bounds[du]);
                }
                const Architecture a = codesign ? codesignArchitecture(base, rc.registers, rc.sramWords, rc.pes) : base;
                const Evaluation ev = evaluate(w, a, toMapping(nest, rc.trips, "rounded"));
                QVERIFY2(ev.valid, ev.errors.empty() ? "" : ev.errors.front().toString().c_str());
                if (codesign) {
                    QVERIFY(ev.area_um2 <= spec.area_um2 * (1 + 1e-9));
                    QVERIFY((rc.registers & (rc.registers - 1)) == 0);  // powers of two
                    QVERIFY((rc.sramWords & (rc.sramWords - 1)) == 0);
                }
                ++candidates;
            }
        }
        QVERIFY(candidates > 0);
    }
}

void TstThistleSolver::logSumExpDerivativesMatchHandAndFiniteDifferences()
{
    // f = x0 + x1 at y = 0: log f = log 2, gradient (1/2, 1/2), Hessian diag(w) - w w^T.
    {
        LogSumExp f(Posynomial::variable(0) + Posynomial::variable(1));
        const double y[2] = {0.0, 0.0};
        double g[2] = {0.0, 0.0};
        QVERIFY(std::fabs(f.evaluate(y, g) - std::log(2.0)) < 1e-15);
        QVERIFY(std::fabs(g[0] - 0.5) < 1e-15 && std::fabs(g[1] - 0.5) < 1e-15);
        double h[4] = {0, 0, 0, 0};
        f.addHessian(2.0, g, 2, h);  // twice the Hessian, lower triangle
        QVERIFY(std::fabs(h[0] - 0.5) < 1e-15);
        QVERIFY(std::fabs(h[2] + 0.5) < 1e-15);
        QVERIFY(std::fabs(h[3] - 0.5) < 1e-15);
        QCOMPARE(h[1], 0.0);  // upper triangle untouched
    }
    // f = 2 x0^2 / x1 + x1^3 + 0.5 x0 x2^-0.5 + 7: against central differences of logPosynomial's
    // gradient (a separate implementation).
    Posynomial p = (Posynomial::variable(0, 2.0) * Posynomial::variable(1, -1.0)).scale(2.0) + Posynomial::variable(1, 3.0) +
                   (Posynomial::variable(0) * Posynomial::variable(2, -0.5)).scale(0.5) + Posynomial::constant(7.0);
    LogSumExp f(p);
    const std::vector<double> y = {0.3, -0.2, 0.7};
    std::vector<double> g(3, 0.0), ref(3);
    const double v = f.evaluate(y.data(), g.data());
    QVERIFY(std::fabs(v - logPosynomial(p, y, &ref)) < 1e-12);
    for (int i = 0; i < 3; ++i) QVERIFY(std::fabs(g[static_cast<std::size_t>(i)] - ref[static_cast<std::size_t>(i)]) < 1e-12);
    std::vector<double> h(9, 0.0);
    f.addHessian(1.0, g.data(), 3, h.data());
    const double step = 1e-5;
    for (int j = 0; j < 3; ++j) {
        std::vector<double> up = y, down = y, gu(3), gd(3);
        up[static_cast<std::size_t>(j)] += step;
        down[static_cast<std::size_t>(j)] -= step;
        logPosynomial(p, up, &gu);
        logPosynomial(p, down, &gd);
        for (int i = j; i < 3; ++i) {
            const double fd = (gu[static_cast<std::size_t>(i)] - gd[static_cast<std::size_t>(i)]) / (2 * step);
            QVERIFY2(std::fabs(h[static_cast<std::size_t>(i * 3 + j)] - fd) < 1e-8, qPrintable(QString("H[%1][%2]").arg(i).arg(j)));
        }
    }
}

void TstThistleSolver::exactHessianAndQuasiNewtonReachTheSameOptimum()
{
    // Convex programs: every KKT point has the optimal value, whichever Hessian Ipopt used.
    ConvParams p;
    p.M = 32, p.C = 16, p.P = 14, p.Q = 14, p.R = 3, p.S = 3;
    const Workload w = makeConv2d(p);
    const ThistleLayer L = makeThistleLayer(w);
    for (bool codesign : {false, true}) {
        ProgramSpec spec = fixedSpec(thistleArch(64, 8192, 16));
        spec.codesign = codesign;
        spec.area_um2 = 300000;
        const std::vector<Permutation> perms = prunedPermutations(L);
        for (std::size_t pi = 0; pi < perms.size(); pi += std::max<std::size_t>(1, perms.size() / 5)) {
            const ThistleProgram prog = buildProgram(L, perms[pi], spec);
            GpSolverOptions exact, quasi;
            quasi.exactHessian = false;
            const GpResult a = solveGp(prog.gp, exact), b = solveGp(prog.gp, quasi);
            QVERIFY2(a.solved && b.solved, (a.status + " / " + b.status).c_str());
            verifyKkt(prog.gp, a);
            QVERIFY2(std::fabs(a.objective - b.objective) <= 1e-6 * b.objective,
                     qPrintable(QString("exact %1 vs quasi-Newton %2").arg(a.objective, 0, 'g', 12).arg(b.objective, 0, 'g', 12)));
        }
    }
}

void TstThistleSolver::roundingVisitsEveryCombinationNearestFirst()
{
    ConvParams p;
    p.M = 32, p.C = 16, p.P = 14, p.Q = 14, p.R = 3, p.S = 3;
    const Workload w = makeConv2d(p);
    const ThistleLayer L = makeThistleLayer(w);
    const ProgramSpec spec = fixedSpec(thistleArch(64, 8192, 16));
    const Permutation perm = prunedPermutations(L).front();
    const ThistleProgram prog = buildProgram(L, perm, spec);
    const GpResult r = solveGp(prog.gp);
    QVERIFY(r.solved);
    const std::vector<double> x = prog.valuesAt(r.y);
    RoundingOptions all;
    all.maxCombinations = std::size_t(1) << 40;
    all.minUtilization = 0.0;

    // The cross product of the level-by-level divisor chains, counted here by hand.
    std::size_t expected = 1;
    for (int d : L.tiled) {
        const std::size_t du = static_cast<std::size_t>(d);
        const double reg = x[static_cast<std::size_t>(L.varReg[du])], perPe = reg * x[static_cast<std::size_t>(L.varSram[du])],
                     tile = perPe * x[static_cast<std::size_t>(L.varPe[du])];
        std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> chains;
        for (std::int64_t ts : nearestDivisors(w.bounds[du], tile, all.divisorsPerLevel))
            for (std::int64_t tq : nearestDivisors(ts, perPe, all.divisorsPerLevel))
                for (std::int64_t tr : nearestDivisors(tq, reg, all.divisorsPerLevel)) chains.insert({ts, tq, tr});
        expected *= chains.size();
    }
    RoundingStats full;
    const std::vector<RoundedCandidate> every = roundSolution(L, perm, spec, prog, x, all, &full);
    QCOMPARE(full.combinations, expected);

    // Capped: the candidates kept are the nearest to the relaxed point (sum of the log distances
    // of the three tiles of every dimension).
    auto distance = [&](const RoundedCandidate& c) {
        double s = 0;
        for (int d : L.tiled) {
            const std::size_t du = static_cast<std::size_t>(d);
            auto at = [&](const std::vector<int>& v) { return static_cast<double>(c.trips[static_cast<std::size_t>(v[du])]); };
            const double reg = at(L.varReg), perPe = reg * at(L.varSram), tile = perPe * at(L.varPe);
            const double rreg = x[static_cast<std::size_t>(L.varReg[du])], rperPe = rreg * x[static_cast<std::size_t>(L.varSram[du])],
                         rtile = rperPe * x[static_cast<std::size_t>(L.varPe[du])];
            s += std::fabs(std::log(reg / rreg)) + std::fabs(std::log(perPe / rperPe)) + std::fabs(std::log(tile / rtile));
        }
        return s;
    };
    RoundingOptions capped = all;
    capped.maxCombinations = expected / 4;
    RoundingStats part;
    const std::vector<RoundedCandidate> near = roundSolution(L, perm, spec, prog, x, capped, &part);
    QCOMPARE(part.combinations, capped.maxCombinations);
    QVERIFY(!near.empty() && near.size() < every.size());
    std::set<std::vector<std::int64_t>> kept;
    double farthestKept = 0;
    for (const auto& c : near) {
        kept.insert(c.trips);
        farthestKept = std::max(farthestKept, distance(c));
    }
    for (const auto& c : every)
        if (!kept.count(c.trips)) QVERIFY(distance(c) >= farthestKept - 1e-9);
}

void TstThistleSolver::roundingOnTwoThreadsGivesTheSequentialResult()
{
    // The programs are rounded two at a time and merged in rank order: the same candidates, in
    // the same order, and the same best as one thread rounding them one after the other.
    ConvParams p;
    p.M = 32, p.C = 16, p.P = 14, p.Q = 14, p.R = 3, p.S = 3;
    const Workload w = makeConv2d(p);
    for (bool codesign : {false, true}) {
        OptimizeOptions o;
        o.codesign = codesign;
        o.area_um2 = 300000;
        o.topPermutations = 8;
        o.threads = 1;
        const LayerOptimization one = optimizeLayer(w, thistleArch(64, 8192, 16), o);
        o.threads = 2;
        const LayerOptimization two = optimizeLayer(w, thistleArch(64, 8192, 16), o);
        QVERIFY2(one.ok && two.ok, (one.error + two.error).c_str());
        QCOMPARE(two.candidatesEvaluated, one.candidatesEvaluated);
        QCOMPARE(two.candidates.size(), one.candidates.size());
        for (std::size_t i = 0; i < one.candidates.size(); ++i) {
            QVERIFY(two.candidates[i].trips == one.candidates[i].trips);
            QCOMPARE(two.candidates[i].eval.energy_pJ, one.candidates[i].eval.energy_pJ);
        }
        QVERIFY(two.best.trips == one.best.trips);
        QCOMPARE(two.best.eval.energy_pJ, one.best.eval.energy_pJ);
    }
}

void TstThistleSolver::areaTooSmallNamesTheCause()
{
    ConvParams p;
    p.M = 8, p.C = 8, p.P = 8, p.Q = 8, p.R = 3, p.S = 3;
    OptimizeOptions o;
    o.codesign = true;
    o.area_um2 = 1000;  // below one MAC (1239.5 um^2)
    const LayerOptimization r = optimizeLayer(makeConv2d(p), thistleArch(64, 1024, 4), o);
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).contains("too small for one PE"), r.error.c_str());
}

void TstThistleSolver::layerThatCannotFitNamesTheCause()
{
    ConvParams p;
    p.M = 8, p.C = 8, p.P = 8, p.Q = 8, p.R = 7, p.S = 7;
    OptimizeOptions o;
    const LayerOptimization r = optimizeLayer(makeConv2d(p), thistleArch(32, 1 << 16, 4), o);  // a 7x7 filter needs 49 + 49 + 1 registers
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).contains("cannot fit") && QString::fromStdString(r.error).contains("RF"), r.error.c_str());
}

void TstThistleSolver::wrongArchitectureShapeNamesTheField()
{
    Architecture a = thistleArch(64, 1024, 4);
    a.levels.pop_back();
    try {
        checkThistleArchitecture(a);
        QFAIL("no error");
    } catch (const NestorError& e) {
        QVERIFY(QString::fromUtf8(e.what()).contains("architecture.levels"));
    }
}

void TstThistleSolver::ipoptPrintsNothingByDefault()
{
    const Workload w = tinyLayer();
    const ThistleLayer L = makeThistleLayer(w);
    const ThistleProgram prog = buildProgram(L, prunedPermutations(L).front(), fixedSpec(thistleArch(16, 64, 4)));
    std::fflush(stdout);
    char path[] = "/tmp/tst_thistle_stdoutXXXXXX";
    const int fd = mkstemp(path);
    QVERIFY(fd >= 0);
    const int saved = dup(1);
    dup2(fd, 1);
    const GpResult r = solveGp(prog.gp);
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    const off_t size = lseek(fd, 0, SEEK_END);
    close(fd);
    unlink(path);
    QVERIFY(r.solved);
    QCOMPARE(static_cast<long long>(size), 0LL);
}

QTEST_APPLESS_MAIN(TstThistleSolver)
#include "tst_thistle_solver.moc"
