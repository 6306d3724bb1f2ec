#include "CliOptions.h"

#include "search/SearchDriver.h"  // kMaxSearchThreads

#include <charconv>
#include <climits>

namespace nestor::cli {

std::string generalUsage()
{
    return "Usage: nestor-cli <command> [options]\n"
           "\n"
           "Commands:\n"
           "  eval PROJECT [--mapping NAME] [--format text|json|csv]\n"
           "        Evaluate one mapping of a project file: cycles, utilization, energy,\n"
           "        pJ/MAC, EDP, area, per level and tensor accesses, and the loop nest.\n"
           "  search PROJECT [--layer L] [--mapspace pfm|ruby|ruby-s|ruby-t] [--algorithm A] ...\n"
           "        Search a mapspace for the best mapping of one layer; write it as a project\n"
           "        and as a Timeloop mapping.\n"
           "  sweep PROJECT [--layer L] [--arrays 2x7,...,16x16] [--mapspace pfm,ruby-s] ...\n"
           "        Search the layer on a range of PE arrays; report best EDP, area and the\n"
           "        area-vs-EDP Pareto front per mapspace.\n"
           "  check-reference FILE...\n"
           "        Evaluate Timeloop reference cases and compare every figure with the\n"
           "        recorded output. Exit status 0 only if every case passes.\n"
           "  optimize PROJECT --layer L [--objective energy|delay] [--json FILE]\n"
           "        Thistle dataflow optimization (Ipopt) on a DRAM/SRAM/register-file\n"
           "        architecture; candidates re-scored by the cost model (docs/solvers.md).\n"
           "  codesign PROJECT --network N --area-um2 A [--per-layer|--single-arch] ...\n"
           "        Thistle co-design of registers per PE, SRAM size and PE count.\n"
           "  dataflows PROJECT --layer L [--budget N] [--seed S] [--csv FILE] [--json FILE]\n"
           "        Interstellar: every U|V dataflow of a layer with its blocking searched, ranked.\n"
           "  memsweep PROJECT --layer L [--rf 16,32,...] [--sram 32K,...] [--csv FILE]\n"
           "        Interstellar: RF and SRAM sizes with 28 nm Table 3 energies, blocking re-searched.\n"
           "  vta run VECTOR.json... [--json]\n"
           "        Run VTA program vectors on the simulator and compare output bytes,\n"
           "        counters and token pushes with fsim's (nestor-cli vta --help).\n"
           "  import-timeloop FILE... [--ert ERT.yaml] [--energy-model M] [-o OUT.yaml]\n"
           "        Turn Timeloop problem/architecture/mapping files into a Nestor project.\n"
           "  import-onnx MODEL.onnx --arch PROJECT.yaml [--batch N] [--name NET] [-o OUT.yaml]\n"
           "        Add the layers and the network of an ONNX model to a copy of a project.\n"
           "\n"
           "Options:\n"
           "  -h, --help       show help (also after a command: nestor-cli eval --help)\n"
           "  --version        show the version\n"
           "\n"
           "Exit status: 0 ok, 1 check failed or invalid mapping, 2 usage error, 3 input error.\n";
}

std::string exactBudgetHelp()
{
    const ModelOptions defaults;
    return "  --exact-memory-mb N     memory one exact analysis may use (default " +
           std::to_string(defaults.exactMemoryBudgetMB) + "; 0 = no bound)\n"
           "  --exact-steps N         steps one exact analysis may take (default " +
           std::to_string(defaults.exactWorkBudget) + "; 0 = no bound)\n";
}

std::string evalUsage()
{
    return "Usage: nestor-cli eval PROJECT [--mapping NAME] [--format text|json|csv]\n"
           "\n"
           "Evaluates a mapping of the project file PROJECT with the loop-nest cost model.\n"
           "\n"
           "  -m, --mapping NAME   the mapping to evaluate (default: job.mapping, else the first)\n"
           "  -f, --format FORMAT  text (default): summary and loop nest; json or csv: all figures\n"
           + exactBudgetHelp() +
           "  -h, --help           show this help\n"
           "\n"
           "Exit status: 0 valid mapping, 1 invalid mapping or exact evaluation over budget\n"
           "(reasons are printed), 2 usage error, 3 unreadable or invalid project.\n";
}

std::string checkReferenceUsage()
{
    return "Usage: nestor-cli check-reference [options] FILE...\n"
           "\n"
           "Evaluates each Timeloop reference case (the format of tests/data/timeloop/README.md)\n"
           "and prints a field-by-field comparison with the figures recorded in the file\n"
           "(exact_counts where the case has them).\n"
           "\n"
           "  --failures-only            print only the fields that differ\n"
           "  --legacy-zero-translation  use Timeloop's rule before commit a12fff5 (a stationary\n"
           "                             loop resets the sliding-window reuse)\n"
           "  -h, --help                 show this help\n"
           "\n"
           "Exit status: 0 every case passes, 1 some field differs or a mapping is invalid,\n"
           "2 usage error, 3 a case file cannot be read.\n";
}

std::string searchUsage()
{
    return "Usage: nestor-cli search PROJECT [options]\n"
           "\n"
           "Searches a mapspace of the project's architecture for the best mapping of one layer,\n"
           "or of every layer of a network (--network). The project's constraints apply.\n"
           "Every candidate is scored by the cost model. Ctrl-C stops the search and reports the\n"
           "best mapping so far; a second Ctrl-C exits at once.\n"
           "\n"
           "  -l, --layer NAME        workload to map (default: job.workload, else the first)\n"
           "  -n, --network NAME      map every layer of this network; prints per-layer and total\n"
           "                          EDP, energy, cycles (--out adds every best mapping)\n"
           "  --no-constraints        ignore the project's constraints section\n"
           "  --mapspace KIND         pfm | ruby | ruby-s (default) | ruby-t\n"
           "  --algorithm NAME        exhaustive | random | random-pruned | hybrid | annealing (default)\n"
           "  --threads N             search threads (default 1)\n"
           "  --seed S                random seed (default 1); same seed and threads, same result\n"
           "  --metric LIST           ranking, e.g. edp (default) or delay,energy; also last-level-accesses\n"
           "  --budget N              stop after N evaluated mappings in all\n"
           "  --search-size N         stop after N valid mappings in all\n"
           "  --timeout N             stop a thread after N consecutive invalid mappings (default 1000)\n"
           "  --victory N             stop a thread after N consecutive valid mappings without\n"
           "                          improvement (default 500; 0 = off)\n"
           "  --out FILE              the project with the best mapping(s) added (Nestor YAML)\n"
           "  --timeloop-out FILE     the best mapping in Timeloop's mapping YAML\n"
           "  --json FILE, --csv FILE the best mapping's figures (network: per layer and total)\n"
           "  -q, --quiet             no progress line on stderr\n"
           + exactBudgetHelp() +
           "                          (candidates over either bound are counted and skipped)\n"
           "\n"
           "Exit status: 0 a valid mapping was found, 1 none found, 2 usage error, 3 input error.\n";
}

std::string sweepUsage()
{
    return "Usage: nestor-cli sweep PROJECT [options]\n"
           "\n"
           "Resizes the project's PE array (every level with as many instances as the MACs, and\n"
           "the per-column levels) and searches the layer on each size with each mapspace.\n"
           "Prints per configuration the best EDP, energy, cycles, utilization and area, and the\n"
           "configurations on the area-vs-EDP Pareto front of each mapspace.\n"
           "\n"
           "  -l, --layer NAME        workload (default: job.workload, else the first)\n"
           "  -n, --network NAME      search every layer of this network; EDP of the network\n"
           "  --no-constraints        ignore the project's constraints section\n"
           "  --arrays LIST           X x Y sizes (default 2x7,4x7,7x7,8x8,14x8,14x12,16x12,16x16)\n"
           "  --mapspace LIST         e.g. pfm,ruby-s (default)\n"
           "  --algorithm, --threads, --seed, --metric, --budget, --search-size, --timeout,\n"
           "  --victory, --exact-memory-mb, --exact-steps\n"
           "                          as for search\n"
           "  --csv FILE, --json FILE the table\n"
           "  -q, --quiet             no progress line on stderr\n";
}

namespace {

Command helpCommand(std::string text)
{
    Command c;
    c.kind = Command::Kind::Help;
    c.helpText = std::move(text);
    return c;
}

bool isHelp(const std::string& a) { return a == "-h" || a == "--help"; }

// "--name=value" or "--name value": returns true and sets value when args[i] is the option.
bool takeValue(const std::vector<std::string>& args, std::size_t& i, const std::string& shortName,
               const std::string& longName, std::string& value, const std::string& usage)
{
    const std::string& a = args[i];
    if (a.rfind(longName + "=", 0) == 0) {
        value = a.substr(longName.size() + 1);
        if (value.empty()) throw UsageError("option " + longName + " needs a value", usage);
        return true;
    }
    if (a != longName && a != shortName) return false;
    if (i + 1 >= args.size()) throw UsageError("option " + a + " needs a value", usage);
    value = args[++i];
    return true;
}

long long number(const std::string& option, const std::string& v, long long min, long long max, const std::string& usage);

// --exact-memory-mb N, --exact-steps N (eval, search, sweep).
bool takeExactBudget(const std::vector<std::string>& args, std::size_t& i, ExactBudgetCliOptions& o,
                     const std::string& usage)
{
    const std::string& a = args[i];
    std::string v;
    if (takeValue(args, i, "", "--exact-memory-mb", v, usage)) o.memoryMB = number(a, v, 0, 1LL << 40, usage);
    else if (takeValue(args, i, "", "--exact-steps", v, usage)) o.steps = number(a, v, 0, LLONG_MAX, usage);
    else return false;
    return true;
}

Command parseEval(const std::vector<std::string>& args)
{
    Command c;
    c.kind = Command::Kind::Eval;
    const std::string usage = evalUsage();
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string v;
        if (isHelp(a)) return helpCommand(usage);
        if (takeValue(args, i, "-m", "--mapping", v, usage)) {
            c.eval.mapping = v;
        } else if (takeValue(args, i, "-f", "--format", v, usage)) {
            if (v != "text" && v != "json" && v != "csv")
                throw UsageError("unknown format '" + v + "' (text, json or csv)", usage);
            c.eval.format = v;
        } else if (takeExactBudget(args, i, c.eval.exact, usage)) {
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            throw UsageError("unknown option '" + a + "'", usage);
        } else if (c.eval.project.empty()) {
            c.eval.project = a;
        } else {
            throw UsageError("eval takes one project file (got '" + c.eval.project + "' and '" + a + "')", usage);
        }
    }
    if (c.eval.project.empty()) throw UsageError("eval needs a project file", usage);
    return c;
}

Command parseCheck(const std::vector<std::string>& args)
{
    Command c;
    c.kind = Command::Kind::CheckReference;
    const std::string usage = checkReferenceUsage();
    bool onlyFiles = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (!onlyFiles && isHelp(a)) return helpCommand(usage);
        if (!onlyFiles && a == "--") onlyFiles = true;
        else if (!onlyFiles && a == "--failures-only") c.check.failuresOnly = true;
        else if (!onlyFiles && a == "--legacy-zero-translation") c.check.legacyZeroTranslation = true;
        else if (!onlyFiles && !a.empty() && a[0] == '-') throw UsageError("unknown option '" + a + "'", usage);
        else c.check.files.push_back(a);
    }
    if (c.check.files.empty()) throw UsageError("check-reference needs at least one case file", usage);
    return c;
}

std::vector<std::string> splitList(const std::string& s)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ',') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// A whole decimal integer from min to max. Anything else (sign, spaces, other characters, a
// value beyond the range or beyond 64 bits) is a usage error naming the option: never a silent
// truncation to a smaller type.
long long number(const std::string& option, const std::string& v, long long min, long long max, const std::string& usage)
{
    const std::string range = max == LLONG_MAX ? "an integer >= " + std::to_string(min)
                                               : "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    long long n = 0;
    const char* end = v.data() + v.size();
    const auto r = std::from_chars(v.data(), end, n);
    const bool outOfRange = r.ec == std::errc::result_out_of_range;
    if (v.empty() || r.ptr != end || (r.ec != std::errc() && !outOfRange))
        throw UsageError("option " + option + " needs " + range + " (got '" + v + "')", usage);
    if (outOfRange || n < min || n > max)
        throw UsageError("option " + option + " is out of range: it needs an integer from " + std::to_string(min) +
                             " to " + std::to_string(max) + " (got '" + v + "')",
                         usage);
    return n;
}

Command parseSearchLike(const std::vector<std::string>& args, bool sweep)
{
    Command c;
    c.kind = sweep ? Command::Kind::Sweep : Command::Kind::Search;
    const std::string usage = sweep ? sweepUsage() : searchUsage();
    SearchCliOptions& o = c.search;
    if (sweep) {
        o.mapspaces = {"pfm", "ruby-s"};
        o.arrays = {"2x7", "4x7", "7x7", "8x8", "14x8", "14x12", "16x12", "16x16"};
    }
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string v;
        if (isHelp(a)) return helpCommand(usage);
        if (a == "-q" || a == "--quiet") o.quiet = true;
        else if (takeValue(args, i, "-l", "--layer", v, usage)) o.layer = v;
        else if (takeValue(args, i, "-n", "--network", v, usage)) o.network = v;
        else if (a == "--no-constraints") o.noConstraints = true;
        else if (takeValue(args, i, "", "--mapspace", v, usage)) o.mapspaces = splitList(v);
        else if (takeValue(args, i, "", "--algorithm", v, usage)) o.algorithm = v;
        else if (takeValue(args, i, "", "--threads", v, usage)) o.threads = static_cast<int>(number(a, v, 1, kMaxSearchThreads, usage));
        else if (takeValue(args, i, "", "--seed", v, usage)) o.seed = static_cast<unsigned long long>(number(a, v, 0, LLONG_MAX, usage));
        else if (takeValue(args, i, "", "--metric", v, usage)) o.metrics = v;
        else if (takeValue(args, i, "", "--budget", v, usage)) o.budget = number(a, v, 0, LLONG_MAX, usage);
        else if (takeValue(args, i, "", "--search-size", v, usage)) o.searchSize = number(a, v, 0, LLONG_MAX, usage);
        else if (takeValue(args, i, "", "--timeout", v, usage)) o.timeout = number(a, v, 0, LLONG_MAX, usage);
        else if (takeValue(args, i, "", "--victory", v, usage)) o.victory = number(a, v, 0, LLONG_MAX, usage);
        else if (!sweep && takeValue(args, i, "-o", "--out", v, usage)) o.out = v;
        else if (!sweep && takeValue(args, i, "", "--timeloop-out", v, usage)) o.timeloopOut = v;
        else if (takeValue(args, i, "", "--json", v, usage)) o.json = v;
        else if (takeValue(args, i, "", "--csv", v, usage)) o.csv = v;
        else if (sweep && takeValue(args, i, "", "--arrays", v, usage)) o.arrays = splitList(v);
        else if (takeExactBudget(args, i, o.exact, usage)) continue;
        else if (!a.empty() && a[0] == '-' && a != "-") throw UsageError("unknown option '" + a + "'", usage);
        else if (o.project.empty()) o.project = a;
        else throw UsageError("one project file only (got '" + o.project + "' and '" + a + "')", usage);
    }
    if (o.project.empty()) throw UsageError(std::string(sweep ? "sweep" : "search") + " needs a project file", usage);
    if (!o.network.empty() && !o.layer.empty()) throw UsageError("give either --layer or --network, not both", usage);
    if (!o.network.empty() && !o.timeloopOut.empty()) throw UsageError("--timeloop-out maps one layer (not with --network)", usage);
    if (o.mapspaces.empty() || (!sweep && o.mapspaces.size() != 1))
        throw UsageError(sweep ? "--mapspace needs at least one mapspace" : "search takes one mapspace", usage);
    if (sweep && o.arrays.empty()) throw UsageError("--arrays needs at least one size", usage);
    return c;
}

} // namespace

Command parseCommandLine(const std::vector<std::string>& args)
{
    if (args.empty()) throw UsageError("no command given", generalUsage());
    const std::string& cmd = args[0];
    if (isHelp(cmd) || cmd == "help") {
        if (args.size() > 1 && args[1] == "eval") return helpCommand(evalUsage());
        if (args.size() > 1 && args[1] == "check-reference")
            return helpCommand(checkReferenceUsage());
        if (args.size() > 1 && args[1] == "search") return helpCommand(searchUsage());
        if (args.size() > 1 && args[1] == "sweep") return helpCommand(sweepUsage());
        return helpCommand(generalUsage());
    }
    if (cmd == "--version") {
        Command c;
        c.kind = Command::Kind::Version;
        return c;
    }
    if (cmd == "eval") return parseEval(args);
    if (cmd == "check-reference") return parseCheck(args);
    if (cmd == "search") return parseSearchLike(args, false);
    if (cmd == "sweep") return parseSearchLike(args, true);
    if (cmd == "vta") {
        Command c;
        c.kind = Command::Kind::Vta;
        c.vtaArgs.assign(args.begin() + 1, args.end());
        return c;
    }
    if (cmd == "dataflows" || cmd == "memsweep") {
        Command c;
        c.kind = cmd == "dataflows" ? Command::Kind::Dataflows : Command::Kind::Memsweep;
        c.solverArgs.assign(args.begin() + 1, args.end());
        return c;
    }
    if (cmd == "import-timeloop") {
        Command c;
        c.kind = Command::Kind::ImportTimeloop;
        c.importTimeloopArgs.assign(args.begin() + 1, args.end());
        return c;
    }
    if (cmd == "import-onnx") {
        Command c;
        c.kind = Command::Kind::ImportOnnx;
        c.importOnnxArgs.assign(args.begin() + 1, args.end());
        return c;
    }
    if (cmd == "optimize" || cmd == "codesign") {
        Command c;
        c.kind = cmd == "optimize" ? Command::Kind::Optimize : Command::Kind::Codesign;
        c.solverArgs.assign(args.begin() + 1, args.end());
        return c;
    }
    throw UsageError("unknown command '" + cmd + "'", generalUsage());
}

} // namespace nestor::cli
