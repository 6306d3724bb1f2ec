// The cost-model hill climb after the Thistle rounding (engine/solvers/thistle/Polish.h):
//  * its neighbours are exactly the hand-counted factor moves and loop swaps, each a perfect
//    factorization of every dimension;
//  * it never returns a design worse than the rounding's best, and what it returns is what
//    evaluate() says of that architecture and mapping, inside the capacities, PEs and area;
//  * on tiny layers it reaches the optimum of a brute force over every permutation and every
//    integer factorization scored by the cost model (fixed architecture and co-design).
#include "arch/EnergyModels.h"
#include "support/ThistleTestArchitecture.h"
#include "model/Model.h"
#include "solvers/thistle/NestMapping.h"
#include "solvers/thistle/NetworkCodesign.h"
#include "solvers/thistle/Polish.h"
#include "solvers/thistle/Rounding.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace nestor;
using namespace nestor::thistle;
using nestor::test::thistleArch;

namespace {

Workload conv(std::int64_t m, std::int64_t c, std::int64_t p, std::int64_t q, std::int64_t r, std::int64_t s)
{
    ConvParams cp;
    cp.name = "tiny";
    cp.M = m, cp.C = c, cp.P = p, cp.Q = q, cp.R = r, cp.S = s;
    return makeConv2d(cp);
}

std::int64_t pow2AtLeast(std::int64_t n)
{
    std::int64_t p = 1;
    while (p < n) p *= 2;
    return p;
}

// The brute force: every order of the DRAM-level and SRAM-level loops (all (n!)^2, no pruning)
// and every factorization of every tiled dimension over its four loops, each design built the
// way a user would (fixed: the architecture as given; co-design: the smallest power-of-two
// register file and SRAM holding the tiles Nestor's model reports, as many PEs as the mapping
// uses, inside the area) and scored by evaluate().
double bruteForceBest(const Workload& w, const Architecture& base, bool codesign, double area, Objective objective)
{
    const ThistleLayer L = makeThistleLayer(w);
    std::vector<int> dramOrder = L.tiled;
    std::sort(dramOrder.begin(), dramOrder.end());
    std::optional<Evaluation> best;
    do {
        std::vector<int> sramOrder = L.tiled;
        std::sort(sramOrder.begin(), sramOrder.end());
        do {
            const TileNest nest = buildNest(L, Permutation{dramOrder, sramOrder});
            test::forEachIntegerDesign(L, [&](const std::vector<std::int64_t>& trips) {
                std::int64_t pes = 1;
                for (int d : L.tiled) pes *= trips[static_cast<std::size_t>(L.varPe[static_cast<std::size_t>(d)])];
                const Mapping m = toMapping(nest, trips, "brute");
                Architecture a = base;
                bool fits = true;
                if (codesign) {
                    // Sized from the model's own report of a roomy architecture.
                    const Evaluation roomy = evaluate(w, codesignArchitecture(base, 1 << 20, 1 << 24, pes), m);
                    std::int64_t rf = 0, sram = 0;
                    for (const auto& t : roomy.levels[2].tensors) rf += t.utilized_capacity;
                    for (const auto& t : roomy.levels[1].tensors) sram += t.utilized_capacity;
                    a = codesignArchitecture(base, pow2AtLeast(rf), pow2AtLeast(sram), pes);
                    fits = roomy.valid && a.area_um2() <= area;
                }
                if (fits) {
                    const Evaluation e = evaluate(w, a, m);
                    if (e.valid && (!best || betterEvaluation(e, *best, objective))) best = e;
                }
            });
        } while (std::next_permutation(sramOrder.begin(), sramOrder.end()));
    } while (std::next_permutation(dramOrder.begin(), dramOrder.end()));
    return best ? (objective == Objective::Energy ? best->energy_pJ : best->cycles) : INFINITY;
}

double figure(const Evaluation& e, Objective o) { return o == Objective::Energy ? e.energy_pJ : e.cycles; }

} // namespace

class TstThistlePolish : public QObject {
    Q_OBJECT
private slots:
    void neighboursAreTheHandCountedMoves();
    void neverWorseThanTheRoundingAndHonest_data();
    void neverWorseThanTheRoundingAndHonest();
    void reachesTheBruteForceOptimum_data();
    void reachesTheBruteForceOptimum();
    void ownDesignNeverWorseThanTheSharedOne_data();
    void ownDesignNeverWorseThanTheSharedOne();
    void climbFromTakesOnlyABetterDesign();
};

void TstThistlePolish::neighboursAreTheHandCountedMoves()
{
    // M 12, C 4, P 6, Q 1 (no loop), R = S = 1: tiled M, C, P.
    const Workload w = conv(12, 4, 6, 1, 1, 1);
    const ThistleLayer L = makeThistleLayer(w);
    QCOMPARE(static_cast<int>(L.tiled.size()), 3);
    const int M = w.dimIndex("M"), C = w.dimIndex("C"), P = w.dimIndex("P");
    std::vector<std::int64_t> trips(static_cast<std::size_t>(L.numNestVars), 1);
    auto set = [&](int d, std::int64_t dram, std::int64_t sram, std::int64_t pe, std::int64_t reg) {
        const std::size_t du = static_cast<std::size_t>(d);
        trips[static_cast<std::size_t>(L.varDram[du])] = dram;
        trips[static_cast<std::size_t>(L.varSram[du])] = sram;
        trips[static_cast<std::size_t>(L.varPe[du])] = pe;
        trips[static_cast<std::size_t>(L.varReg[du])] = reg;
    };
    set(M, 6, 1, 2, 1);  // divisors above 1 per trip count: 6 -> {2, 3, 6}, 2 -> {2}
    set(C, 1, 4, 1, 1);  // 4 -> {2, 4}
    set(P, 1, 1, 1, 6);  // 6 -> {2, 3, 6}
    // Each divisor above 1 of a trip count can go to any of the dimension's 3 other loops:
    // (3 + 1 + 2 + 3) x 3 = 27 factor moves. Swaps of adjacent loops that both run: DRAM
    // order M C P has only M running (none); SRAM order C M P has only C running (none).
    const Permutation perm{{M, C, P}, {C, M, P}};
    const std::vector<PolishNeighbour> n = polishNeighbours(L, perm, trips);
    QCOMPARE(static_cast<int>(n.size()), 27);
    for (const PolishNeighbour& x : n)
        for (int d : L.tiled) {
            const std::size_t du = static_cast<std::size_t>(d);
            const std::int64_t product = x.trips[static_cast<std::size_t>(L.varDram[du])] * x.trips[static_cast<std::size_t>(L.varSram[du])] *
                                         x.trips[static_cast<std::size_t>(L.varPe[du])] * x.trips[static_cast<std::size_t>(L.varReg[du])];
            QCOMPARE(product, w.bounds[du]);
        }
    // With C's SRAM loop moved to DRAM, M and C both run at DRAM and are adjacent: one swap.
    std::vector<std::int64_t> t2 = trips;
    std::swap(t2[static_cast<std::size_t>(L.varDram[static_cast<std::size_t>(C)])], t2[static_cast<std::size_t>(L.varSram[static_cast<std::size_t>(C)])]);
    const std::vector<PolishNeighbour> n2 = polishNeighbours(L, perm, t2);
    QCOMPARE(static_cast<int>(n2.size()), 28);
    QCOMPARE(n2.back().perm.dram, (std::vector<int>{C, M, P}));
    // Pairs are made of prime moves only (the 18 above with M's 6 and P's 6 left out): every
    // unordered pair whose second move still applies after the first. The ones that do not take the same prime out of a loop that holds it once: M's 2
    // and M's 3 out of DRAM (6), M's 2 out of the PE loop (2), P's 2 and P's 3 out of the
    // register loop (6), 3 moves each, so 3 pairs each; C's SRAM loop (4) holds its 2 twice.
    // 18 x 17 / 2 - 5 x 3 = 138.
    QCOMPARE(static_cast<int>(polishPairNeighbours(L, perm, trips).size()), 138);
}

void TstThistlePolish::neverWorseThanTheRoundingAndHonest_data()
{
    QTest::addColumn<bool>("codesign");
    QTest::addColumn<int>("objective");
    QTest::newRow("fixed, energy") << false << static_cast<int>(Objective::Energy);
    QTest::newRow("fixed, delay") << false << static_cast<int>(Objective::Delay);
    QTest::newRow("co-design, energy") << true << static_cast<int>(Objective::Energy);
    QTest::newRow("co-design, delay") << true << static_cast<int>(Objective::Delay);
}

void TstThistlePolish::neverWorseThanTheRoundingAndHonest()
{
    QFETCH(bool, codesign);
    QFETCH(int, objective);
    const Workload w = conv(32, 16, 14, 14, 3, 3);
    const Architecture a = thistleArch(64, 16384, 16);
    OptimizeOptions o;
    o.objective = static_cast<Objective>(objective);
    o.codesign = codesign;
    o.area_um2 = 600000;
    o.topPermutations = 4;
    OptimizeOptions paper = o;
    paper.polishStarts = 0;
    const LayerOptimization climbed = optimizeLayer(w, a, o);
    const LayerOptimization rounded = optimizeLayer(w, a, paper);
    QVERIFY2(climbed.ok && rounded.ok, (climbed.error + rounded.error).c_str());
    QCOMPARE(rounded.polishEvaluations, 0);
    QVERIFY(climbed.polishEvaluations > 0);
    QVERIFY(figure(climbed.best.eval, o.objective) <= figure(rounded.best.eval, o.objective));
    QCOMPARE(climbed.origin == DesignOrigin::Climb, betterEvaluation(climbed.best.eval, rounded.best.eval, o.objective));

    // The design is what it says: re-evaluated from scratch, inside the limits.
    const SolvedCandidate& b = climbed.best;
    const Evaluation again = evaluate(w, b.arch, b.mapping);
    QVERIFY(again.valid);
    QCOMPARE(again.energy_pJ, b.eval.energy_pJ);
    QCOMPARE(again.cycles, b.eval.cycles);
    QCOMPARE(b.mapping.levels.size(), std::size_t{3});
    if (codesign) {
        QVERIFY(b.arch.area_um2() <= o.area_um2);
        QCOMPARE(b.arch.levels[2].instances, b.pes);
        QCOMPARE(*b.arch.levels[2].size_words, b.registers);
        QVERIFY((b.registers & (b.registers - 1)) == 0 && (b.sramWords & (b.sramWords - 1)) == 0);
    } else {
        QCOMPARE(b.arch.area_um2(), a.area_um2());
    }
}

void TstThistlePolish::reachesTheBruteForceOptimum_data()
{
    QTest::addColumn<bool>("codesign");
    QTest::addColumn<int>("objective");
    QTest::newRow("fixed, energy") << false << static_cast<int>(Objective::Energy);
    QTest::newRow("co-design, energy") << true << static_cast<int>(Objective::Energy);
    QTest::newRow("co-design, delay") << true << static_cast<int>(Objective::Delay);
}

void TstThistlePolish::reachesTheBruteForceOptimum()
{
    QFETCH(bool, codesign);
    QFETCH(int, objective);
    const Objective obj = static_cast<Objective>(objective);
    const double area = 40000;
    const Architecture a = thistleArch(16, 64, 4);
        // Three tiled dimensions each (Q = 1), so that the brute force stays at about 50,000 designs.
    for (const Workload& w : {conv(4, 2, 4, 1, 3, 1), conv(2, 4, 6, 1, 1, 3), conv(8, 2, 2, 1, 1, 1)}) {
        OptimizeOptions o;
        o.objective = obj;
        o.codesign = codesign;
        o.area_um2 = area;
        const LayerOptimization r = optimizeLayer(w, a, o);
        QVERIFY2(r.ok, r.error.c_str());
        const double brute = bruteForceBest(w, a, codesign, area, obj);
        const double got = figure(r.best.eval, obj);
        auto b = [&](const char* d) { return static_cast<long long>(w.bounds[static_cast<std::size_t>(w.dimIndex(d))]); };
        qInfo("M%lld C%lld P%lld R%lld S%lld: brute force %.6g, solver %.6g (the climb improved on the rounding: %s)", b("M"), b("C"), b("P"),
              b("R"), b("S"), brute, got, r.origin == DesignOrigin::Climb ? "yes" : "no");
        QVERIFY2(std::fabs(got - brute) <= 1e-9 * brute, qPrintable(QString("solver %1, brute force %2").arg(got).arg(brute)));
    }
}

void TstThistlePolish::ownDesignNeverWorseThanTheSharedOne_data()
{
    QTest::addColumn<int>("objective");
    QTest::newRow("energy") << static_cast<int>(Objective::Energy);
    QTest::newRow("delay") << static_cast<int>(Objective::Delay);
}

// The single architecture is one design within the area for every layer, so a layer's own
// co-design must be at least as good on it (NetworkCodesign climbs on from it where it is not).
void TstThistlePolish::ownDesignNeverWorseThanTheSharedOne()
{
    QFETCH(int, objective);
    const Workload a = conv(32, 16, 14, 14, 3, 3), b = conv(64, 32, 7, 7, 1, 1), c = conv(16, 8, 28, 28, 3, 3);
    Architecture base = thistleArch(64, 16384, 16);
    base.levels[1].read_bw_words_per_cycle = 4;  // a delay with more than the MACs in it
    NetworkCodesignOptions o;
    o.optimize.objective = static_cast<Objective>(objective);
    o.optimize.area_um2 = 600000;
    o.optimize.topPermutations = 2;
    o.fixedArchitecture = false;
    const NetworkCodesign r = codesignNetwork({&a, &b, &c}, base, o);
    QCOMPARE(r.layerwise.size(), std::size_t{3});
    QCOMPARE(r.single.size(), std::size_t{3});
    for (std::size_t i = 0; i < 3; ++i) {
        QVERIFY2(r.layerwise[i].ok && r.single[i].ok, (r.layerwise[i].error + r.single[i].error).c_str());
        qInfo("layer %zu: own design %.6g pJ, %.6g cycles (%s); shared %.6g pJ, %.6g cycles", i, r.layerwise[i].best.eval.energy_pJ,
              static_cast<double>(r.layerwise[i].best.eval.cycles), designOriginName(r.layerwise[i].origin), r.single[i].best.eval.energy_pJ,
              static_cast<double>(r.single[i].best.eval.cycles));
        QVERIFY(!betterEvaluation(r.single[i].best.eval, r.layerwise[i].best.eval, o.optimize.objective));
        QVERIFY(r.layerwise[i].best.arch.area_um2() <= o.optimize.area_um2);
    }
}

// What NetworkCodesign does where the shared design serves a layer better (ResNet-18 layer 5
// on delay, Yolo-9000 layer 3 on energy: docs/solvers.md): the layer's result takes it.
void TstThistlePolish::climbFromTakesOnlyABetterDesign()
{
    const Workload w = conv(32, 16, 14, 14, 3, 3);
    const Architecture base = thistleArch(64, 16384, 16);
    OptimizeOptions weak;
    weak.codesign = true;
    weak.area_um2 = 600000;
    weak.topPermutations = 1;
    weak.candidatesPerPermutation = 1;
    weak.polishStarts = 0;
    OptimizeOptions strong = weak;
    strong.topPermutations = 8;
    strong.candidatesPerPermutation = 8;
    strong.polishStarts = 4;
    const LayerOptimization rounded = optimizeLayer(w, base, weak);
    const LayerOptimization climbed = optimizeLayer(w, base, strong);
    QVERIFY2(rounded.ok && climbed.ok, (rounded.error + climbed.error).c_str());
    QVERIFY(betterEvaluation(climbed.best.eval, rounded.best.eval, Objective::Energy));

    for (bool climb : {false, true}) {
        OptimizeOptions o = weak;
        o.polishStarts = climb ? 4 : 0;
        LayerOptimization r = rounded;
        climbFrom(r, w, base, o, climbed.best, DesignOrigin::SingleArchitectureClimb);
        QVERIFY(r.origin == DesignOrigin::SingleArchitectureClimb);
        QVERIFY(r.best.eval.energy_pJ <= climbed.best.eval.energy_pJ);
        QCOMPARE(evaluate(w, r.best.arch, r.best.mapping).energy_pJ, r.best.eval.energy_pJ);
        QVERIFY(r.best.arch.area_um2() <= o.area_um2);

        LayerOptimization unchanged = climbed;
        const DesignOrigin before = unchanged.origin;
        climbFrom(unchanged, w, base, o, rounded.best, DesignOrigin::SingleArchitectureClimb);
        if (!climb) {
            QVERIFY(unchanged.origin == before);
            QCOMPARE(unchanged.best.eval.energy_pJ, climbed.best.eval.energy_pJ);
        }
        QVERIFY(unchanged.best.eval.energy_pJ <= climbed.best.eval.energy_pJ);
    }
}

QTEST_APPLESS_MAIN(TstThistlePolish)
#include "tst_thistle_polish.moc"
