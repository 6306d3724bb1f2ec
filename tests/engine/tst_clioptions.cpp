// nestor-cli's numeric options: out-of-range or malformed values are usage errors naming the
// option, never an exception without a location or a silent truncation (issue 9). The parser is
// compiled into the executable only, so this test compiles its source directly.
#include "../../app/cli/CliOptions.cpp"

#include "common/Error.h"
#include "search/ArchitectureSweep.h"

#include <QtTest/QtTest>

using namespace nestor;
using namespace nestor::cli;

namespace {

// The UsageError message of parsing `search p.yaml OPTION VALUE`; empty when it parses.
std::string searchError(const std::string& option, const std::string& value, Command* parsed = nullptr)
{
    try {
        const Command c = parseCommandLine({"search", "p.yaml", option, value});
        if (parsed) *parsed = c;
    } catch (const UsageError& e) {
        return e.what();
    }
    return {};
}

std::string arrayError(const std::string& text)
{
    try {
        parsePeArraySize(text);
    } catch (const NestorError& e) {
        return e.diagnostics().front().field + ": " + e.diagnostics().front().message;
    }
    return {};
}

} // namespace

class TestCliOptions : public QObject {
    Q_OBJECT
private slots:
    void numbersInRange();
    void numbersOutOfRange();
    void malformedNumbers();
    void peArraySizes();
};

void TestCliOptions::numbersInRange()
{
    Command c;
    QCOMPARE(searchError("--threads", "256", &c), std::string());
    QCOMPARE(c.search.threads, 256);
    QCOMPARE(searchError("--budget", "9223372036854775807", &c), std::string());  // 2^63 - 1
    QCOMPARE(c.search.budget, 9223372036854775807LL);
    QCOMPARE(searchError("--seed", "0", &c), std::string());
    QCOMPARE(c.search.seed, 0ULL);
    QCOMPARE(searchError("--victory", "0", &c), std::string());
    QCOMPARE(c.search.victory, 0LL);
}

void TestCliOptions::numbersOutOfRange()
{
    // 2^32 + 1 used to become 1 thread through a cast to int.
    QCOMPARE(searchError("--threads", "4294967297"),
             std::string("option --threads is out of range: it needs an integer from 1 to 256 (got '4294967297')"));
    QCOMPARE(searchError("--threads", "0"),
             std::string("option --threads is out of range: it needs an integer from 1 to 256 (got '0')"));
    // 29 digits, and 2^63: beyond 64 bits / the type.
    QCOMPARE(searchError("--seed", "12345678901234567890123456789"),
             std::string("option --seed is out of range: it needs an integer from 0 to 9223372036854775807 "
                         "(got '12345678901234567890123456789')"));
    QCOMPARE(searchError("--budget", "9223372036854775808"),
             std::string("option --budget is out of range: it needs an integer from 0 to 9223372036854775807 "
                         "(got '9223372036854775808')"));
    QCOMPARE(searchError("--timeout", "-1"),
             std::string("option --timeout is out of range: it needs an integer from 0 to 9223372036854775807 (got '-1')"));
    QVERIFY(searchError("--search-size", "99999999999999999999").find("option --search-size is out of range") == 0);
}

void TestCliOptions::malformedNumbers()
{
    for (const char* v : {"", "2x", " 2", "2 ", "+2", "0x10", "1e3", "two"})
        QCOMPARE(searchError("--threads", v),
                 "option --threads needs an integer from 1 to 256 (got '" + std::string(v) + "')");
    QCOMPARE(searchError("--victory", "5.0"), std::string("option --victory needs an integer >= 0 (got '5.0')"));
}

void TestCliOptions::peArraySizes()
{
    QCOMPARE(parsePeArraySize("14x12").x, std::int64_t(14));
    QCOMPARE(parsePeArraySize("14x12").y, std::int64_t(12));
    QCOMPARE(arrayError("14by12"), std::string("arrays: array size '14by12' is not XxY (e.g. 14x12)"));
    QCOMPARE(arrayError("3x4x5"), std::string("arrays: array size '3x4x5' is not XxY (e.g. 14x12)"));
    QCOMPARE(arrayError("-3x4"), std::string("arrays: array size '-3x4' is not XxY (e.g. 14x12)"));
    QCOMPARE(arrayError("0x4"), std::string("arrays: array size '0x4': X and Y must be at least 1"));
    // Beyond 64 bits (sscanf's %lld was undefined there), and X*Y at 2^64.
    QCOMPARE(arrayError("99999999999999999999999x2"),
             std::string("arrays: array size '99999999999999999999999x2' is too large (X x Y PEs must stay below 2^62)"));
    QCOMPARE(arrayError("4294967296x4294967296"),
             std::string("arrays: array size '4294967296x4294967296' is too large (X x Y PEs must stay below 2^62)"));
    // 2^31 x 2^30 = 2^61 PEs is still a count.
    QCOMPARE(parsePeArraySize("2147483648x1073741824").y, std::int64_t(1073741824));
}

QTEST_APPLESS_MAIN(TestCliOptions)
#include "tst_clioptions.moc"
