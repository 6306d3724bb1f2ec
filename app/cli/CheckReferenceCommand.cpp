#include "CheckReferenceCommand.h"

#include "ExitCodes.h"
#include "io/ReferenceCase.h"
#include "io/ReferenceCheck.h"
#include "model/Model.h"

#include <algorithm>
#include <iomanip>

namespace nestor::cli {

namespace {

void printResult(std::ostream& out, const ReferenceCase& rc, const CheckResult& res, bool failuresOnly)
{
    out << "== " << rc.name << " (" << rc.path << ")\n";
    if (!rc.title.empty()) out << "   " << rc.title << "\n";
    std::size_t wf = 5, we = 8, wg = 3, shown = 0;
    for (const auto& r : res.rows) {
        if (failuresOnly && r.pass) continue;
        ++shown;
        wf = std::max(wf, r.field.size());
        we = std::max(we, r.expected.size());
        wg = std::max(wg, r.got.size());
    }
    if (shown > 0)
        out << std::left << "  " << std::setw(4) << "" << "  " << std::setw(static_cast<int>(wf)) << "field" << "  "
        << std::setw(static_cast<int>(we)) << "expected" << "  " << std::setw(static_cast<int>(wg)) << "got"
        << "  source\n";
    for (const auto& r : res.rows) {
        if (failuresOnly && r.pass) continue;
        out << std::left << "  " << std::setw(4) << (r.pass ? "ok" : "FAIL") << "  " << std::setw(static_cast<int>(wf)) << r.field
            << "  " << std::setw(static_cast<int>(we)) << r.expected << "  " << std::setw(static_cast<int>(wg)) << r.got
            << "  " << r.source << "\n";
    }
    const int fails = res.failures();
    if (res.pass)
        out << rc.name << ": PASS (" << res.rows.size() << " fields)\n\n";
    else if (!res.mappingValid)
        out << rc.name << ": FAIL (invalid mapping)\n\n";
    else
        out << rc.name << ": FAIL (" << fails << " of " << res.rows.size() << " fields differ)\n\n";
}

} // namespace

int runCheckReference(const CheckReferenceOptions& opt, std::ostream& out, std::ostream& err)
{
    ModelOptions mo;
    mo.legacyZeroTranslationRule = opt.legacyZeroTranslation;
    int passed = 0, failed = 0, unreadable = 0;
    for (const auto& file : opt.files) {
        ReferenceCase rc;
        try {
            rc = readReferenceCase(file);
        } catch (const NestorError& e) {
            err << e.what() << "\n";
            ++unreadable;
            continue;
        }
        const Evaluation ev = evaluate(rc.workload, rc.architecture, rc.mapping, mo);
        const CheckResult res = checkReference(rc, ev);
        printResult(out, rc, res, opt.failuresOnly);
        ++(res.pass ? passed : failed);
    }
    if (opt.files.size() > 1) {
        out << "Summary: " << passed << " of " << opt.files.size() << " cases pass";
        if (failed) out << ", " << failed << " fail";
        if (unreadable) out << ", " << unreadable << " unreadable";
        out << "\n";
    }
    if (unreadable) return kExitInput;
    return failed ? kExitCheckFailed : kExitOk;
}

} // namespace nestor::cli
