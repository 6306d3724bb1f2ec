#include "common/Error.h"

namespace nestor {

std::string SourceLocation::toString() const
{
    if (file.empty() && line == 0) return {};
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        s += ":" + std::to_string(line);
        if (column > 0) s += ":" + std::to_string(column);
    }
    return s;
}

std::string Diagnostic::toString() const
{
    std::string s = location.toString();
    if (!s.empty()) s += ": ";
    if (!field.empty()) s += field + ": ";
    return s + message;
}

NestorError::NestorError(Diagnostics diags) : std::runtime_error(join(diags)), diags_(std::move(diags)) {}

NestorError::NestorError(std::string field, std::string message, SourceLocation loc)
    : NestorError(Diagnostics{Diagnostic{std::move(field), std::move(message), std::move(loc)}})
{
}

std::string NestorError::join(const Diagnostics& d)
{
    std::string s;
    for (const auto& x : d) {
        if (!s.empty()) s += "\n";
        s += x.toString();
    }
    return s;
}

} // namespace nestor
