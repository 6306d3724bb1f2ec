// The step trace (engine/trace) against truth it did not produce: on >= 1,000 seeded random small
// nests the totals of countWindow over the whole run equal nestor::evaluate() and the brute-force
// walker (tests/bruteforce) at every level; on the example mappings windowed counts are additive
// and equal the sums of the frames; frames deep in a nest agree with an independent stepping of
// the odometer; a 1-D nest's frames are written down by hand; bad input is a NestorError.
#include "bruteforce/BruteForceEvaluator.h"
#include "common/Error.h"
#include "io/ProjectYaml.h"
#include "model/Model.h"
#include "support/RandomNests.h"
#include "support/TestWorkloads.h"
#include "trace/StepTrace.h"

#include <QtTest/QtTest>

#include <QDir>
#include <QElapsedTimer>

#include <algorithm>
#include <random>
#include <sstream>

using namespace nestor;
using namespace nestor::trace;

namespace {

StorageLevel storage(const std::string& name, std::int64_t instances, std::int64_t meshX, std::optional<std::int64_t> size)
{
    StorageLevel l;
    l.name = name;
    l.instances = instances;
    l.meshX = meshX;
    l.size_words = size;
    l.technology = size ? "SRAM" : "DRAM";
    l.energy = {1.0, 1.0, 1.0, 0.0};
    return l;
}

// DRAM -> PE buffer (2 x 1) -> 2 MACs
Architecture twoPeArch()
{
    Architecture a;
    a.name = "two-pe";
    a.levels = {storage("DRAM", 1, 1, std::nullopt), storage("PE", 2, 2, 64)};
    a.compute.instances = 2;
    a.compute.meshX = 2;
    return a;
}

LevelMapping lvl(std::vector<Loop> temporal, std::vector<Loop> spatialX = {}, std::vector<bool> keep = {})
{
    LevelMapping l;
    l.temporal = std::move(temporal);
    l.spatialX = std::move(spatialX);
    l.keep = std::move(keep);
    return l;
}

std::int64_t wordsOf(const StepFrame& f, MoveKind kind, int tensor)
{
    std::int64_t s = 0;
    for (const auto& m : f.moves)
        if (m.kind == kind && m.tensor == tensor) s += m.words;
    return s;
}

std::vector<TensorCounts> sumFrames(const StepTrace& tr, std::int64_t b, std::int64_t e, int T)
{
    std::vector<TensorCounts> c(T);
    for (std::int64_t s = b; s < e; ++s) {
        const StepFrame f = tr.frame(s);
        for (const auto& m : f.moves) {
            auto& x = c[m.tensor];
            if (m.kind == MoveKind::Fill) x.fills += m.words;
            if (m.kind == MoveKind::Read) x.reads += m.words;
            if (m.kind == MoveKind::Update) x.updates += m.words;
            if (m.kind == MoveKind::Link) x.linkTransfers += m.words;
        }
    }
    return c;
}

std::string countsText(const TensorCounts& c)
{
    return "reads " + std::to_string(c.reads) + " fills " + std::to_string(c.fills) + " updates " +
           std::to_string(c.updates) + " links " + std::to_string(c.linkTransfers);
}

} // namespace

class TestStepTrace : public QObject {
    Q_OBJECT
private slots:
    void handWeightStationary();
    void handMulticast();
    void badInput();
    void randomNestTotals();
    void exampleWindows();
    void instancesRowMajorOverTheMesh();
};

// Weight-stationary 1-D conv (P=4, R=2) on 2 PEs: PE r keeps weight r; inputs and outputs
// bypass the PEs. Written down by hand:
//  PE level, every step p: PE r holds Weights[r, r+1) and its MAC reads it (1 word each).
//           step 0 also fills each PE with its weight (two different words: two fills).
//  DRAM level, step 0: the two weights are read (two groups); every step the two MACs read
//           inputs p and p+1 (2 words; DRAM -> PE has no multicast for them) and both update
//           output p (one spatial reduction: 1 update); outputs are never read (first read
//           of each output elided: every output is updated at one step only).
void TestStepTrace::handWeightStationary()
{
    const Workload w = test::conv1d(4, 2);
    const Architecture a = twoPeArch();
    Mapping m;
    m.levels = {lvl({makeLoop(0, 4)}, {makeLoop(1, 2)}, {true, true, true}), lvl({}, {}, {true, false, false})};
    const int W = 0, I = 1, O = 2;

    const StepTrace pe(w, a, m, 1);
    QCOMPARE(pe.numSteps(), std::int64_t{4});
    QCOMPARE(pe.numInstances(), 2);
    QCOMPARE(pe.meshX(), 2);
    QCOMPARE(static_cast<int>(pe.loops().size()), 2);
    for (std::int64_t s = 0; s < 4; ++s) {
        const StepFrame f = pe.frame(s);
        QCOMPARE(f.loopIndex, std::vector<std::int64_t>({s}));
        for (int r = 0; r < 2; ++r) {
            QVERIFY(f.instances[r].active);
            QVERIFY(f.instances[r].tiles[W].held);
            QVERIFY(!f.instances[r].tiles[I].held);
            QCOMPARE(f.instances[r].tiles[W].ranks, std::vector<Range>({Range{r, r + 1}}));
        }
        QCOMPARE(wordsOf(f, MoveKind::Read, W), std::int64_t{2});
        QCOMPARE(wordsOf(f, MoveKind::Fill, W), s == 0 ? std::int64_t{2} : std::int64_t{0});
        int fills = 0;
        for (const auto& mv : f.moves)
            if (mv.kind == MoveKind::Fill && mv.words > 0) {
                ++fills;
                QCOMPARE(mv.group.size(), std::size_t{1});
                QCOMPARE(mv.words, std::int64_t{1});
            }
        QCOMPARE(fills, s == 0 ? 2 : 0);
    }
    QCOMPARE(pe.nextTileChange(0, W), std::int64_t{-1});  // weight-stationary: the weights never change

    const StepTrace dram(w, a, m, 0);
    QCOMPARE(dram.numInstances(), 1);
    for (std::int64_t s = 0; s < 4; ++s) {
        const StepFrame f = dram.frame(s);
        QCOMPARE(f.instances[0].tiles[O].ranks, std::vector<Range>({Range{0, 4}}));
        QCOMPARE(f.instances[0].tiles[I].ranks, std::vector<Range>({Range{0, 5}}));
        QCOMPARE(wordsOf(f, MoveKind::Read, W), s == 0 ? std::int64_t{2} : std::int64_t{0});
        QCOMPARE(wordsOf(f, MoveKind::Read, I), std::int64_t{2});
        QCOMPARE(wordsOf(f, MoveKind::Update, O), std::int64_t{1});
        QCOMPARE(wordsOf(f, MoveKind::Read, O), std::int64_t{0});
        for (const auto& mv : f.moves)
            if (mv.kind == MoveKind::Update) QCOMPARE(mv.receivers, std::vector<int>({0, 1}));  // the reduction group
    }
    const auto tot = dram.countWindow(0, 4);
    QCOMPARE(tot[W], (TensorCounts{2, 0, 0, 0}));
    QCOMPARE(tot[I], (TensorCounts{8, 0, 0, 0}));
    QCOMPARE(tot[O], (TensorCounts{0, 0, 4, 0}));
    const Evaluation ev = evaluate(w, a, m);
    QVERIFY(ev.valid);
    QCOMPARE(ev.levels[0].tensors[I].reads, std::int64_t{8});
    QCOMPARE(ev.levels[0].tensors[O].updates, std::int64_t{4});
}

// The same layer output-parallel: spatial X over P, R outer at DRAM, P inner in the PEs. Both
// PEs hold the same weight, so each weight is one DRAM read multicast to both (one Fill move,
// group {0, 1}, 2 words at the PE level): at steps 0 and 2.
void TestStepTrace::handMulticast()
{
    const Workload w = test::conv1d(4, 2);
    const Architecture a = twoPeArch();
    Mapping m;
    m.levels = {lvl({makeLoop(1, 2)}, {makeLoop(0, 2)}, {true, true, true}), lvl({makeLoop(0, 2)}, {}, {true, false, false})};
    const StepTrace pe(w, a, m, 1);
    QCOMPARE(pe.numSteps(), std::int64_t{4});
    for (std::int64_t s = 0; s < 4; ++s) {
        const StepFrame f = pe.frame(s);
        QCOMPARE(f.loopIndex, std::vector<std::int64_t>({s / 2, s % 2}));
        const std::int64_t r = s / 2;
        for (int x = 0; x < 2; ++x) QCOMPARE(f.instances[x].tiles[0].ranks, std::vector<Range>({Range{r, r + 1}}));
        int fills = 0;
        for (const auto& mv : f.moves)
            if (mv.kind == MoveKind::Fill && mv.words > 0) {
                ++fills;
                QCOMPARE(mv.group, std::vector<int>({0, 1}));
                QCOMPARE(mv.words, std::int64_t{2});
            }
        QCOMPARE(fills, s % 2 == 0 ? 1 : 0);
    }
    QCOMPARE(pe.nextTileChange(0, 0), std::int64_t{2});
    QCOMPARE(pe.nextTileChange(1, 0), std::int64_t{2});
    QCOMPARE(pe.nextTileChange(2, 0), std::int64_t{-1});
    const StepTrace dram(w, a, m, 0);
    QCOMPARE(dram.countWindow(0, 4)[0].reads, std::int64_t{2});
    QCOMPARE(dram.frame(2).moves.empty(), false);
    const Evaluation ev = evaluate(w, a, m);
    QCOMPARE(ev.levels[1].tensors[0].fills, std::int64_t{4});
    QCOMPARE(ev.levels[0].tensors[0].reads, std::int64_t{2});
}

void TestStepTrace::badInput()
{
    const Workload w = test::conv1d(4, 2);
    const Architecture a = twoPeArch();
    Mapping m;
    m.levels = {lvl({makeLoop(0, 4)}, {makeLoop(1, 2)}), lvl({})};
    auto fieldOf = [](auto&& f) -> std::string {
        try {
            f();
        } catch (const NestorError& e) {
            return e.diagnostics().empty() ? std::string("?") : e.diagnostics().front().field;
        }
        return {};
    };
    QCOMPARE(fieldOf([&] { StepTrace(w, a, m, 2); }), std::string("level"));
    QCOMPARE(fieldOf([&] { StepTrace(w, a, m, -1); }), std::string("level"));
    Mapping bad = m;
    bad.levels[0].temporal[0].bound = 3;  // factors no longer cover P
    QVERIFY(!fieldOf([&] { StepTrace(w, a, bad, 0); }).empty());
    QVERIFY(fieldOf([&] { StepTrace(w, a, bad, 0); }).find("mapping") == 0);
    Mapping few = m;
    few.levels.pop_back();
    QVERIFY(fieldOf([&] { StepTrace(w, a, few, 0); }).find("mapping") == 0);
    const StepTrace tr(w, a, m, 1);
    QCOMPARE(fieldOf([&] { tr.frame(4); }), std::string("step"));
    QCOMPARE(fieldOf([&] { tr.frame(-1); }), std::string("step"));
    QCOMPARE(fieldOf([&] { tr.countWindow(0, 5); }), std::string("window"));
    QCOMPARE(fieldOf([&] { tr.nextTileChange(0, 7); }), std::string("tensor"));
}

void TestStepTrace::randomNestTotals()
{
    // NESTOR_STEP_TRACE_SEED / NESTOR_STEP_TRACE_CASES: other populations (default 1,000 cases)
    const std::uint64_t seed = qEnvironmentVariableIsSet("NESTOR_STEP_TRACE_SEED")
                                   ? static_cast<std::uint64_t>(qEnvironmentVariableIntValue("NESTOR_STEP_TRACE_SEED"))
                                   : 0x7a11ce5ULL;
    const int total = qEnvironmentVariableIsSet("NESTOR_STEP_TRACE_CASES") ? qEnvironmentVariableIntValue("NESTOR_STEP_TRACE_CASES") : 1000;
    test::random_nests::CaseGenerator gen(seed);
    int cases = 0, imperfect = 0, failures = 0, modelRatioTraces = 0;
    std::string firstFailures;
    for (; cases < total; ++cases) {
        const auto c = gen.next();
        const Evaluation ev = evaluate(c.w, c.a, c.m);
        QVERIFY2(ev.valid, test::describeCase(c.w, c.a, c.m).c_str());
        const test::BFResult bf = test::bruteForceEvaluate(c.w, c.a, c.m);
        if (c.m.hasImperfectFactors()) ++imperfect;
        // Bypass ratios measured by walking the stage (the default on these small nests), and
        // taken from the model's stage analysis (walk limit 0): both exact.
        for (int traced = 0; traced < 2 * c.a.numLevels(); ++traced) {
            const int k = traced / 2;
            const bool fromModel = traced % 2 == 1;
            if (fromModel && !c.m.hasImperfectFactors()) continue;  // perfect nests never walk
            const StepTrace tr(c.w, c.a, c.m, k, fromModel ? 0 : 100000);
            modelRatioTraces += fromModel ? 1 : 0;
            const auto got = tr.countWindow(0, tr.numSteps());
            if (tr.framesAdditive()) {  // the frames' moves add up to the window's counts
                const auto frames = sumFrames(tr, 0, tr.numSteps(), c.w.numTensors());
                for (int t = 0; t < c.w.numTensors(); ++t)
                    if (!(frames[t] == got[t]) && ++failures <= 3)
                        firstFailures += "\ncase " + std::to_string(cases) + " level " + c.a.levels[k].name + " tensor " +
                                         c.w.tensors[t].name + ": frames " + countsText(frames[t]) + "; window " +
                                         countsText(got[t]);
            }
            for (int t = 0; t < c.w.numTensors(); ++t) {
                const auto& e = ev.levels[k].tensors[t];
                const auto& b = bf.levels[k].tensors[t];
                const TensorCounts model{e.reads, e.fills, e.updates, e.link_transfers};
                const TensorCounts brute{b.reads, b.fills, b.updates, b.link_transfers};
                if (got[t] == model && got[t] == brute) continue;
                if (++failures <= 3)
                    firstFailures += "\ncase " + std::to_string(cases) + (fromModel ? " (model ratios)" : "") + std::string(" level ") + c.a.levels[k].name + " tensor " +
                                     c.w.tensors[t].name + ": trace " + countsText(got[t]) + "; model " +
                                     countsText(model) + "; brute force " + countsText(brute) + "\n" +
                                     test::describeCase(c.w, c.a, c.m);
            }
        }
    }
    qInfo("%d random nests (%d with imperfect factors), %d level/tensor mismatches, %d level traces with the model's bypass ratios",
          cases, imperfect, failures, modelRatioTraces);
    QVERIFY2(failures == 0, firstFailures.c_str());
    if (total >= 1000) QVERIFY(imperfect >= 300);
}

// Independent stepping of the temporal nest: the next index tuple after `idx` under the residual
// rule (a loop runs its residual when every outer loop of its dimension is at its last index; a
// spatial loop counts as last only when it has a single trip, as a step exists while any
// instance runs it). False after the last step.
bool nextIndices(const std::vector<NestLoop>& loops, int dims, std::vector<std::int64_t>& idx)
{
    std::vector<std::int64_t> trips(loops.size(), 1);
    std::vector<char> last(dims, 1);
    for (std::size_t k = 0; k < loops.size(); ++k) {
        const auto& l = loops[k];
        trips[k] = last[l.loop.dim] ? l.loop.residual : l.loop.bound;
        if (l.temporalIndex < 0) {
            if (trips[k] > 1) last[l.loop.dim] = 0;
        } else if (idx[l.temporalIndex] != trips[k] - 1) {
            last[l.loop.dim] = 0;
        }
    }
    for (int k = static_cast<int>(loops.size()) - 1; k >= 0; --k) {
        const auto& l = loops[k];
        if (l.temporalIndex < 0) continue;
        if (idx[l.temporalIndex] + 1 < trips[k]) {
            ++idx[l.temporalIndex];
            for (std::size_t q = k + 1; q < loops.size(); ++q)
                if (loops[q].temporalIndex >= 0) idx[loops[q].temporalIndex] = 0;
            return true;
        }
    }
    return false;
}

std::int64_t boxWords(const TensorTile& t)
{
    std::int64_t s = 1;
    for (const auto& r : t.ranks) s *= r.hi - r.lo;
    return s;
}

std::int64_t boxMinus(const TensorTile& now, const TensorTile& old)
{
    std::int64_t in = 1;
    for (std::size_t r = 0; r < now.ranks.size(); ++r) {
        const auto lo = std::max(now.ranks[r].lo, old.ranks[r].lo), hi = std::min(now.ranks[r].hi, old.ranks[r].hi);
        in *= std::max<std::int64_t>(0, hi - lo);
    }
    return boxWords(now) - in;
}

// Frames [s, s + n) against independent stepping: consecutive loop indices, and every fill of a
// read-only tensor is the instance's whole new tile or its set difference with the last tile,
// and none while the tile stays.
void checkStepping(const StepTrace& tr, const Workload& w, std::int64_t s, int n, const QString& where)
{
    StepFrame prev = tr.frame(s);
    for (int i = 1; i < n && s + i < tr.numSteps(); ++i) {
        StepFrame f = tr.frame(s + i);
        auto expect = prev.loopIndex;
        QVERIFY2(nextIndices(tr.loops(), w.numDims(), expect), qPrintable(where));
        QVERIFY2(expect == f.loopIndex, qPrintable(where + QStringLiteral(" step %1").arg(s + i)));
        for (int t = 0; t < w.numTensors(); ++t) {
            if (w.tensors[t].readWrite) continue;
            std::vector<std::int64_t> filled(f.instances.size(), 0);
            for (const auto& m : f.moves)
                if (m.kind == MoveKind::Fill && m.tensor == t)
                    for (int g : m.group) filled[g] += m.words / static_cast<std::int64_t>(m.group.size());
            for (std::size_t x = 0; x < f.instances.size(); ++x) {
                const auto& now = f.instances[x].tiles[t];
                const auto& old = prev.instances[x].tiles[t];
                if (!now.held || !old.held) continue;
                const QString at = where + QStringLiteral(" step %1 instance %2 tensor %3").arg(s + i).arg(x).arg(t);
                if (now.ranks == old.ranks) QVERIFY2(filled[x] == 0, qPrintable(at));
                else QVERIFY2(filled[x] == boxWords(now) || filled[x] == boxMinus(now, old) || filled[x] == 0, qPrintable(at));
            }
        }
        prev = std::move(f);
    }
}

void TestStepTrace::exampleWindows()
{
    // By default one level per mapping (outermost, middle, innermost in turn) and a window of
    // about 6,000 MAC-steps, which keeps the suite fast. NESTOR_STEP_TRACE_STEPS=100000 checks the
    // first 10^5 steps at all three levels of every mapping (minutes per file);
    // NESTOR_STEP_TRACE_ONLY=eyeriss-like.yaml restricts the run to one file.
    const bool full = qEnvironmentVariableIsSet("NESTOR_STEP_TRACE_STEPS");
    const std::int64_t W = full ? qEnvironmentVariableIntValue("NESTOR_STEP_TRACE_STEPS") : 0;
    const QString only = qEnvironmentVariable("NESTOR_STEP_TRACE_ONLY");
    const QString dir = QString::fromUtf8(NESTOR_EXAMPLES_DIR);
    QStringList files = QDir(dir).entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
    for (const QString& f : QDir(dir + QStringLiteral("/teaching")).entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name))
        files << QStringLiteral("teaching/") + f;
    std::mt19937_64 rng(2024);
    int mappings = 0, additive = 0, wholeRuns = 0, traces = 0;
    int turn = 0;
    for (const QString& file : files) {
        if (!only.isEmpty() && file != only) continue;
        const Project p = readProject(QDir(dir).filePath(file).toStdString());
        for (const auto& pm : p.mappings) {
            const ProjectWorkload* pw = p.findWorkload(pm.workload);
            QVERIFY(pw);
            ++mappings;
            const int L = p.architecture.numLevels();
            std::vector<int> levels = {0, L / 2, L - 1};
            // the teaching gallery is small: whole runs at the levels whose steps are cheap
            const bool gallery = file.startsWith(QStringLiteral("teaching/"));
            if (!full)
                levels = !gallery ? std::vector<int>{levels[static_cast<std::size_t>(turn++ % 3)]}
                         : &pm == &p.mappings.front() ? std::vector<int>{0, L / 2}
                                                      : std::vector<int>{0};
            for (int level : levels) {
                QElapsedTimer timer;
                timer.start();
                const StepTrace tr(pw->workload, p.architecture, pm.mapping, level);
                const QString where = file + QStringLiteral(" ") + QString::fromStdString(pm.mapping.name) +
                                      QStringLiteral(" level %1").arg(level);
                ++traces;
                const std::int64_t budget =
                    full ? W
                    : gallery ? 5000
                              : std::max<std::int64_t>(16, 6000 / std::max<std::int64_t>(1, p.architecture.compute.instances));
                const std::int64_t n = std::min(budget, tr.numSteps());
                const auto whole = tr.countWindow(0, n);
                std::vector<TensorCounts> chunks(pw->workload.numTensors());
                for (std::int64_t b = 0; b < n;) {
                    const std::int64_t e = std::min(n, b + std::uniform_int_distribution<std::int64_t>(1, std::max<std::int64_t>(2, n / 8))(rng));
                    const auto c = tr.countWindow(b, e);
                    for (std::size_t t = 0; t < c.size(); ++t) {
                        chunks[t].reads += c[t].reads;
                        chunks[t].fills += c[t].fills;
                        chunks[t].updates += c[t].updates;
                        chunks[t].linkTransfers += c[t].linkTransfers;
                    }
                    b = e;
                }
                const auto frames = sumFrames(tr, 0, n, pw->workload.numTensors());
                if (n == tr.numSteps()) {  // the whole run: the model's totals
                    ++wholeRuns;
                    const Evaluation ev = evaluate(pw->workload, p.architecture, pm.mapping);
                    QVERIFY2(ev.valid, qPrintable(where));
                    for (int t = 0; t < pw->workload.numTensors(); ++t) {
                        const auto& e = ev.levels[level].tensors[t];
                        const TensorCounts model{e.reads, e.fills, e.updates, e.link_transfers};
                        QVERIFY2(whole[t] == model, qPrintable(where + QStringLiteral(" whole run: ") +
                                                                QString::fromStdString(countsText(whole[t]) + " vs model " + countsText(model))));
                    }
                }
                if (tr.framesAdditive()) {
                    ++additive;
                    for (int t = 0; t < pw->workload.numTensors(); ++t) {
                        QVERIFY2(chunks[t] == whole[t], qPrintable(where + QStringLiteral(" chunks: ") +
                                                                    QString::fromStdString(countsText(chunks[t]) + " vs " + countsText(whole[t]))));
                        QVERIFY2(frames[t] == whole[t], qPrintable(where + QStringLiteral(" frames: ") +
                                                                    QString::fromStdString(countsText(frames[t]) + " vs " + countsText(whole[t]))));
                    }
                } else {  // rounded per instance per window: within one word per instance and chunk
                    for (int t = 0; t < pw->workload.numTensors(); ++t) {
                        QCOMPARE(chunks[t].fills, whole[t].fills);
                        QCOMPARE(chunks[t].linkTransfers, whole[t].linkTransfers);
                    }
                }
                checkStepping(tr, pw->workload, tr.numSteps() / 2, full ? 200 : 12, where);
                if (qEnvironmentVariableIsSet("NESTOR_STEP_TRACE_VERBOSE"))
                    qInfo("%s: %lld ms", qPrintable(where), static_cast<long long>(timer.elapsed()));
            }
        }
    }
    qInfo("%d example mappings, %d level traces (%d with per-step counts that add up exactly), "
          "%d whole runs equal to the model%s", mappings, traces, additive, wholeRuns,
          full ? qPrintable(QStringLiteral(", %1 steps per window").arg(W)) : "");
    if (only.isEmpty()) QVERIFY(mappings >= 100);
}

// Frames number a level's instances row-major over its whole mesh (x fastest), although the
// Eyeriss-like array reaches the PEs through two fanouts (14 columns, then 12 PEs per column).
// The gallery's weight-stationary mapping puts M 12 across the columns and R 3 x S 3 down the
// rows: the busy PEs are the 12 x 9 rectangle at the top left, by hand.
void TestStepTrace::instancesRowMajorOverTheMesh()
{
    const Project p = readProject(QDir(QString::fromUtf8(NESTOR_EXAMPLES_DIR)).filePath(QStringLiteral("teaching/dataflows.yaml")).toStdString());
    const ProjectMapping* pm = p.findMapping("weight-stationary");
    QVERIFY(pm);
    int pe = -1;
    for (int l = 0; l < p.architecture.numLevels(); ++l)
        if (p.architecture.levels[static_cast<std::size_t>(l)].name == "ifmap_spad") pe = l;
    const trace::StepTrace t(p.findWorkload(pm->workload)->workload, p.architecture, pm->mapping, pe);
    QCOMPARE(t.meshX(), 14);
    QCOMPARE(t.meshY(), 12);
    const trace::StepFrame f = t.frame(0);
    QCOMPARE(int(f.instances.size()), 168);
    for (int i = 0; i < 168; ++i) {
        const int x = i % 14, y = i / 14;
        QVERIFY2(f.instances[static_cast<std::size_t>(i)].active == (x < 12 && y < 9), qPrintable(QString::number(i)));
    }
    // Every fill of the inputs lands on a busy PE, named in the same numbering.
    for (const trace::Move& m : f.moves)
        if (m.kind == trace::MoveKind::Fill)
            for (int g : m.group) QVERIFY(g % 14 < 12 && g / 14 < 9);
}

QTEST_GUILESS_MAIN(TestStepTrace)
#include "tst_step_trace.moc"
