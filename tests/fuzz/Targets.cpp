#include "Targets.h"

namespace nestor::fuzz {

namespace {

Args evalArgs(const std::string& file, Random& r)
{
    // json/csv send the invalid-mapping reasons to stderr; text prints them and the loop nest to stdout.
    static const std::vector<std::string> formats = {"text", "json", "csv"};
    return {"eval", file, "--format", r.pick(formats)};
}

Args searchArgs(const std::string& file, Random& r)
{
    static const std::vector<std::string> mapspaces = {"pfm", "ruby", "ruby-s", "ruby-t"};
    static const std::vector<std::string> algorithms = {"random", "annealing", "random-pruned", "hybrid"};
    Args a = {"search", file, "--mapspace", r.pick(mapspaces), "--algorithm", r.pick(algorithms),
              "--budget", std::to_string(10 + r.below(31)), "--threads", std::to_string(1 + r.below(2)),
              "--seed", std::to_string(r.below(1000)), "--quiet"};
    if (r.chance(30)) a.insert(a.end(), {"--timeloop-out", "best.timeloop.yaml"});
    if (r.chance(10)) a.push_back("--no-constraints");
    return a;
}

} // namespace

const std::vector<Target>& allTargets()
{
    static const std::vector<Target> targets = {
        // The project loader and the model, through `eval` of the job mapping.
        {"project-eval", {{"examples", ".yaml"}}, {{"examples/arch", ".yaml"}}, "arch", evalArgs, "", 35},
        // The project loader, constraints, mapspaces, searches and the Timeloop export.
        {"project-search", {{"examples", ".yaml"}}, {{"examples/arch", ".yaml"}}, "arch", searchArgs, "", 25},
        // An included architecture file mutated under an unchanged project: errors must name the include.
        {"include-eval", {{"examples/arch", ".yaml"}}, {{"examples", "eyeriss-like.yaml"}}, "",
         [](const std::string&, Random& r) { return evalArgs("eyeriss-like.yaml", r); }, "arch", 10},
        // The reference-case loader and checker.
        {"reference-check", {{"tests/data/timeloop/cases", ".yaml"}}, {}, "",
         [](const std::string& f, Random&) { return Args{"check-reference", f}; }, "", 30},
    };
    return targets;
}

} // namespace nestor::fuzz
