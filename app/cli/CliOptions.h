#pragma once
// Command-line parsing of nestor-cli (no Qt): subcommands and their options.
#include "model/Model.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace nestor::cli {

// Bounds on the model's exact analysis (ModelOptions::exactMemoryBudgetMB, exactWorkBudget);
// 0 = no bound.
struct ExactBudgetCliOptions {
    long long memoryMB = static_cast<long long>(ModelOptions{}.exactMemoryBudgetMB);
    long long steps = static_cast<long long>(ModelOptions{}.exactWorkBudget);
    void applyTo(ModelOptions& m) const
    {
        m.exactMemoryBudgetMB = static_cast<std::size_t>(memoryMB);
        m.exactWorkBudget = static_cast<std::uint64_t>(steps);
    }
};

struct EvalOptions {
    std::string project;
    std::string mapping;         // empty = job default or first mapping
    std::string format = "text"; // text | json | csv
    ExactBudgetCliOptions exact;
};

struct CheckReferenceOptions {
    std::vector<std::string> files;
    bool failuresOnly = false;
    bool legacyZeroTranslation = false;
};

// Options shared by `search` and `sweep`.
struct SearchCliOptions {
    std::string project;
    std::string layer;               // workload name; empty = job default or the first workload
    std::string network;             // search every layer of this network (instead of one layer)
    bool noConstraints = false;      // ignore the project's constraints
    std::vector<std::string> mapspaces{"ruby-s"};  // search: exactly one; sweep: a list
    std::string algorithm = "annealing";
    int threads = 1;
    unsigned long long seed = 1;
    std::string metrics = "edp";
    long long budget = 0;            // evaluated mappings in all (0 = no limit)
    long long searchSize = 0;        // valid mappings in all (0 = no limit)
    long long timeout = 1000;        // consecutive invalid mappings per thread
    long long victory = 500;         // consecutive non-improving valid mappings per thread (0 = off)
    std::string out;                 // search: project with the best mapping added
    std::string timeloopOut;         // search: best mapping in Timeloop's format
    std::string json;
    std::string csv;
    std::vector<std::string> arrays; // sweep: "XxY" PE arrays
    bool quiet = false;              // no progress line
    ExactBudgetCliOptions exact;
};

struct Command {
    enum class Kind { Help, Version, Eval, CheckReference, Search, Sweep, Vta, Optimize, Codesign, Dataflows, Memsweep, ImportTimeloop, ImportOnnx };
    Kind kind = Kind::Help;
    std::string helpText;        // for Help: the text to print
    EvalOptions eval;
    CheckReferenceOptions check;
    SearchCliOptions search;         // Search and Sweep
    std::vector<std::string> solverArgs; // Optimize, Codesign, Dataflows, Memsweep: the arguments after the command (their command files parse them)
    std::vector<std::string> vtaArgs; // Vta: the arguments after "vta" (VtaCommand parses them)
    std::vector<std::string> importTimeloopArgs; // ImportTimeloop: the arguments after the command (ImportTimeloopCommand parses them)
    std::vector<std::string> importOnnxArgs; // ImportOnnx: the arguments after the command (ImportOnnxCommand parses them)
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
std::string searchUsage();
std::string sweepUsage();

} // namespace nestor::cli
