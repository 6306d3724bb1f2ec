#include "Replay.h"

#include "Files.h"
#include "Oracle.h"

#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace nestor::fuzz {

namespace {

// `command` is one line of whitespace-separated arguments, optionally 'single-quoted'.
std::vector<std::string> parseCommand(const std::string& text)
{
    std::vector<std::string> args;
    std::string cur;
    bool quoted = false, any = false;
    for (char c : text) {
        if (quoted) {
            if (c == '\'') quoted = false;
            else cur += c;
        } else if (c == '\'') {
            quoted = any = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (any) args.push_back(cur);
            cur.clear();
            any = false;
        } else {
            cur += c;
            any = true;
        }
    }
    if (any) args.push_back(cur);
    return args;
}

} // namespace

std::size_t replay(const std::string& cli, const std::vector<std::string>& dirs, const std::string& workDir,
                   const Limits& limits)
{
    std::size_t failing = 0;
    for (const auto& d : dirs) {
        const auto args = parseCommand(readFile(fs::path(d) / "command"));
        const fs::path work = fs::path(workDir) / fs::path(d).filename();
        resetDir(work);
        copyTree(d, work);
        const RunResult r = runProcess(cli, args, work.string(), limits);
        const auto f = judge(r, limits);
        std::cout << (f ? "FAIL " : "ok   ") << d << ": nestor-cli " << shellJoin(args) << " -> "
                  << (r.signaled ? signalName(r.signal) : "exit " + std::to_string(r.exitCode)) << " in " << r.seconds << " s, "
                  << r.peakRssKB / 1024 << " MB\n";
        if (f) {
            ++failing;
            std::cout << "     " << f->kind << ": " << f->detail << "\n";
            std::istringstream err(r.err);
            int shown = 0;
            for (std::string l; std::getline(err, l) && shown < 10; ++shown) std::cout << "     | " << l << "\n";
        }
    }
    return failing;
}

} // namespace nestor::fuzz
