#pragma once
// Located errors: every validation problem names where it comes from, either a
// file:line:column (YAML input) or a field path (values built in code).
#include <stdexcept>
#include <string>
#include <vector>

namespace nestor {

struct SourceLocation {
    std::string file;   // empty when the value was not read from a file
    int line = 0;       // 1-based; 0 = unknown
    int column = 0;     // 1-based; 0 = unknown
    std::string toString() const;
};

struct Diagnostic {
    std::string field;        // field path, e.g. "architecture.levels[2].size_words"
    std::string message;
    SourceLocation location;  // optional, filled by the YAML readers
    std::string toString() const;  // "file:line:col: field: message" (parts present only)
};

using Diagnostics = std::vector<Diagnostic>;

// Thrown by readers and builders when input cannot be turned into a value.
class NestorError : public std::runtime_error {
public:
    explicit NestorError(Diagnostics diags);
    NestorError(std::string field, std::string message, SourceLocation loc = {});
    const Diagnostics& diagnostics() const { return diags_; }
private:
    static std::string join(const Diagnostics& d);
    Diagnostics diags_;
};

} // namespace nestor
