#pragma once
// Mapspace constraints in the spirit of Timeloop's (semantics.md section 7), named by level,
// dimension and tensor names so that they can be written before a mapspace exists:
//   factors      per level and dimension: D=n (fixed bound), D<=n, D>=n; temporal factors
//                bound the level's temporal loop, spatial factors the product of the level's
//                X and Y loops of that dimension;
//   permutation  a fixed innermost prefix of a level's temporal loops (innermost first);
//   spatial axes which dimensions may sit on the X and on the Y axis of a level ("C|K");
//   keep/bypass  per level and tensor;
//   utilization  a minimum compute utilization of the evaluated mapping.
// Part of the core (engine/core), next to the Project that stores them; the mapspaces apply them.
#include "arch/Architecture.h"
#include "common/Error.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

struct FactorConstraint {
    enum class Op { Eq, Le, Ge };
    std::string level;
    bool spatial = false;
    std::string dim;
    Op op = Op::Eq;
    std::int64_t value = 1;
    bool operator==(const FactorConstraint&) const = default;
};

struct PermutationConstraint {
    std::string level;
    std::vector<std::string> innermostFirst;  // dimension names
    bool operator==(const PermutationConstraint&) const = default;
};

struct SpatialAxisConstraint {
    std::string level;
    std::vector<std::string> x;  // dimensions allowed on X (all others get factor 1 there)
    std::vector<std::string> y;
    bool operator==(const SpatialAxisConstraint&) const = default;
};

struct KeepConstraint {
    std::string level;
    std::string tensor;
    bool keep = true;
    bool operator==(const KeepConstraint&) const = default;
};

struct MapspaceConstraints {
    std::vector<FactorConstraint> factors;
    std::vector<PermutationConstraint> permutations;
    std::vector<SpatialAxisConstraint> spatialAxes;
    std::vector<KeepConstraint> keeps;
    double minUtilization = 0.0;
    bool operator==(const MapspaceConstraints&) const = default;

    // Builders from Timeloop-like strings. They throw NestorError on a malformed string;
    // names are checked against a workload and architecture only by resolve()/check().
    // "C=4 M<=8 P>=2" (whitespace separated)
    MapspaceConstraints& addFactors(const std::string& level, bool spatial, const std::string& spec);
    // "QS" (single-letter dimensions) or "Q S" / "Q,S": innermost first
    MapspaceConstraints& addPermutation(const std::string& level, const std::string& innermostFirst);
    // "C|K": C may use X, K may use Y; "QM|SC" several per axis; an empty side forbids the axis
    MapspaceConstraints& addSpatialAxes(const std::string& level, const std::string& spec);
    MapspaceConstraints& addKeep(const std::string& level, const std::vector<std::string>& tensors);
    MapspaceConstraints& addBypass(const std::string& level, const std::vector<std::string>& tensors);

    // Unknown level, dimension or tensor names, contradictory factors.
    Diagnostics validate(const Workload& w, const Architecture& a, const std::string& prefix = "constraints") const;
};

// Splits a dimension list: whitespace or comma separated, or one letter per dimension.
std::vector<std::string> splitDimensionList(const std::string& s);

// Checks a mapping against the constraints, independently of how the mapspace generates
// mappings: every violated constraint is one diagnostic. Utilization is not checked here.
Diagnostics checkConstraints(const MapspaceConstraints& c, const Mapping& m, const Workload& w, const Architecture& a);
// The minimum-utilization constraint on an evaluation's utilization (a number, not the
// Evaluation, so that the constraint types stay below the cost model: Project holds them).
bool meetsUtilization(const MapspaceConstraints& c, double utilization);

} // namespace nestor
