// Search: ranking with Timeloop's tie tolerance, termination rules, determinism per seed and
// thread count, cancellation, and agreement of exhaustive search across thread counts.
#include "support/TestArchitectures.h"
#include "io/ProjectYaml.h"
#include "mapspace/Mapspace.h"
#include "model/Model.h"
#include "search/SearchAlgorithm.h"
#include "search/SearchDriver.h"
#include "analysis/ParetoFront.h"

#include <QtTest>

#include <atomic>
#include <memory>
#include <new>
#include <set>
#include <stdexcept>

using namespace nestor;

namespace {


Architecture smallArray(std::int64_t fx, std::int64_t fy, std::int64_t peWords) { return test::bufferAndPeArray(fx, fy, peWords); }

Workload conv(std::int64_t M, std::int64_t C, std::int64_t P, std::int64_t R)
{
    ConvParams cp;
    cp.M = M; cp.C = C; cp.P = P; cp.Q = P; cp.R = R; cp.S = R;
    return makeConv2d(cp);
}

// A 1-D convolution small enough to enumerate its Ruby-S mapspace on a 2 x 2 array.
Workload tinyConv1d()
{
    Workload w;
    w.dimNames = {"P", "R"};
    w.bounds = {6, 3};
    w.tensors = {Tensor{"Weights", false, {{{1, 1}}}}, Tensor{"Inputs", false, {{{0, 1}, {1, 1}}}},
                 Tensor{"Outputs", true, {{{0, 1}}}}};
    return w;
}

std::string loops(const Mapping& m)
{
    std::string s;
    for (const auto& l : m.levels) {
        for (const auto* v : {&l.temporal, &l.spatialY, &l.spatialX}) {
            for (const auto& x : *v) s += std::to_string(x.dim) + ":" + std::to_string(x.bound) + "/" + std::to_string(x.residual) + " ";
            s += "| ";
        }
        for (bool k : l.keep) s += k ? "K" : "b";
        s += " || ";
    }
    return s;
}

// A random search whose thread `failingThread` throws after `after` candidates: std::bad_alloc,
// or a runtime_error with `message`.
class FailingSearch : public SearchAlgorithm {
public:
    FailingSearch(const SearchContext& c, int failingThread, int after, std::string message = {})
        : inner_(findSearchAlgorithm("random")->create(c)), fails_(c.threadId == failingThread), after_(after),
          message_(std::move(message))
    {
    }
    bool next(MapspacePoint& p) override
    {
        if (fails_ && after_-- <= 0) {
            if (message_.empty()) throw std::bad_alloc();
            throw std::runtime_error(message_);
        }
        return inner_->next(p);
    }
    void report(bool valid, double cost, bool improved) override { inner_->report(valid, cost, improved); }

private:
    std::unique_ptr<SearchAlgorithm> inner_;
    bool fails_;
    int after_;
    std::string message_;
};

} // namespace

class TestSearch : public QObject {
    Q_OBJECT
private slots:
    void registryListsTheAlgorithms()
    {
        QStringList names;
        for (const auto& a : searchAlgorithms()) names << QString::fromStdString(a.name);
        QCOMPARE(names, QStringList({"exhaustive", "random", "random-pruned", "hybrid", "annealing"}));
        QVERIFY(findSearchAlgorithm("hybrid"));
        QVERIFY(!findSearchAlgorithm("magic"));
    }

    // semantics.md section 7: a metric decides only beyond 0.1%; then the next metric; if none
    // does, strictly better on the first wins and an exact tie keeps the incumbent.
    void tieTolerance()
    {
        QVERIFY(isBetter({0.9989}, {1.0}));
        QVERIFY(!isBetter({1.0011}, {1.0}));
        QVERIFY(isBetter({0.9995, 5.0}, {1.0, 6.0}));       // within 0.1%: energy decides
        QVERIFY(!isBetter({0.9995, 7.0}, {1.0, 6.0}));      // ... even against the first metric
        QVERIFY(isBetter({0.9995, 6.001}, {1.0, 6.0}));     // no metric decides: first metric, strictly
        QVERIFY(!isBetter({1.0, 6.0}, {1.0, 6.0}));          // exact tie keeps the incumbent
        QVERIFY(!isBetter({1.0004}, {1.0}));
        QCOMPARE(parseSearchMetrics("edp,energy").size(), std::size_t(2));
        QVERIFY_THROWS_EXCEPTION(NestorError, parseSearchMetrics("speed"));
    }

    // The invalid candidates by cause, on spaces where one cause takes every candidate by
    // construction: PE buffers of 2 words that must keep all three tensors (every tile spans at
    // least one word of each: 3 > 2), and a layer of one MAC on 12 PEs (utilization at most
    // 1/12) under a minimum utilization of 0.5.
    void invalidCandidatesByCause_data()
    {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<int>("threads");
        for (const char* a : {"random", "annealing"})
            for (int t : {1, 2}) QTest::newRow(qPrintable(QString("%1 x%2").arg(a).arg(t))) << QString(a) << t;
    }
    void invalidCandidatesByCause()
    {
        QFETCH(QString, algorithm);
        QFETCH(int, threads);
        SearchOptions o;
        o.algorithm = algorithm.toStdString();
        o.threads = threads;
        o.evaluationBudget = 600;
        o.timeout = 1 << 20;
        MapspaceConstraints keepAll;
        keepAll.addKeep("PE", {"Weights", "Inputs", "Outputs"});
        const Mapspace tight(conv(16, 8, 12, 3), smallArray(4, 3, 2), MapspaceKind::Ruby, keepAll);
        // The last progress report carries the final counts (every thread flushes before it ends).
        struct LastProgress : SearchObserver {
            SearchProgress last;
            void onProgress(const SearchProgress& p) override { last = p; }
        };
        LastProgress seen;
        const SearchResult full = runSearch(tight, o, &seen);
        QVERIFY(!full.found);
        QCOMPARE(full.evaluated, std::int64_t(600));
        QCOMPARE(full.overCapacity, full.evaluated);
        QCOMPARE(full.belowUtilization, std::int64_t(0));
        QCOMPARE(seen.last.overCapacity, full.overCapacity);
        QCOMPARE(seen.last.belowUtilization, std::int64_t(0));

        MapspaceConstraints busy;
        busy.minUtilization = 0.5;
        const Mapspace idle(conv(1, 1, 1, 1), smallArray(4, 3, 64), MapspaceKind::Ruby, busy);
        const SearchResult low = runSearch(idle, o, &seen);
        QVERIFY(!low.found);
        QCOMPARE(low.valid, std::int64_t(0));
        QCOMPARE(low.overCapacity, std::int64_t(0));
        QCOMPARE(low.belowUtilization, low.evaluated);
        QCOMPARE(seen.last.belowUtilization, low.evaluated);
        QCOMPARE(seen.last.overCapacity, std::int64_t(0));

        // A space with some of each: the causes never exceed the invalid candidates.
        const Mapspace mixed(conv(16, 8, 12, 3), smallArray(4, 3, 8), MapspaceKind::Ruby);
        const SearchResult some = runSearch(mixed, o);
        QVERIFY(some.overCapacity > 0);
        QVERIFY(some.valid > 0);
        QVERIFY(some.overCapacity + some.belowUtilization + some.valid <= some.evaluated);
    }

    // A large layer of prime dimensions on the Eyeriss-like design of examples/: a uniform draw of
    // the Ruby and Ruby-T mapspaces almost never fits the scratchpads (none of 1,500 in a
    // random search, checked first; the annealing search found no valid start before it drew
    // starts from the perfect factorizations too), while PFM's draws fit often. Annealing finds mappings in
    // every kind, each a member of its space (re-evaluated valid).
    void annealingStartsWhereUniformDrawsOverflow()
    {
        const Project pr = parseProject("nestor: 1\nname: huge\ninclude: [arch/eyeriss-like.arch.yaml]\nworkloads:\n"
                                        "  - {name: big, type: conv, N: 1000, M: 10007, C: 9973, P: 1000, Q: 997, R: 3, S: 3}\n",
                                        std::string(NESTOR_EXAMPLES_DIR) + "/huge-test.yaml");
        const Workload& w = pr.workloads.at(0).workload;
        SearchOptions o;
        o.threads = 1;
        o.evaluationBudget = 1500;
        o.timeout = 1 << 20;
        for (MapspaceKind k : {MapspaceKind::Ruby, MapspaceKind::RubyT}) {
            const Mapspace s(w, pr.architecture, k);
            o.algorithm = "random";
            const SearchResult uniform = runSearch(s, o);
            QCOMPARE(uniform.valid, std::int64_t(0));  // the premise: uniform draws do not fit
            o.algorithm = "annealing";
            const SearchResult r = runSearch(s, o);
            QVERIFY2(r.found, qPrintable(QString::fromStdString(mapspaceKindName(k))));
            QVERIFY(evaluate(w, pr.architecture, r.best).valid);
            QVERIFY(!s.exceedsCapacity(r.bestPoint));
        }
    }

    void sameSeedSameResult_data()
    {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<int>("threads");
        for (const char* a : {"random", "random-pruned", "hybrid", "annealing"})
            for (int t : {1, 2}) QTest::newRow(qPrintable(QString("%1 x%2").arg(a).arg(t))) << QString(a) << t;
    }
    void sameSeedSameResult()
    {
        QFETCH(QString, algorithm);
        QFETCH(int, threads);
        const Mapspace s(conv(16, 8, 12, 3), smallArray(4, 3, 64), MapspaceKind::RubyS);
        SearchOptions o;
        o.algorithm = algorithm.toStdString();
        o.threads = threads;
        o.seed = 42;
        o.victoryCondition = 100;
        o.evaluationBudget = 1500;
        const SearchResult r1 = runSearch(s, o), r2 = runSearch(s, o);
        QVERIFY(r1.found);
        QCOMPARE(r1.bestMetrics, r2.bestMetrics);
        QCOMPARE(loops(r1.best), loops(r2.best));
        QCOMPARE(r1.evaluated, r2.evaluated);
        QCOMPARE(r1.valid, r2.valid);
        o.seed = 43;
        const SearchResult r3 = runSearch(s, o);
        QVERIFY(r3.found);
        // the best is re-evaluated by the one cost model
        const Evaluation ev = evaluate(s.workload(), s.architecture(), r1.best);
        QCOMPARE(ev.edp_J_s, r1.bestEvaluation.edp_J_s);
    }

    void terminationRules()
    {
        const Mapspace s(conv(16, 8, 12, 3), smallArray(4, 3, 64), MapspaceKind::Pfm);
        SearchOptions o;
        o.victoryCondition = 50;
        o.timeout = 1000000;
        SearchResult r = runSearch(s, o);
        QCOMPARE(r.stopReasons, std::vector<std::string>{"victory"});
        QVERIFY(r.valid >= 50);

        // a PE buffer of 2 words makes most mappings invalid
        const Mapspace tight(conv(16, 8, 12, 3), smallArray(4, 3, 2), MapspaceKind::Pfm);
        o = SearchOptions{};
        o.timeout = 0;  // Timeloop master: stops at the first invalid mapping
        r = runSearch(tight, o);
        QCOMPARE(r.stopReasons, std::vector<std::string>{"timeout"});
        QCOMPARE(r.evaluated - r.valid, std::int64_t(1));
        o.timeout = 5;
        o.victoryCondition = 0;
        r = runSearch(tight, o);
        QCOMPARE(r.stopReasons, std::vector<std::string>{"timeout"});
        QVERIFY(r.evaluated - r.valid >= 5);

        o = SearchOptions{};
        o.threads = 2;
        o.searchSize = 30;
        o.victoryCondition = 0;
        r = runSearch(s, o);
        QCOMPARE(r.valid, std::int64_t(30));
        QCOMPARE(r.stopReasons, (std::vector<std::string>{"search size", "search size"}));
        QCOMPARE(stopReasonsText(r), std::string("search size"));  // each rule once
        SearchResult mixed;
        mixed.stopReasons = {"victory", "search size", "victory"};
        QCOMPARE(stopReasonsText(mixed), std::string("victory, search size"));
        o.searchSize = 0;
        o.evaluationBudget = 77;
        r = runSearch(s, o);
        QCOMPARE(r.evaluated, std::int64_t(77));
    }

    // Exhaustive search finds the same best on 1 and 2 threads, and no random search beats it.
    void exhaustiveIsOptimal()
    {
        const Workload w = tinyConv1d();
        const Mapspace s(w, smallArray(2, 2, 8), MapspaceKind::RubyS);
        QVERIFY(s.size().exact);
        QVERIFY(s.size().total < 200000);
        SearchOptions o;
        o.algorithm = "exhaustive";
        const SearchResult one = runSearch(s, o);
        o.threads = 2;
        const SearchResult two = runSearch(s, o);
        QCOMPARE(one.evaluated, static_cast<std::int64_t>(s.size().total));
        QCOMPARE(two.evaluated, one.evaluated);
        QCOMPARE(two.bestMetrics.front(), one.bestMetrics.front());
        o.algorithm = "annealing";
        o.evaluationBudget = 3000;
        o.victoryCondition = 0;
        const SearchResult sa = runSearch(s, o);
        QVERIFY(sa.bestMetrics.front() >= one.bestMetrics.front() * (1 - 1e-12));
    }

    // The search's energy-delay front equals the Pareto front (analysis/paretoFront) of every
    // valid mapping of the space, enumerated here point by point; the scatter is a sample of them.
    void energyDelayFrontIsExact()
    {
        const Workload w = tinyConv1d();
        const Mapspace s(w, smallArray(2, 2, 8), MapspaceKind::RubyS);
        std::set<std::pair<double, double>> all;  // (cycles, energy) of the valid mappings
        std::vector<std::vector<double>> objectives;
        MapspacePoint p;
        for (long double f = 0; f < s.factorizationCount(); f += 1) {
            s.factorizationAt(f, p);
            std::uint64_t orders = 1;
            for (int slot = 0; slot < s.numSlots(); ++slot) orders *= s.orderCount(p, slot);
            for (std::uint64_t o = 0; o < orders; ++o) {
                p.orders.assign(std::size_t(s.numSlots()), 0);
                std::uint64_t rest = o;
                for (int slot = 0; slot < s.numSlots(); ++slot) {
                    p.orders[std::size_t(slot)] = rest % s.orderCount(p, slot);
                    rest /= s.orderCount(p, slot);
                }
                for (std::uint64_t k = 0; k < s.keepCount(); ++k) {
                    p.keepBits = k;
                    const Evaluation ev = evaluate(w, s.architecture(), s.toMapping(p));
                    if (!ev.valid) continue;
                    all.insert({double(ev.cycles), ev.energy_pJ});
                    objectives.push_back({double(ev.cycles), ev.energy_pJ});
                }
            }
        }
        std::set<std::pair<double, double>> expected;
        for (std::size_t i : paretoFront(objectives)) expected.insert({objectives[i][0], objectives[i][1]});
        QVERIFY(expected.size() >= 2);

        SearchOptions o;
        o.algorithm = "exhaustive";
        o.scatterSize = 40;
        for (int threads : {1, 2}) {
            o.threads = threads;
            const SearchResult r = runSearch(s, o);
            QCOMPARE(r.valid, std::int64_t(objectives.size()));
            std::set<std::pair<double, double>> front;
            for (const auto& e : r.energyDelayFront) front.insert({e.cycles, e.energy_pJ});
            QCOMPARE(front, expected);
            QCOMPARE(r.energyDelayFront.size(), expected.size());  // no duplicates
            for (std::size_t i = 1; i < r.energyDelayFront.size(); ++i)
                QVERIFY(r.energyDelayFront[i - 1].cycles < r.energyDelayFront[i].cycles);
            QCOMPARE(r.scatter.size(), std::size_t(40));
            for (const auto& e : r.scatter) {
                QVERIFY(all.count({e.cycles, e.energy_pJ}));
                const Evaluation ev = evaluate(w, s.architecture(), s.toMapping(e.point));
                QCOMPARE(ev.energy_pJ, e.energy_pJ);  // the point rebuilds the mapping it stands for
            }
        }
    }

    // Cancel ends every thread and returns the best so far, on a mapspace of more than 1e12
    // points that no budget or rule would end. The flag is raised by the observer, which runs
    // on this thread, once the threads have evaluated something: no sleeps, no clocks (how
    // fast cancel returns is measured by bench/bench_responsiveness).
    void cancelReturnsTheBestSoFar()
    {
        struct CancelOnProgress : SearchObserver {
            std::atomic<bool> cancel{false};
            std::int64_t seenWhenCancelled = -1;
            void onProgress(const SearchProgress& p) override
            {
                if (p.evaluated > 0 && !cancel) {
                    seenWhenCancelled = p.evaluated;
                    cancel = true;
                }
            }
        } obs;
        ConvParams cp;
        cp.M = 256; cp.C = 128; cp.P = 56; cp.Q = 56; cp.R = 3; cp.S = 3;
        const Mapspace s(makeConv2d(cp), smallArray(14, 12, 256), MapspaceKind::Pfm);
        QVERIFY(s.size().total > 1e12L);
        SearchOptions o;
        o.threads = 2;
        o.victoryCondition = 0;
        o.timeout = 1000000000;
        const SearchResult r = runSearch(s, o, &obs, &obs.cancel);
        QVERIFY(r.cancelled);
        QCOMPARE(r.stopReasons, (std::vector<std::string>{"cancelled", "cancelled"}));
        QVERIFY(obs.seenWhenCancelled > 0);
        QVERIFY(r.evaluated >= obs.seenWhenCancelled);
        QCOMPARE(r.found, r.valid > 0);  // the best so far, whenever there is one
        if (r.found) QVERIFY(evaluate(s.workload(), s.architecture(), r.best).valid);
    }

    // A flag raised before the search starts is seen before the first evaluation.
    void cancelBeforeStartEvaluatesNothing()
    {
        const Mapspace s(conv(16, 8, 12, 3), smallArray(4, 3, 64), MapspaceKind::Pfm);
        const std::atomic<bool> cancel{true};
        for (int threads : {1, 3}) {
            SearchOptions o;
            o.threads = threads;
            const SearchResult r = runSearch(s, o, nullptr, &cancel);
            QVERIFY(r.cancelled);
            QCOMPARE(r.evaluated, std::int64_t(0));
            QVERIFY(!r.found);
            QCOMPARE(r.stopReasons, std::vector<std::string>(std::size_t(threads), "cancelled"));
        }
    }

    // The observer sees progress and a decreasing best-so-far curve.
    void observerSeesProgress()
    {
        struct Obs : SearchObserver {
            int progress = 0;
            std::vector<SearchCurvePoint> curve;
            void onProgress(const SearchProgress&) override { ++progress; }
            void onImprovement(const SearchCurvePoint& p) override { curve.push_back(p); }
        } obs;
        const Mapspace s(conv(16, 8, 12, 3), smallArray(4, 3, 64), MapspaceKind::Pfm);
        SearchOptions o;
        o.evaluationBudget = 2000;
        o.victoryCondition = 0;
        const SearchResult r = runSearch(s, o, &obs);
        QVERIFY(obs.progress >= 1);
        QVERIFY(!obs.curve.empty());
        QCOMPARE(obs.curve.size(), r.curve.size());
        for (std::size_t i = 1; i < obs.curve.size(); ++i) {
            QVERIFY(obs.curve[i].value < obs.curve[i - 1].value);
            QVERIFY(obs.curve[i].evaluated > obs.curve[i - 1].evaluated);
        }
        QCOMPARE(obs.curve.back().value, r.bestMetrics.front());
    }

    // A search thread that throws (here std::bad_alloc, as an allocation in the model can)
    // must not reach std::terminate: the other threads stop, all are joined, and runSearch
    // throws a NestorError naming the thread. No budget, victory or timeout would end the
    // other threads, so a driver that did not stop them would hang here.
    void failingThreadReachesTheCaller()
    {
        const Mapspace s(conv(16, 8, 12, 3), smallArray(4, 3, 64), MapspaceKind::Pfm);
        SearchOptions o;
        o.threads = 3;
        o.victoryCondition = 0;
        o.timeout = 1000000000;
        o.algorithm = "random";
        o.algorithmFactory = [](const SearchContext& c) { return std::make_unique<FailingSearch>(c, 1, 25); };
        try {
            runSearch(s, o);
            QFAIL("runSearch returned although a search thread threw");
        } catch (const NestorError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("search thread 2") != std::string::npos, what.c_str());
            QVERIFY2(what.find("out of memory") != std::string::npos, what.c_str());
        }
        // Any other exception type reaches the caller the same way, with its message.
        o.threads = 1;
        o.algorithmFactory = [](const SearchContext& c) { return std::make_unique<FailingSearch>(c, 0, 3, "disk on fire"); };
        QVERIFY_THROWS_EXCEPTION(NestorError, runSearch(s, o));
        try {
            runSearch(s, o);
        } catch (const NestorError& e) {
            QVERIFY2(std::string(e.what()).find("search thread 1 failed: disk on fire") != std::string::npos, e.what());
        }
    }

    // An observer that throws (it runs on the caller's thread while the workers run) ends the
    // search with its exception after the threads have been stopped and joined.
    void failingObserverReachesTheCaller()
    {
        struct Throwing : SearchObserver {
            void onProgress(const SearchProgress& p) override
            {
                if (p.evaluated > 0) throw std::runtime_error("observer gave up");
            }
        } obs;
        ConvParams cp;
        cp.M = 256; cp.C = 128; cp.P = 56; cp.Q = 56; cp.R = 3; cp.S = 3;
        const Mapspace s(makeConv2d(cp), smallArray(14, 12, 256), MapspaceKind::Pfm);
        SearchOptions o;
        o.threads = 2;
        o.victoryCondition = 0;
        o.timeout = 1000000000;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, runSearch(s, o, &obs));
    }

    // Thread counts outside [1, kMaxSearchThreads] are refused before any thread starts.
    void threadCountsAreChecked()
    {
        const Mapspace s(conv(16, 8, 12, 3), smallArray(4, 3, 64), MapspaceKind::Pfm);
        for (int threads : {0, -1, kMaxSearchThreads + 1, 1000}) {
            SearchOptions o;
            o.threads = threads;
            try {
                runSearch(s, o);
                QFAIL(qPrintable(QString("%1 threads accepted").arg(threads)));
            } catch (const NestorError& e) {
                QCOMPARE(e.diagnostics().front().field, std::string("search.threads"));
            }
        }
        SearchOptions o;
        o.threads = 4;
        o.evaluationBudget = 40;
        QCOMPARE(runSearch(s, o).evaluated, std::int64_t(40));
    }
};

QTEST_APPLESS_MAIN(TestSearch)
#include "tst_search.moc"
