#pragma once
// A Nestor project: workloads (layers), networks, one architecture, named mappings and
// job defaults. Read from / written to the YAML schema in docs/project-format.md.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "core/MapspaceConstraints.h"
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
    std::string description;       // free text for the reader (what stays, what moves, why); may be empty
};

// One entry of the project's `constraints:` list (docs/project-format.md), kept as written so
// that the writer can round-trip it. Timeloop's constraint types: temporal (factors,
// permutation), spatial (factors, spatial axes), bypass (keep, bypass), utilization (min).
struct ProjectConstraint {
    enum class Type { Temporal, Spatial, Bypass, Utilization };
    Type type = Type::Temporal;
    std::string target;                    // level name (empty for utilization)
    std::string workload;                  // empty = every layer of the project
    std::vector<FactorConstraint> factors; // level = target, spatial = (type == Spatial)
    std::vector<std::string> permutation;  // temporal: fixed innermost prefix (innermost first)
    bool hasAxes = false;                  // spatial: split / spatial_x / spatial_y given
    std::vector<std::string> axisX, axisY; // dimensions allowed on X and on Y
    std::vector<std::string> keep, bypass; // bypass type: tensor names
    double minUtilization = 0.0;           // utilization type
};

std::string projectConstraintTypeName(ProjectConstraint::Type t);  // "temporal", "spatial", ...

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
    std::vector<ProjectConstraint> constraints;  // mapspace constraints for searches

    // The constraints that apply to `w`: entries for every layer and entries naming w.name.
    // Dimensions and tensors that `w` lacks are left out (a factor constraint on a missing
    // dimension is kept only when it cannot hold, e.g. D=2 or D>=2, so that the mapspace reports it).
    MapspaceConstraints constraintsFor(const Workload& w) const;

    const ProjectWorkload* findWorkload(const std::string& name) const;
    const ProjectNetwork* findNetwork(const std::string& name) const;
    // The workloads of network `n` in network order, each once (repeats and names that are
    // not workloads of the project left out): what a per-layer solver or search works on.
    std::vector<const ProjectWorkload*> distinctLayers(const ProjectNetwork& n) const;
    const ProjectMapping* findMapping(const std::string& name) const;
    // The mapping named by `name`, or the job default, or the first mapping. nullptr if none.
    const ProjectMapping* selectMapping(const std::string& name = {}) const;
};

} // namespace nestor
