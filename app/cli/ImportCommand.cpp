#include "ImportCommand.h"

#include "ExitCodes.h"

#include <algorithm>

namespace nestor::cli {

std::optional<std::string> parseImportArgs(const std::vector<std::string>& args, const std::vector<ImportOption>& options,
                                           ImportArgs& parsed)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& into) {
            if (i + 1 >= args.size()) return false;
            into = args[++i];
            return true;
        };
        const auto option = std::find_if(options.begin(), options.end(), [&](const ImportOption& o) { return o.name == a; });
        if (a == "-h" || a == "--help") {
            parsed.help = true;
            return std::nullopt;
        } else if (option != options.end()) {
            if (!value(*option->value)) return a + " needs " + option->missing;
        } else if (a == "-o" || a == "--output") {
            if (!value(parsed.output)) return a + " needs a file";
        } else if (!a.empty() && a[0] == '-') {
            return "unknown option '" + a + "'";
        } else {
            parsed.inputs.push_back(a);
        }
    }
    return std::nullopt;
}

int writeImportedProject(const Project& project, const std::string& summary, const std::vector<std::string>& warnings,
                         const std::string& output, std::ostream& out, std::ostream& err)
{
    try {
        if (output.empty()) out << writeProject(project);
        else saveProject(project, output);
    } catch (const std::exception& e) {
        err << "nestor-cli: cannot write " << output << ": " << e.what() << "\n";
        return kExitInput;
    }
    if (output.empty()) err << summary << "\n";
    else out << summary << " -> " << output << "\n";
    if (warnings.empty()) return kExitOk;
    err << "warnings:\n";
    for (const auto& w : warnings) err << "  " << w << "\n";
    return kExitOk;
}

} // namespace nestor::cli
