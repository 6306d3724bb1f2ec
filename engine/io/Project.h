#pragma once
// A Nestor project: workloads (layers), networks, one architecture, named mappings and
// job defaults. Read from / written to the YAML schema in docs/project-format.md.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nestor {

// How a workload was described, kept so that editors and the writer can round-trip it.
struct LayerSpec {
    std::string type = "custom";   // conv | depthwise | grouped | gemm | fc | custom
    ConvParams conv;               // conv / depthwise / grouped
    std::int64_t gemmM = 1, gemmN = 1, gemmK = 1;  // gemm
    std::int64_t fcBatch = 1, fcOut = 1, fcIn = 1; // fc
};

struct ProjectWorkload {
    LayerSpec spec;
    Workload workload;             // built from spec (or given directly when custom)
};

struct ProjectNetwork {
    std::string name;
    std::vector<std::pair<std::string, std::int64_t>> layers;  // workload name, repeat
};

struct ProjectMapping {
    std::string workload;          // name of the workload it maps
    Mapping mapping;               // mapping.name is the mapping's name
};

struct Project {
    std::string name;
    std::string path;              // file it was read from (empty when new)
    std::string energyModel = "table";  // table | interstellar-28nm | thistle-45nm
    std::vector<ProjectWorkload> workloads;
    std::vector<ProjectNetwork> networks;
    Architecture architecture;
    std::vector<ProjectMapping> mappings;
    std::string jobWorkload;       // defaults for CLI/GUI; may be empty
    std::string jobMapping;

    const ProjectWorkload* findWorkload(const std::string& name) const;
    const ProjectMapping* findMapping(const std::string& name) const;
    // The mapping named by `name`, or the job default, or the first mapping. nullptr if none.
    const ProjectMapping* selectMapping(const std::string& name = {}) const;
};

} // namespace nestor
