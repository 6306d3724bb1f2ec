#pragma once
// The four mapspaces of the Ruby paper: perfect factorization (PFM, Timeloop's default),
// Ruby (remainders at every loop slot), Ruby-S (remainders only at spatial slots) and
// Ruby-T (remainders only at temporal slots).
#include <optional>
#include <string>
#include <vector>

namespace nestor {

enum class MapspaceKind { Pfm, Ruby, RubyS, RubyT };

std::string mapspaceKindName(MapspaceKind k);                       // "pfm", "ruby", "ruby-s", "ruby-t"
std::optional<MapspaceKind> parseMapspaceKind(const std::string& name);  // case-insensitive; nullopt if unknown
std::vector<MapspaceKind> allMapspaceKinds();
bool allowsTemporalRemainders(MapspaceKind k);
bool allowsSpatialRemainders(MapspaceKind k);

} // namespace nestor
