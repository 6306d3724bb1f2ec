#pragma once
// Small text helpers shared by the writers: exact number formatting and quoting for
// YAML, JSON and CSV.
#include <cstdint>
#include <string>

namespace nestor::text {

// Shortest text that reads back to exactly the same double ("512", "0.42564", "1e-09").
std::string shortest(double v);
// Fixed-point with at most `decimals` digits after the point, trailing zeros removed.
std::string fixed(double v, int decimals);
// Fixed-point with exactly `decimals` digits after the point (aligned table columns).
std::string padded(double v, int decimals);
// Thousands-grouped integer for human-readable tables: 12,345,678.
std::string grouped(std::int64_t v);

// A YAML scalar: plain when safe, otherwise double-quoted with escapes.
std::string yamlScalar(const std::string& s);
// A JSON string literal (quoted, escaped).
std::string jsonString(const std::string& s);
// A CSV field (quoted when it holds a comma, quote or line break).
std::string csvField(const std::string& s);

} // namespace nestor::text
