#pragma once
// Reading a whole input file, for every reader of the engine (project YAML, Timeloop cases, VTA
// vectors): one place that tells a missing, unreadable or directory path apart.
#include <string>

namespace nestor {

// The whole file's bytes; a NestorError located at `path` when it cannot be opened or read, or
// is a directory (which a stream opens and reads nothing from: it would pass as an empty file).
std::string readTextFile(const std::string& path);

} // namespace nestor
