// Timeloop's libconfig inputs read as YAML trees (io/LibconfigText.h). Truth: values written in
// the test's libconfig text and read back from the YAML tree; the lines and columns of the
// errors counted in the test's own text. (The import of a whole .cfg design against a Timeloop
// reference case is in tst_timeloop_import.)
#include "io/LibconfigText.h"
#include "support/LocatedErrors.h"

#include <yaml-cpp/yaml.h>

#include <QtTest/QtTest>

#include <string>

using namespace nestor;

namespace {

YAML::Node read(const std::string& cfg)
{
    return YAML::Load(libconfigToYaml(cfg, "t.cfg"));
}

// The translation fails with a message holding `message`, located at line:column.
void expectError(const std::string& cfg, int line, int column, const std::string& message)
{
    test::expectLocatedError(cfg, [&] { libconfigToYaml(cfg, "t.cfg"); }, "t.cfg", line, column, message);
}

} // namespace

class TestLibconfigText : public QObject {
    Q_OBJECT
private slots:
    void settingsListsAndArrays()
    {
        const YAML::Node n = read("a = 1; b : -2.5e3,\n"
                                  "grp = { x = \"s\"; y = [ 1, 2, 3 ]; z = ( { k = true; }, \"two\", [] ) }\n"
                                  "last = FALSE");
        QCOMPARE(n["a"].as<int>(), 1);
        QCOMPARE(n["b"].as<double>(), -2500.0);
        QCOMPARE(n["grp"]["x"].as<std::string>(), std::string("s"));
        QCOMPARE(n["grp"]["y"].size(), std::size_t{3});
        QCOMPARE(n["grp"]["y"][2].as<int>(), 3);
        QCOMPARE(n["grp"]["z"][0]["k"].as<bool>(), true);
        QCOMPARE(n["grp"]["z"][1].as<std::string>(), std::string("two"));
        QCOMPARE(n["grp"]["z"][2].size(), std::size_t{0});
        QCOMPARE(n["last"].as<bool>(), false);
    }

    void numbersStringsAndNames()
    {
        const YAML::Node n = read("h = 0x1F; big = 262144L; huge = 9000000000LL; neg = -0x10; f = .5; e = 1E3;\n"
                                  "word-bits = 8; *star = 1;\n"
                                  "s = \"a\\\"b\\\\c\\x41\\t\"; j = \"ab\" \"cd\"\n\"ef\"; n = \"true\";");
        QCOMPARE(n["h"].as<long long>(), 31LL);
        QCOMPARE(n["big"].as<long long>(), 262144LL);
        QCOMPARE(n["huge"].as<long long>(), 9000000000LL);
        QCOMPARE(n["neg"].as<long long>(), -16LL);
        QCOMPARE(n["f"].as<double>(), 0.5);
        QCOMPARE(n["e"].as<double>(), 1000.0);
        QCOMPARE(n["word-bits"].as<int>(), 8);
        QCOMPARE(n["*star"].as<int>(), 1);
        QCOMPARE(n["s"].as<std::string>(), std::string("a\"b\\cA\t"));
        QCOMPARE(n["j"].as<std::string>(), std::string("abcdef"));
        QCOMPARE(n["n"].as<std::string>(), std::string("true"));  // a string stays a string
    }

    // Comments are dropped and every line stays where it was: a YAML position is the .cfg one.
    void commentsAndLines()
    {
        const std::string cfg = "# hash\n"
                                "a = 1; // slashes\n"
                                "/* a block\n"
                                "   over lines */ b = 2;\n"
                                "c = \"x\"\n"
                                "    \"y\";\n"
                                "d = 4;\n"
                                "e = \"p\" /* between\n"
                                "  the parts */ \"q\" /**/ \"r\";\n"
                                "f = 6;\n";
        const YAML::Node n = read(cfg);
        QCOMPARE(n["e"].as<std::string>(), std::string("pqr"));  // joined across block comments too
        QCOMPARE(n["f"].Mark().line + 1, 10);
        QCOMPARE(n["a"].as<int>(), 1);
        QCOMPARE(n["b"].as<int>(), 2);
        QCOMPARE(n["c"].as<std::string>(), std::string("xy"));
        QCOMPARE(n["d"].Mark().line + 1, 7);
        QCOMPARE(n["b"].Mark().line + 1, 4);
    }

    void errorsAreLocated()
    {
        expectError("a = 1;\nb 2;\n", 2, 3, "'=' or ':' expected after the name 'b'");
        expectError("a = {\n  b = 1;\n", 3, 1, "a group is not closed");
        expectError("a = ( 1, 2\n", 2, 1, "a list is not closed");
        expectError("a = [ 1 2 ];", 1, 9, "',' or ']' expected");
        expectError("a = bare;", 1, 5, "'bare' is not a value");
        expectError("a = 1.5L;", 1, 5, "'1.5L' is not a value");
        expectError("a = 0x1FFFFFFFFFFFFFFFF;", 1, 5, "is not a value");
        expectError("a = \"open\nb = 1;", 1, 5, "a string is not closed");
        expectError("a = \"bad \\q\";", 1, 10, "unknown escape");
        expectError("x = 1;\n@include \"other.cfg\"\n", 2, 1, "@include is not supported");
        expectError("a = 1; /* never closed\n", 1, 8, "a /* comment is not closed");
        expectError("a = ;", 1, 5, "a value expected");
        expectError("} a = 1;", 1, 1, "a setting's name expected");
        // Nesting is bounded (both the translation and the YAML reader recurse per level).
        expectError("a = " + std::string(300, '(') + std::string(300, ')') + ";", 1, 205, "nested deeper than 200");
    }

    void cfgPathsAreLibconfig()
    {
        QVERIFY(isLibconfigPath("configs/mapper/sample.cfg"));
        QVERIFY(isLibconfigPath("A.CFG"));
        QVERIFY(!isLibconfigPath("sample.yaml"));
        QVERIFY(!isLibconfigPath("cfg"));
    }
};

QTEST_GUILESS_MAIN(TestLibconfigText)
#include "tst_libconfig_text.moc"
