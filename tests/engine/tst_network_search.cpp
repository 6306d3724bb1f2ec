// Whole-network search (engine/search/NetworkSearch.h), constraints read from project YAML
// honoured by every sampled and every best mapping (checked by checkConstraints, independently
// of the generator), and the architecture sweep's area-vs-EDP Pareto front (checked by brute
// force over its points).
#include "support/TestArchitectures.h"
#include "io/ProjectYaml.h"
#include "mapspace/Mapspace.h"
#include "model/Model.h"
#include "search/ArchitectureSweep.h"
#include "search/NetworkSearch.h"
#include "search/SearchAlgorithm.h"

#include <QtTest>

#include <memory>
#include <new>
#include <random>

using namespace nestor;

namespace {


Architecture smallArray(std::int64_t fx, std::int64_t fy)
{
    Architecture a = test::bufferAndPeArray(fx, fy, 64);
    a.name = "small";
    a.levels[1].area_um2 = 20000.0;
    a.levels[2].area_um2 = 300.0;
    a.compute.area_um2 = 1000.0;
    return a;
}

Workload conv(const std::string& name, std::int64_t M, std::int64_t C, std::int64_t P, std::int64_t R)
{
    ConvParams cp;
    cp.name = name;
    cp.M = M; cp.C = C; cp.P = P; cp.Q = P; cp.R = R; cp.S = R;
    Workload w = makeConv2d(cp);
    w.name = name;
    return w;
}

std::vector<NetworkSearchLayer> smallNetwork()
{
    std::vector<NetworkSearchLayer> layers(4);
    layers[0].name = "a";
    layers[0].workload = conv("a", 8, 4, 6, 3);
    layers[1].name = "b";
    layers[1].workload = conv("b", 16, 8, 4, 1);
    layers[1].repeat = 2;
    layers[2].name = "c";
    layers[2].workload = conv("c", 4, 16, 4, 3);
    layers[3] = layers[0];  // the same layer again: searched once, counted twice
    return layers;
}

NetworkSearchOptions fastOptions(std::uint64_t seed)
{
    NetworkSearchOptions o;
    o.kind = MapspaceKind::Pfm;
    o.search.algorithm = "random";
    o.search.seed = seed;
    o.search.victoryCondition = 100;
    o.search.evaluationBudget = 1500;
    return o;
}

// A project with a constraints section (the format of docs/project-format.md).
const std::string kConstrained = R"(nestor: 1
workloads:
  - {name: l1, type: conv, M: 16, C: 8, P: 8, Q: 8, R: 3, S: 3}
  - {name: l2, type: conv, M: 32, C: 16, P: 4, Q: 4, R: 1, S: 1}
  - {name: g, type: gemm, M: 32, N: 8, K: 16}
networks:
  - {name: net, layers: [l1, l2, g]}
architecture:
  levels:
    - {name: DRAM, technology: DRAM, size_words: null, energy_pJ: {read: 100, fill: 100, update: 100}}
    - {name: Buffer, technology: SRAM, size_words: 4096, energy_pJ: {read: 5, fill: 5, update: 5}, area_um2: 20000}
    - {name: array, technology: dummy, instances: 1}
    - {name: PE, technology: regfile, size_words: 64, instances: 16, mesh_x: 4, energy_pJ: {read: 0.5, fill: 0.5, update: 0.5}}
  compute: {instances: 16, mesh_x: 4, energy_pJ: 0.3}
constraints:
  - {target: DRAM, type: temporal, factors: "R=1 S=1 K<=4"}
  - {target: Buffer, type: temporal, factors: "C<=4 M>=2", permutation: "Q P"}
  - {target: Buffer, type: bypass, keep: [Inputs, Outputs], bypass: [Weights]}
  - {target: array, type: spatial, split: "M|C K"}
  - {target: array, type: spatial, workload: l1, factors: "M=4 C<=2"}
  - {target: PE, type: bypass, keep: [Weights, B]}
  - {type: utilization, min: 0.2}
)";

} // namespace

class TestNetworkSearch : public QObject {
    Q_OBJECT
private slots:
    void networkTotalsAreSumsAndDeterministic()
    {
        const Architecture a = smallArray(4, 2);
        const auto layers = smallNetwork();
        const NetworkSearchResult r1 = runNetworkSearch(a, layers, fastOptions(7));
        const NetworkSearchResult r2 = runNetworkSearch(a, layers, fastOptions(7));
        QVERIFY(r1.complete);
        QCOMPARE(r1.layers.size(), layers.size());
        double energy = 0, sumEdp = 0;
        std::int64_t cycles = 0, evaluated = 0;
        for (std::size_t i = 0; i < r1.layers.size(); ++i) {
            const auto& l = r1.layers[i];
            QVERIFY(l.result.found);
            QCOMPARE(l.repeat, layers[i].repeat);
            // the one cost model, re-run on the reported mapping
            const Evaluation ev = evaluate(layers[i].workload, a, l.result.best);
            QVERIFY(ev.valid);
            QCOMPARE(ev.energy_pJ, l.result.bestEvaluation.energy_pJ);
            QCOMPARE(ev.cycles, l.result.bestEvaluation.cycles);
            energy += ev.energy_pJ * static_cast<double>(l.repeat);
            cycles += ev.cycles * l.repeat;
            sumEdp += ev.edp_J_s * static_cast<double>(l.repeat);
            evaluated += l.result.evaluated;
            // same seed, same result
            QCOMPARE(r2.layers[i].result.bestMetrics, l.result.bestMetrics);
            QCOMPARE(r2.layers[i].result.evaluated, l.result.evaluated);
        }
        QVERIFY(qFuzzyCompare(r1.energy_pJ, energy));
        QCOMPARE(r1.cycles, cycles);
        QVERIFY(qFuzzyCompare(r1.sumLayerEdp_J_s, sumEdp));
        QCOMPARE(r1.evaluated, evaluated);
        QVERIFY(qFuzzyCompare(r1.edp_J_s, energy * 1e-12 * static_cast<double>(cycles) * a.cycle_seconds));
        // the repeated layer was searched once and reuses the first result
        QCOMPARE(r1.layers[3].result.evaluated, std::int64_t(0));
        QCOMPARE(r1.layers[3].result.bestMetrics, r1.layers[0].result.bestMetrics);
        QCOMPARE(r2.energy_pJ, r1.energy_pJ);
        QCOMPARE(r2.cycles, r1.cycles);
    }

    // ResNet's projections and 1x1 convolutions: another name, the same shape. Searched once when
    // the constraints agree too; a layer of that shape under other constraints is searched itself.
    void sameShapeUnderAnotherNameIsSearchedOnce()
    {
        const Architecture a = smallArray(4, 2);
        std::vector<NetworkSearchLayer> layers(3);
        layers[0].name = "first";
        layers[0].workload = conv("first", 16, 8, 4, 1);
        layers[1].name = "twin";
        layers[1].workload = conv("twin", 16, 8, 4, 1);
        layers[2].name = "constrained";
        layers[2].workload = conv("constrained", 16, 8, 4, 1);
        layers[2].constraints.addFactors("DRAM", false, "M=16");
        const NetworkSearchResult r = runNetworkSearch(a, layers, fastOptions(5));
        QVERIFY(r.complete);
        QVERIFY(r.layers[0].result.evaluated > 0);
        QCOMPARE(r.layers[1].result.evaluated, std::int64_t(0));
        QCOMPARE(r.layers[1].sameAs, std::string("first"));
        QCOMPARE(r.layers[1].result.bestMetrics, r.layers[0].result.bestMetrics);
        QVERIFY(r.layers[2].result.evaluated > 0);
        QVERIFY(r.layers[2].sameAs.empty());
        // its best mapping honours its own constraint: all of M at DRAM
        std::int64_t mAtDram = 1;
        for (const Loop& l : r.layers[2].result.best.levels[0].temporal)
            if (l.dim == layers[2].workload.dimIndex("M")) mAtDram *= l.bound;
        QCOMPARE(mAtDram, std::int64_t(16));
        QCOMPARE(r.evaluated, r.layers[0].result.evaluated + r.layers[2].result.evaluated);
    }

    // Per-layer solvers work on each workload of a network once, in network order.
    void distinctLayersOfANetwork()
    {
        Project p;
        for (const char* name : {"a", "b", "c"}) {
            ProjectWorkload pw;
            pw.workload = conv(name, 4, 4, 4, 1);
            p.workloads.push_back(pw);
        }
        ProjectNetwork n;
        n.name = "net";
        n.layers = {{"b", 2}, {"a", 1}, {"b", 1}, {"missing", 1}, {"a", 3}};
        p.networks.push_back(n);
        QVERIFY(p.findNetwork("other") == nullptr);
        const ProjectNetwork* net = p.findNetwork("net");
        QVERIFY(net);
        const auto layers = p.distinctLayers(*net);
        QCOMPARE(layers.size(), std::size_t(2));
        QCOMPARE(layers[0]->workload.name, std::string("b"));
        QCOMPARE(layers[1]->workload.name, std::string("a"));
    }

    void networkSearchCancel()
    {
        std::atomic<bool> cancel{true};
        FlagJobContext job(&cancel);
        const NetworkSearchResult r = runNetworkSearch(smallArray(4, 2), smallNetwork(), fastOptions(1), nullptr, &job);
        QVERIFY(r.cancelled);
        QVERIFY(!r.complete);
        for (const auto& l : r.layers) QVERIFY(!l.result.found);
        QVERIFY_THROWS_EXCEPTION(NestorError, [] {
            NetworkSearchOptions o = fastOptions(1);
            o.search.algorithm = "magic";
            runNetworkSearch(smallArray(2, 2), smallNetwork(), o);
        }());
    }

    void networkObserverSeesEveryLayer()
    {
        struct Obs : NetworkSearchObserver {
            std::vector<std::string> started;
            int finished = 0;
            void onLayerStarted(int, int, const std::string& n) override { started.push_back(n); }
            void onLayerFinished(int, const NetworkLayerResult&) override { ++finished; }
        } obs;
        runNetworkSearch(smallArray(2, 2), smallNetwork(), fastOptions(3), &obs);
        QCOMPARE(obs.started, (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(obs.finished, 3);
    }

    // The job contract's progress: the share of layers done, named; a sweep maps each point's
    // network search into that point's share.
    void networkSearchReportsProgressThroughTheJob()
    {
        std::vector<JobProgress> seen;
        FlagJobContext job(nullptr, [&](const JobProgress& p) { seen.push_back(p); });
        runNetworkSearch(smallArray(2, 2), smallNetwork(), fastOptions(3), nullptr, &job);
        QCOMPARE(seen.size(), std::size_t(5));   // a, b, c, a again (counted, not searched), done
        QCOMPARE(seen[0].fraction, 0.0);
        QCOMPARE(seen[0].message, std::string("layer 1/4 a"));
        QCOMPARE(seen[2].fraction, 0.5);
        QCOMPARE(seen[2].message, std::string("layer 3/4 c"));
        QCOMPARE(seen[4].fraction, 1.0);

        std::vector<JobProgress> sweep;
        FlagJobContext sweepJob(nullptr, [&](const JobProgress& p) { sweep.push_back(p); });
        SweepOptions so;
        so.arrays = {{2, 2}, {4, 2}};
        so.kinds = {MapspaceKind::Pfm};
        so.search = fastOptions(3).search;
        runArchitectureSweep(smallArray(4, 2), smallNetwork(), so, nullptr, &sweepJob);
        QCOMPARE(sweep.size(), std::size_t(10));  // 5 reports per point, 2 points
        QCOMPARE(sweep[0].message, std::string("2x2 pfm: layer 1/4 a"));
        QCOMPARE(sweep[5].fraction, 0.5);          // the second point starts half way
        QCOMPARE(sweep[5].message, std::string("4x2 pfm: layer 1/4 a"));
        QCOMPARE(sweep[7].fraction, 0.5 + 0.5 * 0.5);
        QCOMPARE(sweep[9].fraction, 1.0);
    }

    // Every sampled mapping of every layer honours the constraints read from YAML.
    void yamlConstraintsHonoured_data()
    {
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QString>("kind");
        for (const char* l : {"l1", "l2", "g"})
            for (const char* k : {"pfm", "ruby-s"}) QTest::newRow(qPrintable(QString("%1 %2").arg(l, k))) << QString(l) << QString(k);
    }
    void yamlConstraintsHonoured()
    {
        QFETCH(QString, layer);
        QFETCH(QString, kind);
        const Project p = parseProject(kConstrained, "constrained.yaml");
        QCOMPARE(p.constraints.size(), std::size_t(7));
        const Workload& w = p.findWorkload(layer.toStdString())->workload;
        const MapspaceConstraints c = p.constraintsFor(w);
        QCOMPARE(c.minUtilization, 0.2);
        if (layer == "l1") QCOMPARE(c.factors.size(), std::size_t(6));  // R S (K dropped) C M + M C
        const Mapspace s(w, p.architecture, *parseMapspaceKind(kind.toStdString()), c);
        std::mt19937_64 rng(11);
        for (int i = 0; i < 1000; ++i) {
            const Mapping m = s.toMapping(s.randomPoint(rng));
            const Diagnostics d = checkConstraints(c, m, w, p.architecture);
            QVERIFY2(d.empty(), d.empty() ? "" : d.front().toString().c_str());
            QVERIFY(m.validate(w, p.architecture).empty());
        }
        SearchOptions o;
        o.seed = 5;
        o.evaluationBudget = 1000;
        o.victoryCondition = 200;
        const SearchResult r = runSearch(s, o);
        QVERIFY(r.found);
        QVERIFY(checkConstraints(c, r.best, w, p.architecture).empty());
        QVERIFY(r.bestEvaluation.utilization >= 0.2);
    }

    // The row-stationary constraint set of examples/eyeriss-like.yaml.
    void eyerissExampleConstraints()
    {
        const Project p = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/eyeriss-like.yaml");
        QVERIFY(!p.constraints.empty());
        const Workload& w = p.findWorkload("conv3_1")->workload;
        const MapspaceConstraints c = p.constraintsFor(w);
        const Mapspace s(w, p.architecture, MapspaceKind::Pfm, c);
        std::mt19937_64 rng(3);
        for (int i = 0; i < 300; ++i) {
            const Mapping m = s.toMapping(s.randomPoint(rng));
            QVERIFY(checkConstraints(c, m, w, p.architecture).empty());
            // row stationary: S only down the rows, three of them; Q and M across the columns
            const auto& y = m.levels[p.architecture.levelIndex("inter_PE_spatial")].spatialY;
            std::int64_t sy = 1;
            for (const auto& l : y) {
                QVERIFY(w.dimNames[l.dim] == "S" || w.dimNames[l.dim] == "C");
                if (w.dimNames[l.dim] == "S") sy *= l.bound;
            }
            QCOMPARE(sy, std::int64_t(3));
        }
    }

    // The sweep's front is non-empty and exactly the non-dominated points (brute force).
    void sweepParetoFront()
    {
        std::vector<NetworkSearchLayer> layers(1);
        layers[0].name = "a";
        layers[0].workload = conv("a", 8, 4, 6, 3);
        SweepOptions o;
        o.arrays = {{2, 2}, {4, 2}, {2, 4}, {4, 4}, {8, 4}};
        o.kinds = {MapspaceKind::Pfm, MapspaceKind::RubyS};
        o.search.seed = 2;
        o.search.evaluationBudget = 400;
        o.search.victoryCondition = 100;
        const SweepResult r = runArchitectureSweep(smallArray(4, 2), layers, o);
        QCOMPARE(r.points.size(), o.arrays.size() * o.kinds.size());
        QCOMPARE(r.fronts.size(), o.kinds.size());
        for (std::size_t k = 0; k < o.kinds.size(); ++k) {
            QVERIFY(!r.fronts[k].empty());
            for (std::size_t i = 0; i < r.points.size(); ++i) {
                const SweepPoint& pi = r.points[i];
                if (pi.kind != o.kinds[k]) continue;
                QVERIFY(pi.found);
                bool dominated = false;
                for (const SweepPoint& q : r.points) {
                    if (q.kind != pi.kind || !q.found) continue;
                    const bool noWorse = q.area_um2 <= pi.area_um2 && q.edp_J_s <= pi.edp_J_s;
                    const bool better = q.area_um2 < pi.area_um2 || q.edp_J_s < pi.edp_J_s;
                    dominated = dominated || (noWorse && better);
                }
                QCOMPARE(pi.pareto, !dominated);
                QCOMPARE(std::count(r.fronts[k].begin(), r.fronts[k].end(), i) == 1, pi.pareto);
            }
        }
        // area grows with the array
        QVERIFY(r.points[0].area_um2 < r.points.back().area_um2);
        QCOMPARE(resizePeArray(smallArray(4, 2), 8, 4).compute.instances, std::int64_t(32));
        QCOMPARE(parsePeArraySize("14x12").y, std::int64_t(12));
        QVERIFY_THROWS_EXCEPTION(NestorError, parsePeArraySize("14by12"));
        QCOMPARE(defaultSweepArrays().front().name(), std::string("2x7"));
        QCOMPARE(defaultSweepArrays().back().name(), std::string("16x16"));
    }

    // A layer whose search thread fails (out of memory) gets an error; the other layers are
    // still searched, and nothing terminates the process. Thread counts are checked up front.
    void failingLayerSearchIsAnErrorOfThatLayer()
    {
        NetworkSearchOptions o = fastOptions(3);
        o.search.threads = 2;
        o.search.algorithmFactory = [](const SearchContext& c) -> std::unique_ptr<SearchAlgorithm> {
            if (c.space->workload().name == "b") throw std::bad_alloc();
            return findSearchAlgorithm("random")->create(c);
        };
        const NetworkSearchResult r = runNetworkSearch(smallArray(4, 2), smallNetwork(), o);
        QVERIFY(!r.complete);
        QCOMPARE(r.layers.size(), std::size_t(4));
        for (const auto& l : r.layers) {
            if (l.name == "b") {
                QVERIFY(!l.result.found);
                QVERIFY2(l.error.find("out of memory") != std::string::npos, l.error.c_str());
            } else {
                QVERIFY2(l.error.empty(), l.error.c_str());
                QVERIFY(l.result.found);
            }
        }
        for (int threads : {0, kMaxSearchThreads + 1}) {
            NetworkSearchOptions bad = fastOptions(1);
            bad.search.threads = threads;
            QVERIFY_THROWS_EXCEPTION(NestorError, runNetworkSearch(smallArray(4, 2), smallNetwork(), bad));
            SweepOptions so;
            so.search = bad.search;
            so.arrays = {{2, 2}};
            so.kinds = {MapspaceKind::Pfm};
            // the sweep refuses the options instead of failing every point
            QVERIFY_THROWS_EXCEPTION(NestorError, runArchitectureSweep(smallArray(4, 2), smallNetwork(), so));
        }
    }
};

QTEST_GUILESS_MAIN(TestNetworkSearch)
#include "tst_network_search.moc"
