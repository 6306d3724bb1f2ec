#pragma once
// The parts of a Diagnostic's field path, so that a view can put an error on the row it is
// about without parsing message strings. Paths are dot-separated names, each with an optional
// bracketed key: "mapping.levels[GLB].temporal[2]", "architecture.levels[1].size_words",
// "workload.dimensions.P", "workload.tensors[1].ranks[0]", "mapping.factors.P".
#include <optional>
#include <string>
#include <vector>

namespace nestor {

struct FieldPathPart {
    std::string name;                 // "levels"
    std::optional<std::string> key;   // "GLB" in levels[GLB]; nullopt without brackets
};

struct FieldLocation {
    std::string section;                  // the first name: "mapping", "architecture", "workload", ...
    std::optional<std::string> level;     // the key of levels[...]: a level's name or its index
    std::optional<std::string> loopKind;  // "temporal", "spatial_x" or "spatial_y" after a level
    std::optional<int> loopIndex;         // its bracketed position, when given
    std::optional<std::string> dimension; // dimensions.P, dimensions[3] or factors.P: "P" or "3"
    std::optional<std::string> tensor;    // tensors.Inputs or tensors[1]: "Inputs" or "1"

    // True when `level` names the level at `index` called `name` (paths use either).
    bool namesLevel(int index, const std::string& name) const;
};

// Throws NestorError("field", ...) for an unbalanced bracket or an empty name.
std::vector<FieldPathPart> splitFieldPath(const std::string& path);

// The level, loop, dimension and tensor a field path names; what it does not name stays empty.
FieldLocation locateField(const std::string& path);

} // namespace nestor
