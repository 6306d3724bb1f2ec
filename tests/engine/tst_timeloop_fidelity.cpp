// Two places where Nestor once parted from Timeloop on inputs it had not seen (issue 9, item 12):
//  1. a level given with `instances` but no mesh, between two fanouts (Simba-like PE internals):
//     the mesh is inferred (arch/MeshInference.h), as Timeloop's front-end would have written it;
//  2. leakage under an imperfect spatial fanout: charged for the average number of busy
//     instances (Timeloop's "utilized instances", there truncated), not for every instance ever used.
// Every expected number below is derived by hand in the comments; the brute-force walker
// (tests/bruteforce) computes the leakage average independently.
#include "arch/MeshInference.h"
#include "bruteforce/BruteForceEvaluator.h"
#include "io/ProjectYaml.h"
#include "model/Model.h"
#include "support/TestWorkloads.h"

#include <QtTest/QtTest>

#include <string>

using namespace nestor;
using namespace nestor::test;

namespace {

// A Simba-like chiplet cut down to hand size. GlobalBuffer feeds 4 PEs in a row; inside each
// PE one input buffer feeds 2 accumulation buffers, each feeding 2 MACs. The MAC array is
// 4 x 4 (a column of 4 MACs per PE). PEAccuBuffer gives `instances: 8` and no mesh.
std::string simbaLikeProject(const std::string& accuMesh)
{
    return R"(nestor: 1
name: simba-mini
workloads:
  - {name: gemm, type: conv, N: 1, M: 4, C: 4, P: 2, Q: 1, R: 1, S: 1}
architecture:
  name: simba-mini
  energy_model: table
  levels:
    - {name: DRAM, technology: DRAM, size_words: null, instances: 1, mesh_x: 1,
       energy_pJ: {read: 100, fill: 100, update: 100}}
    - {name: GlobalBuffer, size_words: 1024, instances: 1, mesh_x: 1,
       energy_pJ: {read: 10, fill: 10, update: 10}}
    - {name: PEInputBuffer, size_words: 64, instances: 4, mesh_x: 4,
       energy_pJ: {read: 2, fill: 2, update: 2}}
    - {name: PEAccuBuffer, size_words: 16, instances: 8)" +
           accuMesh + R"(,
       energy_pJ: {read: 1, fill: 1, update: 1}}
  compute: {name: MAC, instances: 16, mesh_x: 4, energy_pJ: 0.5}
mappings:
  - name: spread
    workload: gemm
    levels:
      - {level: DRAM, temporal: [[P, 2]]}
      - {level: GlobalBuffer, spatial_x: [[M, 4]], keep: [Weights]}
      - {level: PEInputBuffer, spatial_y: [[C, 2]], keep: [Inputs]}
      - {level: PEAccuBuffer, spatial_y: [[C, 2]], keep: [Outputs]}
)";
}

// Errors of a project that must not load, joined.
std::string loadError(const std::string& text)
{
    try {
        parseProject(text, "simba-mini.yaml");
    } catch (const NestorError& e) {
        return e.what();
    }
    return {};
}

StorageLevel storage(const std::string& name, std::int64_t instances, std::int64_t meshX,
                     std::optional<std::int64_t> size, double leak_pJ = 0.0)
{
    StorageLevel l;
    l.name = name;
    l.instances = instances;
    l.meshX = meshX;
    l.size_words = size;
    l.technology = size ? "SRAM" : "DRAM";
    l.energy = {1.0, 1.0, 1.0, leak_pJ};
    return l;
}

Architecture arch(std::vector<StorageLevel> levels, std::int64_t macs, std::int64_t macMeshX)
{
    Architecture a;
    a.name = "leakage";
    a.levels = std::move(levels);
    a.compute.instances = macs;
    a.compute.meshX = macMeshX;
    a.compute.mac_energy_pJ = 1.0;
    return a;
}

LevelMapping lvl(std::vector<Loop> temporal, std::vector<Loop> spatialX = {}, std::vector<Loop> spatialY = {})
{
    LevelMapping l;
    l.temporal = std::move(temporal);
    l.spatialX = std::move(spatialX);
    l.spatialY = std::move(spatialY);
    return l;
}

// Outputs[M][Q] = Weights[M] x Inputs[Q]: the smallest nest with an M x Q array.
Workload outerProduct(std::int64_t M, std::int64_t Q)
{
    Workload w;
    w.name = "outer";
    w.dimNames = {"M", "Q"};
    w.bounds = {M, Q};
    w.tensors = {Tensor{"Weights", false, {{{0, 1}}}}, Tensor{"Inputs", false, {{{1, 1}}}},
                 Tensor{"Outputs", true, {{{0, 1}}, {{1, 1}}}}};
    return w;
}

} // namespace

class TestTimeloopFidelity : public QObject {
    Q_OBJECT
private slots:
    // ---------------------------------------------------------------- mesh inference

    void simbaLikeMeshIsInferred()
    {
        // PEAccuBuffer (8 instances, no mesh) sits below PEInputBuffer (4 x 1) and above the
        // MACs (4 x 4). One row of 8 (Timeloop's own rule) does not nest in 4 columns, and the
        // old default (a column, 1 x 8) does not nest below 4 columns either: that was the
        // "mesh_x of the level below (1) must be a multiple of 4" rejection. The mesh that nests
        // is 4 x 2: X stays the 4 PEs, the 2 accumulators of a PE lie along Y, and each has a
        // column of 2 MACs below it. Fanouts: GlobalBuffer 4 x 1, PEInputBuffer 1 x 2,
        // PEAccuBuffer 1 x 2.
        const Project p = parseProject(simbaLikeProject(""), "simba-mini.yaml");
        const Architecture& a = p.architecture;
        QCOMPARE(a.levels[3].meshX, std::int64_t(4));
        QCOMPARE(a.levels[3].meshY(), std::int64_t(2));
        QCOMPARE(a.fanoutX(1), std::int64_t(4));
        QCOMPARE(a.fanoutY(1), std::int64_t(1));
        QCOMPARE(a.fanoutX(2), std::int64_t(1));
        QCOMPARE(a.fanoutY(2), std::int64_t(2));
        QCOMPARE(a.fanoutX(3), std::int64_t(1));
        QCOMPARE(a.fanoutY(3), std::int64_t(2));
        QVERIFY(a.validate().empty());
    }

    void simbaLikeLayerCountsByHand()
    {
        // Nest (outer to inner): DRAM P2 | GlobalBuffer spatial X M4 | PEInputBuffer spatial Y
        // C2 | PEAccuBuffer spatial Y C2 | MAC. C index = 2 x (PEInputBuffer's) + (PEAccuBuffer's).
        // MACs = P2 x M4 x C4 = 32 on 16 MACs, 2 each (compute cycles 2).
        // Weights W[M][C] (DRAM, GlobalBuffer): each MAC reads its own W[m][c] from the
        //   GlobalBuffer every step (no two MACs share one): 16 x 2 = 32 reads. The GlobalBuffer
        //   tile is all of W and does not move with P: 16 fills = 16 DRAM reads.
        // Inputs I[C][P] (DRAM, PEInputBuffer): a PE's buffer holds I[0..3][p]: 4 words per
        //   step, 8 per PE, 32 fills over the 4 PEs; the 4 PEs get the same words (M does not
        //   index Inputs): one multicast, DRAM reads 4 x 2 = 8. Each of a PE's 4 MACs reads its
        //   own I[c][p] every step: 8 reads per PE, 32 in all.
        // Outputs O[M][P] (DRAM, PEAccuBuffer): the 2 MACs of an accumulator add into the same
        //   O[m][p] (spatial reduction): 1 update per step, 2 per instance, 16 over the 8. It
        //   holds O[m][0] then O[m][1]: 2 distinct words, so no reads (first-read elision) and
        //   no fills (nothing to read back). The 2 accumulators of a PE drain the same O[m][p]:
        //   reduced into one DRAM update, 4 per step, 8 in all = the tensor; DRAM reads 0.
        const Project p = parseProject(simbaLikeProject(""), "simba-mini.yaml");
        const Workload& w = p.workloads.front().workload;
        const Mapping& m = p.mappings.front().mapping;
        const Architecture& a = p.architecture;
        QVERIFY(m.validate(w, a).empty());
        const Evaluation ev = evaluate(w, a, m);
        QVERIFY(ev.valid);
        const int W = w.tensorIndex("Weights"), I = w.tensorIndex("Inputs"), O = w.tensorIndex("Outputs");
        QCOMPARE(ev.macs, std::int64_t(32));
        QCOMPARE(ev.compute_cycles, std::int64_t(2));
        QCOMPARE(ev.utilized_macs, std::int64_t(16));
        QCOMPARE(ev.levels[1].tensors[W].reads, std::int64_t(32));
        QCOMPARE(ev.levels[1].tensors[W].fills, std::int64_t(16));
        QCOMPARE(ev.levels[0].tensors[W].reads, std::int64_t(16));
        QCOMPARE(ev.levels[2].tensors[I].utilized_instances, std::int64_t(4));
        QCOMPARE(ev.levels[2].tensors[I].fills, std::int64_t(32));
        QCOMPARE(ev.levels[2].tensors[I].reads, std::int64_t(32));
        QCOMPARE(ev.levels[0].tensors[I].reads, std::int64_t(8));
        QCOMPARE(ev.levels[3].tensors[O].utilized_instances, std::int64_t(8));
        QCOMPARE(ev.levels[3].tensors[O].updates, std::int64_t(16));
        QCOMPARE(ev.levels[3].tensors[O].reads, std::int64_t(0));
        QCOMPARE(ev.levels[3].tensors[O].fills, std::int64_t(0));
        QCOMPARE(ev.levels[0].tensors[O].updates, std::int64_t(8));
        QCOMPARE(ev.levels[0].tensors[O].reads, std::int64_t(0));
        // The independent walker agrees on the same inferred architecture.
        const BFResult bf = bruteForceEvaluate(w, a, m);
        QCOMPARE(bf.macs, ev.macs);
        for (int i = 0; i < a.numLevels(); ++i)
            for (int t = 0; t < w.numTensors(); ++t) {
                QCOMPARE(bf.levels[i].tensors[t].reads, ev.levels[i].tensors[t].reads);
                QCOMPARE(bf.levels[i].tensors[t].fills, ev.levels[i].tensors[t].fills);
                QCOMPARE(bf.levels[i].tensors[t].updates, ev.levels[i].tensors[t].updates);
            }
    }

    void givenMeshesAreKeptAndChecked()
    {
        // Given 4 x 2 explicitly: the same architecture.
        QVERIFY(loadError(simbaLikeProject(", mesh_x: 4")).empty());
        // 8 x 1 does not nest in the MACs' 4 columns: rejected at PEAccuBuffer's mesh_x (line 15).
        const std::string row = loadError(simbaLikeProject(", mesh_x: 8"));
        QVERIFY2(row.find("simba-mini.yaml:15:") != std::string::npos, row.c_str());
        QVERIFY2(row.find("mesh_x of the level below (4) must be a multiple of 8") != std::string::npos, row.c_str());
        // 1 x 8 (the old default) and 2 x 4 leave the 4 PE columns above over 1 or 2 columns:
        // rejected at PEInputBuffer's mesh_x (line 13).
        for (const auto& [mesh, x] : {std::pair{", mesh_x: 1", "1"}, std::pair{", mesh_x: 2", "2"}}) {
            const std::string e = loadError(simbaLikeProject(mesh));
            QVERIFY2(e.find("simba-mini.yaml:13:") != std::string::npos, e.c_str());
            QVERIFY2(e.find(std::string("mesh_x of the level below (") + x + ") must be a multiple of 4") !=
                         std::string::npos,
                     e.c_str());
        }
    }

    void meshYMustNestToo()
    {
        // 4 instances as a 1 x 4 column above 16 MACs as 8 x 2: X nests (1 | 8) and the
        // instance counts nest (4 | 16), but the column's 4 rows cannot split over 2 rows of
        // MACs (fanout Y would be 2 / 4). Once accepted silently with fanout Y 0.
        Architecture a = arch({storage("DRAM", 1, 1, std::nullopt), storage("Column", 4, 1, 64)}, 16, 8);
        bool found = false;
        for (const auto& d : a.validate())
            if (d.field == "architecture.levels[1].mesh_x" &&
                d.message.find("its Y extent must be a multiple of 4") != std::string::npos)
                found = true;
        QVERIFY(found);
    }

    void inferenceFollowsTimeloopWhereItCan()
    {
        // Timeloop's rule: a level that gives only instances is one row (meshX = instances),
        // kept whenever it nests: Eyeriss-like 14 x 12 PEs under a 14-wide row of 14 buffers.
        Architecture a = arch({storage("DRAM", 1, 0, std::nullopt), storage("Row", 14, 0, 64)}, 168, 14);
        inferMeshes(a, {0, 0}, 14);
        QCOMPARE(a.levels[1].meshX, std::int64_t(14));
        QCOMPARE(a.levels[0].meshX, std::int64_t(1));
        // 12 buffers (one per PE row) cannot be a row over 14 columns; inheriting the X of the
        // level above (1) gives a 1 x 12 column, one buffer per row of 14 PEs.
        Architecture b = arch({storage("DRAM", 1, 0, std::nullopt), storage("PerRow", 12, 0, 64)}, 168, 14);
        inferMeshes(b, {0, 0}, 14);
        QCOMPARE(b.levels[1].meshX, std::int64_t(1));
        // 28 buffers: no row (28 > 14) and no column (28 rows > 12); X = the PEs' 14 gives
        // 14 x 2, two buffers per column, each over 6 rows.
        Architecture c = arch({storage("DRAM", 1, 0, std::nullopt), storage("Pairs", 28, 0, 64)}, 168, 14);
        inferMeshes(c, {0, 0}, 14);
        QCOMPARE(c.levels[1].meshX, std::int64_t(14));
        QVERIFY(c.validate().empty());
        // A compute level with no mesh under a 2-D mesh keeps the columns: 4 x 4 above 64
        // MACs gives 4 x 16 (one row of 64 would not nest under 4 rows).
        Architecture d = arch({storage("DRAM", 1, 1, std::nullopt), storage("PE", 16, 4, 64)}, 64, 0);
        inferMeshes(d, {1, 4}, 0);
        QCOMPARE(d.compute.meshX, std::int64_t(4));
        QVERIFY(d.validate().empty());
    }

    // ---------------------------------------------------------------- leakage

    void leakageUsesAverageBusyInstances_14x12()
    {
        // The issue's figure: Q = 27 over 14 columns as Q=14,13 below an outer Q loop of 2,
        // M = 12 over the 12 rows. The PEs' time steps are the 2 iterations of the outer Q loop:
        // 14 x 12 = 168 PEs busy in the first, 13 x 12 = 156 in the second; mean 162 (Timeloop
        // prints 162 as well, the mean being whole). Every PE was used once, so 168 were "used".
        // Cycles: each MAC does one operation per step, 2 steps. Leakage of the PEs at 1 pJ per
        // instance and cycle: 1 x 2 x 162 = 324 pJ (168 instances would say 336).
        const Workload w = outerProduct(12, 27);
        Architecture a = arch({storage("DRAM", 1, 1, std::nullopt), storage("PE", 168, 14, 16, 1.0)}, 168, 14);
        Mapping m;
        m.levels = {lvl({makeLoop(1, 2)}, {makeLoop(1, 14, 13)}, {makeLoop(0, 12)}), lvl({})};
        QVERIFY(m.validate(w, a).empty());
        const Evaluation ev = evaluate(w, a, m);
        QVERIFY(ev.valid);
        QCOMPARE(ev.macs, std::int64_t(324));
        QCOMPARE(ev.cycles, std::int64_t(2));
        QCOMPARE(ev.levels[1].utilized_instances, std::int64_t(168));
        QCOMPARE(ev.levels[1].average_busy_instances, 162.0);
        QCOMPARE(ev.levels[1].leakage_energy_pJ, 324.0);
        const BFResult bf = bruteForceEvaluate(w, a, m);
        QCOMPARE(bf.levels[1].average_busy_instances, 162.0);
        QCOMPARE(bf.levels[1].leakage_energy_pJ, 324.0);
    }

    void leakageUsesAverageBusyInstances_section9()
    {
        // semantics.md section 9, item 3: P = 11, R = 2; MainMemory P3, GlobalBuffer spatial
        // P=4,3 over 4 RegisterFiles, RegisterFile R2. The RegisterFiles' steps are the 3
        // iterations of MainMemory's P loop: 4, 4 and 3 busy, mean 11/3 (Timeloop stores 3).
        // Cycles = 3 x 2 = 6. Leakage at 0.5 pJ: 0.5 x 6 x 11/3 = 11 pJ (4 used instances: 12;
        // Timeloop: 9). The GlobalBuffer has one instance, busy at its single step: mean 1.
        const Workload w = conv1d(11, 2);
        Architecture a = arch({storage("MainMemory", 1, 1, std::nullopt), storage("GlobalBuffer", 1, 1, 1024, 0.25),
                               storage("RegisterFile", 4, 4, 64, 0.5)},
                              4, 4);
        Mapping m;
        m.levels = {lvl({makeLoop(0, 3)}), lvl({}, {makeLoop(0, 4, 3)}), lvl({makeLoop(1, 2)})};
        QVERIFY(m.validate(w, a).empty());
        const Evaluation ev = evaluate(w, a, m);
        QVERIFY(ev.valid);
        QCOMPARE(ev.cycles, std::int64_t(6));
        QCOMPARE(ev.levels[2].utilized_instances, std::int64_t(4));
        QVERIFY(qFuzzyCompare(ev.levels[2].average_busy_instances, 11.0 / 3.0));
        QVERIFY(qFuzzyCompare(ev.levels[2].leakage_energy_pJ, 11.0));
        QVERIFY(qFuzzyCompare(ev.levels[1].leakage_energy_pJ, 0.25 * 6));
        const BFResult bf = bruteForceEvaluate(w, a, m);
        QVERIFY(qFuzzyCompare(bf.levels[2].average_busy_instances, 11.0 / 3.0));
        QVERIFY(qFuzzyCompare(bf.levels[2].leakage_energy_pJ, 11.0));
    }

    void leakageWhenBusyStepsDependOnTheInstance()
    {
        // P = 9 over DRAM spatial P2 | GB (2 instances) temporal P=3,2 | GB spatial P=2,1 |
        // RF (4 instances) | MAC. 1 + (2-1) x 6 + (2-1) x 2 + (1-1) = 9. The GB loop's remainder
        // applies only under the last DRAM index: GB 0 runs 3 steps, GB 1 runs 2, and in its
        // last step only one of its 2 RFs is busy. The RFs' steps are the 3 values of the GB
        // loop: busy 4, 3 (GB 0: 2, GB 1: 1), 2 (GB 0 only); mean 9/3 = 3, not the 4 used.
        // Cycles 3 (GB 0's MACs). RF leakage at 1 pJ: 1 x 3 x 3 = 9 pJ. The GBs have no
        // temporal loop above them: one step with both busy, mean 2.
        const Workload w = conv1d(9, 1);
        Architecture a = arch({storage("DRAM", 1, 1, std::nullopt), storage("GB", 2, 2, 256, 1.0),
                               storage("RF", 4, 4, 16, 1.0)},
                              4, 4);
        Mapping m;
        m.levels = {lvl({}, {makeLoop(0, 2)}), lvl({makeLoop(0, 3, 2)}, {makeLoop(0, 2, 1)}), lvl({})};
        QVERIFY(m.validate(w, a).empty());
        const Evaluation ev = evaluate(w, a, m);
        QVERIFY(ev.valid);
        QCOMPARE(ev.macs, std::int64_t(9));
        QCOMPARE(ev.cycles, std::int64_t(3));
        QCOMPARE(ev.levels[2].utilized_instances, std::int64_t(4));
        QCOMPARE(ev.levels[2].average_busy_instances, 3.0);
        QCOMPARE(ev.levels[2].leakage_energy_pJ, 9.0);
        QCOMPARE(ev.levels[1].average_busy_instances, 2.0);
        QCOMPARE(ev.levels[1].leakage_energy_pJ, 6.0);
        const BFResult bf = bruteForceEvaluate(w, a, m);
        QCOMPARE(bf.levels[2].average_busy_instances, 3.0);
        QCOMPARE(bf.levels[1].average_busy_instances, 2.0);
    }
};

QTEST_APPLESS_MAIN(TestTimeloopFidelity)
#include "tst_timeloop_fidelity.moc"
