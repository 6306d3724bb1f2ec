// Checked arithmetic at the boundaries (docs/project-format.md, "Size limits"): sizes whose
// counts would not fit below 2^62 are located errors when a project or reference case is read
// or a value is validated, never a silent 64-bit wrap; the largest valid sizes evaluate exactly.
// Every expected number below is worked out by hand in the comments.
#include "support/TextEdits.h"
#include "common/CheckedMath.h"
#include "common/Error.h"
#include "io/ProjectYaml.h"
#include "io/ReferenceCase.h"
#include "model/Model.h"

#include <QtTest/QtTest>

#include <fstream>
#include <sstream>

#ifndef NESTOR_TEST_DATA_DIR
#define NESTOR_TEST_DATA_DIR ""
#endif

using namespace nestor;
using test::positionOf;
using test::replaced;

namespace {

constexpr std::int64_t k2to40 = std::int64_t{1} << 40;



// The only diagnostic of reading `text` as a project (the test fails if it reads fine).
Diagnostic projectError(const std::string& text)
{
    try {
        parseProject(text, "p.yaml");
    } catch (const NestorError& e) {
        if (e.diagnostics().size() != 1) qFatal("expected one diagnostic, got: %s", e.what());
        return e.diagnostics().front();
    }
    qFatal("the project was accepted:\n%s", text.c_str());
}

Diagnostic referenceCaseError(const std::string& text)
{
    try {
        parseReferenceCase(text, "case.yaml");
    } catch (const NestorError& e) {
        if (e.diagnostics().size() != 1) qFatal("expected one diagnostic, got: %s", e.what());
        return e.diagnostics().front();
    }
    qFatal("the reference case was accepted");
}

#define CHECK_AT(diag, fileName, needleText, needle)                              \
    do {                                                                          \
        const auto [line_, col_] = positionOf(needleText, needle);                \
        QCOMPARE(QString::fromStdString((diag).location.file), QStringLiteral(fileName)); \
        QCOMPARE((diag).location.line, line_);                                    \
        QCOMPARE((diag).location.column, col_);                                   \
    } while (0)

#define CHECK_CONTAINS(haystack, needle)                                                              \
    QVERIFY2(std::string(haystack).find(needle) != std::string::npos,                                 \
             ("'" + std::string(needle) + "' not in: " + std::string(haystack)).c_str())

// Two levels (DRAM unbounded, a GLB) and one MAC; the workloads and mappings follow.
const std::string kArch =
    "architecture:\n"
    "  levels:\n"
    "    - {name: DRAM, technology: DRAM, size_words: null, energy_pJ: {read: 100, fill: 100, update: 100}}\n"
    "    - {name: GLB, size_words: 1024, energy_pJ: {read: 2, fill: 2, update: 2}}\n"
    "  compute: {name: MAC, instances: 1, energy_pJ: 1}\n";

const TensorLevelStats& stats(const Evaluation& ev, int level, const std::string& tensor)
{
    for (std::size_t t = 0; t < ev.tensorNames.size(); ++t)
        if (ev.tensorNames[t] == tensor) return ev.levels[static_cast<std::size_t>(level)].tensors[t];
    qFatal("no tensor %s", tensor.c_str());
}

Evaluation evaluateFirstMapping(const Project& p)
{
    const ProjectMapping& pm = p.mappings.front();
    return evaluate(p.findWorkload(pm.workload)->workload, p.architecture, pm.mapping);
}

} // namespace

class TestCheckedArithmetic : public QObject {
    Q_OBJECT
private slots:
    void helpersSaturateAtTheLimit();
    void macsBeyondTheLimitAreALocatedError();
    void hugeRankCoefficientIsALocatedError();
    void largestCoefficientEvaluatesExactly();
    void hugeCoefficientOnASpatialLoopEvaluates();
    void factorCoverageDoesNotWrap();
    void spatialFactorProductDoesNotWrap();
    void sizeWordsBeyondTheLimitIsALocatedError();
    void effectiveSizeIsExactNearTheLimit();
    void largestValidGemmEvaluatesExactly();
    void bandwidthCannotStretchCyclesPastTheLimit();
    void intFieldsAreNotTruncated();
    void constraintFactorsAreRangeChecked();
    void referenceCaseSizesAreChecked();
};

void TestCheckedArithmetic::helpersSaturateAtTheLimit()
{
    QCOMPARE(kCountLimit, std::int64_t{4611686018427387904});  // 2^62
    QCOMPARE(limitedMul(std::int64_t{1} << 31, std::int64_t{1} << 30), std::int64_t{1} << 61);
    QCOMPARE(limitedMul(std::int64_t{1} << 31, std::int64_t{1} << 31), kCountLimit);  // exactly 2^62
    QCOMPARE(limitedMul(std::int64_t{1} << 40, std::int64_t{1} << 40), kCountLimit);  // 2^80: wraps to 0 unchecked
    QCOMPARE(limitedAdd(kCountLimit - 1, 1), kCountLimit);
    QCOMPARE(limitedAdd(kCountLimit - 2, 1), kCountLimit - 1);
    std::int64_t r = 7;
    QVERIFY(!checkedMul(INT64_MAX, 2, &r));
    QCOMPARE(r, std::int64_t{7});  // untouched on overflow
    QVERIFY(!checkedAdd(INT64_MAX, 1, &r));
    QVERIFY(checkedAdd(INT64_MAX - 1, 1, &r));
    QCOMPARE(r, INT64_MAX);
}

// 2^35 x 2^35 = 2^70 MACs used to wrap to 0 and evaluate as a valid 0-cycle layer.
void TestCheckedArithmetic::macsBeyondTheLimitAreALocatedError()
{
    const std::string text = "nestor: 1\n" + kArch +
                             "workloads:\n"
                             "  - {name: big, type: conv, M: 34359738368, C: 34359738368}\n";
    const Diagnostic d = projectError(text);
    QCOMPARE(QString::fromStdString(d.field), QStringLiteral("workloads[0].dimensions"));
    CHECK_CONTAINS(d.message, "N x M x C x P x Q x R x S = 1 x 34359738368 x 34359738368 x 1 x 1 x 1 x 1 = 1.18e+21 MACs");
    CHECK_CONTAINS(d.message, "exceeds 2^62 - 1");
    CHECK_AT(d, "p.yaml", text, "{name: big");

    // The GUI's path: the layer builder refuses it, field under the layer's name.
    ConvParams c;
    c.name = "big";
    c.M = c.C = std::int64_t{1} << 35;
    try {
        makeConv2d(c);
        QFAIL("makeConv2d accepted 2^70 MACs");
    } catch (const NestorError& e) {
        QCOMPARE(QString::fromStdString(e.diagnostics().front().field), QStringLiteral("big.dimensions"));
    }

    // A workload assembled in code and evaluated unvalidated: an error, not 0 MACs.
    Workload w;
    w.name = "w";
    w.dimNames = {"M", "C"};
    w.bounds = {std::int64_t{1} << 35, std::int64_t{1} << 35};
    w.tensors = {Tensor{"Outputs", true, {{ProjectionTerm{0, 1}}}}, Tensor{"Inputs", false, {{ProjectionTerm{1, 1}}}}};
    QCOMPARE(w.macs(), kCountLimit);  // saturated, never wrapped
    const Project p = parseProject("nestor: 1\n" + kArch, "p.yaml");
    Mapping m;
    m.levels.resize(2);
    m.levels[0].temporal = {makeLoop(0, std::int64_t{1} << 35), makeLoop(1, std::int64_t{1} << 35)};
    const Evaluation ev = evaluate(w, p.architecture, m);
    QVERIFY(!ev.valid);
    QCOMPARE(QString::fromStdString(ev.errors.front().field), QStringLiteral("workload.dimensions"));
}

// Inputs[P + 2^61 R] with P = 16, R = 3: the rank spans 1 + 15 + 2^61 x 2 > 2^62 words, which
// used to wrap into negative capacities and reads. Access bound 16 x 2^61 x 3 = 1.11e20.
void TestCheckedArithmetic::hugeRankCoefficientIsALocatedError()
{
    const std::string text = "nestor: 1\n" + kArch +
                             "workloads:\n"
                             "  - name: c\n"
                             "    type: custom\n"
                             "    dimensions: {P: 16, R: 3}\n"
                             "    tensors:\n"
                             "      - {name: Weights, ranks: [R]}\n"
                             "      - {name: Inputs, ranks: [\"P + 2305843009213693952*R\"]}\n"
                             "      - {name: Outputs, ranks: [P], read_write: true}\n";
    const Diagnostic d = projectError(text);
    QCOMPARE(QString::fromStdString(d.field), QStringLiteral("workloads[0].tensors[1].ranks[0]"));
    CHECK_CONTAINS(d.message, "tensor 'Inputs' [P + 2305843009213693952*R] could move up to 1.11e+20 words");
    CHECK_CONTAINS(d.message, "exceeds 2^62 - 1");
    CHECK_AT(d, "p.yaml", text, "\"P + 2305843009213693952*R\"");
}

// P = R = 2, Inputs[P + c R]. Access bounds: Weights 2 (P, unused) x 2 = 4, Outputs 2 x 2 = 4,
// Inputs 2 x 2c = 4c; the sum 4c + 8 must stay below 2^62, so c = 2^60 - 3 is the largest.
void TestCheckedArithmetic::largestCoefficientEvaluatesExactly()
{
    auto project = [](const std::string& coef) {
        return "nestor: 1\n" + kArch +
               "workloads:\n"
               "  - name: c\n"
               "    type: custom\n"
               "    dimensions: {P: 2, R: 2}\n"
               "    tensors:\n"
               "      - {name: Weights, ranks: [R]}\n"
               "      - {name: Inputs, ranks: [\"P + " + coef + "*R\"]}\n"
               "      - {name: Outputs, ranks: [P], read_write: true}\n"
               "mappings:\n"
               "  - name: m\n"
               "    workload: c\n"
               "    levels:\n"
               "      - {level: DRAM, temporal: [[R, 2]]}\n"
               "      - {level: GLB, temporal: [[P, 2]]}\n";
    };
    const std::int64_t c = (std::int64_t{1} << 60) - 3;
    const Project p = parseProject(project(std::to_string(c)), "p.yaml");
    const Evaluation ev = evaluateFirstMapping(p);
    QVERIFY2(ev.valid, ev.errors.empty() ? "" : ev.errors.front().toString().c_str());
    QCOMPARE(ev.macs, std::int64_t{4});
    // DRAM holds the whole Inputs box: extent 1 + (2 - 1) + c (2 - 1) = c + 2 = 2^60 - 1.
    QCOMPARE(stats(ev, 0, "Inputs").utilized_capacity, (std::int64_t{1} << 60) - 1);
    // The GLB tile {cr, cr + 1} of each R step shares nothing with the previous one: 2 x 2 words.
    QCOMPARE(stats(ev, 1, "Inputs").utilized_capacity, std::int64_t{2});
    QCOMPARE(stats(ev, 1, "Inputs").fills, std::int64_t{4});
    QCOMPARE(stats(ev, 0, "Inputs").reads, std::int64_t{4});
    QCOMPARE(stats(ev, 1, "Inputs").reads, std::int64_t{4});  // one per MAC

    // One more and the sum of the bounds reaches 4 (2^60 - 2) + 8 = 2^62.
    const std::string over = project(std::to_string(c + 1));
    const Diagnostic d = projectError(over);
    QCOMPARE(QString::fromStdString(d.field), QStringLiteral("workloads[0].tensors"));
    CHECK_CONTAINS(d.message, "the access bounds of the tensors (Weights 4 + Inputs 4.61e+18 + Outputs 4) add up to 4.61e+18");
    CHECK_AT(d, "p.yaml", over, "- {name: Weights");
}

// Inputs[P + 2^50 R] with R spread over two PEs: the two children's tiles sit 2^50 apart. The
// multicast analysis used to allocate one byte per position of that range (a petabyte).
// Each PE holds Inputs {2^50 r, 2^50 r + 1}: 2 words, filled once, no sharing between PEs.
void TestCheckedArithmetic::hugeCoefficientOnASpatialLoopEvaluates()
{
    const std::string text =
        "nestor: 1\n"
        "architecture:\n"
        "  levels:\n"
        "    - {name: DRAM, technology: DRAM, size_words: null, energy_pJ: {read: 100, fill: 100, update: 100}}\n"
        "    - {name: PE, size_words: 16, instances: 2, energy_pJ: {read: 1, fill: 1, update: 1}}\n"
        "  compute: {name: MAC, instances: 2, energy_pJ: 1}\n"
        "workloads:\n"
        "  - name: c\n"
        "    type: custom\n"
        "    dimensions: {P: 2, R: 2}\n"
        "    tensors:\n"
        "      - {name: Weights, ranks: [R]}\n"
        "      - {name: Inputs, ranks: [\"P + 1125899906842624*R\"]}\n"
        "      - {name: Outputs, ranks: [P], read_write: true}\n"
        "mappings:\n"
        "  - name: m\n"
        "    workload: c\n"
        "    levels:\n"
        "      - {level: DRAM, spatial_x: [[R, 2]]}\n"
        "      - {level: PE, temporal: [[P, 2]]}\n";
    const Evaluation ev = evaluateFirstMapping(parseProject(text, "p.yaml"));
    QVERIFY2(ev.valid, ev.errors.empty() ? "" : ev.errors.front().toString().c_str());
    QCOMPARE(ev.macs, std::int64_t{4});
    QCOMPARE(stats(ev, 0, "Inputs").utilized_capacity, std::int64_t{1125899906842624} + 2);  // 1 + 1 + 2^50
    QCOMPARE(stats(ev, 0, "Inputs").reads, std::int64_t{4});
    QCOMPARE(stats(ev, 1, "Inputs").fills, std::int64_t{4});
    QCOMPARE(stats(ev, 1, "Inputs").utilized_capacity, std::int64_t{2});
    QCOMPARE(stats(ev, 0, "Inputs").multicast_factor, 1.0);
}

// M = 256 with factors 2^58 + 4 (DRAM) x 64 (GLB): the covered size 1 + (2^58 + 3) 64 + 63 is
// 2^64 + 256, which wrapped to exactly 256 and was accepted.
void TestCheckedArithmetic::factorCoverageDoesNotWrap()
{
    const std::string text = "nestor: 1\n" + kArch +
                             "workloads:\n"
                             "  - {name: g, type: gemm, M: 256, N: 1, K: 1}\n"
                             "mappings:\n"
                             "  - name: m\n"
                             "    workload: g\n"
                             "    levels:\n"
                             "      - {level: DRAM, temporal: [[M, 288230376151711748]]}\n"
                             "      - {level: GLB, temporal: [[M, 64]]}\n";
    const Diagnostic d = projectError(text);
    QCOMPARE(QString::fromStdString(d.field), QStringLiteral("mappings[0].factors.M"));
    CHECK_CONTAINS(d.message, "factors of M (288230376151711748 x 64) multiply to 1.84e+19, which exceeds 2^62 - 1");
    CHECK_AT(d, "p.yaml", text, "name: m\n");
    QCOMPARE(coveredSize({makeLoop(0, 288230376151711748), makeLoop(0, 64)}), kCountLimit);
    QCOMPARE(coveredSize({makeLoop(0, 5, 3), makeLoop(0, 64)}), std::int64_t{1 + 2 * 64 + 63});
}

// Two spatial factors of 2^32 multiply to 2^64, which wrapped to 0 and passed a fanout of 1.
void TestCheckedArithmetic::spatialFactorProductDoesNotWrap()
{
    const Project p = parseProject("nestor: 1\n" + kArch + "workloads:\n  - {name: g, type: gemm, M: 256, N: 1, K: 1}\n", "p.yaml");
    const Workload& w = p.workloads.front().workload;
    Mapping m;
    m.levels.resize(2);
    m.levels[0].temporal = {makeLoop(0, 256)};
    m.levels[0].spatialX = {makeLoop(1, std::int64_t{1} << 32), makeLoop(2, std::int64_t{1} << 32)};
    bool fanoutError = false;
    for (const auto& d : m.validate(w, p.architecture))
        if (d.field == "mapping.levels[DRAM].spatial_x") {
            fanoutError = true;
            CHECK_CONTAINS(d.message, "spatial factors multiply to 2^62 or more but the fanout in X is 1");
        }
    QVERIFY(fanoutError);
}

// size_words 2^63 - 1 printed "GLB holds -9223372036854775808" (a double rounded up to 2^63).
void TestCheckedArithmetic::sizeWordsBeyondTheLimitIsALocatedError()
{
    const std::string text = replaced("nestor: 1\n" + kArch, "size_words: 1024", "size_words: 9223372036854775807");
    const Diagnostic d = projectError(text);
    QCOMPARE(QString::fromStdString(d.field), QStringLiteral("architecture.levels[1].size_words"));
    QCOMPARE(QString::fromStdString(d.message),
             QStringLiteral("9223372036854775807 exceeds 2^62 - 1 (capacities must stay below 2^62)"));
    CHECK_AT(d, "p.yaml", text, "9223372036854775807");
    // Validating an edited architecture (the GUI's path) names the field.
    Architecture a = parseProject("nestor: 1\n" + kArch, "p.yaml").architecture;
    a.levels[1].size_words = kCountLimit;
    const Diagnostics ds = a.validate();
    QCOMPARE(ds.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(ds.front().field), QStringLiteral("architecture.levels[1].size_words"));
}

// floor(size / multiple_buffering) without a trip through double, whose 53-bit mantissa turns
// 2^62 - 1 into 2^62.
void TestCheckedArithmetic::effectiveSizeIsExactNearTheLimit()
{
    StorageLevel l;
    l.size_words = kCountLimit - 1;
    QCOMPARE(*l.effectiveSizeWords(), kCountLimit - 1);
    l.multiple_buffering = 2.0;
    QCOMPARE(*l.effectiveSizeWords(), (std::int64_t{1} << 61) - 1);  // (2^62 - 1) / 2 = 2^61 - 0.5
    l.multiple_buffering = 2305843009213693952.0;                    // 2^61: (2^62 - 1) / 2^61 = 2 - 2^-61
    QCOMPARE(*l.effectiveSizeWords(), std::int64_t{1});

    // The capacity message of a huge but valid level names its exact size.
    const std::string text = replaced("nestor: 1\n" + kArch, "size_words: 1024",
                                      "size_words: 4611686018427387903, multiple_buffering: 2305843009213693952") +
                             "workloads:\n"
                             "  - {name: g, type: gemm, M: 4, N: 1, K: 1}\n"
                             "mappings:\n"
                             "  - {name: m, workload: g, levels: [{level: GLB, temporal: [[M, 4]]}]}\n";
    const Evaluation ev = evaluateFirstMapping(parseProject(text, "p.yaml"));
    QVERIFY(!ev.valid);
    // GLB tiles: A 4 words (M), B 1 word, Outputs 4 words.
    QCOMPARE(QString::fromStdString(ev.errors.front().message),
             QStringLiteral("capacity exceeded: tiles need 9 words (A 4 + B 1 + Outputs 4) but GLB holds 1"));
}

// GEMM access bounds are M N K for each of A, B and Outputs, so 3 M N K < 2^62: with
// M = N = 2^20 the largest K is 1398101 (3 x 1398101 = 4194303 < 4194304 = 2^22, while
// 3 x 1398102 = 4194306 > 2^22).
void TestCheckedArithmetic::largestValidGemmEvaluatesExactly()
{
    auto project = [](const std::string& k) {
        return "nestor: 1\n" + kArch +
               "workloads:\n"
               "  - {name: g, type: gemm, M: 1048576, N: 1048576, K: " + k + "}\n"
               "mappings:\n"
               "  - name: m\n"
               "    workload: g\n"
               "    levels:\n"
               "      - {level: DRAM, temporal: [[M, 1048576], [N, 1048576], [K, " + k + "]]}\n";
    };
    const Project p = parseProject(project("1398101"), "p.yaml");
    const Evaluation ev = evaluateFirstMapping(p);
    QVERIFY2(ev.valid, ev.errors.empty() ? "" : ev.errors.front().toString().c_str());
    const std::int64_t macs = std::int64_t{1537228306305253376};  // 2^40 x 1398101
    QCOMPARE(macs, k2to40 * 1398101);
    QCOMPARE(ev.macs, macs);
    QCOMPARE(ev.compute_cycles, macs);  // one MAC
    QCOMPARE(ev.cycles, macs);          // no bandwidth limits
    // GLB holds one word of each tensor; K innermost: A[m][k] and B[k][n] change every step
    // (one DRAM read each per MAC), Outputs[m][n] leaves the GLB once per (m, n).
    QCOMPARE(stats(ev, 0, "A").reads, macs);
    QCOMPARE(stats(ev, 0, "B").reads, macs);
    QCOMPARE(stats(ev, 1, "A").fills, macs);
    QCOMPARE(stats(ev, 0, "Outputs").updates, k2to40);
    QCOMPARE(stats(ev, 1, "Outputs").updates, macs);  // one per MAC

    const std::string over = project("1398102");
    const Diagnostic d = projectError(over);
    QCOMPARE(QString::fromStdString(d.field), QStringLiteral("workloads[0].tensors"));
    CHECK_CONTAINS(d.message, "the access bounds of the tensors (A 1.54e+18 + B 1.54e+18 + Outputs 1.54e+18) add up to 4.61e+18");
    CHECK_AT(d, "p.yaml", over, "{name: g");
}

// cycles = compute cycles / slowdown; with 1e-300 words per cycle that is about 1e300, which a
// cast to int64 would have made undefined.
void TestCheckedArithmetic::bandwidthCannotStretchCyclesPastTheLimit()
{
    const std::string text = replaced("nestor: 1\n" + kArch, "size_words: 1024", "size_words: 1024, read_bw: 1.0e-300") +
                             "workloads:\n"
                             "  - {name: g, type: gemm, M: 4, N: 1, K: 1}\n"
                             "mappings:\n"
                             "  - {name: m, workload: g, levels: [{level: GLB, temporal: [[M, 4]]}]}\n";
    const Evaluation ev = evaluateFirstMapping(parseProject(text, "p.yaml"));
    QVERIFY(!ev.valid);
    QCOMPARE(QString::fromStdString(ev.errors.front().field), QStringLiteral("architecture.levels[1]"));
    CHECK_CONTAINS(ev.errors.front().message, "the bandwidth of GLB stretches the cycles to ");
    CHECK_CONTAINS(ev.errors.front().message, "which exceeds 2^62 - 1");
    QCOMPARE(ev.levels[1].cycles, kCountLimit);
}

// word_bits is an int: 2^32 + 16 used to become 16 without a word.
void TestCheckedArithmetic::intFieldsAreNotTruncated()
{
    const std::string text = replaced("nestor: 1\n" + kArch, "size_words: 1024", "size_words: 1024, word_bits: 4294967312");
    const Diagnostic d = projectError(text);
    QCOMPARE(QString::fromStdString(d.message), QStringLiteral("word_bits must be at most 2147483647"));
    CHECK_AT(d, "p.yaml", text, "4294967312");
}

// A 29-digit factor in a constraint string used to end in "internal error: stoll".
void TestCheckedArithmetic::constraintFactorsAreRangeChecked()
{
    const std::string text = "nestor: 1\n" + kArch +
                             "workloads:\n"
                             "  - {name: g, type: gemm, M: 4, N: 1, K: 1}\n"
                             "constraints:\n"
                             "  - {target: GLB, type: temporal, factors: \"M=12345678901234567890123456789\"}\n";
    const Diagnostic d = projectError(text);
    QCOMPARE(QString::fromStdString(d.message),
             QStringLiteral("'M=12345678901234567890123456789': the factor exceeds 2^62 - 1"));
    CHECK_AT(d, "p.yaml", text, "\"M=1234");
    // 2^62 - 1 is the largest factor a constraint may name.
    QCOMPARE(parseProject(replaced(text, "12345678901234567890123456789", "4611686018427387903"), "p.yaml").constraints.size(),
             std::size_t{1});
}

// The same checks on Timeloop reference cases (read with their own reader).
void TestCheckedArithmetic::referenceCaseSizesAreChecked()
{
    const std::string path = std::string(NESTOR_TEST_DATA_DIR) + "/timeloop/cases/ispass20-00-conv1d-1level.yaml";
    std::ifstream in(path);
    QVERIFY2(in.good(), path.c_str());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string base = ss.str();
    QVERIFY(parseReferenceCase(base, "case.yaml").mapping.levels.size() == 1);  // the unedited case reads

    // R = P = 2^32: 2^64 MACs wrapped to 0.
    const std::string dims = replaced(base, "dimensions: {R: 3, P: 16}", "dimensions: {R: 4294967296, P: 4294967296}");
    const Diagnostic d1 = referenceCaseError(dims);
    QCOMPARE(QString::fromStdString(d1.field), QStringLiteral("workload.dimensions"));
    CHECK_CONTAINS(d1.message, "R x P = 4294967296 x 4294967296 = 1.84e+19 MACs, which exceeds 2^62 - 1");
    CHECK_AT(d1, "case.yaml", dims, "{R: 4294967296");

    // P = 16 as (2^60 + 1) x 16: covered 1 + 2^60 x 16 + 15 wraps to exactly 16.
    const std::string loops = replaced(base, "temporal: [[P, 16], [R, 3]]", "temporal: [[P, 1152921504606846977], [P, 16], [R, 3]]");
    const Diagnostic d2 = referenceCaseError(loops);
    QCOMPARE(QString::fromStdString(d2.field), QStringLiteral("mapping.factors.P"));
    CHECK_CONTAINS(d2.message, "factors of P (1152921504606846977 x 16) multiply to 1.84e+19, which exceeds 2^62 - 1");
    QCOMPARE(QString::fromStdString(d2.location.file), QStringLiteral("case.yaml"));
    QCOMPARE(d2.location.line, positionOf(loops, "mapping:\n").first + 1);  // the mapping's map

    // A mesh whose X x Y wraps: 2^32 x 2^32 == 0 used to be compared with instances.
    const std::string mesh = replaced(base, "instances: 1\n    mesh: [1, 1]", "instances: 1\n    mesh: [4294967296, 4294967296]");
    const Diagnostic d3 = referenceCaseError(mesh);
    CHECK_CONTAINS(d3.message, "mesh 4294967296 x 4294967296 does not match instances (1)");
}

QTEST_GUILESS_MAIN(TestCheckedArithmetic)
#include "tst_checked_arithmetic.moc"
