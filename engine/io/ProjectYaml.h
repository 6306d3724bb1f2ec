#pragma once
// Nestor project files (docs/project-format.md): reading with includes and located
// errors, and writing back (read(write(p)) == p). The writer inlines included content.
#include "core/Project.h"

#include <string>

namespace nestor {

// Reads a project file; includes are resolved relative to the including file. Throws
// NestorError ("file:line:column: field: message", possibly several lines).
Project readProject(const std::string& path);
// Same from text; `pathForMessages` names the text in errors and anchors relative includes.
Project parseProject(const std::string& yamlText, const std::string& pathForMessages);

// The project as a self-contained YAML document (no includes).
std::string writeProject(const Project& project);
// writeProject() to `path`, atomically (see io/AtomicFile.h).
void saveProject(const Project& project, const std::string& path);

} // namespace nestor
