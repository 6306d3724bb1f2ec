#include "common/TextFile.h"

#include "common/Error.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace nestor {

std::string readTextFile(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw NestorError("", "a directory, not a file", SourceLocation{path, 0, 0});
    std::ifstream in(path, std::ios::binary);
    if (!in) throw NestorError("", "cannot open file '" + path + "'", SourceLocation{path, 0, 0});
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw NestorError("", "cannot read file '" + path + "'", SourceLocation{path, 0, 0});
    return ss.str();
}

} // namespace nestor
