// Mapspaces: counts against a brute-force enumerator, decoding, sampling under constraints,
// unit-loop pruning that changes nothing, and the paper's Table I trend.
#include "support/TestWorkloads.h"
#include "mapspace/Mapspace.h"
#include "model/Model.h"
#include "search/SearchDriver.h"

#include <QtTest>

#include <atomic>
#include <functional>
#include <random>
#include <set>

using namespace nestor;

namespace {

using test::conv1d;  // tests/support/TestWorkloads.h

Workload rank1(std::int64_t D)
{
    Workload w;
    w.name = "rank1";
    w.dimNames = {"D"};
    w.bounds = {D};
    w.tensors = {Tensor{"A", false, {{{0, 1}}}}, Tensor{"Z", true, {{{0, 1}}}}};
    return w;
}

StorageLevel level(const std::string& name, std::optional<std::int64_t> words, std::int64_t instances, std::int64_t meshX)
{
    StorageLevel l;
    l.name = name;
    l.size_words = words;
    l.instances = instances;
    l.meshX = meshX;
    l.energy = {words ? 1.0 : 100.0, words ? 1.0 : 100.0, words ? 1.0 : 100.0, 0.0};
    return l;
}

// DRAM -> Buffer (fanout X fx, Y fy to the PE level) -> PE buffer -> MAC
Architecture threeLevels(std::int64_t fx, std::int64_t fy, std::int64_t peWords = 64)
{
    Architecture a;
    a.levels = {level("DRAM", std::nullopt, 1, 1), level("Buffer", 256, 1, 1), level("PE", peWords, fx * fy, fx)};
    a.compute.instances = fx * fy;
    a.compute.meshX = fx;
    return a;
}

// Table I's architecture: DRAM -> 9 linear PEs with a 1 KiB scratchpad.
Architecture tableOne()
{
    Architecture a;
    a.levels = {level("DRAM", std::nullopt, 1, 1), level("Scratchpad", 512, 9, 9)};
    a.compute.instances = 9;
    a.compute.meshX = 9;
    return a;
}

// Independent enumeration: every (bound, residual) per slot and dimension with bounds up to the
// dimension (spatial: up to the fanout), residuals only where the mapspace allows them, the
// canonical rule (while every outer residual is 1 a loop is perfect), the residual rule of
// Mapping.h (coveredSize) and the fanout limits. Returns {factorizations, sum of orders}.
std::pair<long double, long double> bruteForce(const Mapspace& s)
{
    const Workload& w = s.workload();
    const auto& sl = s.loopSlots();
    const int S = static_cast<int>(sl.size()), nd = w.numDims();
    std::vector<std::vector<std::vector<LoopFactor>>> perDim(nd);
    for (int d = 0; d < nd; ++d) {
        const std::int64_t D = w.bounds[d];
        std::vector<LoopFactor> cur(S);
        std::function<void(int, bool)> rec = [&](int i, bool outerAllOne) {
            if (i == S) {
                std::vector<Loop> loops;
                for (int k = 0; k < S; ++k) loops.push_back(makeLoop(d, cur[k].bound, cur[k].residual));
                if (coveredSize(loops) == D) perDim[d].push_back(cur);
                return;
            }
            const bool spatial = sl[i].kind != MapspaceSlot::Kind::Temporal;
            const std::int64_t maxB = spatial ? std::min(sl[i].fanout, D) : D;
            for (std::int64_t b = 1; b <= maxB; ++b)
                for (std::int64_t r = 1; r <= b; ++r) {
                    if (r != b && (!sl[i].imperfect || outerAllOne)) continue;
                    cur[i] = {b, r};
                    rec(i + 1, outerAllOne && r == 1);
                }
        };
        rec(0, true);
    }
    long double count = 0, orders = 0;
    std::vector<int> pick(nd, 0);
    std::function<void(int)> cart = [&](int d) {
        if (d == nd) {
            for (int i = 0; i < S; ++i) {
                if (sl[i].kind == MapspaceSlot::Kind::Temporal) continue;
                std::int64_t prod = 1;
                for (int k = 0; k < nd; ++k) prod *= perDim[k][pick[k]][i].bound;
                if (prod > sl[i].fanout) return;
            }
            long double o = 1;
            for (int i = 0; i < S; ++i) {
                int k = 0;
                for (int dd = 0; dd < nd; ++dd) k += perDim[dd][pick[dd]][i].bound > 1;
                for (int f = 2; f <= k; ++f) o *= f;
            }
            count += 1;
            orders += o;
            return;
        }
        for (std::size_t j = 0; j < perDim[d].size(); ++j) {
            pick[d] = static_cast<int>(j);
            cart(d + 1);
        }
    };
    cart(0);
    return {count, orders};
}

// Independent arithmetic for the large-dimension counts (trial division, not the engine's).
std::vector<std::pair<std::int64_t, int>> primePowers(std::int64_t n)
{
    std::vector<std::pair<std::int64_t, int>> out;
    for (std::int64_t p = 2; p * p <= n; ++p) {
        int e = 0;
        for (; n % p == 0; n /= p) ++e;
        if (e) out.push_back({p, e});
    }
    if (n > 1) out.push_back({n, 1});
    return out;
}

std::vector<std::int64_t> allDivisors(std::int64_t n)
{
    std::vector<std::int64_t> d{1};
    for (auto [p, e] : primePowers(n)) {
        const std::size_t base = d.size();
        std::int64_t pk = 1;
        for (int k = 1; k <= e; ++k) {
            pk *= p;
            for (std::size_t i = 0; i < base; ++i) d.push_back(d[i] * pk);
        }
    }
    return d;
}

long double divisorCount(std::int64_t n)  // tau(n)
{
    long double t = 1;
    for (auto [p, e] : primePowers(n)) t *= e + 1;
    return t;
}

long double orderedTriples(std::int64_t n)  // ordered (a, b, c) with a b c = n: prod C(e + 2, 2)
{
    long double t = 1;
    for (auto [p, e] : primePowers(n)) t *= (e + 2) * (e + 1) / 2;
    return t;
}

// The capacity tests' layer on threeLevels(): tiles of every size, some outgrowing the PE.
Workload capacityLayer()
{
    ConvParams cp;
    cp.M = 16; cp.C = 12; cp.P = 14; cp.Q = 14; cp.R = 3; cp.S = 3;
    return makeConv2d(cp);
}

// Two keeps fixed, the others free.
MapspaceConstraints capacityConstraints()
{
    MapspaceConstraints c;
    c.addSpatialAxes("Buffer", "Q|C M");
    c.addKeep("Buffer", {"Inputs"}).addKeep("PE", {"Weights"});
    return c;
}

// DRAM -> PE with no fanout: two temporal slots.
Architecture twoLevels()
{
    Architecture a;
    a.levels = {level("DRAM", std::nullopt, 1, 1), level("PE", 64, 1, 1)};
    return a;
}

} // namespace

class TestMapspace : public QObject {
    Q_OBJECT
private slots:
    void countsMatchBruteForce_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("P");
        QTest::addColumn<int>("R");
        QTest::addColumn<int>("fx");
        QTest::addColumn<int>("fy");
        for (MapspaceKind k : allMapspaceKinds())
            for (auto [P, R, fx, fy] : std::vector<std::array<int, 4>>{{6, 3, 3, 2}, {12, 3, 4, 1}, {7, 5, 2, 3}, {10, 1, 3, 3}})
                QTest::newRow(qPrintable(QString("%1 P%2 R%3 %4x%5").arg(QString::fromStdString(mapspaceKindName(k))).arg(P).arg(R).arg(fx).arg(fy)))
                    << static_cast<int>(k) << P << R << fx << fy;
    }
    void countsMatchBruteForce()
    {
        QFETCH(int, kind);
        QFETCH(int, P);
        QFETCH(int, R);
        QFETCH(int, fx);
        QFETCH(int, fy);
        const Mapspace s(conv1d(P, R), threeLevels(fx, fy), static_cast<MapspaceKind>(kind));
        const auto [count, orders] = bruteForce(s);
        const MapspaceSize z = s.size();
        QVERIFY(z.exact);
        QCOMPARE(static_cast<double>(z.factorizations), static_cast<double>(count));
        QCOMPARE(static_cast<double>(z.orders), static_cast<double>(orders));
        // keep choices: Buffer and PE each keep or bypass 3 tensors
        QCOMPARE(static_cast<double>(z.keepChoices), 64.0);
        QCOMPARE(static_cast<double>(z.total), static_cast<double>(orders) * 64.0);
    }

    // Decoding is a bijection onto valid loop nests.
    void everyIndexDecodesToADistinctValidMapping()
    {
        for (MapspaceKind k : allMapspaceKinds()) {
            const Mapspace s(conv1d(9, 3), threeLevels(2, 2), k);
            std::set<std::vector<std::int64_t>> seen;
            MapspacePoint p;
            for (long double i = 0; i < s.factorizationCount(); i += 1) {
                s.factorizationAt(i, p);
                const Mapping m = s.toMapping(p);
                const Diagnostics d = m.validate(s.workload(), s.architecture());
                QVERIFY2(d.empty(), d.empty() ? "" : d.front().toString().c_str());
                std::vector<std::int64_t> key;
                for (const auto& f : p.factors) key.insert(key.end(), {f.bound, f.residual});
                QVERIFY(seen.insert(key).second);
            }
        }
    }

    // Sampled mappings validate and honour every constraint.
    void sampledMappingsHonourConstraints()
    {
        ConvParams cp;
        cp.M = 16; cp.C = 12; cp.P = 14; cp.Q = 14; cp.R = 3; cp.S = 3;
        const Workload w = makeConv2d(cp);
        Architecture a = threeLevels(7, 4, 128);
        MapspaceConstraints c;
        c.addFactors("DRAM", false, "R=1 S=1").addFactors("PE", false, "M<=4 C>=2");
        c.addFactors("Buffer", true, "Q<=7");
        c.addSpatialAxes("Buffer", "Q|C M");
        c.addPermutation("PE", "SR");
        c.addKeep("Buffer", {"Inputs"}).addBypass("Buffer", {"Weights"}).addKeep("PE", {"Weights"});
        for (MapspaceKind k : allMapspaceKinds()) {
            const Mapspace s(w, a, k, c);
            std::mt19937_64 rng(7);
            for (int i = 0; i < 300; ++i) {
                const Mapping m = s.toMapping(s.randomPoint(rng));
                Diagnostics d = m.validate(w, a);
                QVERIFY2(d.empty(), d.empty() ? "" : d.front().toString().c_str());
                d = checkConstraints(c, m, w, a);
                QVERIFY2(d.empty(), d.empty() ? "" : d.front().toString().c_str());
                if (k == MapspaceKind::Pfm) QVERIFY(!m.hasImperfectFactors());
            }
        }
        // the checker is not vacuous
        std::mt19937_64 rng(1);
        const Mapspace pfm(w, a, MapspaceKind::Pfm);
        Mapping bad = pfm.toMapping(pfm.randomPoint(rng));
        bad.levels[1].keep.assign(3, true);
        QVERIFY(!checkConstraints(c, bad, w, a).empty());
    }

    // The search's capacity check on the point (no mapping built) gives the model's verdict:
    // against evaluate()'s "capacity exceeded" on sampled points of every kind of mapspace,
    // with free and fixed keeps, remainders, and a double-buffered level.
    void capacityVerdictOnThePointMatchesTheModel()
    {
        const Workload w = capacityLayer();
        const MapspaceConstraints c = capacityConstraints();
        Architecture doubled = threeLevels(7, 4, 96);
        doubled.levels[1].multiple_buffering = 2.0;
        for (const Architecture& a : {threeLevels(7, 4, 128), doubled}) {
            for (MapspaceKind k : allMapspaceKinds()) {
                const Mapspace s(w, a, k, c);
                std::mt19937_64 rng(11);
                int over = 0, fitting = 0;
                for (int i = 0; i < 1500; ++i) {
                    const MapspacePoint p = s.randomPoint(rng);
                    const Evaluation ev = evaluate(w, a, s.toMapping(p));
                    bool capacityError = false;
                    for (const auto& e : ev.errors) capacityError |= e.message.find("capacity exceeded") != std::string::npos;
                    QCOMPARE(s.exceedsCapacity(p), capacityError);
                    (capacityError ? over : fitting)++;
                }
                QVERIFY(over > 0 && fitting > 0);  // both verdicts met
            }
        }
    }

    // A random search's candidate is the point randomPoint() draws from the same stream, or,
    // given up partway, one whose tiles cannot fit, as the whole point's cannot.
    void randomCandidatesGiveUpOnlyOnPointsThatCannotFit()
    {
        const Workload w = capacityLayer();
        const MapspaceConstraints c = capacityConstraints();
        for (MapspaceKind k : allMapspaceKinds()) {
            const Mapspace s(w, threeLevels(7, 4, 40), k, c);
            std::mt19937_64 rng(5);
            int whole = 0, givenUp = 0;
            MapspacePoint candidate, point;
            for (int i = 0; i < 1500; ++i) {
                std::mt19937_64 again = rng;
                const bool complete = s.randomCandidate(rng, candidate);
                s.randomPoint(again, point);
                QCOMPARE(candidate.givenUp, !complete);
                if (complete) {
                    ++whole;
                    QCOMPARE(rng, again);
                    QCOMPARE(candidate.keepBits, point.keepBits);
                    QCOMPARE(candidate.orders, point.orders);
                    for (std::size_t f = 0; f < point.factors.size(); ++f) {
                        QCOMPARE(candidate.factors[f].bound, point.factors[f].bound);
                        QCOMPARE(candidate.factors[f].residual, point.factors[f].residual);
                    }
                } else {
                    ++givenUp;
                    QVERIFY(s.exceedsCapacity(candidate));
                    QVERIFY(s.exceedsCapacity(point));
                }
            }
            QVERIFY(whole > 0 && givenUp > 0);
        }
    }

    // By hand: one dimension of 8 over DRAM and a PE of 6 words keeping A and Z (both indexed by
    // D). The PE's tile spans the factor left below DRAM, for each tensor it keeps.
    void capacityVerdictByHand()
    {
        Architecture a = twoLevels();
        a.levels[1].size_words = 6;
        const Mapspace s(rank1(8), a, MapspaceKind::Pfm);
        MapspacePoint p;
        int checked = 0;
        for (long double i = 0; i < s.factorizationCount(); i += 1) {
            s.factorizationAt(i, p);
            const std::int64_t dram = p.factors[0].bound;  // slot 0: DRAM's temporal loop of D
            for (std::uint64_t bits = 0; bits < s.keepCount(); ++bits) {
                p.keepBits = bits;
                const Mapping m = s.toMapping(p);
                const std::int64_t kept = m.levels[1].keep[0] + m.levels[1].keep[1];
                QCOMPARE(s.exceedsCapacity(p), kept * (8 / dram) > 6);
                ++checked;
            }
        }
        QCOMPARE(checked, 4 * 4);  // bounds 1, 2, 4, 8 at DRAM; keep or bypass A and Z at the PE
    }

    // Annealing's local move (one prime factor to another slot) never leaves the constrained
    // mapspace: every point of a long chain of moves passes validation and the constraint checker.
    void factorMovesStayInTheMapspace()
    {
        ConvParams cp;
        cp.M = 16; cp.C = 12; cp.P = 14; cp.Q = 14; cp.R = 3; cp.S = 3;
        const Workload w = makeConv2d(cp);
        const Architecture a = threeLevels(7, 4, 128);
        MapspaceConstraints c;
        c.addFactors("DRAM", false, "R=1 S=1").addFactors("PE", false, "M<=4 C>=2");
        c.addFactors("Buffer", true, "Q<=7 C=2");
        c.addSpatialAxes("Buffer", "Q|C M");
        for (MapspaceKind k : {MapspaceKind::Pfm, MapspaceKind::RubyS}) {
            const Mapspace s(w, a, k, c);
            std::mt19937_64 rng(3);
            MapspacePoint p = s.randomPoint(rng);
            int moved = 0;
            for (int i = 0; i < 3000; ++i) {
                if (!s.moveFactor(static_cast<int>(rng() % std::uint64_t(w.numDims())), rng, p)) continue;
                ++moved;
                for (int slot = 0; slot < s.numSlots(); ++slot)
                    if (p.orders[std::size_t(slot)] >= s.orderCount(p, slot)) p.orders[std::size_t(slot)] = 0;
                const Mapping m = s.toMapping(p);
                Diagnostics d = m.validate(w, a);
                QVERIFY2(d.empty(), d.empty() ? "" : d.front().toString().c_str());
                d = checkConstraints(c, m, w, a);
                QVERIFY2(d.empty(), d.empty() ? "" : d.front().toString().c_str());
            }
            QVERIFY(moved > 500);
        }
    }

    void impossibleConstraintsAreReported()
    {
        MapspaceConstraints c;
        c.addFactors("PE", false, "P=5");  // 5 does not divide 12 and PFM has no remainders
        try {
            Mapspace(conv1d(12, 3), threeLevels(2, 2), MapspaceKind::Pfm, c);
            QFAIL("no error");
        } catch (const NestorError& e) {  // names the dimension and its constraints
            QCOMPARE(e.diagnostics().front().field, std::string("constraints.factors.P"));
            QVERIFY2(std::string(e.what()).find("no factorization of P (12) in the pfm mapspace satisfies the "
                                                "constraints PE temporal P=5") != std::string::npos,
                     e.what());
        }
        MapspaceConstraints unknown;
        unknown.addFactors("L9", false, "P=2");
        QVERIFY_THROWS_EXCEPTION(NestorError, Mapspace(conv1d(12, 3), threeLevels(2, 2), MapspaceKind::Pfm, unknown));
        QVERIFY_THROWS_EXCEPTION(NestorError, MapspaceConstraints().addFactors("PE", false, "P~2"));
        // Ruby can place the 5 with a remainder: 12 = 2 x 5 + 2 (bound 5, residual 2)
        QVERIFY(Mapspace(conv1d(12, 3), threeLevels(2, 2), MapspaceKind::RubyT, c).factorizationCount() > 0);
    }

    // Dropping unit loops (and thus their orders) changes no figure: the set of evaluations
    // of the pruned space equals the unpruned one's.
    void unitLoopPruningChangesNothing()
    {
        const Workload w = conv1d(8, 3);
        Architecture a = threeLevels(2, 1, 16);
        for (MapspaceKind k : {MapspaceKind::Pfm, MapspaceKind::RubyS}) {
            MapspaceOptions unpruned;
            unpruned.pruneUnitLoops = false;
            const Mapspace ps(w, a, k), us(w, a, k, {}, unpruned);
            QVERIFY(us.size().total > ps.size().total);
            auto figures = [&](const Mapspace& s) {
                std::set<std::tuple<double, std::int64_t, double>> out;
                SearchOptions o;
                o.algorithm = "exhaustive";
                struct Collect : SearchObserver {};
                MapspacePoint p;
                for (long double i = 0; i < s.factorizationCount(); i += 1) {
                    s.factorizationAt(i, p);
                    std::vector<std::uint64_t> counts(s.numSlots());
                    for (int j = 0; j < s.numSlots(); ++j) counts[j] = s.orderCount(p, j);
                    std::fill(p.orders.begin(), p.orders.end(), 0);
                    for (;;) {
                        for (std::uint64_t kb = 0; kb < s.keepCount(); ++kb) {
                            p.keepBits = kb;
                            const Evaluation ev = evaluate(w, a, s.toMapping(p));
                            if (ev.valid) out.insert({std::round(ev.energy_pJ * 1e6) / 1e6, ev.cycles, ev.utilization});
                        }
                        int j = s.numSlots() - 1;
                        for (; j >= 0; --j) {
                            if (++p.orders[j] < counts[j]) break;
                            p.orders[j] = 0;
                        }
                        if (j < 0) break;
                    }
                }
                return out;
            };
            const auto a1 = figures(ps), a2 = figures(us);
            QVERIFY(!a1.empty());
            QVERIFY(a1 == a2);
        }
    }

    // Table I: a rank-1 tensor of size 3..4096 over DRAM and 9 PEs. The paper prints no numbers
    // in our copy, so the trend is checked (Ruby and Ruby-T explode, Ruby-S stays within a small
    // factor of PFM) and small sizes against the brute-force enumerator.
    void tableOneTrend()
    {
        const Architecture a = tableOne();
        for (std::int64_t D = 3; D <= 24; ++D)
            for (MapspaceKind k : allMapspaceKinds()) {
                const Mapspace s(rank1(D), a, k);
                QCOMPARE(static_cast<double>(s.factorizationCount()), static_cast<double>(bruteForce(s).first));
            }
        double prevRuby = 0;
        for (std::int64_t D : {3, 16, 64, 100, 127, 256, 1000, 1024, 4096}) {
            auto n = [&](MapspaceKind k) { return static_cast<double>(Mapspace(rank1(D), a, k).factorizationCount()); };
            const double pfm = n(MapspaceKind::Pfm), ruby = n(MapspaceKind::Ruby), rs = n(MapspaceKind::RubyS),
                         rt = n(MapspaceKind::RubyT);
            qInfo("Table I  D=%5lld  PFM %10.0f  Ruby %14.0f  Ruby-S %10.0f  Ruby-T %14.0f", static_cast<long long>(D), pfm,
                  ruby, rs, rt);
            QVERIFY(pfm <= rs && rs <= ruby && pfm <= rt && rt <= ruby);
            if (D >= 1000) {
                QVERIFY(ruby > 10 * rs);
                QVERIFY(rt > 10 * rs);
            }
            QVERIFY(ruby > prevRuby);
            prevRuby = ruby;
        }
    }

    // A mapspace of more than 1e12 points is built (counted, not enumerated) and sampled; how
    // long that takes is measured by bench/bench_responsiveness.
    void hugeMapspaceBuildsAndSamples()
    {
        ConvParams cp;
        cp.M = 256; cp.C = 128; cp.P = 56; cp.Q = 56; cp.R = 3; cp.S = 3;
        const Mapspace s(makeConv2d(cp), threeLevels(14, 12, 256), MapspaceKind::Ruby);
        const MapspaceSize z = s.size();
        std::mt19937_64 rng(1);
        const Mapping m = s.toMapping(s.randomPoint(rng));
        qInfo("Ruby mapspace of VGG conv3_1 on 14x12: %.3Le factorizations, %.3Le points (%s)", z.factorizations,
              z.total, z.exact ? "exact" : "bound");
        QVERIFY(z.total > 1e12L);
        QVERIFY(m.validate(s.workload(), s.architecture()).empty());
    }

    // Tables are sized by the tile counts that can occur, not by the dimension: a dimension of
    // 1e6, the prime 2^31 - 1 and the highly composite 735134400 = 2^6 3^3 5^2 7 11 13 17
    // build and sample. The counts are derived by hand for rank1(D) on threeLevels(fx, 1)
    // (slots: DRAM, Buffer, spatial X of fx, PE):
    //   PFM:    sum over u | D, u <= fx of the ordered triples of D / u;
    //   Ruby-S: the two temporal slots above the spatial one make N tiles in tau(N) ways; the
    //           spatial bound u then gives N == 1 -> u (canonical) or N >= 2 -> the n with
    //           ceil(n / u) == N, and the PE loop must complete: n | D. So the count is
    //           sum over u <= fx of ([u | D] + sum over d | D, d > u of tau(ceil(d / u))).
    void largeDimensionsBuildAndSample_data()
    {
        QTest::addColumn<qlonglong>("D");
        QTest::addColumn<int>("kind");
        for (qlonglong D : {1000000LL, 2147483647LL, 735134400LL})
            for (MapspaceKind k : {MapspaceKind::Pfm, MapspaceKind::RubyS})
                QTest::newRow(qPrintable(QString("%1 D=%2").arg(QString::fromStdString(mapspaceKindName(k))).arg(D)))
                    << D << static_cast<int>(k);
    }
    void largeDimensionsBuildAndSample()
    {
        QFETCH(qlonglong, D);
        QFETCH(int, kind);
        const std::int64_t fx = 6;
        const Mapspace s(rank1(D), threeLevels(fx, 1), static_cast<MapspaceKind>(kind));
        long double expected = 0;
        const std::vector<std::int64_t> divs = allDivisors(D);
        if (static_cast<MapspaceKind>(kind) == MapspaceKind::Pfm) {
            for (std::int64_t u : divs)
                if (u <= fx) expected += orderedTriples(D / u);
        } else {
            for (std::int64_t u = 1; u <= fx; ++u) {
                expected += D % u == 0 ? 1 : 0;
                for (std::int64_t d : divs)
                    if (d > u) expected += divisorCount((d + u - 1) / u);
            }
        }
        QCOMPARE(static_cast<double>(s.factorizationCount()), static_cast<double>(expected));
        std::mt19937_64 rng(7);
        for (int i = 0; i < 200; ++i) {
            const MapspacePoint p = s.randomPoint(rng);
            const Mapping m = s.toMapping(p);
            const Diagnostics d = m.validate(s.workload(), s.architecture());
            QVERIFY2(d.empty(), d.empty() ? "" : d.front().toString().c_str());
            if (static_cast<MapspaceKind>(kind) == MapspaceKind::Pfm) QVERIFY(!m.hasImperfectFactors());
        }
        MapspacePoint last;
        s.factorizationAt(s.factorizationCount() - 1, last);
        QVERIFY(s.toMapping(last).validate(s.workload(), s.architecture()).empty());
    }

    // Wide imperfect bound ranges are decoded by a binary search on the cumulative weight.
    // rank1(D) on DRAM -> PE in the Ruby mapspace has exactly D factorizations: the DRAM loop
    // is canonical (N = P0 tiles); N == 1 leaves PE = D, and every PE bound P1 < D gives
    // N = ceil(D / P1) >= 2 with one residual. Every index decodes to a distinct valid nest.
    // Decoding in integers (tables whose sums stay below 2^63) and in long double (the others)
    // maps every index to the same factors: perfect and imperfect slots, narrow and wide bound
    // ranges (the linear scan and the sweep), a slot fixed by a spatial tuple. So does decoding
    // through the bound index (two binary searches a slot), against both scans.
    void integerAndLongDoubleDecodesAgree()
    {
        const std::vector<std::pair<std::int64_t, std::vector<FactorSlotSpec>>> cases = {
            {360, {FactorSlotSpec{false, -1, 1, 360}, FactorSlotSpec{true, -1, 1, 360}, FactorSlotSpec{false, -1, 1, 360}}},
            {97, {FactorSlotSpec{true, -1, 1, 97}, FactorSlotSpec{true, -1, 2, 20}, FactorSlotSpec{true, -1, 1, 97}}},
            {1000, {FactorSlotSpec{true, -1, 1, 1000}, FactorSlotSpec{true, -1, 1, 1000}}},
            {56, {FactorSlotSpec{true, -1, 1, 56}, FactorSlotSpec{true, 0, 1, 1}, FactorSlotSpec{true, -1, 1, 56}, FactorSlotSpec{false, -1, 1, 56}}},
        };
        for (const auto& [D, specs] : cases) {
            const DimensionFactorizer f(D, specs);
            const std::vector<std::int64_t> tuple{7};
            const DimensionFactorizer::Table exact = f.table(tuple);
            QVERIFY(!exact.exactPrefix.empty());
            DimensionFactorizer::Table real = exact;
            real.exactPrefix.clear();
            DimensionFactorizer::Table indexed = exact;
            QVERIFY(f.indexBounds(indexed, tuple));
            QVERIFY(!f.indexBounds(real, tuple));  // (no index without integer sums)
            const int n = f.numSlots();
            std::vector<LoopFactor> a(n), b(n), c(n);
            QVERIFY(exact.count() > 10);
            for (long double x = 0; x < exact.count(); x += 1) {
                f.decode(exact, tuple, x, a.data(), 1);
                f.decode(real, tuple, x, b.data(), 1);
                f.decode(indexed, tuple, static_cast<std::uint64_t>(x), c.data(), 1);
                for (int s = 0; s < n; ++s) {
                    QCOMPARE(a[s].bound, b[s].bound);
                    QCOMPARE(a[s].residual, b[s].residual);
                    QCOMPARE(c[s].bound, b[s].bound);
                    QCOMPARE(c[s].residual, b[s].residual);
                }
            }
        }
        // A table whose inner slots come from another tuple's (table()'s and indexBounds()'s
        // sameSuffix, as a mapspace builds its tables) decodes as one built alone.
        {
            const std::vector<FactorSlotSpec> specs{FactorSlotSpec{true, -1, 1, 56}, FactorSlotSpec{true, 0, 1, 1},
                                                    FactorSlotSpec{true, -1, 1, 56}, FactorSlotSpec{false, -1, 1, 56}};
            const DimensionFactorizer f(56, specs);
            DimensionFactorizer::Table first = f.table({4});
            QVERIFY(f.indexBounds(first, {4}));
            DimensionFactorizer::Table alone = f.table({7}), shared = f.table({7}, nullptr, &first);
            DimensionFactorizer::Table aloneIndexed = alone;
            QVERIFY(f.indexBounds(aloneIndexed, {7}));
            QVERIFY(f.indexBounds(shared, {7}, &first));
            QCOMPARE(shared.runs.size(), aloneIndexed.runs.size());
            QCOMPARE(shared.runsAt, aloneIndexed.runsAt);
            std::vector<LoopFactor> a(specs.size()), b(specs.size());
            for (std::uint64_t x = 0; x < static_cast<std::uint64_t>(alone.count()); ++x) {
                f.decode(alone, {7}, x, a.data(), 1);  // (not indexed: the integer scan)
                f.decode(shared, {7}, x, b.data(), 1);
                for (std::size_t s = 0; s < specs.size(); ++s) {
                    QCOMPARE(b[s].bound, a[s].bound);
                    QCOMPARE(b[s].residual, a[s].residual);
                }
            }
        }
        // Tile counts with more than kMaxRunsPerCount bounds are scanned (the cases above with
        // wide ranges decode through such counts): the index stays small.
        const std::int64_t D = 1000000;
        const DimensionFactorizer wide(D, {FactorSlotSpec{true, -1, 1, D}, FactorSlotSpec{true, -1, 1, D}});
        DimensionFactorizer::Table t = wide.table({});
        QVERIFY(wide.indexBounds(t, {}));
        const auto scanned = std::count_if(t.runsAt.begin(), t.runsAt.end(), [](std::uint32_t at) { return (at & DimensionFactorizer::kScannedCount) != 0; });
        QVERIFY(scanned > 0);
        QVERIFY(t.runs.size() <= DimensionFactorizer::kMaxRunsPerCount * (t.states[0].size() + t.states[1].size()));
        // With room for every candidate (as a mapspace indexes a dimension whose index stays
        // small) no count is scanned, and every index decodes as the integer scan does; past a
        // budget of runs there is no index.
        {
            const std::int64_t d = 1000;
            const DimensionFactorizer f(d, {FactorSlotSpec{true, -1, 1, d}, FactorSlotSpec{true, -1, 1, d}, FactorSlotSpec{true, -1, 1, d}});
            const DimensionFactorizer::Table plain = f.table({});
            DimensionFactorizer::Table capped = plain, wide = plain, tight = plain;
            QVERIFY(f.indexBounds(capped, {}));
            QVERIFY(f.indexBounds(wide, {}, nullptr, std::size_t{1} << 20));
            auto scannedCounts = [](const DimensionFactorizer::Table& x) {
                return std::count_if(x.runsAt.begin(), x.runsAt.end(), [](std::uint32_t at) { return (at & DimensionFactorizer::kScannedCount) != 0; });
            };
            QVERIFY(scannedCounts(capped) > 0);
            QCOMPARE(scannedCounts(wide), 0);
            QVERIFY(!f.indexBounds(tight, {}, nullptr, std::size_t{1} << 20, wide.runs.size() - 1));
            QVERIFY(tight.runsAt.empty());
            std::vector<LoopFactor> a(3), b(3);
            for (std::uint64_t x = 0; x < static_cast<std::uint64_t>(plain.count()); ++x) {
                f.decode(plain, {}, x, a.data(), 1);
                f.decode(wide, {}, x, b.data(), 1);
                for (int s = 0; s < 3; ++s) {
                    QCOMPARE(b[s].bound, a[s].bound);
                    QCOMPARE(b[s].residual, a[s].residual);
                }
            }
        }
    }

    void wideImperfectRangesDecodeOneToOne()
    {
        for (std::int64_t D : {97, 360, 1000}) {
            const Mapspace s(rank1(D), twoLevels(), MapspaceKind::Ruby);
            QCOMPARE(static_cast<double>(s.factorizationCount()), static_cast<double>(D));
            std::set<std::vector<std::int64_t>> seen;
            MapspacePoint p;
            for (long double i = 0; i < s.factorizationCount(); i += 1) {
                s.factorizationAt(i, p);
                const Diagnostics d = s.toMapping(p).validate(s.workload(), s.architecture());
                QVERIFY2(d.empty(), d.empty() ? "" : d.front().toString().c_str());
                std::vector<std::int64_t> key;
                for (const auto& f : p.factors) key.insert(key.end(), {f.bound, f.residual});
                QVERIFY(seen.insert(key).second);
            }
        }
    }

    // Construction polls its cancel flag: a raised flag gives MapspaceCancelled, never a
    // partial mapspace. The guard that the builders step throws at its next poll once the
    // flag is up (what stops a long build midway), and past its step limit it gives an error
    // that names what was being built.
    void constructionHonoursCancel()
    {
        const std::atomic<bool> up{true};
        QVERIFY_THROWS_EXCEPTION(MapspaceCancelled,
                                 Mapspace(conv1d(12, 3), threeLevels(2, 2), MapspaceKind::Ruby, {}, {}, &up));
        const std::atomic<bool> down{false};
        QVERIFY(Mapspace(conv1d(12, 3), threeLevels(2, 2), MapspaceKind::Ruby, {}, {}, &down).factorizationCount() > 0);

        std::atomic<bool> flag{false};
        MapspaceBuildGuard guard(&flag, 0);
        guard.step(100000);  // no flag: nothing happens
        flag = true;
        QVERIFY_THROWS_EXCEPTION(MapspaceCancelled, guard.step(5000));

        // A table build with the flag up stops at its first poll.
        const DimensionFactorizer f(2147483647, {FactorSlotSpec{true, -1, 1, 2147483647}, FactorSlotSpec{true, -1, 1, 2147483647},
                                                 FactorSlotSpec{true, -1, 1, 2147483647}});
        MapspaceBuildGuard cancelled(&up, 0);
        QVERIFY_THROWS_EXCEPTION(MapspaceCancelled, f.table({}, &cancelled));
        MapspaceBuildGuard limited(nullptr, 10000);
        limited.setSubject("constraints.factors.D", "dimension D (2147483647)", "constrain its factors");
        try {
            f.table({}, &limited);
            QFAIL("a table of more than 10000 steps was built");
        } catch (const NestorError& e) {
            QVERIFY2(std::string(e.what()).find("dimension D (2147483647)") != std::string::npos, e.what());
            QCOMPARE(e.diagnostics().front().field, std::string("constraints.factors.D"));
        }
    }
};

QTEST_APPLESS_MAIN(TestMapspace)
#include "tst_mapspace.moc"
