#include "ImportOnnxCommand.h"

#include "ExitCodes.h"
#include "ImportReport.h"
#include "io/OnnxImport.h"
#include "io/ProjectYaml.h"

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
    std::string model, arch, output;
    OnnxImportOptions opt;
    auto usage = [&](const std::string& message) {
        err << "nestor-cli: import-onnx: " << message << "\n\n" << importOnnxUsage();
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
            out << importOnnxUsage();
            return kExitOk;
        } else if (a == "--arch") {
            if (!value(arch)) return usage("--arch needs a project file");
        } else if (a == "--batch") {
            std::string v;
            if (!value(v)) return usage("--batch needs a number");
            char* end = nullptr;
            errno = 0;
            const long long b = std::strtoll(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || errno != 0 || b < 1 || b > 2147483647LL)
                return usage("--batch must be a whole number from 1 to 2147483647, not '" + v + "'");
            opt.batch = b;
        } else if (a == "--name") {
            if (!value(opt.networkName)) return usage("--name needs a name");
        } else if (a == "-o" || a == "--output") {
            if (!value(output)) return usage(a + " needs a file");
        } else if (!a.empty() && a[0] == '-') {
            return usage("unknown option '" + a + "'");
        } else if (model.empty()) {
            model = a;
        } else {
            return usage("more than one model file given ('" + model + "', '" + a + "')");
        }
    }
    if (model.empty()) return usage("no ONNX model given");
    if (arch.empty()) return usage("--arch PROJECT.yaml is required (the architecture to put the layers on)");

    Project project;
    OnnxImportResult imported;
    try {
        project = readProject(arch);
        imported = importOnnx(model, opt);
        addOnnxImportToProject(project, imported);
    } catch (const NestorError& e) {
        err << e.what() << "\n";
        return kExitInput;
    }
    // The result stands alone: saved elsewhere, it must not inherit the source's path.
    project.path.clear();
    try {
        if (output.empty()) out << writeProject(project);
        else saveProject(project, output);
    } catch (const std::exception& e) {
        err << "nestor-cli: cannot write " << output << ": " << e.what() << "\n";
        return kExitInput;
    }
    printImportReport(imported.summary(), imported.warnings, output, out, err);
    return kExitOk;
}

} // namespace nestor::cli
