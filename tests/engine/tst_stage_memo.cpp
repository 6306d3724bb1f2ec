// The stage memo (model/StageMemo.h) against evaluations without it: along search-like walks
// (one factor moved, a dimension redrawn, a keep flipped, a loop order changed) every figure of
// every evaluation is the same with the memo as without, in every mapspace; the memo forgets a
// workload edited in place; and the per-evaluation work budget stops the same evaluations.
// The evaluations without the memo are the oracle: tst_bruteforce_agreement and
// tst_stage_closed_forms check those against the brute-force walk and the walker.
#include "io/ProjectYaml.h"
#include "mapspace/Mapspace.h"
#include "model/Model.h"
#include "model/StageMemo.h"
#include "support/RandomNests.h"
#include "support/TestArchitectures.h"
#include "support/TestWorkloads.h"

#include <QtTest/QtTest>

#include <random>
#include <string>

using namespace nestor;

namespace {

// Every figure of two evaluations, exactly: the memo returns the stored results bit for bit.
QString differenceBetween(const Evaluation& a, const Evaluation& b)
{
    if (a.valid != b.valid || a.exactBudgetExceeded != b.exactBudgetExceeded) return "validity";
    if (a.errors.size() != b.errors.size()) return "errors";
    if (a.macs != b.macs || a.compute_cycles != b.compute_cycles || a.utilized_macs != b.utilized_macs ||
        a.cycles != b.cycles || a.energy_pJ != b.energy_pJ || a.edp_J_s != b.edp_J_s || a.utilization != b.utilization)
        return "totals";
    if (a.levels.size() != b.levels.size()) return "levels";
    for (std::size_t i = 0; i < a.levels.size(); ++i) {
        const LevelStats& x = a.levels[i];
        const LevelStats& y = b.levels[i];
        if (x.cycles != y.cycles || x.energy_pJ != y.energy_pJ || x.average_busy_instances != y.average_busy_instances ||
            x.capacity_used_words != y.capacity_used_words || x.utilized_instances != y.utilized_instances)
            return QString("level %1").arg(i);
        for (std::size_t t = 0; t < x.tensors.size(); ++t) {
            const TensorLevelStats& s = x.tensors[t];
            const TensorLevelStats& u = y.tensors[t];
            if (s.kept != u.kept || s.utilized_capacity != u.utilized_capacity || s.utilized_instances != u.utilized_instances ||
                s.partition_size != u.partition_size || s.reads != u.reads || s.fills != u.fills || s.updates != u.updates ||
                s.link_transfers != u.link_transfers || s.reads_min != u.reads_min || s.reads_max != u.reads_max ||
                s.fills_min != u.fills_min || s.fills_max != u.fills_max || s.updates_min != u.updates_min ||
                s.updates_max != u.updates_max || s.multicast_factor != u.multicast_factor)
                return QString("level %1 tensor %2").arg(i).arg(t);
        }
    }
    return {};
}

// One search-like step from p (the annealing search's kinds of move).
void neighbour(const Mapspace& s, std::mt19937_64& rng, MapspacePoint& p)
{
    const double r = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    if (r < 0.15 && s.numFreeKeeps() > 0) {
        p.keepBits ^= std::uint64_t{1} << std::uniform_int_distribution<int>(0, s.numFreeKeeps() - 1)(rng);
    } else if (r < 0.35) {
        const int slot = std::uniform_int_distribution<int>(0, s.numSlots() - 1)(rng);
        const std::uint64_t n = s.orderCount(p, slot);
        if (n > 1) p.orders[static_cast<std::size_t>(slot)] = std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng);
    } else {
        const int d = std::uniform_int_distribution<int>(0, s.workload().numDims() - 1)(rng);
        if (r >= 0.9 || !s.moveFactor(d, rng, p)) s.resampleDimension(d, rng, p);
        for (int i = 0; i < s.numSlots(); ++i)
            if (p.orders[static_cast<std::size_t>(i)] >= s.orderCount(p, i)) p.orders[static_cast<std::size_t>(i)] = 0;
    }
}

struct WalkTally {
    int evaluations = 0, valid = 0, budgetStops = 0;
};

// `steps` moves from each of `restarts` valid random points, moving on from valid candidates
// only (as annealing does); every candidate evaluated with and without the memo.
WalkTally walk(const Mapspace& s, std::uint64_t seed, int restarts, int steps, model::StageMemo& memo,
               const ModelOptions& base = {})
{
    WalkTally tally;
    std::mt19937_64 rng(seed);
    ModelOptions withMemo = base;
    withMemo.stageMemo = &memo;
    Mapping m;
    Evaluation fresh, memoized;
    auto evaluateBoth = [&](const MapspacePoint& p) {
        s.toMapping(p, m);
        evaluate(s.workload(), s.architecture(), m, base, fresh);
        evaluate(s.workload(), s.architecture(), m, withMemo, memoized);
        const QString diff = differenceBetween(fresh, memoized);
        if (!diff.isEmpty()) qFatal("seed %llu, evaluation %d: %s differs", static_cast<unsigned long long>(seed),
                                    tally.evaluations, qPrintable(diff));
        ++tally.evaluations;
        tally.valid += fresh.valid ? 1 : 0;
        tally.budgetStops += fresh.exactBudgetExceeded ? 1 : 0;
        return fresh.valid;
    };
    for (int start = 0; start < restarts; ++start) {
        MapspacePoint at = s.randomPoint(rng);
        for (int tries = 0; tries < 500 && !evaluateBoth(at); ++tries) at = s.randomPoint(rng);
        for (int i = 0; i < steps; ++i) {
            MapspacePoint next = at;
            neighbour(s, rng, next);
            if (evaluateBoth(next)) at = next;
        }
    }
    return tally;
}

} // namespace

class TestStageMemo : public QObject {
    Q_OBJECT
private slots:
    // AlexNet conv2 and VGG-16 conv3_1 on the Eyeriss-like array (the search benchmark's
    // layers), in every mapspace: perfect stages, residual contexts, temporal remainders, walks.
    void searchWalksEveryMapspace()
    {
        const Project project = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/eyeriss-like.yaml");
        for (int layer = 0; layer < 2; ++layer) {
            const Workload w = layer == 0 ? test::alexnetConv2() : test::vggConv3_1();
            for (MapspaceKind kind : {MapspaceKind::Pfm, MapspaceKind::RubyS, MapspaceKind::Ruby, MapspaceKind::RubyT}) {
                const Mapspace s(w, project.architecture, kind, project.constraintsFor(w));
                model::StageMemo memo;
                const WalkTally t = walk(s, 101 + layer, 4, 60, memo);
                qInfo("layer %d %s: %d evaluations (%d valid), memo %lld hits, %lld misses", layer,
                      mapspaceKindName(kind).c_str(), t.evaluations, t.valid, static_cast<long long>(memo.hits()),
                      static_cast<long long>(memo.misses()));
                QVERIFY(t.valid > 0);
                // Neighbours share stages, so the walk exercises hits (perfect stages skip the memo).
                if (kind != MapspaceKind::Pfm) QVERIFY(memo.hits() > memo.misses() / 4);
            }
        }
    }

    // Random sampling's candidates seldom share stages: past a window of 4,096 lookups with
    // fewer than one hit in 16, only every 16th stage is looked up, until hits come back.
    void samplingFollowsTheHitRate()
    {
        model::SampledUse gate;
        for (int i = 0; i < 4096; ++i) QVERIFY(gate.admit());  // no hits in the first window
        QVERIFY(!gate.useful());
        int admitted = 0;
        for (int i = 0; i < 16 * 4096; ++i)
            if (gate.admit()) {
                ++admitted;
                if (admitted % 8 == 0) gate.hit();  // one in eight of those looked up hits
            }
        QCOMPARE(admitted, 4096);  // every 16th; their window is judged with 511 hits of 4,096
        QVERIFY(gate.useful());
        QVERIFY(gate.admit());
    }

    // Random points of Ruby-S (no neighbours: the memo soon looks up one stage in 16) give the
    // same figures with the memo as without, before and after it turns to sampling.
    void randomPointsThroughOneMemo()
    {
        const Project project = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/eyeriss-like.yaml");
        const Workload w = test::alexnetConv2();
        const Mapspace s(w, project.architecture, MapspaceKind::RubyS, project.constraintsFor(w));
        model::StageMemo memo;
        ModelOptions memoized;
        memoized.stageMemo = &memo;
        std::mt19937_64 rng(77);
        Mapping m;
        int valid = 0;
        for (int i = 0; i < 1500; ++i) {
            s.toMapping(s.randomPoint(rng), m);
            const Evaluation a = evaluate(w, project.architecture, m, {});
            const Evaluation b = evaluate(w, project.architecture, m, memoized);
            QVERIFY2(differenceBetween(a, b).isEmpty(), qPrintable(QString("point %1: %2").arg(i).arg(differenceBetween(a, b))));
            valid += a.valid ? 1 : 0;
        }
        QVERIFY(valid > 100);
        qInfo("%d valid, memo %lld hits, %lld misses", valid, static_cast<long long>(memo.hits()), static_cast<long long>(memo.misses()));
    }

    // Random small nests (2-4 levels, fanouts, spatial-only levels, bypass, remainders) with
    // every model option: each case in turn through one memo (many workloads: it must forget).
    void randomNestsThroughOneMemo()
    {
        test::random_nests::CaseGenerator gen(0x3e3011ULL);
        model::StageMemo memo;
        for (int i = 0; i < 400; ++i) {
            const test::random_nests::Case c = gen.next();
            ModelOptions plain;
            plain.legacyZeroTranslationRule = i % 3 == 1;
            plain.linkTransfers = i % 4 != 2;
            ModelOptions memoized = plain;
            memoized.stageMemo = &memo;
            const Evaluation a = evaluate(c.w, c.a, c.m, plain);
            const Evaluation b = evaluate(c.w, c.a, c.m, memoized);
            const Evaluation again = evaluate(c.w, c.a, c.m, memoized);  // every stage a hit
            QVERIFY2(differenceBetween(a, b).isEmpty(), qPrintable(QString("case %1: %2").arg(i).arg(differenceBetween(a, b))));
            QVERIFY2(differenceBetween(a, again).isEmpty(), qPrintable(QString("case %1 again").arg(i)));
        }
        QVERIFY(memo.hits() > 0);
    }

    // The same Workload object edited in place (same address): stale stages must not be served.
    void workloadEditedInPlace()
    {
        ConvParams cp;
        cp.M = 8; cp.C = 4; cp.P = 6; cp.Q = 6; cp.R = 3; cp.S = 3;
        Workload w = makeConv2d(cp);
        const Architecture a = test::bufferAndPeArray(4, 2, 64);
        const Mapspace s(w, a, MapspaceKind::Pfm);
        std::mt19937_64 rng(5);
        const Mapping m = s.toMapping(s.randomPoint(rng));
        model::StageMemo memo;
        ModelOptions o;
        o.stageMemo = &memo;
        const Evaluation before = evaluate(w, a, m, o);
        QVERIFY(before.valid);
        // Stride 2 in H: the input tile grows, the loops do not change.
        w.tensors[w.tensorIndex("Inputs")].ranks[2][0].coef = 2;
        const Evaluation fresh = evaluate(w, a, m, {});
        const Evaluation memoized = evaluate(w, a, m, o);
        QVERIFY(fresh.valid);
        QVERIFY(differenceBetween(before, fresh) != "");
        QCOMPARE(differenceBetween(fresh, memoized), QString());
    }

    // A work budget small enough that some walks exceed it: the same evaluations stop, with or
    // without the memo (a hit charges the work its analysis took).
    void workBudgetStopsTheSameEvaluations()
    {
        const Project project = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/eyeriss-like.yaml");
        // (VGG-16 conv3_1 under the legacy zero-translation rule: its Ruby stages with children
        // of several kinds where links can form walk; the closed forms take every other stage)
        const Workload w = test::vggConv3_1();
        const Mapspace s(w, project.architecture, MapspaceKind::Ruby, project.constraintsFor(w));
        ModelOptions tight;
        tight.exactWorkBudget = 300;
        tight.legacyZeroTranslationRule = true;
        model::StageMemo memo;
        const WalkTally t = walk(s, 7, 16, 50, memo, tight);
        qInfo("%d evaluations, %d valid, %d stopped by the work budget", t.evaluations, t.valid, t.budgetStops);
        QVERIFY(t.budgetStops > 0);
        QVERIFY(t.valid > 0);
    }
};

QTEST_GUILESS_MAIN(TestStageMemo)
#include "tst_stage_memo.moc"
