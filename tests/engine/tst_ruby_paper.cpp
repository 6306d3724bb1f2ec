// Reproductions of the Ruby paper (Ruby: imperfect factorization mapspaces, its tables and figures) with
// the mapspaces of engine/mapspace and the searches of engine/search; every candidate is
// scored by nestor::evaluate.
#include "io/ProjectYaml.h"
#include "mapspace/Mapspace.h"
#include "model/Model.h"
#include "search/NetworkSearch.h"
#include "search/SearchDriver.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace nestor;

namespace {

// Z[D] += A[D]: one rank-1 tensor streamed to the PEs (plus its result).
Workload rank1(std::int64_t D)
{
    Workload w;
    w.name = "rank1";
    w.dimNames = {"D"};
    w.bounds = {D};
    w.tensors = {Tensor{"A", false, {{{0, 1}}}}, Tensor{"Z", true, {{{0, 1}}}}};
    return w;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];  // odd sizes only
}

StorageLevel level(const std::string& name, std::optional<std::int64_t> words, std::int64_t instances,
                   std::int64_t meshX, double read_pJ)
{
    StorageLevel l;
    l.name = name;
    l.technology = words ? "SRAM" : "DRAM";
    l.size_words = words;
    l.instances = instances;
    l.meshX = meshX;
    l.energy = {read_pJ, read_pJ, read_pJ, 0.0};
    return l;
}

// Fig. 4/5: DRAM -> 1 KiB GLB (512 16-bit words) -> PEs without storage.
Architecture toyGlb(std::int64_t pes, std::int64_t meshX)
{
    Architecture a;
    a.name = "toy-glb";
    a.levels = {level("DRAM", std::nullopt, 1, 1, 200.0), level("GLB", 512, 1, 1, 6.0)};
    a.compute.instances = pes;
    a.compute.meshX = meshX;
    a.compute.mac_energy_pJ = 1.0;
    return a;
}

// Sections III-A/B: DRAM -> linear PEs, each with a 1 KiB scratchpad -> one MAC per PE.
Architecture toyLinear(std::int64_t pes)
{
    Architecture a;
    a.name = "toy-linear";
    a.levels = {level("DRAM", std::nullopt, 1, 1, 200.0), level("Scratchpad", 512, pes, pes, 1.0)};
    a.compute.instances = pes;
    a.compute.meshX = pes;
    a.compute.mac_energy_pJ = 1.0;
    return a;
}


// Sections II-B/IV: the Eyeriss-like architecture of examples/arch/eyeriss-like.arch.yaml
// (14 x 12 PEs with ifmap/weights/psum scratchpads of 12/192/16 words, a 128 KiB GLB, DRAM).
Architecture eyerissLike()
{
    auto lv = [](const std::string& name, const std::string& tech, std::optional<std::int64_t> words, int block,
                 std::int64_t instances, std::int64_t meshX, ActionEnergies e, std::optional<double> bw) {
        StorageLevel l;
        l.name = name;
        l.technology = tech;
        l.size_words = words;
        l.block_size = block;
        l.instances = instances;
        l.meshX = meshX;
        l.energy = e;
        l.read_bw_words_per_cycle = bw;
        l.write_bw_words_per_cycle = bw;
        return l;
    };
    Architecture a;
    a.name = "eyeriss-like";
    a.levels = {lv("DRAM", "DRAM", std::nullopt, 4, 1, 1, {512, 512, 512, 0}, std::nullopt),
                lv("GLB", "SRAM", 65536, 4, 1, 1, {32.342452, 26.121552, 26.121552, 0.003351}, 8.0),
                lv("inter_PE_column_spatial", "dummy", 0, 1, 1, 1, {}, std::nullopt),
                lv("inter_PE_spatial", "dummy", 0, 1, 14, 14, {}, std::nullopt),
                lv("ifmap_spad", "regfile", 12, 1, 168, 14, {0.310924, 0.271902, 0.271902, 0.000154}, 1.0),
                lv("weights_spad", "regfile", 192, 1, 168, 14, {3.005554, 2.861554, 2.861554, 0.002416}, 1.0),
                lv("psum_spad", "regfile", 16, 1, 168, 14, {0.385026, 0.336188, 0.336188, 0.000204}, 2.0)};
    a.levels[6].read_bw_words_per_cycle = 2.0;
    a.compute.instances = 168;
    a.compute.meshX = 14;
    a.compute.mac_energy_pJ = 0.315;
    return a;
}

// Row-stationary constraints in the spirit of the Timeloop+Accelergy Eyeriss exercise: Q and M
// across the 14 columns, filter columns S (all 5) and C down the 12 rows, a filter row (R) and
// channels in the weights scratchpad, output channels in the psum scratchpad, each scratchpad
// keeping its own tensor and the GLB holding inputs and outputs.
MapspaceConstraints rowStationary()
{
    MapspaceConstraints c;
    c.addFactors("DRAM", false, "R=1 S=1");
    c.addFactors("GLB", false, "R=1 S=1");
    c.addSpatialAxes("inter_PE_column_spatial", "Q M|");
    c.addSpatialAxes("inter_PE_spatial", "|S C");
    c.addFactors("inter_PE_spatial", true, "S=5");
    c.addFactors("ifmap_spad", false, "N=1 M=1 C=1 P=1 Q=1 R=1 S=1");
    c.addFactors("weights_spad", false, "N=1 M=1 P=1 Q=1 S=1");
    c.addFactors("psum_spad", false, "N=1 C=1 P=1 Q=1 R=1 S=1");
    c.addKeep("GLB", {"Inputs", "Outputs"}).addBypass("GLB", {"Weights"});
    c.addKeep("ifmap_spad", {"Inputs"}).addBypass("ifmap_spad", {"Weights", "Outputs"});
    c.addKeep("weights_spad", {"Weights"}).addBypass("weights_spad", {"Inputs", "Outputs"});
    c.addKeep("psum_spad", {"Outputs"}).addBypass("psum_spad", {"Inputs", "Weights"});
    return c;
}

SearchResult exhaustive(const Mapspace& s, std::vector<SearchMetric> metrics)
{
    SearchOptions o;
    o.algorithm = "exhaustive";
    o.metrics = std::move(metrics);
    return runSearch(s, o);
}

} // namespace

class TestRubyPaper : public QObject {
    Q_OBJECT
private slots:
    // Fig. 4/5: 100 elements over 6 PEs. The paper's mapspace has one spatial level of 6;
    // PFM's best is 20 steps on 5 PEs, Ruby-S needs 17 (16 full steps + 1 step on 4 PEs).
    void toyHundredElementsOverSixPes()
    {
        const Workload w = rank1(100);
        const Architecture a = toyGlb(6, 6);
        const SearchResult pfm = exhaustive(Mapspace(w, a, MapspaceKind::Pfm), {SearchMetric::Delay});
        QVERIFY(pfm.found);
        QCOMPARE(pfm.bestEvaluation.compute_cycles, std::int64_t(20));
        QCOMPARE(pfm.bestEvaluation.utilized_macs, std::int64_t(5));
        const SearchResult rs = exhaustive(Mapspace(w, a, MapspaceKind::RubyS), {SearchMetric::Delay});
        QVERIFY(rs.found);
        QCOMPARE(rs.bestEvaluation.compute_cycles, std::int64_t(17));
        QCOMPARE(rs.bestEvaluation.utilized_macs, std::int64_t(6));
        QVERIFY(rs.best.hasImperfectFactors());
        QVERIFY(std::fabs(rs.bestEvaluation.utilization - 100.0 / (6.0 * 17.0)) < 1e-9);  // 16 x 6 + 4
    }

    // The same on a physical 3 x 2 mesh (X 3, Y 2): PFM cannot place a factor 5 on either
    // axis (4 PEs, 25 steps); Ruby-S still finds 17 steps: Y (2, residual 2) outside X (3,
    // residual 1) under 17 temporal steps = 16 x 6 + 4.
    void toyHundredElementsOnThreeByTwoMesh()
    {
        const Workload w = rank1(100);
        const Architecture a = toyGlb(6, 3);
        const SearchResult pfm = exhaustive(Mapspace(w, a, MapspaceKind::Pfm), {SearchMetric::Delay});
        QCOMPARE(pfm.bestEvaluation.compute_cycles, std::int64_t(25));
        const SearchResult rs = exhaustive(Mapspace(w, a, MapspaceKind::RubyS), {SearchMetric::Delay});
        QCOMPARE(rs.bestEvaluation.compute_cycles, std::int64_t(17));
    }

    // Fig. 8: one tensor of size D over 16 linear PEs; PFM vs padding D up to a multiple of 16
    // vs Ruby-S, by EDP.
    void paddingVersusRubySFig8()
    {
        const Architecture a = toyLinear(16);
        std::map<std::int64_t, double> pfm, rubyS;
        auto best = [&](std::int64_t D, MapspaceKind k) {
            const SearchResult r = exhaustive(Mapspace(rank1(D), a, k), {SearchMetric::Edp});
            if (!r.found) qFatal("no valid mapping for D=%lld", static_cast<long long>(D));
            return r.bestEvaluation.edp_J_s;
        };
        for (std::int64_t D = 2; D <= 128; ++D) {
            pfm[D] = best(D, MapspaceKind::Pfm);
            rubyS[D] = best(D, MapspaceKind::RubyS);
        }
        auto padded = [&](std::int64_t D) { return pfm[(D + 15) / 16 * 16]; };
        for (std::int64_t D = 2; D <= 128; ++D) {
            // Ruby-S contains PFM, and never loses to padding (same steps, fewer elements)
            QVERIFY2(rubyS[D] <= pfm[D] * (1 + 1e-12), qPrintable(QString("D=%1").arg(D)));
            QVERIFY2(rubyS[D] <= padded(D) * (1 + 1e-12), qPrintable(QString("D=%1").arg(D)));
            if (D % 16 == 0) QVERIFY(std::fabs(rubyS[D] - pfm[D]) <= 1e-12 * pfm[D]);
        }
        // D = 127 is prime: PFM runs on one PE; padding by one element is almost free
        QVERIFY(pfm[127] > 8.0 * rubyS[127]);
        QVERIFY(padded(127) < 1.05 * rubyS[127]);
        // D = 113: padding computes ~12% zeros; Ruby-S keeps every PE busy without them
        QVERIFY(padded(113) > 1.10 * rubyS[113]);
        QVERIFY(pfm[113] > 8.0 * rubyS[113]);
        qInfo("Fig. 8: D=113 EDP PFM/Ruby-S %.2f, padding/Ruby-S %.3f; D=127 PFM/Ruby-S %.2f, padding/Ruby-S %.3f",
              pfm[113] / rubyS[113], padded(113) / rubyS[113], pfm[127] / rubyS[127], padded(127) / rubyS[127]);
    }

    // Section IV-B, Fig. 9: AlexNet layer 2 (27 x 27 outputs, 48 input channels, 5 x 5 x 96
    // weights) on the Eyeriss-like array. PFM's Q = 27 = 3 x 9 leaves columns idle (paper: 71%
    // utilization); Ruby-S uses remainders to fill them (paper: 85%) and lowers EDP. With S = 5
    // fixed down the 12 rows (C <= 2 beside it), 10 rows are the most any mapping uses here; the
    // best column split (M 14 across, remainder 12: 96/98 busy) bounds Ruby-S at 10/12 x 96/98 =
    // 81.6% (docs/search.md; the lowest-EDP mappings found sit at 80.4%).
    void alexnetLayer2OnEyeriss()
    {
        ConvParams cp;
        cp.name = "alexnet_conv2";
        cp.M = 96; cp.C = 48; cp.P = 27; cp.Q = 27; cp.R = 5; cp.S = 5;
        const Workload w = makeConv2d(cp);
        const Architecture a = eyerissLike();
        const Mapspace pfmSpace(w, a, MapspaceKind::Pfm, rowStationary());
        const Mapspace rsSpace(w, a, MapspaceKind::RubyS, rowStationary());
        // Several seeds at the same evaluation budget; only the medians are compared (one seed is
        // an anecdote). The bounds on utilization hold for every seed.
        std::vector<double> pfmEdp, rsEdp, pfmUtil, rsUtil;
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            SearchOptions o;
            o.algorithm = "annealing";
            o.seed = seed;
            o.victoryCondition = 0;  // imperfect nests take the model's slower path: a fixed, small budget
            o.evaluationBudget = 2500;
            const SearchResult pfm = runSearch(pfmSpace, o);
            const SearchResult rs = runSearch(rsSpace, o);
            QVERIFY(pfm.found && rs.found);
            qInfo("AlexNet conv2, seed %llu: PFM util %.1f%% EDP %.4g (%lld evaluated, %.1f s); Ruby-S util %.1f%% EDP %.4g "
                  "(%lld evaluated, %.1f s)",
                  static_cast<unsigned long long>(seed), 100 * pfm.bestEvaluation.utilization, pfm.bestEvaluation.edp_J_s,
                  static_cast<long long>(pfm.evaluated), pfm.seconds, 100 * rs.bestEvaluation.utilization,
                  rs.bestEvaluation.edp_J_s, static_cast<long long>(rs.evaluated), rs.seconds);
            for (const auto* r : {&pfm, &rs}) {
                QVERIFY(r->best.validate(w, a).empty());
                QVERIFY(checkConstraints(rowStationary(), r->best, w, a).empty());
            }
            QVERIFY(pfm.bestEvaluation.utilization <= 0.715);  // 12 of 14 columns x 10 of 12 rows at best
            QVERIFY(rs.bestEvaluation.utilization <= 0.8164);  // 10/12 x 96/98, the bound above
            pfmEdp.push_back(pfm.bestEvaluation.edp_J_s);
            rsEdp.push_back(rs.bestEvaluation.edp_J_s);
            pfmUtil.push_back(pfm.bestEvaluation.utilization);
            rsUtil.push_back(rs.bestEvaluation.utilization);
        }
        QVERIFY(median(rsUtil) > median(pfmUtil) + 0.02);
        QVERIFY(median(rsEdp) < median(pfmEdp));
    }

    // Section IV-C: whole workloads. Every DeepBench-like training GEMM of
    // examples/deepbench-gemms.yaml on its Eyeriss-like array (with the project's GEMM
    // constraints), searched with Timeloop's random sampling at the same budget per layer:
    // Ruby-S lowers the network's EDP at equal evaluations (paper: up to 50% lower EDP per layer;
    // docs/search.md gives the median over seeds 1-5; at equal wall time PFM is lower).
    void wholeNetworkDeepBench()
    {
        const Project p = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/deepbench-gemms.yaml");
        const auto layers = projectNetworkLayers(p, "deepbench-train");
        NetworkSearchOptions o;
        o.search.algorithm = "random";
        o.search.seed = 1;
        o.search.evaluationBudget = 3000;
        o.search.victoryCondition = 0;
        o.kind = MapspaceKind::Pfm;
        const NetworkSearchResult pfm = runNetworkSearch(p.architecture, layers, o);
        o.kind = MapspaceKind::RubyS;
        const NetworkSearchResult rs = runNetworkSearch(p.architecture, layers, o);
        QVERIFY(pfm.complete && rs.complete);
        for (std::size_t i = 0; i < layers.size(); ++i)
            qInfo("%-22s PFM EDP %.4g, Ruby-S EDP %.4g", layers[i].name.c_str(), pfm.layers[i].result.bestEvaluation.edp_J_s,
                  rs.layers[i].result.bestEvaluation.edp_J_s);
        qInfo("network EDP: PFM %.4g J*s (%.3g pJ, %lld cycles), Ruby-S %.4g J*s (%.3g pJ, %lld cycles); %.1f s", pfm.edp_J_s,
              pfm.energy_pJ, static_cast<long long>(pfm.cycles), rs.edp_J_s, rs.energy_pJ, static_cast<long long>(rs.cycles),
              pfm.seconds + rs.seconds);
        QVERIFY(rs.edp_J_s < 0.9 * pfm.edp_J_s);
        // totals are the sums over layers
        double energy = 0;
        for (const auto& l : rs.layers) energy += l.result.bestEvaluation.energy_pJ * double(l.repeat);
        QCOMPARE(rs.energy_pJ, energy);
    }
};

QTEST_APPLESS_MAIN(TestRubyPaper)
#include "tst_ruby_paper.moc"
