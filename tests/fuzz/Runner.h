#pragma once
// Runs one nestor-cli invocation as a child process under limits: a wall-clock timeout (the whole
// process group is killed), an address-space limit (RLIMIT_AS; off under the sanitizers, whose
// shadow memory needs terabytes of address space) and a resident-memory watchdog, with the peak
// RSS measured by wait4.
#include <string>
#include <vector>

namespace nestor::fuzz {

struct Limits {
    double timeoutSeconds = 10.0;
    long addressSpaceMB = 1024;  // RLIMIT_AS of the child; 0 = none
    long maxRssMB = 1024;        // the child is killed when its resident set exceeds this
};

struct RunResult {
    bool started = false;      // false: fork or exec failed (the harness's own problem)
    int exitCode = -1;         // valid when !signaled
    bool signaled = false;
    int signal = 0;
    bool timedOut = false;     // killed by the harness: wall time over the limit
    bool rssExceeded = false;  // killed by the harness: resident memory over the limit
    double seconds = 0;
    long peakRssKB = 0;
    std::string out, err;      // first 256 KiB of each
};

// Runs `program args...` with the working directory `cwd`.
RunResult runProcess(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
                     const Limits& limits);

std::string signalName(int sig);

} // namespace nestor::fuzz
