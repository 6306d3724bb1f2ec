#include "solvers/thistle/Polish.h"

#include "model/Model.h"
#include "solvers/thistle/NestMapping.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace nestor::thistle {

namespace {

std::vector<std::int64_t> distinctPrimeFactors(std::int64_t n)
{
    std::vector<std::int64_t> p;
    for (std::int64_t f = 2; f * f <= n; ++f)
        if (n % f == 0) {
            p.push_back(f);
            while (n % f == 0) n /= f;
        }
    if (n > 1) p.push_back(n);
    return p;
}

std::int64_t powerOfTwoAtLeast(double words)
{
    std::int64_t p = 1;
    while (static_cast<double>(p) < words && p < (std::int64_t{1} << 62)) p *= 2;
    return p;
}

// Swaps adjacent loops of one level's order where both run (a swap with a loop of one
// iteration changes nothing).
void addSwaps(std::vector<PolishNeighbour>& out, const ThistleLayer& L, const Permutation& perm, const std::vector<std::int64_t>& trips,
              bool dramLevel)
{
    const std::vector<int>& order = dramLevel ? perm.dram : perm.sram;
    const std::vector<int>& var = dramLevel ? L.varDram : L.varSram;
    auto runs = [&](int d) { return trips[static_cast<std::size_t>(var[static_cast<std::size_t>(d)])] > 1; };
    for (std::size_t i = 0; i + 1 < order.size(); ++i) {
        if (!runs(order[i]) || !runs(order[i + 1])) continue;
        PolishNeighbour n{perm, trips};
        std::swap((dramLevel ? n.perm.dram : n.perm.sram)[i], (dramLevel ? n.perm.dram : n.perm.sram)[i + 1]);
        out.push_back(std::move(n));
    }
}

// The design's capacities, or nothing when it does not fit: in co-design the smallest powers
// of two holding the tiles, P = the PEs used, inside the area; on a fixed architecture its
// capacities and PEs. Only the tiles are counted; `full` adds the solver's figures.
std::optional<RoundedCandidate> sizeDesign(const ProgramSpec& spec, ExactCounter& counter, const std::vector<std::int64_t>& trips, bool full)
{
    const ThistleCounts k = counter.tiles(trips);
    RoundedCandidate rc;
    rc.trips = trips;
    rc.pes = static_cast<std::int64_t>(k.peUsed);
    if (spec.codesign) {
        rc.registers = powerOfTwoAtLeast(k.rfFootprint);
        rc.sramWords = powerOfTwoAtLeast(k.sramFootprint);
        rc.area_um2 = designArea_um2(spec.tech, rc.registers, rc.sramWords, k.peUsed);
        if (rc.area_um2 > spec.area_um2) return std::nullopt;
    } else {
        if (k.rfFootprint > spec.registers || k.sramFootprint > spec.sramWords || k.peUsed > spec.pes) return std::nullopt;
        rc.registers = static_cast<std::int64_t>(spec.registers);
        rc.sramWords = static_cast<std::int64_t>(spec.sramWords);
    }
    rc.counts = k;
    if (full) {
        rc.counts = counter(trips);
        rc.solverEnergy_pJ = solverEnergy_pJ(spec, rc.counts, rc.registers, rc.sramWords);
        rc.solverCycles = rc.counts.cycles(spec.bw);
    }
    return rc;
}

using DesignKey = std::vector<std::int64_t>;

DesignKey keyOf(const Permutation& perm, const std::vector<std::int64_t>& trips)
{
    DesignKey k(perm.dram.begin(), perm.dram.end());
    k.insert(k.end(), perm.sram.begin(), perm.sram.end());
    k.insert(k.end(), trips.begin(), trips.end());
    return k;
}

struct KeyHash {
    std::size_t operator()(const std::vector<std::int64_t>& k) const
    {
        std::uint64_t h = 1469598103934665603ull;
        for (std::int64_t v : k) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
        return static_cast<std::size_t>(h);
    }
};

} // namespace

namespace {

struct FactorMove {
    int from, to;
    std::int64_t factor;
};

// Every factor (each distinct prime, or with `anyDivisor` every divisor above 1) of each trip
// count moved to another loop of its dimension.
std::vector<FactorMove> factorMoves(const ThistleLayer& L, const std::vector<std::int64_t>& trips, bool anyDivisor)
{
    std::vector<FactorMove> out;
    for (int d : L.tiled) {
        const std::size_t du = static_cast<std::size_t>(d);
        const int vars[4] = {L.varDram[du], L.varSram[du], L.varPe[du], L.varReg[du]};
        for (int from : vars) {
            const std::int64_t t = trips[static_cast<std::size_t>(from)];
            for (std::int64_t f : anyDivisor ? divisorsOf(t) : distinctPrimeFactors(t)) {
                if (f == 1) continue;
                for (int to : vars)
                    if (to != from) out.push_back({from, to, f});
            }
        }
    }
    return out;
}

bool apply(std::vector<std::int64_t>& trips, const FactorMove& m)
{
    std::int64_t& from = trips[static_cast<std::size_t>(m.from)];
    if (from % m.factor != 0) return false;
    from /= m.factor;
    trips[static_cast<std::size_t>(m.to)] *= m.factor;
    return true;
}

} // namespace

std::vector<PolishNeighbour> polishNeighbours(const ThistleLayer& L, const Permutation& perm, const std::vector<std::int64_t>& trips)
{
    std::vector<PolishNeighbour> out;
    for (const FactorMove& m : factorMoves(L, trips, true)) {
        PolishNeighbour n{perm, trips};
        apply(n.trips, m);
        out.push_back(std::move(n));
    }
    addSwaps(out, L, perm, trips, true);
    addSwaps(out, L, perm, trips, false);
    return out;
}

namespace {

// Calls fn(neighbour) for each pair of prime moves, one at a time: there can be tens of
// thousands of them, not worth holding at once. fn returns false to stop.
template <class Fn>
void forEachPairNeighbour(const ThistleLayer& L, const Permutation& perm, const std::vector<std::int64_t>& trips, Fn&& fn)
{
    const std::vector<FactorMove> moves = factorMoves(L, trips, false);
    PolishNeighbour n{perm, trips};
    for (std::size_t i = 0; i < moves.size(); ++i)
        for (std::size_t j = i + 1; j < moves.size(); ++j) {
            n.trips = trips;
            apply(n.trips, moves[i]);
            if (!apply(n.trips, moves[j])) continue;
            if (!fn(n)) return;
        }
}

} // namespace

std::vector<PolishNeighbour> polishPairNeighbours(const ThistleLayer& L, const Permutation& perm, const std::vector<std::int64_t>& trips)
{
    std::vector<PolishNeighbour> out;
    forEachPairNeighbour(L, perm, trips, [&](const PolishNeighbour& n) {
        out.push_back(n);
        return true;
    });
    return out;
}

namespace {

// A design during the climb: what identifies it and the two figures that rank it (the full
// evaluation is rebuilt only for the result: thousands of designs are scored per layer).
struct Design {
    Permutation perm;
    std::vector<std::int64_t> trips;
    double energy_pJ = 0.0, cycles = 0.0;
};

bool better(const Design& a, const Design& b, Objective o) { return betterFigures(a.energy_pJ, a.cycles, b.energy_pJ, b.cycles, o); }

class Climber {
public:
    Climber(const ThistleLayer& L, const Architecture& base, const ProgramSpec& spec, const OptimizeOptions& o)
        : L_(L), base_(base), spec_(spec), o_(o)
    {
    }

    // The budget counts the designs scored by the model and, so that a layer with huge trip
    // counts (thousands of divisors, hence of neighbours that do not fit) cannot stall the
    // climb, the designs sized at all (20 per evaluation allowed).
    bool stopped() const
    {
        return stats.evaluations >= o_.polishEvaluations || sized_ >= 20 * static_cast<std::int64_t>(o_.polishEvaluations) ||
               (o_.cancel && o_.cancel->load());
    }

    // The design scored by the cost model, once per design whichever climb reaches it; nullopt
    // when it does not fit or the model refuses it.
    const std::optional<Design>& score(const PolishNeighbour& n)
    {
        auto [it, fresh] = scored_.try_emplace(keyOf(n.perm, n.trips));
        if (!fresh) return it->second;
        PerPermutation& pp = perPermutation(n.perm);
        ++sized_;
        if (const std::optional<RoundedCandidate> rc = sizeDesign(spec_, *pp.counter, n.trips, false)) {
            const Mapping m = toMapping(pp.nest, n.trips, L_.w.name + "-thistle");
            const Evaluation e = evaluate(L_.w, spec_.codesign ? architecture(*rc) : base_, m, ModelOptions{});
            ++stats.evaluations;
            if (e.valid) it->second = Design{n.perm, n.trips, e.energy_pJ, static_cast<double>(e.cycles)};
        }
        return it->second;
    }

    // The result in full: sizes, the solver's figures, the architecture, the model's evaluation.
    SolvedCandidate rebuild(const Design& d)
    {
        PerPermutation& pp = perPermutation(d.perm);
        const std::optional<RoundedCandidate> rc = sizeDesign(spec_, *pp.counter, d.trips, true);
        return scoreDesign(L_, base_, spec_.codesign, d.perm, pp.nest, *rc);
    }

    // Best-improvement steps until no neighbour improves (pairs of factor moves looked at only
    // where no single move improves, and only with `pairs`) or the budget is spent.
    Design climb(Design current, bool pairs)
    {
        while (!stopped()) {
            const Design* step = nullptr;
            auto consider = [&](const PolishNeighbour& n) {
                if (stopped()) return false;
                const std::optional<Design>& d = score(n);
                if (d && better(*d, step ? *step : current, o_.objective)) step = &*d;
                return true;
            };
            for (const PolishNeighbour& n : polishNeighbours(L_, current.perm, current.trips))
                if (!consider(n)) break;
            // A factor traded between two dimensions keeps the PEs used (or a capacity) the
            // same, which no single move does.
            if (!step && pairs) forEachPairNeighbour(L_, current.perm, current.trips, consider);
            if (!step) break;
            current = *step;
            ++stats.improvements;
        }
        return current;
    }

    // A random jump of `moves` neighbour steps that fits, from which to climb again (iterated
    // local search); nullopt when no jump that fits was found.
    std::optional<Design> kick(const Design& from, std::mt19937_64& rng, int moves)
    {
        for (int attempt = 0; attempt < 8 && !stopped(); ++attempt) {
            PolishNeighbour n{from.perm, from.trips};
            for (int k = 0; k < moves; ++k) {
                std::vector<PolishNeighbour> next = polishNeighbours(L_, n.perm, n.trips);
                if (next.empty()) break;
                n = std::move(next[std::uniform_int_distribution<std::size_t>(0, next.size() - 1)(rng)]);
            }
            if (const std::optional<Design>& d = score(n)) return *d;
        }
        return std::nullopt;
    }

    PolishStats stats;

private:
    const ThistleLayer& L_;
    const Architecture& base_;
    const ProgramSpec& spec_;
    const OptimizeOptions& o_;
    std::unordered_map<DesignKey, std::optional<Design>, KeyHash> scored_;
    std::int64_t sized_ = 0;

    // Per loop order: the nest and Algorithm 1's expressions (built once).
    struct PerPermutation {
        TileNest nest;
        std::unique_ptr<ExactCounter> counter;
    };
    std::map<std::pair<std::vector<int>, std::vector<int>>, PerPermutation> perPermutation_;
    PerPermutation& perPermutation(const Permutation& perm)
    {
        auto [it, fresh] = perPermutation_.try_emplace({perm.dram, perm.sram});
        if (fresh) {
            it->second.nest = buildNest(L_, perm);
            it->second.counter = std::make_unique<ExactCounter>(L_, it->second.nest);
        }
        return it->second;
    }

    // Co-designed architectures by (R, S, P): many designs share one.
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, Architecture> architectures_;
    const Architecture& architecture(const RoundedCandidate& rc)
    {
        auto [it, fresh] = architectures_.try_emplace({rc.registers, rc.sramWords, rc.pes});
        if (fresh) it->second = codesignArchitecture(base_, rc.registers, rc.sramWords, rc.pes);
        return it->second;
    }
};

} // namespace

SolvedCandidate polishDesigns(const ThistleLayer& L, const Architecture& base, const ProgramSpec& spec, const OptimizeOptions& o,
                              const std::vector<const SolvedCandidate*>& starts, PolishStats* stats)
{
    if (starts.empty()) throw std::invalid_argument("polishDesigns needs a start");
    Climber climber(L, base, spec, o);
    // The starts compete as they are (a start's own architecture may differ from the sized one).
    const SolvedCandidate* bestStart = starts.front();
    for (const SolvedCandidate* s : starts)
        if (betterEvaluation(s->eval, bestStart->eval, o.objective)) bestStart = s;
    auto asDesign = [](const SolvedCandidate& c) { return Design{c.perm, c.trips, c.eval.energy_pJ, static_cast<double>(c.eval.cycles)}; };
    std::optional<Design> best;
    for (const SolvedCandidate* start : starts) {
        if (climber.stopped()) break;
        ++climber.stats.starts;
        const Design reached = climber.climb(asDesign(*start), true);
        if (!best || better(reached, *best, o.objective)) best = reached;
    }
    // Iterated local search with what is left of the budget: jump a few moves away from the
    // best design and climb again (single moves), keep what improves. A fixed seed: the same
    // input gives the same design.
    std::mt19937_64 rng(0x7157);
    for (int kicks = 0; best && !climber.stopped() && kicks < o.polishKicks; ++kicks) {
        const std::optional<Design> jumped = climber.kick(*best, rng, 3);
        if (!jumped) break;
        const Design reached = climber.climb(*jumped, false);
        if (better(reached, *best, o.objective)) best = reached;
    }
    if (stats) *stats = climber.stats;
    if (!best || !better(*best, asDesign(*bestStart), o.objective)) return *bestStart;
    // The result rebuilt in full (its sizes as the climb sized them).
    SolvedCandidate out = climber.rebuild(*best);
    out.relaxedObjective = bestStart->relaxedObjective;
    return out;
}

} // namespace nestor::thistle
