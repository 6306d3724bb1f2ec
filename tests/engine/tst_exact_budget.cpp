// The exact analysis is bounded: a mapping whose walk would need more memory or work than
// ModelOptions allows gets a clear "exact evaluation exceeds ..." result, never a guess; below
// the budget the counts are exact (checked against the independent brute-force walker).
#include "bruteforce/BruteForceEvaluator.h"
#include "core/Project.h"
#include "io/ProjectYaml.h"
#include "mapspace/Mapspace.h"
#include "model/ExactBudget.h"
#include "model/Model.h"
#include "search/SearchDriver.h"

#include <QtTest/QtTest>

#include <sys/resource.h>

#include <atomic>
#include <random>
#include <string>

using namespace nestor;

namespace {

// The Eyeriss-like architecture of examples/ with one conv layer and one mapping.
Project eyerissProject(const std::string& layer, const std::string& mappingLevels)
{
    const std::string text = "nestor: 1\nname: budget\ninclude: [arch/eyeriss-like.arch.yaml]\nworkloads:\n  - " + layer +
                             "\nmappings:\n  - name: m\n    workload: conv\n    levels:\n" + mappingLevels;
    return parseProject(text, std::string(NESTOR_EXAMPLES_DIR) + "/budget-test.yaml");
}

// Temporal remainders on M, P, C, Q in the GLB and spatial remainders on Q and C: a nest whose
// Inputs stage (kinds of child that idle apart, links) only the walker took until the
// temporal-remainder form counted links on the kinds' joint state. On VGG-16 conv3_1 with
// P = 512 its exact walk took 16 s and 1.8 GB before the budget existed (found by random
// sampling of the Ruby mapspace).
const char* kHeavyLayer = "{name: conv, type: conv, N: 1, M: 256, C: 128, P: 512, Q: 56, R: 3, S: 3}";
const char* kHeavyRubyLevels =
    "      - {level: DRAM, temporal: [[C, 3], [Q, 3], [M, 5], [P, 74]]}\n"
    "      - {level: GLB, temporal: [[M, 14, 8], [P, 7, 1], [C, 20, 3], [Q, 2, 1]], bypass: [Weights]}\n"
    "      - {level: inter_PE_column_spatial, spatial_x: [[Q, 12, 8]], bypass: [Weights, Inputs, Outputs]}\n"
    "      - {level: inter_PE_spatial, spatial_y: [[S, 3], [C, 3, 2]], bypass: [Weights, Inputs, Outputs]}\n"
    "      - {level: ifmap_spad, bypass: [Weights, Outputs]}\n"
    "      - {level: weights_spad, temporal: [[R, 3]], bypass: [Inputs, Outputs]}\n"
    "      - {level: psum_spad, temporal: [[M, 4]], bypass: [Weights, Inputs]}\n";

// A small layer with the same kinds of remainders (temporal on P, spatial on Q), small
// enough for the brute force: P = 1 + (4-1)*3 = 10, Q = 1 + (3-1)*4 + (2-1) = 10.
const char* kSmallLayer = "{name: conv, type: conv, N: 1, M: 8, C: 6, P: 10, Q: 10, R: 3, S: 3}";
const char* kSmallRubyLevels =
    "      - {level: DRAM, temporal: [[C, 3], [P, 4]]}\n"
    "      - {level: GLB, temporal: [[Q, 3], [P, 3, 1]], bypass: [Weights]}\n"
    "      - {level: inter_PE_column_spatial, spatial_x: [[Q, 4, 2], [M, 2]], bypass: [Weights, Inputs, Outputs]}\n"
    "      - {level: inter_PE_spatial, spatial_y: [[S, 3], [C, 2]], bypass: [Weights, Inputs, Outputs]}\n"
    "      - {level: ifmap_spad, bypass: [Weights, Outputs]}\n"
    "      - {level: weights_spad, temporal: [[R, 3]], bypass: [Inputs, Outputs]}\n"
    "      - {level: psum_spad, temporal: [[M, 4]], bypass: [Weights, Inputs]}\n";

// A 1-D-like conv with P = 4096 and remainders at every level that holds a P loop:
// P = 1 + (59-1)*70 + (4-1)*10 + (6-1) = 4096 (bounds 64, 7, 10).
Project p4096Project()
{
    const std::string text = R"(nestor: 1
name: p4096
workloads:
  - {name: conv, type: conv, N: 1, M: 16, C: 8, P: 4096, Q: 1, R: 3, S: 1}
architecture:
  name: small
  levels:
    - {name: DRAM, technology: DRAM, size_words: null, word_bits: 16, block_size: 4, instances: 1, energy_pJ: {read: 200, fill: 200, update: 200}}
    - {name: GLB, technology: SRAM, size_words: 65536, word_bits: 16, block_size: 4, instances: 1, energy_pJ: {read: 6, fill: 6, update: 6}}
    - {name: RF, technology: regfile, size_words: 256, word_bits: 16, block_size: 1, instances: 16, mesh_x: 16, energy_pJ: {read: 1, fill: 1, update: 1}}
  compute: {name: MAC, instances: 16, mesh_x: 16, energy_pJ: 1}
mappings:
  - name: residual
    workload: conv
    levels:
      - {level: DRAM, temporal: [[P, 64, 59], [C, 2]]}
      - {level: GLB, temporal: [[M, 4], [P, 7, 4], [C, 4]], spatial_x: [[P, 10, 6]]}
      - {level: RF, temporal: [[M, 4], [R, 3]]}
)";
    return parseProject(text, "p4096.yaml");
}

// Every count of `ev` equals the brute force's (partitions where they matter: read-write tensors).
void compareWithBruteForce(const Workload& w, const Architecture& a, const Mapping& m, const Evaluation& ev)
{
    const test::BFResult bf = test::bruteForceEvaluate(w, a, m);
    QCOMPARE(ev.macs, bf.macs);
    QCOMPARE(ev.compute_cycles, bf.compute_cycles);
    QCOMPARE(ev.utilized_macs, bf.utilized_macs);
    for (std::size_t i = 0; i < ev.levels.size(); ++i)
        for (std::size_t t = 0; t < ev.levels[i].tensors.size(); ++t) {
            const auto& x = ev.levels[i].tensors[t];
            const auto& y = bf.levels[i].tensors[t];
            const QByteArray where = QByteArray::number(int(i)) + "/" + QByteArray::number(int(t));
            QVERIFY2(x.reads == y.reads && x.fills == y.fills && x.updates == y.updates, where.constData());
            QVERIFY2(x.link_transfers == y.link_transfers, where.constData());
            QVERIFY2(x.partition_size == y.partition_size || !w.tensors[t].readWrite, where.constData());
        }
}

long peakRssMB()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

// AddressSanitizer's shadow memory and redzones multiply resident memory: the memory bounds
// are checked in the plain build only (the budgets themselves are checked in both).
#ifdef __SANITIZE_ADDRESS__
constexpr bool kMemoryIsMeasurable = false;
#else
constexpr bool kMemoryIsMeasurable = true;
#endif

} // namespace

class TestExactBudget : public QObject {
    Q_OBJECT
private slots:
    // First, while the process is small: residual factors on a large P cost memory that does not
    // grow with P (2.5 GB before the bounds), and the counts are the brute force's.
    void largeResidualLayerIsExactAndSmall()
    {
        const Project p = p4096Project();
        const Workload& w = p.workloads[0].workload;
        const Evaluation ev = evaluate(w, p.architecture, p.mappings[0].mapping);
        QVERIFY2(ev.valid, ev.errors.empty() ? "" : ev.errors[0].message.c_str());
        if (kMemoryIsMeasurable) QVERIFY2(peakRssMB() < 100, qPrintable(QString::number(peakRssMB())));
        QCOMPARE(ev.macs, std::int64_t(16) * 8 * 4096 * 3);
        compareWithBruteForce(w, p.architecture, p.mappings[0].mapping, ev);
    }

    // The closed forms take every stage of the heavy mapping now (children of several kinds where
    // links form, counted on their joint state): exact, without the walk's memory.
    void heavyMappingIsTakenByClosedForms()
    {
        const Project p = eyerissProject(kHeavyLayer, kHeavyRubyLevels);
        const Evaluation ev = evaluate(p.workloads[0].workload, p.architecture, p.mappings[0].mapping);
        QVERIFY2(ev.valid, ev.errors.empty() ? "" : ev.errors[0].message.c_str());
        QVERIFY(!ev.exactBudgetExceeded);
        if (kMemoryIsMeasurable) QVERIFY2(peakRssMB() < 100, qPrintable(QString::number(peakRssMB())));
    }

    // Under the legacy zero-translation rule the links of those stages are the walker's, whose
    // walk of this nest exceeds the memory budget.
    void heavyWalkStopsAtTheMemoryBudget()
    {
        const Project p = eyerissProject(kHeavyLayer, kHeavyRubyLevels);
        ModelOptions legacy;
        legacy.legacyZeroTranslationRule = true;
        const Evaluation ev = evaluate(p.workloads[0].workload, p.architecture, p.mappings[0].mapping, legacy);
        QVERIFY(!ev.valid);
        QVERIFY(ev.exactBudgetExceeded);
        QCOMPARE(ev.errors.size(), std::size_t(1));
        const std::string msg = ev.errors[0].message;
        QVERIFY2(msg.find("exact evaluation exceeds 256 MB") != std::string::npos, msg.c_str());
        QVERIFY2(msg.find(" from ") != std::string::npos, msg.c_str());  // names the stage
        QCOMPARE(ev.cycles, std::int64_t(0));                             // no half-counted figures
        QCOMPARE(ev.energy_pJ, 0.0);
        // The walk's memory is what the budget allows plus the process's own (machine-independent).
        if (kMemoryIsMeasurable) QVERIFY2(peakRssMB() < 1024, qPrintable(QString::number(peakRssMB())));
    }

    // (on the heavy walk under the legacy rule: the closed forms take every stage of the small Ruby mapping)
    void workBudgetAlsoStops()
    {
        const Project p = eyerissProject(kHeavyLayer, kHeavyRubyLevels);
        ModelOptions o;
        o.exactWorkBudget = 1;
        o.legacyZeroTranslationRule = true;
        const Evaluation ev = evaluate(p.workloads[0].workload, p.architecture, p.mappings[0].mapping, o);
        QVERIFY(ev.exactBudgetExceeded);
        QVERIFY(!ev.valid);
        QVERIFY(ev.errors[0].message.find("exceeds 1 analysis steps") != std::string::npos);
        QVERIFY(!ev.levels.empty() && ev.levels[1].tensors[1].utilized_capacity > 0);  // capacities stay
    }

    // Below the budget the walk is exact: every count equals the brute force's.
    void withinBudgetCountsAreExact()
    {
        const Project p = eyerissProject(kSmallLayer, kSmallRubyLevels);
        const Workload& w = p.workloads[0].workload;
        const Evaluation ev = evaluate(w, p.architecture, p.mappings[0].mapping);
        QVERIFY2(ev.valid, ev.errors.empty() ? "" : ev.errors[0].message.c_str());
        QVERIFY(!ev.exactBudgetExceeded);
        compareWithBruteForce(w, p.architecture, p.mappings[0].mapping, ev);
    }

    // A raised cancel stops a walk where it is: evaluate() throws model::AnalysisCancelled and
    // gives no figures. A cancel flag that is not raised changes nothing.
    void raisedCancelStopsTheWalk()
    {
        const Project p = eyerissProject(kSmallLayer, kSmallRubyLevels);
        const Workload& w = p.workloads[0].workload;
        ModelOptions o;
        o.legacyZeroTranslationRule = true;  // (links the walker counts)
        ModelOptions oneStep = o;
        oneStep.exactWorkBudget = 1;
        // The first random Ruby mapping of the small layer that some stage walks for.
        const Mapspace space(w, p.architecture, MapspaceKind::Ruby);
        std::mt19937_64 rng(5);
        Mapping m;
        bool walks = false;
        for (int i = 0; i < 2000 && !walks; ++i) {
            m = space.toMapping(space.randomPoint(rng));
            walks = evaluate(w, p.architecture, m, oneStep).exactBudgetExceeded;
        }
        QVERIFY(walks);

        std::atomic<bool> cancel{false};
        o.cancel = &cancel;
        const Evaluation quiet = evaluate(w, p.architecture, m, o);
        QVERIFY2(quiet.valid, quiet.errors.empty() ? "" : quiet.errors[0].message.c_str());
        compareWithBruteForce(w, p.architecture, m, quiet);

        cancel = true;
        bool stopped = false;
        try {
            evaluate(w, p.architecture, m, o);
        } catch (const model::AnalysisCancelled&) {
            stopped = true;
        }
        QVERIFY(stopped);
    }

    // A search skips candidates over budget and counts them apart from the invalid ones.
    void searchCountsAndSkipsOverBudgetCandidates()
    {
        const Project p = eyerissProject(kSmallLayer, kSmallRubyLevels);
        const Workload& w = p.workloads[0].workload;
        const Mapspace space(w, p.architecture, MapspaceKind::Ruby);
        SearchOptions o;
        o.algorithm = "random";
        o.evaluationBudget = 400;
        o.seed = 5;
        o.model.legacyZeroTranslationRule = true;  // (the walker's links: the closed forms take the rest)
        const SearchResult normal = runSearch(space, o);
        QCOMPARE(normal.overBudget, std::int64_t(0));
        QVERIFY(normal.valid > 0);

        o.model.exactWorkBudget = 1;  // every walked stage is over budget
        const SearchResult tight = runSearch(space, o);
        QCOMPARE(tight.evaluated, normal.evaluated);
        QVERIFY(tight.overBudget > 0);
        // Candidates a closed form covers stay valid; the skipped ones were valid before.
        QCOMPARE(tight.valid + tight.overBudget, normal.valid);
        if (tight.found) QVERIFY(!tight.bestEvaluation.exactBudgetExceeded);
    }
};

QTEST_GUILESS_MAIN(TestExactBudget)
#include "tst_exact_budget.moc"
