#include "search/AnnealingSearch.h"
#include "search/ExhaustiveSearch.h"
#include "search/RandomSearch.h"
#include "search/SearchAlgorithm.h"

namespace nestor {

std::uint64_t threadSeed(std::uint64_t seed, int threadId)
{
    // splitmix64 of (seed, thread): independent, reproducible streams per thread
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(threadId) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

const std::vector<SearchAlgorithmInfo>& searchAlgorithms()
{
    static const std::vector<SearchAlgorithmInfo> list = {
        {"exhaustive", "every point of the mapspace, split across threads (small spaces)",
         [](const SearchContext& c) { return std::make_unique<ExhaustiveSearch>(c); }},
        {"random", "uniform random factorizations, loop orders and keeps (Timeloop random)",
         [](const SearchContext& c) { return std::make_unique<RandomSearch>(c, RandomSearch::Mode::Random); }},
        {"random-pruned", "a random factorization, then several random loop orders",
         [](const SearchContext& c) { return std::make_unique<RandomSearch>(c, RandomSearch::Mode::RandomPruned); }},
        {"hybrid", "a random factorization, then loop orders each swept over all keep choices",
         [](const SearchContext& c) { return std::make_unique<RandomSearch>(c, RandomSearch::Mode::Hybrid); }},
        {"annealing", "simulated annealing on log(metric) with factor, order and keep moves",
         [](const SearchContext& c) { return std::make_unique<AnnealingSearch>(c); }},
    };
    return list;
}

const SearchAlgorithmInfo* findSearchAlgorithm(const std::string& name)
{
    for (const auto& a : searchAlgorithms())
        if (a.name == name) return &a;
    if (name == "random_pruned") return findSearchAlgorithm("random-pruned");
    return nullptr;
}

} // namespace nestor
