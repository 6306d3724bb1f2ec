#include "common/FieldPath.h"

#include "common/Error.h"

#include <cctype>

namespace nestor {
namespace {

std::optional<int> indexOf(const std::optional<std::string>& key)
{
    if (!key || key->empty() || key->size() > 9) return std::nullopt;
    for (char c : *key)
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    return std::stoi(*key);
}

} // namespace

bool FieldLocation::namesLevel(int index, const std::string& name) const
{
    return level && (*level == name || *level == std::to_string(index));
}

std::vector<FieldPathPart> splitFieldPath(const std::string& path)
{
    std::vector<FieldPathPart> parts;
    std::size_t i = 0;
    while (i < path.size()) {
        FieldPathPart part;
        while (i < path.size() && path[i] != '.' && path[i] != '[') part.name += path[i++];
        if (i < path.size() && path[i] == '[') {
            // A key runs to its closing bracket and may hold dots (a level named "L1.5").
            const std::size_t close = path.find(']', i);
            if (close == std::string::npos) throw NestorError("field", "unbalanced '[' in field path '" + path + "'");
            part.key = path.substr(i + 1, close - i - 1);
            i = close + 1;
            if (i < path.size() && path[i] != '.')
                throw NestorError("field", "expected '.' after ']' in field path '" + path + "'");
        }
        if (part.name.empty()) throw NestorError("field", "empty name in field path '" + path + "'");
        parts.push_back(std::move(part));
        if (i < path.size()) {
            ++i;  // the '.'
            if (i == path.size()) throw NestorError("field", "field path '" + path + "' ends with '.'");
        }
    }
    return parts;
}

FieldLocation locateField(const std::string& path)
{
    FieldLocation loc;
    const std::vector<FieldPathPart> parts = splitFieldPath(path);
    if (parts.empty()) return loc;
    loc.section = parts.front().name;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const FieldPathPart& p = parts[i];
        const FieldPathPart* next = i + 1 < parts.size() ? &parts[i + 1] : nullptr;
        if (p.name == "levels" && p.key) {
            loc.level = p.key;
        } else if (loc.level && (p.name == "temporal" || p.name == "spatial_x" || p.name == "spatial_y")) {
            loc.loopKind = p.name;
            loc.loopIndex = indexOf(p.key);
        } else if (p.name == "dimensions" || p.name == "factors") {
            if (p.key) loc.dimension = p.key;
            else if (next && !next->key) loc.dimension = next->name;
        } else if (p.name == "tensors") {
            if (p.key) loc.tensor = p.key;
            else if (next) loc.tensor = next->name;
        }
    }
    return loc;
}

} // namespace nestor
