#pragma once
// The readers behind importTimeloop() (io/TimeloopImport.h), one per kind of Timeloop input.
// Internal to engine/io. Each throws NestorError located at the offending value
// (file:line:column, field path) and appends what it ignores to `warnings`.
#include "arch/Architecture.h"
#include "core/Project.h"
#include "io/YamlUtil.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <optional>
#include <string>
#include <vector>

namespace nestor::timeloopimport {

using Warnings = std::vector<std::string>;

// The first of `keys` that the map holds (Timeloop accepts "block-size" and "block_size"
// alike: its reader rewrites hyphenated keywords to underscores); undefined when none.
yamlio::YamlRef getAny(const yamlio::YamlRef& map, std::initializer_list<const char*> keys);

// "a warning at file:line:column: field: text" for the warnings list.
std::string locatedWarning(const yamlio::YamlRef& at, const std::string& text);

// The shape Timeloop's installation ships under `name` (`cnn-layer`, `gemm-ABZ`, ...; with or
// without a .yaml/.cfg extension) as the YAML text of a `shape:` map; nullopt for other names.
std::optional<std::string> bundledTimeloopShape(const std::string& name);
// Those names, comma-separated (for an error naming the choices).
std::string bundledTimeloopShapeNames();

// `problem:` (shape + instance; v0.3 and v0.4 alike) -> a workload with its dimensions in
// declaration order. Dimension names are one character, as Timeloop requires. A shape given by
// name, or none (Timeloop assumes cnn-layer, with a warning), is one Timeloop ships.
Workload readTimeloopProblem(const yamlio::YamlRef& problem, Warnings& warnings);

// The `constraints:` a v0.4 node carries ({dataspace, temporal, spatial}), with the level they
// constrain: a !Component's own, a !Container's the zero-size level holding its fanout.
struct NodeConstraints {
    std::string target;
    yamlio::YamlRef constraints;
};

// `architecture:` in the v0.2/v0.3 tree form (`subtree` / `local`, also the v0.4 processed
// form with `[1..N]` ranges) or the v0.4 front-end form (`nodes` with !Container / !Component).
// Levels outermost first; energies left 0 (see readTimeloopErt). The nodes' constraints go to
// `nodeConstraints` (they need the workload: readTimeloopNodeConstraints).
Architecture readTimeloopArchitecture(const yamlio::YamlRef& arch, Warnings& warnings,
                                      std::vector<NodeConstraints>& nodeConstraints);

// An Accelergy ERT (`ERT: {version, tables}`) -> every level's per-action energies, by the
// component name at the end of each table's dotted name.
void applyTimeloopErt(const yamlio::YamlRef& ert, Architecture& arch, Warnings& warnings);

// `mapping:` (a list of directives) -> a mapping valid for `w` and `a`.
Mapping readTimeloopMapping(const yamlio::YamlRef& mapping, const Workload& w, const Architecture& a,
                            Warnings& warnings);

// Timeloop constraints (a list, or a map holding `targets` or `constraints`) -> project
// constraints, each with the entry it came from (for locating the project reader's checks).
void readTimeloopConstraints(const yamlio::YamlRef& node, const Workload& w, const Architecture& a,
                             std::vector<ProjectConstraint>& out, std::vector<yamlio::YamlRef>& sources,
                             Warnings& warnings);
void readTimeloopNodeConstraints(const NodeConstraints& node, const Workload& w, const Architecture& a,
                                 std::vector<ProjectConstraint>& out, std::vector<yamlio::YamlRef>& sources,
                                 Warnings& warnings);

} // namespace nestor::timeloopimport
