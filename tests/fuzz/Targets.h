#pragma once
// Fuzz targets: which seed files are mutated, which files go beside them unchanged, and which
// nestor-cli command reads them.
//
// Adding a loader of a text format is one entry in allTargets(): its seed glob, its companions and
// a function building the command line, e.g. {"vta-disasm", {{"tests/data/vta/own", ".json"}}, {},
// {}, [](const std::string& f, Random&) { return Args{"vta", "disasm", f}; }}. The mutator is
// textual (binary ONNX models are mutated in tests/engine/tst_onnx_import.cpp instead); the
// oracle and the findings are shared.
#include "Random.h"

#include <functional>
#include <string>
#include <vector>

namespace nestor::fuzz {

using Args = std::vector<std::string>;

struct SeedGlob {
    std::string dir;        // relative to the source tree
    std::string suffix;  // the file name ends with this, e.g. ".yaml" or "eyeriss-like.yaml"
};

struct Target {
    std::string name;
    std::vector<SeedGlob> seeds;         // files to mutate
    std::vector<SeedGlob> companions;    // files copied unchanged beside the input...
    std::string companionSubdir;         // ...into this subfolder of the work folder ("" = beside)
    // Builds the arguments from the mutated file's path (relative to the work folder).
    std::function<Args(const std::string& inputPath, Random& r)> args;
    std::string inputSubdir;             // where the mutated file goes in the work folder
    unsigned weight = 1;                 // share of the campaign
};

const std::vector<Target>& allTargets();

} // namespace nestor::fuzz
