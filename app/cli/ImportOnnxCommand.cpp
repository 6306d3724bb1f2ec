#include "ImportOnnxCommand.h"

#include "ExitCodes.h"
#include "ImportCommand.h"
#include "io/OnnxImport.h"

#include <cerrno>
#include <cstdlib>

namespace nestor::cli {

std::string importOnnxUsage()
{
    return "Usage: nestor-cli import-onnx MODEL.onnx --arch PROJECT.yaml [--batch N] [--name NET] [-o OUT.yaml]\n"
           "\n"
           "Infers the tensor shapes of an ONNX model and adds every Conv, Gemm and MatMul as a\n"
           "layer (identical layers share one workload) and the network to the project given with\n"
           "--arch, which supplies the architecture, energy model and constraints\n"
           "(docs/onnx-import.md).\n"
           "\n"
           "Options:\n"
           "  --arch PROJECT.yaml  the Nestor project to start from (required)\n"
           "  --batch N            value of symbolic input dimensions (default 1)\n"
           "  --name NET           network name (default: the model file's name)\n"
           "  -o, --output FILE    write the project to FILE (default: stdout)\n"
           "\n"
           "A summary line goes to stdout with -o (else to stderr), the warnings (skipped nodes,\n"
           "assumed dimensions) to stderr.\n"
           "Exit status: 0 ok, 2 usage error, 3 input error.\n";
}

int runImportOnnxCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    std::string arch, batch = "1";
    OnnxImportOptions opt;
    auto usage = [&](const std::string& message) {
        err << "nestor-cli: import-onnx: " << message << "\n\n" << importOnnxUsage();
        return kExitUsage;
    };
    ImportArgs parsed;
    if (const auto error = parseImportArgs(
            args, {{"--arch", &arch, "a project file"}, {"--batch", &batch, "a number"}, {"--name", &opt.networkName, "a name"}}, parsed))
        return usage(*error);
    if (parsed.help) {
        out << importOnnxUsage();
        return kExitOk;
    }
    char* end = nullptr;
    errno = 0;
    const long long b = std::strtoll(batch.c_str(), &end, 10);
    if (batch.empty() || *end != '\0' || errno != 0 || b < 1 || b > 2147483647LL)
        return usage("--batch must be a whole number from 1 to 2147483647, not '" + batch + "'");
    opt.batch = b;
    if (parsed.inputs.empty()) return usage("no ONNX model given");
    if (parsed.inputs.size() > 1)
        return usage("more than one model file given ('" + parsed.inputs[0] + "', '" + parsed.inputs[1] + "')");
    if (arch.empty()) return usage("--arch PROJECT.yaml is required (the architecture to put the layers on)");

    Project project;
    OnnxImportResult imported;
    try {
        project = readProject(arch);
        imported = importOnnx(parsed.inputs[0], opt);
        addOnnxImportToProject(project, imported);
    } catch (const NestorError& e) {
        err << e.what() << "\n";
        return kExitInput;
    }
    // The result stands alone: saved elsewhere, it must not inherit the source's path.
    project.path.clear();
    return writeImportedProject(project, imported.summary(), imported.warnings, parsed.output, out, err);
}

} // namespace nestor::cli
