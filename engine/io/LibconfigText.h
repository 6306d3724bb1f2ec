#pragma once
// Timeloop's older inputs are libconfig files (its configs/*.cfg, problem-shapes/*.cfg): the same
// trees as its YAML inputs in another syntax. libconfigToYaml rewrites one as YAML flow text with
// every line where it was, so that the YAML reader's positions (file:line) stay those of the
// .cfg file.
//
// Read: groups `{ name = value; ... }` (`=` or `:`, `;` or `,` or nothing after a setting), lists
// `( ... )`, arrays `[ ... ]`, double-quoted strings with libconfig's escapes (adjacent strings
// joined), integers (decimal or 0x hex, an L or LL suffix), floats, booleans (any case),
// `#`, `//` and `/* */` comments. Refused with a located error: `@include`, anything else.
#include <string>

namespace nestor {

// True for a file name ending in .cfg (any case): Timeloop's libconfig inputs.
bool isLibconfigPath(const std::string& path);

// Throws NestorError located at file:line:column on a libconfig syntax error.
std::string libconfigToYaml(const std::string& text, const std::string& file);

} // namespace nestor
