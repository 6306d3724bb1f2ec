// YAML 1.1 merge keys applied by the readers' parser (io/YamlMerge.h through yamlio::parseText).
// Truth: the merge-key rules of the YAML 1.1 type repository (yaml.org/type/merge.html) and
// PyYAML's behaviour on them, applied by hand to the test's own YAML text; positions counted in it.
// (A whole Timeloop design written with merge keys is imported against its reference case in
// tst_timeloop_import.)
#include "io/YamlUtil.h"
#include "support/LocatedErrors.h"

#include <QtTest/QtTest>

#include <string>
#include <vector>

using namespace nestor;

namespace {

YAML::Node parse(const std::string& text)
{
    return yamlio::parseText(text, "t.yaml");
}

std::vector<std::string> keysOf(const YAML::Node& map)
{
    std::vector<std::string> keys;
    for (auto it = map.begin(); it != map.end(); ++it) keys.push_back(it->first.Scalar());
    return keys;
}

void expectError(const std::string& text, int line, int column, const std::string& message)
{
    test::expectLocatedError(text, [&] { parse(text); }, "t.yaml", line, column, message);
}

} // namespace

class TestYamlMergeKeys : public QObject {
    Q_OBJECT
private slots:
    // The yaml.org example: four maps that all read {x: 1, y: 2, r: 10, label: center/big}.
    void specificationExample()
    {
        const YAML::Node n = parse("- &CENTER { x: 1, y: 2 }\n"
                                   "- &LEFT { x: 0, y: 2 }\n"
                                   "- &BIG { r: 10 }\n"
                                   "- &SMALL { r: 1 }\n"
                                   "- x: 1\n  y: 2\n  r: 10\n  label: center/big\n"
                                   "- << : *CENTER\n  r: 10\n  label: center/big\n"
                                   "- << : [ *CENTER, *BIG ]\n  label: center/big\n"
                                   "- << : [ *BIG, *LEFT, *SMALL ]\n  x: 1\n  label: center/big\n");
        for (std::size_t i = 4; i < 8; ++i) {
            const YAML::Node m = n[i];
            QCOMPARE(m.size(), std::size_t(4));
            QCOMPARE(m["x"].as<int>(), 1);
            QCOMPARE(m["y"].as<int>(), 2);
            QCOMPARE(m["r"].as<int>(), 10);
            QCOMPARE(m["label"].as<std::string>(), std::string("center/big"));
            QVERIFY(!m["<<"]);
        }
    }

    // The merged entries take the merge key's place; the map's own keys keep theirs.
    void orderAndPositions()
    {
        const YAML::Node n = parse("base: &b {p: 1, q: 2}\n"
                                   "m:\n"
                                   "  first: 0\n"
                                   "  <<: *b\n"
                                   "  q: 3\n");
        const std::vector<std::string> want{"first", "p", "q"};
        QCOMPARE(keysOf(n["m"]), want);
        QCOMPARE(n["m"]["q"].as<int>(), 3);
        QCOMPARE(n["m"].Mark().line, 2);  // the map itself keeps its place (0-based line 2)
        QCOMPARE(n["m"]["p"].Mark().line, 0);  // a merged value is the anchor's node
        QCOMPARE(n["m"]["p"].Mark().column, 13);
    }

    // A merged map may merge itself; its merges are applied before it is merged.
    void nestedMerges()
    {
        const YAML::Node n = parse("a: &a {k: 1}\n"
                                   "b: &b {<<: *a, l: 2}\n"
                                   "c: {<<: *b, m: 3}\n");
        QCOMPARE(n["c"]["k"].as<int>(), 1);
        QCOMPARE(n["c"]["l"].as<int>(), 2);
        QCOMPARE(n["c"]["m"].as<int>(), 3);
        QCOMPARE(n["b"].size(), std::size_t(2));
    }

    // A quoted "<<" is an ordinary key.
    void quotedKeyIsOrdinary()
    {
        const YAML::Node n = parse("a: &a {k: 1}\nb: {\"<<\": *a}\n");
        QVERIFY(n["b"]["<<"].IsMap());
        QVERIFY(!n["b"]["k"]);
    }

    // A tree where each level aliases the one below ten times over: eight levels hold 10^8
    // paths, and each shared node is resolved once, so this parse ends.
    void sharedNodesOnce()
    {
        std::string text = "l0: &l0 {<<: {v: 1}}\n";
        for (int i = 1; i <= 8; ++i) {
            text += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
            for (int j = 0; j < 10; ++j) text += std::string(j ? ", " : "") + "*l" + std::to_string(i - 1);
            text += "]\n";
        }
        const YAML::Node n = parse(text);
        QCOMPARE(n["l8"][9][9][9][9][9][9][9][9]["v"].as<int>(), 1);
    }

    void badMergeValues()
    {
        expectError("a:\n  <<: 3\n", 2, 3, "takes a map or a list of maps");
        expectError("x: &x [1]\na:\n  <<: [{k: 1}, *x]\n", 3, 3, "item 2 is not a map");
    }
};

QTEST_APPLESS_MAIN(TestYamlMergeKeys)
#include "tst_yaml_merge_keys.moc"
