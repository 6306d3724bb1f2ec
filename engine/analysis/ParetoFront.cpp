#include "analysis/ParetoFront.h"

namespace nestor {

bool dominates(const std::vector<double>& a, const std::vector<double>& b)
{
    bool strictly = false;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (a[i] > b[i]) return false;
        if (a[i] < b[i]) strictly = true;
    }
    return strictly;
}

std::vector<std::size_t> paretoFront(const std::vector<std::vector<double>>& points)
{
    std::vector<std::size_t> front;
    for (std::size_t i = 0; i < points.size(); ++i) {
        bool dominated = false;
        for (std::size_t j = 0; j < points.size() && !dominated; ++j) dominated = j != i && dominates(points[j], points[i]);
        if (!dominated) front.push_back(i);
    }
    return front;
}

} // namespace nestor
