#include "Files.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace nestor::fuzz {

std::string readFile(const fs::path& p)
{
    std::ifstream f(p, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + p.string());
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

void writeFile(const fs::path& p, const std::string& text)
{
    if (p.has_parent_path()) fs::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + p.string());
}

void resetDir(const fs::path& p)
{
    fs::remove_all(p);
    fs::create_directories(p);
}

void copyTree(const fs::path& from, const fs::path& to)
{
    for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator(); ++it) {
        const std::string name = it->path().filename().string();
        if (!name.empty() && name[0] == '.') {
            if (it->is_directory()) it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file()) continue;
        const fs::path dest = to / fs::relative(it->path(), from);
        fs::create_directories(dest.parent_path());
        fs::copy_file(it->path(), dest, fs::copy_options::overwrite_existing);
        fs::permissions(dest, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
    }
}

std::vector<fs::path> listFiles(const fs::path& dir, const std::string& suffix)
{
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && name[0] != '_' && name[0] != '.' && name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string shellJoin(const std::vector<std::string>& args)
{
    std::string s;
    for (const auto& a : args) {
        if (!s.empty()) s += ' ';
        const bool plain = !a.empty() && std::all_of(a.begin(), a.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_./=,:+@").find(c) != std::string_view::npos;
        });
        if (plain) {
            s += a;
        } else {
            s += '\'';
            for (char c : a) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
            s += '\'';
        }
    }
    return s;
}

} // namespace nestor::fuzz
