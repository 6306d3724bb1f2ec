#pragma once
// Atomic file replacement: the content goes to a temporary file in the target's folder,
// is flushed to disk (fsync), then renamed over the target, so readers see either the old
// or the new file, never a partial one. Throws NestorError naming the file on failure.
#include <string>

namespace nestor {

void writeFileAtomically(const std::string& path, const std::string& content);

} // namespace nestor
