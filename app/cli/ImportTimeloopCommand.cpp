#include "ImportTimeloopCommand.h"

#include "ExitCodes.h"
#include "ImportReport.h"
#include "io/ProjectYaml.h"
#include "io/TimeloopImport.h"

namespace nestor::cli {

std::string importTimeloopUsage()
{
    return "Usage: nestor-cli import-timeloop FILE... [--ert ERT.yaml] [--energy-model M] [--name N] [-o OUT.yaml]\n"
           "\n"
           "Reads Timeloop input files (problem, architecture v0.2/v0.3 `subtree` or v0.4 `nodes`,\n"
           "mapping; separate files or one merged input.yaml) and writes a Nestor project with one\n"
           "workload, the architecture and the mapping (docs/timeloop-import.md).\n"
           "\n"
           "Options:\n"
           "  --ert FILE          Accelergy energy reference table (timeloop-model.ERT.yaml); an\n"
           "                      `ERT:` key in one of the inputs works as well\n"
           "  --energy-model M    without an ERT: table (energies 0, the default),\n"
           "                      interstellar-28nm or thistle-45nm\n"
           "  --name N            project name (default: the problem's shape name)\n"
           "  -o, --output FILE   write the project to FILE (default: stdout)\n"
           "\n"
           "A summary line goes to stdout with -o (else to stderr), the warnings (what was ignored\n"
           "or assumed, each at its place in the input) to stderr.\n"
           "Exit status: 0 ok, 2 usage error, 3 input error (located file:line:column: field: message).\n";
}

int runImportTimeloopCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    std::vector<std::string> files;
    TimeloopImportOptions opt;
    std::string output;
    auto usage = [&](const std::string& message) {
        err << "nestor-cli: import-timeloop: " << message << "\n\n" << importTimeloopUsage();
        return kExitUsage;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& into) {
            if (i + 1 >= args.size()) return false;
            into = args[++i];
            return true;
        };
        if (a == "-h" || a == "--help") {
            out << importTimeloopUsage();
            return kExitOk;
        } else if (a == "--ert") {
            if (!value(opt.ertFile)) return usage("--ert needs a file");
        } else if (a == "--energy-model") {
            if (!value(opt.energyModel)) return usage("--energy-model needs a model");
        } else if (a == "--name") {
            if (!value(opt.projectName)) return usage("--name needs a name");
        } else if (a == "-o" || a == "--output") {
            if (!value(output)) return usage(a + " needs a file");
        } else if (!a.empty() && a[0] == '-') {
            return usage("unknown option '" + a + "'");
        } else {
            files.push_back(a);
        }
    }
    if (files.empty()) return usage("no input file given");

    TimeloopImport imported;
    try {
        imported = importTimeloop(files, opt);
    } catch (const NestorError& e) {
        err << e.what() << "\n";
        return kExitInput;
    }
    try {
        if (output.empty()) out << writeProject(imported.project);
        else saveProject(imported.project, output);
    } catch (const std::exception& e) {
        err << "nestor-cli: cannot write " << output << ": " << e.what() << "\n";
        return kExitInput;
    }
    printImportReport(imported.summary(), imported.warnings, output, out, err);
    return kExitOk;
}

} // namespace nestor::cli
