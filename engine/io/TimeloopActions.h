#pragma once
// Timeloop's action-name priority lists (tests/data/timeloop/semantics.md, section 5): which ERT
// action prices a read, a fill, an update and a MAC. Shared by the reference-case reader and the
// Accelergy ERT reader so that both resolve names the same way.
#include <string>
#include <vector>

namespace nestor::timeloop {

inline const std::vector<std::string>& readActionNames()
{
    static const std::vector<std::string> names = {"random_read", "read"};
    return names;
}
inline const std::vector<std::string>& fillActionNames()
{
    static const std::vector<std::string> names = {"random_fill", "random_write", "fill", "write"};
    return names;
}
inline const std::vector<std::string>& updateActionNames()
{
    static const std::vector<std::string> names = {"random_update", "random_write", "update", "write"};
    return names;
}
inline const std::vector<std::string>& computeActionNames()
{
    static const std::vector<std::string> names = {"mac_random", "mult_random", "mac", "mult", "compute"};
    return names;
}

inline std::string joinActionNames(const std::vector<std::string>& names)
{
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

} // namespace nestor::timeloop
