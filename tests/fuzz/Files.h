#pragma once
// Small file helpers of the harness.
#include <filesystem>
#include <string>
#include <vector>

namespace nestor::fuzz {

std::string readFile(const std::filesystem::path& p);
void writeFile(const std::filesystem::path& p, const std::string& text);  // creates parent folders
void resetDir(const std::filesystem::path& p);                            // empty folder at p
// Copies the regular files under `from` (recursively, skipping names starting with '.') into `to`.
void copyTree(const std::filesystem::path& from, const std::filesystem::path& to);
// Files of `dir` whose name ends with `suffix`, sorted by name (deterministic campaigns); names
// starting with '_' or '.' are scratch files, not seeds.
std::vector<std::filesystem::path> listFiles(const std::filesystem::path& dir, const std::string& suffix);
// A command line a shell reads back as the same argument vector.
std::string shellJoin(const std::vector<std::string>& args);

} // namespace nestor::fuzz
