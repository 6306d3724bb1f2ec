#include "SelfTest.h"

#include "Files.h"
#include "Mutator.h"
#include "Oracle.h"

#include <chrono>
#include <cstring>
#include <iostream>
#include <set>
#include <thread>
#include <vector>

namespace nestor::fuzz {

namespace {

int failures = 0;

void check(bool ok, const std::string& what)
{
    std::cout << (ok ? "ok   " : "FAIL ") << what << "\n";
    if (!ok) ++failures;
}

std::string kindOf(const std::string& program, const std::vector<std::string>& args, const std::string& work,
                   const Limits& limits)
{
    const auto f = judge(runProcess(program, args, work, limits), limits);
    return f ? f->kind : "pass";
}

std::string shellKind(const std::string& script, const std::string& work, Limits limits = {})
{
    return kindOf("/bin/sh", {"-c", script}, work, limits);
}

} // namespace

int allocateChild(long mb)
{
    const std::size_t bytes = static_cast<std::size_t>(mb) * 1024 * 1024;
    std::vector<char> p(bytes);  // freed on return: LeakSanitizer stays quiet in sanitized builds
    std::memset(p.data(), 1, bytes);
    std::this_thread::sleep_for(std::chrono::seconds(3));
    return p[bytes / 2] == 1 ? 0 : 1;
}

int selfTest(const std::string& self, const std::string& workDir)
{
    failures = 0;
    resetDir(workDir);
    const std::string w = workDir;

    check(shellKind("exit 0", w) == "pass", "a clean exit passes");
    check(shellKind("echo 'a.yaml:3:5: workloads[0].M: must be positive' >&2; exit 3", w) == "pass",
          "an error with file:line:col passes");
    check(shellKind("printf \"mapping 'm' is invalid:\\n  levels[2].size_words: too big\\n\" >&2; exit 1", w) == "pass",
          "an indented field-path reason under a heading passes");
    check(shellKind("kill -SEGV $$", w) == "crash", "SIGSEGV is a crash");
    check(shellKind("echo \"terminate called after throwing an instance of 'std::runtime_error'\" >&2; kill -ABRT $$", w) ==
              "uncaught-exception",
          "std::terminate is an uncaught exception");
    check(shellKind("echo 'nestor-cli: internal error: stoll' >&2; exit 1", w) == "internal-error", "\"internal error\" is flagged");
    check(shellKind("exit 7", w) == "bad-exit", "an undefined exit code is flagged");
    check(shellKind("echo 'something went wrong' >&2; exit 3", w) == "unlocated-error", "an error without a location is flagged");
    check(shellKind("printf 'The mapping is INVALID:\\n  GLB overflows\\n'; exit 1", w) == "unlocated-error",
          "an unlocated invalid-mapping reason on stdout is flagged");
    check(shellKind("echo 'case: FAIL (invalid mapping)'; exit 1", w) == "unexplained-invalid", "an invalid mapping without reason is flagged");
    check(shellKind("printf '  FAIL  mapping.factors.R  valid  invalid: factors of R (3) cover 3 but the bound is 6  mapping\\n"
                    "case: FAIL (invalid mapping)\\n'; exit 1", w) == "pass",
          "an invalid mapping with its reason row passes");

    Limits quick;
    quick.timeoutSeconds = 0.3;
    const auto t0 = std::chrono::steady_clock::now();
    // A child that would sleep a minute: killed at 0.3 s, the run ends long before the minute is
    // over however busy the machine is (a hang guard, not a speed check).
    check(shellKind("sleep 60", w, quick) == "timeout", "a run over the time limit is killed and flagged");
    check(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30), "the timeout kill does not wait for the child");

    Limits rss;
    rss.addressSpaceMB = 0;
    rss.maxRssMB = 100;
    check(kindOf(self, {"alloc-child", "300"}, w, rss) == "memory", "a run over the RSS limit is killed and flagged");
    // A sanitized child reserves terabytes of shadow address space at start: RLIMIT_AS would
    // kill it before main (the harness turns the limit off there, see CMakeLists.txt).
#ifdef __SANITIZE_ADDRESS__
    constexpr bool kAddressSpaceLimitUsable = false;
#else
    constexpr bool kAddressSpaceLimitUsable = true;
#endif
    if (kAddressSpaceLimitUsable) {
        Limits as;
        as.addressSpaceMB = 100;
        as.maxRssMB = 1024;
        check(kindOf(self, {"alloc-child", "300"}, w, as) == "memory", "std::bad_alloc under RLIMIT_AS is a memory finding");
    }
    Limits small;
    if (!kAddressSpaceLimitUsable) small.addressSpaceMB = 0;
    check(kindOf(self, {"alloc-child", "20"}, w, small) == "pass", "a small allocation passes");

    for (const char* l : {"x.yaml:12:3: unknown key 'foo'", "<input>:4: bad", "nestor-cli: a/b.yaml:1:1: tab in indentation",
                          "  architecture.levels[2].size_words: must be positive",
                          "x.yaml: mappings[0].levels[1].temporal: factor 0", "nestor-cli: constraints[3].factors: bad"})
        check(isLocated(l), std::string("located: ") + l);
    for (const char* l : {"nestor-cli: internal error: stoll", "error: bad", "x.yaml: the project has no mappings",
                          "x.yaml:0: bad", "GLB overflows", "no valid mapping"})
        check(!isLocated(l), std::string("not located: ") + l);

    const std::string sample = "workloads:\n  - {name: c, type: conv, M: 16, C: 8, P: 7}\nconstraints:\n"
                               "  - {target: GLB, type: temporal, factors: \"R=1 S=1\"}\nlevels: [[Q, 4], [C, 4]]\n"
                               "insns: [\"00ff10a0c3d4e5f6\"]\n";
    Random a(42), b(42);
    const auto ma = mutate(sample, {sample}, a), mb = mutate(sample, {sample}, b);
    check(ma.text == mb.text && ma.applied == mb.applied, "the mutator is deterministic in its seed");
    std::set<std::string> seen;
    for (std::uint64_t s = 0; s < 3000; ++s) {
        Random r(s);
        for (const auto& n : mutate(sample, {sample}, r).applied) seen.insert(n.substr(0, n.find('(')));
    }
    for (const auto& n : mutationNames()) check(seen.count(n) == 1, "mutation " + n + " applies");
    return failures;
}

} // namespace nestor::fuzz
