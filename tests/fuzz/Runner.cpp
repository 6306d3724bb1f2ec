#include "Runner.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace nestor::fuzz {

namespace {

std::string readCapped(const std::string& path, std::size_t cap)
{
    std::ifstream f(path, std::ios::binary);
    std::string s(cap, '\0');
    f.read(s.data(), static_cast<std::streamsize>(cap));
    s.resize(static_cast<std::size_t>(f.gcount()));
    s.shrink_to_fit();
    return s;
}

long residentKB(pid_t pid)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/statm");
    long size = 0, resident = 0;
    if (!(f >> size >> resident)) return 0;
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

} // namespace

std::string signalName(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGBUS: return "SIGBUS";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    default: return "signal " + std::to_string(sig);
    }
}

RunResult runProcess(const std::string& program, const std::vector<std::string>& args, const std::string& cwd,
                     const Limits& limits)
{
    RunResult res;
    const std::string outPath = cwd + "/.stdout", errPath = cwd + "/.stderr";
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) return res;
    if (pid == 0) {
        // Child: only async-signal-safe calls until exec (the harness may be multi-threaded).
        setpgid(0, 0);
        if (chdir(cwd.c_str()) != 0) _exit(126);
        const int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int in = open("/dev/null", O_RDONLY);
        if (out < 0 || err < 0 || in < 0) _exit(126);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        if (limits.addressSpaceMB > 0) {
            const rlim_t bytes = static_cast<rlim_t>(limits.addressSpaceMB) * 1024 * 1024;
            struct rlimit rl{bytes, bytes};
            setrlimit(RLIMIT_AS, &rl);
        }
        struct rlimit core{0, 0};  // a crash is reported by its signal; no core files in the tree
        setrlimit(RLIMIT_CORE, &core);
        execv(program.c_str(), argv.data());
        _exit(127);
    }
    setpgid(pid, pid);  // also from the parent, so the kill below cannot race the child's own call
    res.started = true;
    int status = 0;
    struct rusage ru{};
    for (int poll = 0;; ++poll) {
        const pid_t w = wait4(pid, &status, WNOHANG, &ru);
        if (w == pid) break;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!res.timedOut && !res.rssExceeded) {
            if (elapsed > limits.timeoutSeconds) res.timedOut = true;
            else if (limits.maxRssMB > 0 && poll % 4 == 0 && residentKB(pid) > limits.maxRssMB * 1024) res.rssExceeded = true;
            if (res.timedOut || res.rssExceeded) kill(-pid, SIGKILL);
        }
        // Short polls first: most runs take milliseconds.
        std::this_thread::sleep_for(std::chrono::microseconds(poll < 100 ? 500 : 5000));
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    res.peakRssKB = ru.ru_maxrss;
    if (WIFSIGNALED(status)) {
        res.signaled = true;
        res.signal = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        res.exitCode = WEXITSTATUS(status);
        if (res.exitCode == 127 || res.exitCode == 126) res.started = false;
    }
    res.out = readCapped(outPath, 256 * 1024);
    res.err = readCapped(errPath, 256 * 1024);
    unlink(outPath.c_str());
    unlink(errPath.c_str());
    return res;
}

} // namespace nestor::fuzz
