#pragma once
// YAML 1.1 merge keys (`<<: *anchor`, `<<: [*a, *b]`), which yaml-cpp 0.7 reads as an ordinary
// key named "<<". Timeloop users write them (the exercises' `<<: *default_buffer` macros); PyYAML,
// which Timeloop's Python front-end and Accelergy read inputs with, applies them. Internal helper
// of the io readers, run on every parsed tree (yamlio::parseText).
#include <yaml-cpp/yaml.h>

#include <string>

namespace nestor::yamlio {

// Replaces every plain `<<` key of every map in the tree by the entries of the map(s) it names,
// in place, as PyYAML does: the map's own keys win over merged ones, and of a list of maps the
// earlier ones win over the later. The merged entries take the place of the `<<` key; nodes
// keep their file positions. A merge value that is not a map or a list of maps is a
// NestorError located at its key ("file:line:column"). Shared (aliased) nodes are visited once.
void resolveMergeKeys(YAML::Node& root, const std::string& file);

} // namespace nestor::yamlio
