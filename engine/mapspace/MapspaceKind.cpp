#include "mapspace/MapspaceKind.h"

#include <algorithm>
#include <cctype>

namespace nestor {

std::string mapspaceKindName(MapspaceKind k)
{
    switch (k) {
    case MapspaceKind::Pfm: return "pfm";
    case MapspaceKind::Ruby: return "ruby";
    case MapspaceKind::RubyS: return "ruby-s";
    case MapspaceKind::RubyT: return "ruby-t";
    }
    return "pfm";
}

std::optional<MapspaceKind> parseMapspaceKind(const std::string& name)
{
    std::string n = name;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::replace(n.begin(), n.end(), '_', '-');
    for (MapspaceKind k : allMapspaceKinds())
        if (mapspaceKindName(k) == n) return k;
    if (n == "perfect" || n == "uber") return MapspaceKind::Pfm;
    return std::nullopt;
}

std::vector<MapspaceKind> allMapspaceKinds()
{
    return {MapspaceKind::Pfm, MapspaceKind::Ruby, MapspaceKind::RubyS, MapspaceKind::RubyT};
}

bool allowsTemporalRemainders(MapspaceKind k) { return k == MapspaceKind::Ruby || k == MapspaceKind::RubyT; }
bool allowsSpatialRemainders(MapspaceKind k) { return k == MapspaceKind::Ruby || k == MapspaceKind::RubyS; }

} // namespace nestor
