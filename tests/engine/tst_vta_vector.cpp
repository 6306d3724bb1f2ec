// The VTA vector loader and checker (engine/sim/vta/JsonValue.h, VectorFile.h, VectorCheck.h):
// strict JSON with file:line:column errors, the format checks of FORMAT.md, and the
// comparison report (first mismatching byte, counters, token pushes).
#include "common/TextFile.h"
#include "sim/vta/JsonValue.h"
#include "sim/vta/VectorCheck.h"

#include <QtTest>

using namespace nestor;
using namespace nestor::vta;

namespace {

std::string exampleText()
{
    return readTextFile(std::string(NESTOR_TEST_DATA_DIR) + "/vta/vectors/vis_c_matmul_loops.json");
}

// The first diagnostic of parsing `text`, or "" when it parses.
std::string vectorError(const std::string& text)
{
    const VtaConfig def;
    try {
        parseVector(text, "v.json", &def);
    } catch (const NestorError& e) {
        return e.diagnostics().front().toString();
    }
    return {};
}

std::string replaced(std::string s, const std::string& from, const std::string& to)
{
    const auto at = s.find(from);
    if (at == std::string::npos) throw std::runtime_error("test setup: '" + from + "' not in the vector");
    return s.replace(at, from.size(), to);
}

} // namespace

class TestVtaVector : public QObject {
    Q_OBJECT
private slots:
    void jsonParsesStrictly()
    {
        const JsonValue v = parseJson("{\"a\": [1, -2, 3.5, true, null, \"x\\u00e9\\n\"], \"b\": {}}", "t.json");
        QCOMPARE(v.at("a", "").asArray("a").size(), std::size_t(6));
        QCOMPARE(v.at("a", "").asArray("a")[1].asInteger("a"), std::int64_t{-2});
        QCOMPARE(v.at("a", "").asArray("a")[5].asString("a"), std::string("x\xc3\xa9\n"));
        QCOMPARE(parseJson("99999999999999999999", "t").kind(), JsonValue::Kind::Real);

        auto error = [](const std::string& text) {
            try {
                parseJson(text, "t.json");
            } catch (const NestorError& e) {
                return e.diagnostics().front().toString();
            }
            return std::string();
        };
        QCOMPARE(error("{\"a\": 1,}"), std::string("t.json:1:9: expected a string key, found '}'"));
        QCOMPARE(error("{\n  \"a\": 1,\n  \"a\": 2\n}"), std::string("t.json:3:3: duplicate key 'a'"));
        QCOMPARE(error("[1 2]"), std::string("t.json:1:4: expected ',' or ']', found '2'"));
        QCOMPARE(error("{\"a\": 01}"), std::string("t.json:1:8: expected ',' or '}', found '1'"));
        QCOMPARE(error("\"tab\there\""), std::string("t.json:1:5: control character in a string, found byte 0x09"));
        QCOMPARE(error("[1] x"), std::string("t.json:1:5: unexpected text after the JSON value"));
        QCOMPARE(error("{a: 1}"), std::string("t.json:1:2: expected a string key, found 'a'"));
        QVERIFY(error(std::string(5000, '[')).find("nested deeper than 200") != std::string::npos);
        QVERIFY(error("").find("t.json:1:1: expected a JSON value") == 0);
    }

    void examplesLoadAndPass()
    {
        const VtaConfig def;
        for (const char* name : {"vis_a_acc_shr0_store", "vis_c_matmul_loops", "vis_d_shr_imm"}) {
            const ProgramVector v =
                loadVector(std::string(NESTOR_TEST_DATA_DIR) + "/vta/vectors/" + name + ".json", &def);
            QCOMPARE(v.name, std::string(name));
            const VectorCheckResult r = checkVector(v);
            QVERIFY2(r.passed(), formatReport(v, r).c_str());
        }
    }

    void mismatchesAreReportedPrecisely()
    {
        // Change the first expected output byte and one counter: the report names both.
        std::string text = exampleText();
        const std::string key = "\"hex\": \"1f42f379";
        text = replaced(text, key, "\"hex\": \"2042f379");
        text = replaced(text, "\"gemm_counter\": 8", "\"gemm_counter\": 9");
        const VtaConfig def;
        const ProgramVector v = parseVector(text, "v.json", &def);
        const VectorCheckResult r = checkVector(v);
        QVERIFY(!r.passed());
        QCOMPARE(r.mismatches.size(), std::size_t(2));
        QCOMPARE(r.mismatches[0], std::string("region 'out': first difference at offset 0 (byte address 5632, element 0 "
                                              "of 16 B, byte 0): expected 0x20, got 0x1f; 1 of 64 bytes differ"));
        QCOMPARE(r.mismatches[1], std::string("counter gemm_counter: expected 9, got 8"));
    }

    void formatProblemsAreLocated()
    {
        const std::string text = exampleText();
        QVERIFY(vectorError(text).empty());
        QCOMPARE(vectorError(replaced(text, "\"vta-fsim-vector\"", "\"other\"")).substr(0, 6), std::string("v.json"));
        QVERIFY(vectorError(replaced(text, "\"LOG_BATCH\": 0", "\"LOG_BATCH\": 1")).find("LOG_BATCH 1 (simulated: 0)") != std::string::npos);
        QVERIFY(vectorError(replaced(text, "\"LOG_OUT_WIDTH\": 3", "\"LOG_OUT_WIDTH\": 4")).find("config.LOG_OUT_WIDTH") != std::string::npos);
        QVERIFY(vectorError(replaced(text, "\"elem_bytes\": 16", "\"elem_bytes\": 32")).find("dram.regions[0].elem_bytes") != std::string::npos);
        QVERIFY(vectorError(replaced(text, "\"compute\": 4", "\"compute\": 5")).find("program.module_insn_counts.compute") != std::string::npos);
        QVERIFY(vectorError(replaced(text, "\"start\": 4096", "\"start\": 8192")).find("dram.end: must be larger") != std::string::npos);
        QVERIFY(vectorError(replaced(text, "\"02c0a828\"", "\"02c0a829\"")).find("dram.regions[2].uops[2]: differs") != std::string::npos);
        const std::string e = vectorError(replaced(text, "\"00510000040000000200020002000000\"", "\"0051\""));
        QVERIFY2(e.find("program.insns[0]: an instruction is 32 hex digits") != std::string::npos, e.c_str());
        QVERIFY(vectorError(replaced(text, "\"name\": \"out\",\n    \"byte_addr\"", "\"name\": \"other\",\n    \"byte_addr\""))
                    .find("expected.dram[0]: no dram region 'other'") != std::string::npos);
        // The file's own location: line:column of the offending value.
        const std::string loc = vectorError(replaced(text, "\"version\": 1", "\"version\": 2"));
        QVERIFY2(loc.rfind("v.json:", 0) == 0 && loc.find(": version: unsupported version 2") != std::string::npos, loc.c_str());
    }
};

QTEST_APPLESS_MAIN(TestVtaVector)
#include "tst_vta_vector.moc"
