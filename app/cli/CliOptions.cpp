#include "CliOptions.h"

namespace nestor::cli {

std::string generalUsage()
{
    return "Usage: nestor-cli <command> [options]\n"
           "\n"
           "Commands:\n"
           "  eval PROJECT [--mapping NAME] [--format text|json|csv]\n"
           "        Evaluate one mapping of a project file: cycles, utilization, energy,\n"
           "        pJ/MAC, EDP, area, per level and tensor accesses, and the loop nest.\n"
           "  check-reference FILE...\n"
           "        Evaluate Timeloop reference cases and compare every figure with the\n"
           "        recorded output. Exit status 0 only if every case passes.\n"
           "\n"
           "Options:\n"
           "  -h, --help       show help (also after a command: nestor-cli eval --help)\n"
           "  --version        show the version\n"
           "\n"
           "Exit status: 0 ok, 1 check failed or invalid mapping, 2 usage error, 3 input error.\n";
}

std::string evalUsage()
{
    return "Usage: nestor-cli eval PROJECT [--mapping NAME] [--format text|json|csv]\n"
           "\n"
           "Evaluates a mapping of the project file PROJECT with the loop-nest cost model.\n"
           "\n"
           "  -m, --mapping NAME   the mapping to evaluate (default: job.mapping, else the first)\n"
           "  -f, --format FORMAT  text (default): summary and loop nest; json or csv: all figures\n"
           "  -h, --help           show this help\n"
           "\n"
           "Exit status: 0 valid mapping, 1 invalid mapping (reasons are printed), 2 usage error,\n"
           "3 unreadable or invalid project.\n";
}

std::string checkReferenceUsage()
{
    return "Usage: nestor-cli check-reference [options] FILE...\n"
           "\n"
           "Evaluates each Timeloop reference case (see ../shared/reference/timeloop/README.md)\n"
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

namespace {

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

Command parseEval(const std::vector<std::string>& args)
{
    Command c;
    c.kind = Command::Kind::Eval;
    const std::string usage = evalUsage();
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string v;
        if (isHelp(a)) return Command{Command::Kind::Help, usage, {}, {}};
        if (takeValue(args, i, "-m", "--mapping", v, usage)) {
            c.eval.mapping = v;
        } else if (takeValue(args, i, "-f", "--format", v, usage)) {
            if (v != "text" && v != "json" && v != "csv")
                throw UsageError("unknown format '" + v + "' (text, json or csv)", usage);
            c.eval.format = v;
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
        if (!onlyFiles && isHelp(a)) return Command{Command::Kind::Help, usage, {}, {}};
        if (!onlyFiles && a == "--") onlyFiles = true;
        else if (!onlyFiles && a == "--failures-only") c.check.failuresOnly = true;
        else if (!onlyFiles && a == "--legacy-zero-translation") c.check.legacyZeroTranslation = true;
        else if (!onlyFiles && !a.empty() && a[0] == '-') throw UsageError("unknown option '" + a + "'", usage);
        else c.check.files.push_back(a);
    }
    if (c.check.files.empty()) throw UsageError("check-reference needs at least one case file", usage);
    return c;
}

} // namespace

Command parseCommandLine(const std::vector<std::string>& args)
{
    if (args.empty()) throw UsageError("no command given", generalUsage());
    const std::string& cmd = args[0];
    if (isHelp(cmd) || cmd == "help") {
        if (args.size() > 1 && args[1] == "eval") return Command{Command::Kind::Help, evalUsage(), {}, {}};
        if (args.size() > 1 && args[1] == "check-reference")
            return Command{Command::Kind::Help, checkReferenceUsage(), {}, {}};
        return Command{Command::Kind::Help, generalUsage(), {}, {}};
    }
    if (cmd == "--version") return Command{Command::Kind::Version, {}, {}, {}};
    if (cmd == "eval") return parseEval(args);
    if (cmd == "check-reference") return parseCheck(args);
    throw UsageError("unknown command '" + cmd + "'", generalUsage());
}

} // namespace nestor::cli
