#pragma once
// What the import commands (import-timeloop, import-onnx) share: their arguments (options that
// take a value, -h/--help, -o/--output FILE, then the input files) and the writing of the project
// they made with its report: the summary goes to stdout when the project went to a file (stdout
// is free), else to stderr; the warnings go to stderr under a "warnings:" heading, one indented
// line each, each starting with its place in the input.
#include "io/ProjectYaml.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace nestor::cli {

// An option that takes a value ("--name" into `value`; "--name needs <missing>" without one).
struct ImportOption {
    std::string name;
    std::string* value;
    std::string missing;
};

struct ImportArgs {
    bool help = false;               // -h or --help: print the usage and stop
    std::string output;              // -o / --output; empty = stdout
    std::vector<std::string> inputs; // the arguments that are not options, in order
};

// Reads `args` into `parsed` and the options' values; the usage error, if any.
std::optional<std::string> parseImportArgs(const std::vector<std::string>& args, const std::vector<ImportOption>& options,
                                           ImportArgs& parsed);

// Writes `project` to `output` (stdout when empty), then the report; the exit status.
int writeImportedProject(const Project& project, const std::string& summary, const std::vector<std::string>& warnings,
                         const std::string& output, std::ostream& out, std::ostream& err);

} // namespace nestor::cli
