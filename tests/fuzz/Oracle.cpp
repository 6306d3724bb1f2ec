#include "Oracle.h"

#include <cctype>
#include <regex>
#include <sstream>

namespace nestor::fuzz {

namespace {

std::vector<std::string> lines(const std::string& s)
{
    std::vector<std::string> v;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) {
        if (!l.empty() && l.back() == '\r') l.pop_back();
        v.push_back(l);
    }
    return v;
}

bool blank(const std::string& l) { return l.find_first_not_of(" \t") == std::string::npos; }
bool indented(const std::string& l) { return !l.empty() && (l[0] == ' ' || l[0] == '\t'); }

std::string normalized(const std::string& s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size() && out.size() < 110; ++i) {
        if (std::isdigit(static_cast<unsigned char>(s[i]))) {
            out += 'N';
            while (i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) ++i;
        } else if (static_cast<unsigned char>(s[i]) >= 0x20) {
            out += s[i];
        }
    }
    return out;
}

Finding make(std::string kind, std::string detail)
{
    Finding f{std::move(kind), std::move(detail), {}};
    f.signature = f.kind + ": " + normalized(f.detail);
    return f;
}

std::string firstLineContaining(const std::string& text, const std::string& needle)
{
    for (const auto& l : lines(text))
        if (l.find(needle) != std::string::npos) return l;
    return {};
}

} // namespace

std::vector<std::string> errorLines(const RunResult& r)
{
    std::vector<std::string> out;
    const auto err = lines(r.err);
    for (std::size_t i = 0; i < err.size(); ++i) {
        if (blank(err[i])) continue;
        const bool heading = err[i].back() == ':' && i + 1 < err.size() && indented(err[i + 1]);
        if (!heading) out.push_back(err[i]);
    }
    const auto std = lines(r.out);
    for (std::size_t i = 0; i < std.size(); ++i) {
        if (std[i] != "The mapping is INVALID:") continue;
        for (std::size_t k = i + 1; k < std.size() && indented(std[k]); ++k) out.push_back(std[k]);
    }
    return out;
}

bool isLocated(const std::string& line)
{
    static const std::regex position(R"(^[^:\s][^:]*:[1-9][0-9]*(:[1-9][0-9]*)?: )");
    static const std::regex fieldPath(R"(^([A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+|\[[^\]\s]+\])+): )");
    static const std::regex filePrefix(R"(^[^:\s]+\.(yaml|yml|json): )");
    std::string l = line.substr(std::min(line.size(), line.find_first_not_of(" \t")));
    if (l.rfind("nestor-cli: ", 0) == 0) l = l.substr(12);
    if (std::regex_search(l, position)) return true;
    // A field path, possibly after "<file>: ". A file name ("x.yaml") has the shape of a path, so
    // it is taken as the file prefix, never as the path.
    std::smatch m;
    if (std::regex_search(l, m, filePrefix)) l = m.suffix().str();
    static const std::regex fileName(R"(\.(yaml|yml|json)$)");
    return std::regex_search(l, m, fieldPath) && !std::regex_search(m[1].first, m[1].second, fileName);
}

const std::vector<std::string>& findingKinds()
{
    static const std::vector<std::string> kinds = {"crash", "uncaught-exception", "sanitizer", "timeout", "memory", "internal-error",
                                                   "bad-exit", "unlocated-error", "unexplained-invalid", "harness"};
    return kinds;
}

std::optional<Finding> judge(const RunResult& r, const Limits& limits)
{
    if (!r.started) return make("harness", "could not start the command (exit " + std::to_string(r.exitCode) + ")");
    for (const char* s : {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"}) {
        const std::string l = firstLineContaining(r.err, s);
        const bool outOfMemory = l.find("out of memory") != std::string::npos || l.find("allocation-size-too-big") != std::string::npos ||
                                 l.find("rss limit") != std::string::npos;
        if (!l.empty() && !outOfMemory) return make("sanitizer", l);
    }
    // Memory first: under RLIMIT_AS a run that wants more than the limit gets std::bad_alloc,
    // whether it is then caught ("internal error") or escapes a thread ("terminate called").
    std::string oom;
    for (const char* s : {"bad_alloc", "out of memory", "allocation-size-too-big", "rss limit"})
        if (oom.empty()) oom = firstLineContaining(r.err, s);
    if (r.rssExceeded || r.peakRssKB > limits.maxRssMB * 1024 || !oom.empty())
        return make("memory", !oom.empty() ? oom : "resident memory over " + std::to_string(limits.maxRssMB) + " MB");
    if (r.timedOut) return make("timeout", "over " + std::to_string(static_cast<int>(limits.timeoutSeconds)) + " s");
    const std::string terminate = firstLineContaining(r.err, "terminate called");
    if (!terminate.empty()) return make("uncaught-exception", terminate);
    if (r.signaled) return make("crash", signalName(r.signal));
    const std::string internal = firstLineContaining(r.err, "internal error");
    if (!internal.empty()) return make("internal-error", internal);
    if (r.exitCode < 0 || r.exitCode > 3) return make("bad-exit", "exit code " + std::to_string(r.exitCode));
    for (const auto& l : errorLines(r))
        if (!isLocated(l)) return make("unlocated-error", l);
    if (r.out.find("FAIL (invalid mapping)") != std::string::npos) {
        bool reason = false;
        // check-reference gives the reason as a row: "FAIL  mapping.factors.R  valid  invalid: ...".
        static const std::regex reasonRow(R"(^\s*FAIL\s+[A-Za-z_][A-Za-z0-9_]*(\.[^\s]+)+\s+valid\s+invalid: \S)");
        for (const auto& l : lines(r.out)) reason = reason || isLocated(l) || std::regex_search(l, reasonRow);
        for (const auto& l : lines(r.err)) reason = reason || isLocated(l);
        if (!reason) return make("unexplained-invalid", "FAIL (invalid mapping)");
    }
    return std::nullopt;
}

} // namespace nestor::fuzz
