#include "Targets.h"

#include <algorithm>

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

// The Timeloop input sets of tests/data/timeloop/inputs (README there): a mutated file is imported
// with the unchanged rest of its set.
Args timeloopImportArgs(const std::string& mutant, Random&)
{
    static const std::vector<std::vector<std::string>> sets = {
        {"conv1d-2level.arch.yaml", "conv1d.prob.yaml", "conv1d-2level-os.map.yaml", "conv1d-2level.ERT.yaml"},
        {"conv1d-oc-3level-bypass.input.yaml"},
        {"conv1d-oc-ic-spatial.arch.yaml", "conv1d-oc-ic.prob.yaml", "conv1d-oc-ic-spatial-kp.map.yaml", "conv1d-oc-3level.ERT.yaml"},
        {"eyeriss-like.arch.yaml", "cnn-layer-conv3_1.prob.yaml", "eyeriss-like-rs.map.yaml", "eyeriss-like.ERT.yaml",
         "eyeriss-like.constraints.yaml"},
        {"conv1d-2level.legacy-arch.yaml", "conv1d.prob.yaml", "conv1d-2level-os.map.yaml", "conv1d-2level.ERT.yaml"},
        {"conv1d-oc-ic-spatial.inf-memory.arch.yaml", "conv1d-oc-ic.prob.yaml", "conv1d-oc-ic-spatial-kp.map.yaml",
         "conv1d-oc-3level.ERT.yaml"},
        {"conv1d-oc-ic-spatial.container-attributes.arch.yaml", "conv1d-oc-ic.prob.yaml", "conv1d-oc-ic-spatial-kp.map.yaml",
         "conv1d-oc-3level.ERT.yaml"},
        {"conv1d-2level-os.legacy.cfg", "conv1d-2level.ERT.yaml"},
    };
    const std::string name = mutant.substr(mutant.find_last_of('/') + 1);
    Args a = {"import-timeloop", mutant};
    for (const auto& set : sets)  // (the first set holding the file: the legacy one shares the first's problem)
        if (std::find(set.begin(), set.end(), name) != set.end()) {
            for (const auto& other : set)
                if (other != name) a.push_back("timeloop/" + other);
            break;
        }
    a.insert(a.end(), {"-o", "imported.yaml"});
    return a;
}

// The VTA simulator on a program vector (tests/data/vta/FORMAT.md), with the options that change
// what it reads or runs: the hardware fidelity, the vector's own configuration, the cycle model.
Args vtaRunArgs(const std::string& file, Random& r)
{
    Args a = {"vta", "run", file};
    if (r.chance(25)) a.insert(a.end(), {"--fidelity", "hardware"});
    if (r.chance(25)) a.push_back("--vector-config");
    if (r.chance(30)) a.push_back("--timing");
    if (r.chance(30)) a.push_back("--json");
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
        // The Timeloop importer: one file of a set mutated, the rest of the set unchanged.
        {"timeloop-import", {{"tests/data/timeloop/inputs", ".yaml"}, {"tests/data/timeloop/inputs", ".cfg"}},
         {{"tests/data/timeloop/inputs", ".yaml"}},
         "timeloop", timeloopImportArgs, "mutant", 10},
        // The VTA program-vector loader and simulator: the recorded vectors, Nestor's own and the
        // defective ones.
        {"vta-run", {{"tests/data/vta/vectors", ".json"}, {"tests/data/vta/own", ".json"}, {"tests/data/vta/bad", ".json"}},
         {}, "", vtaRunArgs, "", 10},
    };
    return targets;
}

} // namespace nestor::fuzz
