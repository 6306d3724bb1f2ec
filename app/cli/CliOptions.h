#pragma once
// Command-line parsing of nestor-cli (no Qt): subcommands and their options.
#include <stdexcept>
#include <string>
#include <vector>

namespace nestor::cli {

struct EvalOptions {
    std::string project;
    std::string mapping;         // empty = job default or first mapping
    std::string format = "text"; // text | json | csv
};

struct CheckReferenceOptions {
    std::vector<std::string> files;
    bool failuresOnly = false;
    bool legacyZeroTranslation = false;
};

struct Command {
    enum class Kind { Help, Version, Eval, CheckReference };
    Kind kind = Kind::Help;
    std::string helpText;        // for Help: the text to print
    EvalOptions eval;
    CheckReferenceOptions check;
};

class UsageError : public std::runtime_error {
public:
    UsageError(const std::string& message, std::string usage)
        : std::runtime_error(message), usage_(std::move(usage)) {}
    const std::string& usage() const { return usage_; }
private:
    std::string usage_;
};

// args excludes the program name. Throws UsageError.
Command parseCommandLine(const std::vector<std::string>& args);

std::string generalUsage();
std::string evalUsage();
std::string checkReferenceUsage();

} // namespace nestor::cli
