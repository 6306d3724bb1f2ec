// nestor-fuzz: mutation fuzzing of nestor-cli's loaders and commands (see tests/fuzz/README.md).
//   nestor-fuzz campaign --cli PATH --source DIR [--inputs N] [--seed S] [--first I] [--jobs J]
//                        --findings DIR [--work DIR] [--targets a,b] [--timeout SEC]
//                        [--rlimit-as-mb MB] [--max-rss-mb MB] [--keep K]
//   nestor-fuzz replay --cli PATH [--work DIR] [limits] REGRESSION_DIR...
//   nestor-fuzz self-test [--work DIR]
// Exit status: 0 when every input passes the oracle, 1 when some fail, 2 on bad usage.
#include "Campaign.h"
#include "Replay.h"
#include "SelfTest.h"
#include "Targets.h"

#include <filesystem>
#include <iostream>
#include <map>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace nestor::fuzz;

namespace {

int usage(const std::string& msg)
{
    std::cerr << "nestor-fuzz: " << msg << "\n"
              << "usage: nestor-fuzz campaign --cli PATH --source DIR [--inputs N] [--seed S] [--first I] [--jobs J]\n"
              << "                   --findings DIR [--work DIR] [--targets a,b] [--timeout SEC]\n"
              << "                   [--rlimit-as-mb MB] [--max-rss-mb MB] [--keep K]\n"
              << "       nestor-fuzz replay --cli PATH [--work DIR] [limits] DIR...\n"
              << "       nestor-fuzz self-test [--work DIR]\n"
              << "targets:";
    for (const auto& t : allTargets()) std::cerr << " " << t.name;
    std::cerr << "\n";
    return 2;
}

std::vector<std::string> splitComma(const std::string& s)
{
    std::vector<std::string> v;
    std::size_t b = 0;
    for (std::size_t e; (e = s.find(',', b)) != std::string::npos; b = e + 1) v.push_back(s.substr(b, e - b));
    if (b < s.size()) v.push_back(s.substr(b));
    return v;
}

std::string defaultWork() { return (fs::temp_directory_path() / ("nestor-fuzz-" + std::to_string(getpid()))).string(); }

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) return usage("missing mode");
    const std::string mode = argv[1];
    if (mode == "alloc-child" && argc == 3) return allocateChild(std::stol(argv[2]));

    std::map<std::string, std::string> opt;
    std::vector<std::string> positional;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--", 0) == 0) {
            if (i + 1 >= argc) return usage(a + " needs a value");
            opt[a.substr(2)] = argv[++i];
        } else {
            positional.push_back(a);
        }
    }
    try {
        Limits limits;
        if (opt.count("timeout")) limits.timeoutSeconds = std::stod(opt["timeout"]);
        if (opt.count("rlimit-as-mb")) limits.addressSpaceMB = std::stol(opt["rlimit-as-mb"]);
        if (opt.count("max-rss-mb")) limits.maxRssMB = std::stol(opt["max-rss-mb"]);
        const std::string work = opt.count("work") ? opt["work"] : defaultWork();

        int rc = 0;
        if (mode == "self-test") {
            rc = selfTest(fs::canonical("/proc/self/exe").string(), work) == 0 ? 0 : 1;
        } else if (mode == "campaign") {
            if (!opt.count("cli") || !opt.count("source") || !opt.count("findings"))
                return usage("campaign needs --cli, --source and --findings");
            CampaignOptions o;
            o.cli = fs::absolute(opt["cli"]).string();
            o.sourceDir = fs::absolute(opt["source"]).string();
            o.workDir = work;
            o.findingsDir = fs::absolute(opt["findings"]).string();
            if (opt.count("inputs")) o.inputs = std::stoull(opt["inputs"]);
            if (opt.count("seed")) o.seed = std::stoull(opt["seed"]);
            if (opt.count("first")) o.firstInput = std::stoull(opt["first"]);
            if (opt.count("jobs")) o.jobs = static_cast<unsigned>(std::stoul(opt["jobs"]));
            if (opt.count("keep")) o.keepPerSignature = std::stoull(opt["keep"]);
            if (opt.count("targets")) o.targets = splitComma(opt["targets"]);
            o.limits = limits;
            const std::size_t failing = runCampaign(o);
            if (failing) std::cout << "Reproducers: " << o.findingsDir << "\n";
            rc = failing == 0 ? 0 : 1;
        } else if (mode == "replay") {
            if (!opt.count("cli") || positional.empty()) return usage("replay needs --cli and at least one folder");
            rc = replay(fs::absolute(opt["cli"]).string(), positional, work, limits) == 0 ? 0 : 1;
        } else {
            return usage("unknown mode '" + mode + "'");
        }
        if (!opt.count("work")) fs::remove_all(work);  // scratch of this run only; findings live elsewhere
        return rc;
    } catch (const std::exception& e) {
        std::cerr << "nestor-fuzz: " << e.what() << "\n";
        return 2;
    }
}
