// Agreement between the analytical model (nestor::evaluate) and the independent brute-force
// walk of the loop nest (tests/bruteforce), plus hand-checked figures from
// reference/timeloop/semantics.md and the small Timeloop reference cases.
#include "support/TestWorkloads.h"
#include "bruteforce/BruteForceEvaluator.h"
#include "io/ReferenceCase.h"
#include "support/RandomNests.h"
#include "model/Model.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

using namespace nestor;
using namespace nestor::test;

namespace {

// ---------------------------------------------------------------- builders
ProjectionTerm term(int dim, std::int64_t coef = 1) { return ProjectionTerm{dim, coef}; }

using test::conv1d;  // tests/support/TestWorkloads.h

StorageLevel storage(const std::string& name, std::int64_t instances, std::int64_t meshX,
                     std::optional<std::int64_t> size, int block = 1)
{
    StorageLevel l;
    l.name = name;
    l.instances = instances;
    l.meshX = meshX;
    l.size_words = size;
    l.block_size = block;
    l.technology = size ? "SRAM" : "DRAM";
    l.energy = {1.0, 1.0, 1.0, 0.0};
    return l;
}

Architecture arch(std::vector<StorageLevel> levels, std::int64_t macs, std::int64_t macMeshX)
{
    Architecture a;
    a.name = "test";
    a.levels = std::move(levels);
    a.compute.instances = macs;
    a.compute.meshX = macMeshX;
    a.compute.mac_energy_pJ = 1.0;
    return a;
}

LevelMapping lvl(std::vector<Loop> temporal, std::vector<Loop> spatialX = {}, std::vector<Loop> spatialY = {},
                 std::vector<bool> keep = {})
{
    LevelMapping l;
    l.temporal = std::move(temporal);
    l.spatialX = std::move(spatialX);
    l.spatialY = std::move(spatialY);
    l.keep = std::move(keep);
    return l;
}

int tidx(const Workload& w, const char* name) { return w.tensorIndex(name); }

// ---------------------------------------------------------------- comparison
struct Mismatch {
    std::string field;
    std::string text;
};

void cmpI(std::vector<Mismatch>& out, const std::string& field, std::int64_t bf, std::int64_t model)
{
    if (bf != model)
        out.push_back({field, field + ": brute force " + std::to_string(bf) + ", model " + std::to_string(model)});
}

void cmpD(std::vector<Mismatch>& out, const std::string& field, double bf, double model)
{
    const double tol = 1e-6 * std::max({1.0, std::fabs(bf), std::fabs(model)});
    if (std::fabs(bf - model) > tol) {
        std::ostringstream o;
        o.precision(12);
        o << field << ": brute force " << bf << ", model " << model;
        out.push_back({field, o.str()});
    }
}

// Field names in the returned mismatches are generic (no level names) so they can be
// histogrammed; the text carries the location.
std::vector<Mismatch> compare(const Workload& w, const Architecture& a, const BFResult& bf, const Evaluation& ev,
                              bool withEnergy = true)
{
    std::vector<Mismatch> out;
    if (!ev.valid) {
        std::string e = "model says invalid:";
        for (const auto& d : ev.errors) e += " [" + d.toString() + "]";
        out.push_back({"valid", e});
        return out;
    }
    if (static_cast<int>(ev.levels.size()) != a.numLevels()) {
        out.push_back({"levels", "model returned " + std::to_string(ev.levels.size()) + " levels"});
        return out;
    }
    cmpI(out, "macs", bf.macs, ev.macs);
    cmpI(out, "compute_cycles", bf.compute_cycles, ev.compute_cycles);
    cmpI(out, "utilized_macs", bf.utilized_macs, ev.utilized_macs);
    cmpI(out, "cycles", bf.cycles, ev.cycles);
    for (int t = 0; t < w.numTensors(); ++t) {
        std::int64_t bfLink = 0, evLink = 0;
        for (int i = 0; i < a.numLevels(); ++i) {
            bfLink += bf.levels[i].tensors[t].link_transfers;
            if (t < static_cast<int>(ev.levels[i].tensors.size())) evLink += ev.levels[i].tensors[t].link_transfers;
        }
        if (bfLink != evLink)
            out.push_back({"link_transfers", "link_transfers " + w.tensors[t].name + " (sum over levels): brute force " +
                                                 std::to_string(bfLink) + ", model " + std::to_string(evLink)});
    }
    for (int i = 0; i < a.numLevels(); ++i) {
        const auto& bl = bf.levels[i];
        const auto& el = ev.levels[i];
        if (static_cast<int>(el.tensors.size()) != w.numTensors()) {
            out.push_back({"tensors", a.levels[i].name + ": model has " + std::to_string(el.tensors.size()) + " tensors"});
            continue;
        }
        for (int t = 0; t < w.numTensors(); ++t) {
            const auto& b = bl.tensors[t];
            const auto& e = el.tensors[t];
            const std::string where = a.levels[i].name + "." + w.tensors[t].name + ".";
            auto I = [&](const char* f, std::int64_t x, std::int64_t y) {
                if (x != y)
                    out.push_back({f, where + f + ": brute force " + std::to_string(x) + ", model " + std::to_string(y)});
            };
            if (b.kept != e.kept) {
                out.push_back({"kept", where + "kept: brute force " + std::to_string(b.kept) + ", model " +
                                           std::to_string(e.kept)});
                continue;
            }
            if (!b.kept) continue;
            I("reads", b.reads, e.reads);
            I("fills", b.fills, e.fills);
            I("updates", b.updates, e.updates);
            I("reads_min", b.reads_min, e.reads_min);
            I("reads_max", b.reads_max, e.reads_max);
            I("fills_min", b.fills_min, e.fills_min);
            I("fills_max", b.fills_max, e.fills_max);
            I("updates_min", b.updates_min, e.updates_min);
            I("updates_max", b.updates_max, e.updates_max);
            I("utilized_capacity", b.utilized_capacity, e.utilized_capacity);
            I("utilized_instances", b.utilized_instances, e.utilized_instances);
            // The model counts partitions only where they change counts: read-write tensors.
            if (w.tensors[t].readWrite) I("partition_size", b.partition_size, e.partition_size);
            if (withEnergy) {
                std::vector<Mismatch> tmp;
                cmpD(tmp, "energy_pJ", b.energy_pJ, e.energy_pJ);
                for (auto& x : tmp) out.push_back({"tensor_energy", where + x.text});
            }
        }
        if (withEnergy) {
            std::vector<Mismatch> tmp;
            cmpD(tmp, "energy_pJ", bl.energy_pJ, el.energy_pJ);
            for (auto& x : tmp) out.push_back({"level_energy", a.levels[i].name + "." + x.text});
            tmp.clear();
            cmpI(tmp, "cycles", bl.cycles, el.cycles);
            for (auto& x : tmp) out.push_back({"level_cycles", a.levels[i].name + "." + x.text});
            tmp.clear();
            cmpD(tmp, "average_busy_instances", bl.average_busy_instances, el.average_busy_instances);
            for (auto& x : tmp) out.push_back({"level_leakage_instances", a.levels[i].name + "." + x.text});
        }
    }
    if (withEnergy) {
        cmpD(out, "compute_energy", bf.compute_energy_pJ, ev.compute_energy_pJ);
        cmpD(out, "energy", bf.energy_pJ, ev.energy_pJ);
    }
    return out;
}

std::string joinMismatches(const std::vector<Mismatch>& v)
{
    std::string s;
    for (const auto& m : v) s += "    " + m.text + "\n";
    return s;
}

// Random cases: tests/support/RandomNests.h (shared with tst_step_trace).
using test::random_nests::Case;
using test::random_nests::CaseGenerator;

struct Failure {
    int index;
    std::int64_t macs;
    std::string label;
    std::string description;
    std::vector<Mismatch> mismatches;
};

} // namespace

class TestBruteForceAgreement : public QObject {
    Q_OBJECT

private:
    // Asserts a figure on both the brute force and the model.
    static void both(const BFResult& bf, const Evaluation& ev, int level, int tensor, const char* what,
                     std::int64_t expected)
    {
        QVERIFY2(ev.valid, "model says the mapping is invalid");
        const auto& b = bf.levels[level].tensors[tensor];
        const auto& e = ev.levels[level].tensors[tensor];
        std::int64_t vb = 0, ve = 0;
        const std::string w = what;
        if (w == "reads") { vb = b.reads; ve = e.reads; }
        else if (w == "fills") { vb = b.fills; ve = e.fills; }
        else if (w == "updates") { vb = b.updates; ve = e.updates; }
        else if (w == "reads_max") { vb = b.reads_max; ve = e.reads_max; }
        else if (w == "fills_max") { vb = b.fills_max; ve = e.fills_max; }
        else if (w == "updates_max") { vb = b.updates_max; ve = e.updates_max; }
        else if (w == "utilized_instances") { vb = b.utilized_instances; ve = e.utilized_instances; }
        else if (w == "utilized_capacity") { vb = b.utilized_capacity; ve = e.utilized_capacity; }
        else if (w == "partition_size") { vb = b.partition_size; ve = e.partition_size; }
        else QFAIL("unknown field");
        const QByteArray msg = QByteArray(what) + " level " + QByteArray::number(level) + " tensor " +
                               QByteArray::number(tensor) + ": ";
        QVERIFY2(vb == expected, (msg + "brute force " + QByteArray::number(qint64(vb)) + " expected " +
                                  QByteArray::number(qint64(expected))).constData());
        QVERIFY2(ve == expected, (msg + "model " + QByteArray::number(qint64(ve)) + " expected " +
                                  QByteArray::number(qint64(expected))).constData());
    }

    static void fullAgreement(const Workload& w, const Architecture& a, const Mapping& m, const BFResult& bf,
                              const Evaluation& ev)
    {
        const auto mm = compare(w, a, bf, ev);
        if (!mm.empty())
            QFAIL(("model and brute force disagree on\n" + describeCase(w, a, m) + joinMismatches(mm)).c_str());
    }

private slots:
    // semantics.md section 3 worked example (case ispass20-00): 48 MACs, 16 outputs in one buffer.
    void section3WorkedExample()
    {
        const Workload w = conv1d(16, 3);
        Architecture a = arch({storage("Buffer", 1, 1, 64)}, 1, 1);
        Mapping m;
        m.levels = {lvl({makeLoop(0, 16), makeLoop(1, 3)})};
        QVERIFY(m.validate(w, a).empty());
        const BFResult bf = bruteForceEvaluate(w, a, m);
        const Evaluation ev = evaluate(w, a, m);
        const int out = tidx(w, "Outputs"), wt = tidx(w, "Weights"), in = tidx(w, "Inputs");
        both(bf, ev, 0, out, "updates", 48);
        both(bf, ev, 0, out, "reads", 32);
        both(bf, ev, 0, out, "fills", 0);
        both(bf, ev, 0, wt, "reads", 48);
        both(bf, ev, 0, in, "reads", 48);
        both(bf, ev, 0, in, "utilized_capacity", 18);
        QCOMPARE(bf.macs, std::int64_t(48));
        QCOMPARE(bf.compute_cycles, std::int64_t(48));
        QCOMPARE(ev.compute_cycles, std::int64_t(48));
        fullAgreement(w, a, m, bf, ev);
    }

    // Section 9 item 2: P=5, R=2; MainMemory P2, GlobalBuffer P=3,2, RegisterFile R2, 1 MAC:
    // exact 10 cycles, 10 MACs, 100 % utilization.
    void section9ImperfectTemporal()
    {
        const Workload w = conv1d(5, 2);
        Architecture a = arch({storage("MainMemory", 1, 1, std::nullopt), storage("GlobalBuffer", 1, 1, 1024),
                               storage("RegisterFile", 1, 1, 64)},
                              1, 1);
        Mapping m;
        m.levels = {lvl({makeLoop(0, 2)}), lvl({makeLoop(0, 3, 2)}), lvl({makeLoop(1, 2)})};
        QVERIFY(m.validate(w, a).empty());
        const BFResult bf = bruteForceEvaluate(w, a, m);
        const Evaluation ev = evaluate(w, a, m);
        QCOMPARE(bf.macs, std::int64_t(10));
        QCOMPARE(bf.compute_cycles, std::int64_t(10));
        QCOMPARE(bf.cycles, std::int64_t(10));
        QVERIFY(ev.valid);
        QCOMPARE(ev.macs, std::int64_t(10));
        QCOMPARE(ev.compute_cycles, std::int64_t(10));
        QCOMPARE(ev.cycles, std::int64_t(10));
        QVERIFY(std::fabs(ev.utilization - 1.0) < 1e-9);
        fullAgreement(w, a, m, bf, ev);
    }

    // Section 9 items 3, 5, 6: P=11, R=2; MainMemory P3, GlobalBuffer spatial P=4,3 (4 RFs),
    // RegisterFile R2. Exact: computes 22; RF Weights fills total 8; busy RF Outputs reads 3,
    // fills 0; MainMemory Outputs updates 11, reads 0; GlobalBuffer Outputs fills 0;
    // MainMemory Inputs reads 12.
    void section9ImperfectSpatial()
    {
        const Workload w = conv1d(11, 2);
        Architecture a = arch({storage("MainMemory", 1, 1, std::nullopt), storage("GlobalBuffer", 1, 1, 1024),
                               storage("RegisterFile", 4, 4, 64)},
                              4, 4);
        Mapping m;
        m.levels = {lvl({makeLoop(0, 3)}), lvl({}, {makeLoop(0, 4, 3)}), lvl({makeLoop(1, 2)})};
        QVERIFY(m.validate(w, a).empty());
        const BFResult bf = bruteForceEvaluate(w, a, m);
        const Evaluation ev = evaluate(w, a, m);
        const int out = tidx(w, "Outputs"), wt = tidx(w, "Weights"), in = tidx(w, "Inputs");
        QCOMPARE(bf.macs, std::int64_t(22));
        QVERIFY(ev.valid);
        QCOMPARE(ev.macs, std::int64_t(22));
        QCOMPARE(ev.compute_cycles, std::int64_t(6));
        both(bf, ev, 2, wt, "fills", 8);
        both(bf, ev, 2, out, "reads_max", 3);
        both(bf, ev, 2, out, "fills_max", 0);
        both(bf, ev, 2, out, "partition_size", 3);
        both(bf, ev, 2, out, "utilized_instances", 4);
        both(bf, ev, 0, out, "updates", 11);
        both(bf, ev, 0, out, "reads", 0);
        both(bf, ev, 1, out, "fills", 0);
        both(bf, ev, 0, in, "reads", 12);
        fullAgreement(w, a, m, bf, ev);
    }

    // One dimension split over both axes of a fanout, with a remainder on the inner axis
    // (C = 5 as Y 2 x X 3,2): a child below the last Y index is busy at every X index, the
    // residual context is cleared by its Y loop. (The walker once kept such children out of its
    // reuse memory: 24 instead of 8 Weights fills.)
    void sameDimensionOnBothAxes()
    {
        ConvParams cp;
        cp.M = 4; cp.C = 5; cp.P = 6; cp.Q = 2; cp.R = 2; cp.S = 1;
        const Workload w = makeConv2d(cp);
        const int M = w.dimIndex("M"), C = w.dimIndex("C"), P = w.dimIndex("P"), Q = w.dimIndex("Q"), R = w.dimIndex("R");
        Architecture a = arch({storage("DRAM", 1, 1, std::nullopt), storage("Buffer", 1, 1, 1 << 14), storage("PE", 6, 3, 256)}, 6, 3);
        Mapping m;
        m.levels = {lvl({makeLoop(R, 2), makeLoop(M, 2), makeLoop(P, 3)}),
                    lvl({makeLoop(Q, 2)}, {makeLoop(C, 3, 2)}, {makeLoop(C, 2)}),
                    lvl({makeLoop(M, 2), makeLoop(P, 2)})};
        QVERIFY(m.validate(w, a).empty());
        const BFResult bf = bruteForceEvaluate(w, a, m);
        const Evaluation ev = evaluate(w, a, m);
        both(bf, ev, 2, tidx(w, "Weights"), "fills", 5 * 8);  // five busy PEs, four distinct 2-word tiles each
        fullAgreement(w, a, m, bf, ev);
    }

    // Section 9 item 4: as item 3 with a 4-instance level keeping nothing between the
    // GlobalBuffer fanout and the RegisterFiles: GlobalBuffer Inputs reads 22, Outputs updates 11.
    void section9MaskedImperfect()
    {
        const Workload w = conv1d(11, 2);
        Architecture a = arch({storage("MainMemory", 1, 1, std::nullopt), storage("GlobalBuffer", 1, 1, 1024),
                               storage("Bypass", 4, 4, 1024), storage("RegisterFile", 4, 4, 64)},
                              4, 4);
        Mapping m;
        m.levels = {lvl({makeLoop(0, 3)}), lvl({}, {makeLoop(0, 4, 3)}), lvl({}, {}, {}, {false, false, false}),
                    lvl({makeLoop(1, 2)})};
        QVERIFY(m.validate(w, a).empty());
        const BFResult bf = bruteForceEvaluate(w, a, m);
        const Evaluation ev = evaluate(w, a, m);
        both(bf, ev, 1, tidx(w, "Inputs"), "reads", 22);
        both(bf, ev, 1, tidx(w, "Outputs"), "updates", 11);
        fullAgreement(w, a, m, bf, ev);
    }

    // Section 9 item 1, exact figures. (a) P=4, R=3, s=d=2: GlobalBuffer (Weights, Outputs)
    // R3 outer, P4 inner; 1-word RegisterFile keeps Inputs only: RF Inputs fills = MainMemory
    // Inputs reads = 12. (b) P=6, R=2, s=d=1: MainMemory P2, GlobalBuffer P3, RegisterFile R2:
    // GlobalBuffer Inputs reads = RF Inputs fills = 7.
    void section9Windows()
    {
        {
            const Workload w = conv1d(4, 3, 2, 2);
            Architecture a = arch({storage("MainMemory", 1, 1, std::nullopt), storage("GlobalBuffer", 1, 1, 1024),
                                   storage("RegisterFile", 1, 1, 1)},
                                  1, 1);
            Mapping m;
            m.levels = {lvl({}), lvl({makeLoop(1, 3), makeLoop(0, 4)}, {}, {}, {true, false, true}),
                        lvl({}, {}, {}, {false, true, false})};
            QVERIFY(m.validate(w, a).empty());
            const BFResult bf = bruteForceEvaluate(w, a, m);
            const Evaluation ev = evaluate(w, a, m);
            both(bf, ev, 2, tidx(w, "Inputs"), "fills", 12);
            both(bf, ev, 0, tidx(w, "Inputs"), "reads", 12);
            fullAgreement(w, a, m, bf, ev);
        }
        {
            const Workload w = conv1d(6, 2);
            Architecture a = arch({storage("MainMemory", 1, 1, std::nullopt), storage("GlobalBuffer", 1, 1, 1024),
                                   storage("RegisterFile", 1, 1, 64)},
                                  1, 1);
            Mapping m;
            m.levels = {lvl({makeLoop(0, 2)}), lvl({makeLoop(0, 3)}), lvl({makeLoop(1, 2)})};
            QVERIFY(m.validate(w, a).empty());
            const BFResult bf = bruteForceEvaluate(w, a, m);
            const Evaluation ev = evaluate(w, a, m);
            both(bf, ev, 1, tidx(w, "Inputs"), "reads", 7);
            both(bf, ev, 2, tidx(w, "Inputs"), "fills", 7);
            fullAgreement(w, a, m, bf, ev);
        }
    }

    // Translation rule (section 1): a window that stays put over an irrelevant inner loop and
    // then slides on. Current rule: 16+1+1 style reuse survives the stationary loop; legacy:
    // the first move after the stationary loop refetches the whole tile.
    void zeroTranslationRule()
    {
        // Inputs[P+R], RF tile = R3 window; GLB loops: P4 outer, K2 inner (K irrelevant to Inputs).
        Workload w;
        w.dimNames = {"P", "R", "K"};
        w.bounds = {4, 3, 2};
        w.tensors.push_back(Tensor{"Inputs", false, {{term(0), term(1)}}});
        w.tensors.push_back(Tensor{"Outputs", true, {{term(2)}, {term(0)}}});
        Architecture a = arch({storage("MainMemory", 1, 1, std::nullopt), storage("RegisterFile", 1, 1, 64)}, 1, 1);
        Mapping m;
        m.levels = {lvl({makeLoop(0, 4), makeLoop(2, 2)}), lvl({makeLoop(1, 3)})};
        QVERIFY(m.validate(w, a).empty());
        const int in = tidx(w, "Inputs");
        // current: 3 + 1 + 1 + 1 = 6 ; legacy: the move after each stationary K step
        // compares against the remembered zero translation -> whole tile 3 each: 3*4 = 12
        const BFResult bf = bruteForceEvaluate(w, a, m);
        QCOMPARE(bf.levels[1].tensors[in].fills, std::int64_t(6));
        BruteForceOptions legacy;
        legacy.legacyZeroTranslationRule = true;
        const BFResult bfl = bruteForceEvaluate(w, a, m, legacy);
        QCOMPARE(bfl.levels[1].tensors[in].fills, std::int64_t(12));
        const Evaluation ev = evaluate(w, a, m);
        fullAgreement(w, a, m, bf, ev);
        ModelOptions mo;
        mo.legacyZeroTranslationRule = true;
        const Evaluation evl = evaluate(w, a, m, mo);
        fullAgreement(w, a, m, bfl, evl);
    }

    // Link transfers (section 2), a scaled-down tutorial24-dse-conv1x1: buffer -> spatial-only
    // level -> 8 MACs, spatial M8 below a temporal M2. Inputs do not depend on M, so each MAC's
    // input equals its neighbour's previous one while only M advances.
    void linkTransfers()
    {
        Workload w;
        w.dimNames = {"C", "M", "P"};
        w.bounds = {4, 16, 2};
        w.tensors.push_back(Tensor{"Weights", false, {{term(0)}, {term(1)}}});
        w.tensors.push_back(Tensor{"Inputs", false, {{term(0)}, {term(2)}}});
        w.tensors.push_back(Tensor{"Outputs", true, {{term(1)}, {term(2)}}});
        Architecture a = arch({storage("DRAM", 1, 1, std::nullopt), storage("buffer", 1, 1, 8192, 16),
                               storage("inter_PE_spatial", 1, 1, 0)},
                              8, 8);
        Mapping m;
        m.levels = {lvl({makeLoop(0, 2), makeLoop(2, 2)}), lvl({makeLoop(0, 2), makeLoop(1, 2)}),
                    lvl({}, {makeLoop(1, 8)}, {}, {false, false, false})};
        QVERIFY(m.validate(w, a).empty());
        const BFResult bf = bruteForceEvaluate(w, a, m);
        const Evaluation ev = evaluate(w, a, m);
        const int in = tidx(w, "Inputs");
        // 16 temporal steps; the input changes every 2nd step: 8 reads, 8 x 8 words over links
        both(bf, ev, 1, in, "reads", 8);
        std::int64_t bfLink = 0, evLink = 0;
        for (int i = 0; i < a.numLevels(); ++i) {
            bfLink += bf.levels[i].tensors[in].link_transfers;
            if (ev.valid) evLink += ev.levels[i].tensors[in].link_transfers;
        }
        QCOMPARE(bfLink, std::int64_t(64));
        QCOMPARE(evLink, std::int64_t(64));
        both(bf, ev, 1, tidx(w, "Weights"), "reads", 128);
        fullAgreement(w, a, m, bf, ev);

        BruteForceOptions noLink;
        noLink.linkTransfers = false;
        const BFResult bfn = bruteForceEvaluate(w, a, m, noLink);
        QCOMPARE(bfn.levels[1].tensors[in].reads, std::int64_t(16));
        ModelOptions mo;
        mo.linkTransfers = false;
        const Evaluation evn = evaluate(w, a, m, mo);
        fullAgreement(w, a, m, bfn, evn);
    }

    // Hundreds of seeded random nests: the model must equal the brute force on every count.
    void randomAgreement()
    {
        const int kCases = 1500;
        CaseGenerator gen(0x5eed2024ULL);
        std::vector<Failure> failures;
        std::map<std::string, int> histogram;
        int checked = 0;
        for (int k = 0; k < kCases; ++k) {
            const Case c = gen.next();
            struct Variant {
                const char* label;
                BruteForceOptions b;
                ModelOptions mo;
            };
            std::vector<Variant> variants = {{"default", {}, {}}};
            if (k % 4 == 1) {
                Variant v{"legacy-zero-translation", {}, {}};
                v.b.legacyZeroTranslationRule = true;
                v.mo.legacyZeroTranslationRule = true;
                variants.push_back(v);
            }
            if (k % 5 == 2) {
                Variant v{"no-link-transfers", {}, {}};
                v.b.linkTransfers = false;
                v.mo.linkTransfers = false;
                variants.push_back(v);
            }
            for (const auto& v : variants) {
                const BFResult bf = bruteForceEvaluate(c.w, c.a, c.m, v.b);
                const Evaluation ev = evaluate(c.w, c.a, c.m, v.mo);
                ++checked;
                auto mm = compare(c.w, c.a, bf, ev);
                if (!mm.empty()) {
                    std::map<std::string, int> seen;
                    for (const auto& x : mm)
                        if (!seen[x.field]++) ++histogram[x.field];
                    failures.push_back({k, bf.macs,
                                        std::string(v.label) + (c.m.hasImperfectFactors() ? ", imperfect" : ", perfect"),
                                        describeCase(c.w, c.a, c.m), std::move(mm)});
                }
            }
        }
        if (!failures.empty()) {
            std::stable_sort(failures.begin(), failures.end(),
                             [](const Failure& x, const Failure& y) { return x.macs < y.macs; });
            int perfect = 0;
            for (const auto& f : failures) perfect += f.label.find(", perfect") != std::string::npos;
            std::string msg = std::to_string(failures.size()) + " (" + std::to_string(perfect) +
                              " with perfect factors) of " + std::to_string(checked) +
                              " evaluations disagree. Cases with a mismatch, per field:";
            for (const auto& [f, n] : histogram) msg += " " + f + "=" + std::to_string(n);
            // the smallest failing case for each field, with perfect and with imperfect factors,
            // so one frequent mismatch does not hide the others
            msg += "\nSmallest failing case per field (perfect / imperfect factors):\n";
            std::map<const Failure*, bool> printed;
            for (const auto& [field, n] : histogram) {
                (void)n;
                for (const char* kind : {", perfect", ", imperfect"}) {
                    for (const auto& f : failures) {
                        if (f.label.find(kind) == std::string::npos) continue;
                        bool has = false;
                        for (const auto& x : f.mismatches) has = has || x.field == field;
                        if (!has) continue;
                        if (!printed[&f]) {
                            printed[&f] = true;
                            msg += "--- [" + field + "] case #" + std::to_string(f.index) + " (" + f.label + ", " +
                                   std::to_string(f.macs) + " MACs)\n" + f.description + joinMismatches(f.mismatches);
                        } else {
                            msg += "--- [" + field + "] see case #" + std::to_string(f.index) + " above\n";
                        }
                        break;
                    }
                }
            }
            if (std::getenv("NESTOR_BF_VERBOSE")) {  // every failing case
                msg += "\nAll failing cases:\n";
                for (const auto& f : failures)
                    msg += "--- case #" + std::to_string(f.index) + " (" + f.label + ", " + std::to_string(f.macs) +
                           " MACs)\n" + f.description + joinMismatches(f.mismatches);
            }
            QFAIL(msg.c_str());
        }
        qInfo("%d evaluations agree", checked);
    }

    // The brute force reproduces the figures of the reference cases small enough to walk.
    void referenceCases()
    {
        const std::filesystem::path dir = std::filesystem::path(NESTOR_TEST_DATA_DIR) / "timeloop" / "cases";
        QVERIFY2(std::filesystem::exists(dir), "tests/data/timeloop/cases is missing");
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::directory_iterator(dir))
            if (e.path().extension() == ".yaml") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        int walked = 0;
        std::string problems;
        for (const auto& path : files) {
            ReferenceCase rc;
            try {
                rc = readReferenceCase(path.string());
            } catch (const std::exception& ex) {
                problems += path.filename().string() + ": cannot read: " + ex.what() + "\n";
                continue;
            }
            if (rc.workload.macs() > 2'000'000) continue;  // eyeriss-int16, tutorial24, example-simple-ws
            ++walked;
            const BFResult bf = bruteForceEvaluate(rc.workload, rc.architecture, rc.mapping);
            const RefFigures& ref = rc.exact ? *rc.exact : rc.expected;
            const std::string cn = rc.name + ": ";
            auto bad = [&](const std::string& what, double got, double want) {
                std::ostringstream o;
                o.precision(12);
                o << cn << what << ": brute force " << got << ", reference " << want << "\n";
                problems += o.str();
            };
            if (ref.summary.computes && *ref.summary.computes != bf.macs)
                bad("computes", double(bf.macs), double(*ref.summary.computes));
            if (ref.summary.cycles && *ref.summary.cycles != bf.cycles)
                bad("cycles", double(bf.cycles), double(*ref.summary.cycles));
            if (ref.summary.energy_total_pJ &&
                std::fabs(*ref.summary.energy_total_pJ - bf.energy_pJ) > 0.1 + 1e-5 * *ref.summary.energy_total_pJ)
                bad("energy_total_pJ", bf.energy_pJ, *ref.summary.energy_total_pJ);
            for (const RefLevelFigures& lf : ref.levels) {
                if (lf.isCompute) {
                    if (lf.computes_total && *lf.computes_total != bf.macs)
                        bad(lf.level + ".computes", double(bf.macs), double(*lf.computes_total));
                    continue;
                }
                const int li = rc.architecture.levelIndex(lf.level);
                if (li < 0) {
                    problems += cn + "unknown level " + lf.level + "\n";
                    continue;
                }
                const auto& bl = bf.levels[li];
                if (lf.leakage_energy_total_pJ &&
                    std::fabs(*lf.leakage_energy_total_pJ - bl.leakage_energy_pJ) > 0.011 + 1e-5 * bl.leakage_energy_pJ)
                    bad(lf.level + ".leakage", bl.leakage_energy_pJ, *lf.leakage_energy_total_pJ);
                for (const RefTensorFigures& tf : lf.tensors) {
                    const int t = rc.workload.tensorIndex(tf.tensor);
                    if (t < 0) {
                        problems += cn + "unknown tensor " + tf.tensor + "\n";
                        continue;
                    }
                    const auto& b = bl.tensors[t];
                    const std::string where = lf.level + "." + tf.tensor + ".";
                    if (!b.kept) {
                        problems += cn + where + " not kept by the brute force\n";
                        continue;
                    }
                    if (tf.utilized_capacity && *tf.utilized_capacity != b.utilized_capacity)
                        bad(where + "utilized_capacity", double(b.utilized_capacity), double(*tf.utilized_capacity));
                    if (tf.utilized_instances && *tf.utilized_instances != b.utilized_instances)
                        bad(where + "utilized_instances", double(b.utilized_instances), double(*tf.utilized_instances));
                    auto count = [&](const char* name, const RefCount& rcnt, std::int64_t total, std::int64_t mn,
                                     std::int64_t mx) {
                        if (rcnt.total && *rcnt.total != total) bad(where + name + "_total", double(total), double(*rcnt.total));
                        if (rcnt.perInstance && (mn != *rcnt.perInstance || mx != *rcnt.perInstance))
                            bad(where + name + "_per_instance [min,max]=" + std::to_string(mn) + "," + std::to_string(mx),
                                double(mx), double(*rcnt.perInstance));
                        if (rcnt.perInstanceRange &&
                            (mn != rcnt.perInstanceRange->first || mx != rcnt.perInstanceRange->second))
                            bad(where + name + "_per_instance_range min " + std::to_string(mn), double(mx),
                                double(rcnt.perInstanceRange->second));
                    };
                    count("reads", tf.reads, b.reads, b.reads_min, b.reads_max);
                    count("fills", tf.fills, b.fills, b.fills_min, b.fills_max);
                    count("updates", tf.updates, b.updates, b.updates_min, b.updates_max);
                    if (tf.energy_total_pJ && std::fabs(*tf.energy_total_pJ - b.energy_pJ) > 0.011 + 1e-5 * b.energy_pJ)
                        bad(where + "energy_total_pJ", b.energy_pJ, *tf.energy_total_pJ);
                }
            }
        }
        if (!problems.empty()) QFAIL(("brute force vs reference figures:\n" + problems).c_str());
        QVERIFY2(walked >= 9, "expected to walk at least 9 reference cases");
        qInfo("%d reference cases walked", walked);
    }
};

QTEST_GUILESS_MAIN(TestBruteForceAgreement)
#include "tst_bruteforce_agreement.moc"
