#include "ImportTimeloopCommand.h"

#include "ExitCodes.h"
#include "ImportCommand.h"
#include "io/TimeloopImport.h"

namespace nestor::cli {

std::string importTimeloopUsage()
{
    return "Usage: nestor-cli import-timeloop FILE... [--ert ERT.yaml] [--energy-model M] [--name N] [-o OUT.yaml]\n"
           "\n"
           "Reads Timeloop input files (problem, architecture v0.2/v0.3 `subtree` or v0.4 `nodes`,\n"
           "mapping; separate files or one merged input.yaml; YAML, or libconfig for *.cfg) and writes\n"
           "a Nestor project with one workload, the architecture and the mapping\n"
           "(docs/timeloop-import.md).\n"
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
    TimeloopImportOptions opt;
    auto usage = [&](const std::string& message) {
        err << "nestor-cli: import-timeloop: " << message << "\n\n" << importTimeloopUsage();
        return kExitUsage;
    };
    ImportArgs parsed;
    if (const auto error = parseImportArgs(args,
                                           {{"--ert", &opt.ertFile, "a file"},
                                            {"--energy-model", &opt.energyModel, "a model"},
                                            {"--name", &opt.projectName, "a name"}},
                                           parsed))
        return usage(*error);
    if (parsed.help) {
        out << importTimeloopUsage();
        return kExitOk;
    }
    if (parsed.inputs.empty()) return usage("no input file given");

    TimeloopImport imported;
    try {
        imported = importTimeloop(parsed.inputs, opt);
    } catch (const NestorError& e) {
        err << e.what() << "\n";
        return kExitInput;
    }
    return writeImportedProject(imported.project, imported.summary(), imported.warnings, parsed.output, out, err);
}

} // namespace nestor::cli
