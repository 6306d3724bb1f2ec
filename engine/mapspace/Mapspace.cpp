#include "mapspace/Mapspace.h"

#include "mapspace/Divisors.h"
#include "mapspace/ExactCount.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace nestor {

namespace {

constexpr std::int64_t kMaxTupleSpace = std::int64_t(1) << 20;
constexpr long double kTableMemoryBudgetBytes = 128.0L * 1024 * 1024;
// A dimension's bound index keeps every candidate of every tile count while it holds at most
// this many runs in all (32 bytes each: 1 MB), else kMaxRunsPerCount per count.
constexpr std::size_t kWideRunsPerCount = std::size_t{1} << 20;
constexpr std::size_t kWideIndexRuns = std::size_t{1} << 15;

std::uint64_t factorial(int k)
{
    std::uint64_t f = 1;
    for (int i = 2; i <= k; ++i) {
        if (f > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(i))
            return std::numeric_limits<std::uint64_t>::max();
        f *= static_cast<std::uint64_t>(i);
    }
    return f;
}

bool holds(FactorConstraint::Op op, std::int64_t have, std::int64_t v)
{
    return op == FactorConstraint::Op::Eq ? have == v : op == FactorConstraint::Op::Le ? have <= v : have >= v;
}

} // namespace

Mapspace::Mapspace(Workload w, Architecture a, MapspaceKind kind, MapspaceConstraints c, MapspaceOptions opt,
                   const std::atomic<bool>* cancel)
    : w_(std::move(w)), a_(std::move(a)), kind_(kind), c_(std::move(c)), opt_(opt)
{
    MapspaceBuildGuard guard(cancel, kMaxTableBuildSteps);
    guard.poll();
    Diagnostics d = w_.validate();
    for (auto& x : a_.validate()) d.push_back(x);
    for (auto& x : c_.validate(w_, a_)) d.push_back(x);
    if (!d.empty()) throw NestorError(d);
    buildSlots();
    dims_.resize(w_.numDims());
    for (int dim = 0; dim < w_.numDims(); ++dim) buildDimension(dim, guard);
    buildCoupling(guard);
    guard.poll();
    if (total_ <= 0.0L) throw noFactorizationError();

    const int L = a_.numLevels(), T = w_.numTensors();
    fixedKeep_.assign(L, std::vector<int>(T, -1));
    for (int l = 0; l < L; ++l)
        for (int t = 0; t < T; ++t) {
            if (l == 0) fixedKeep_[l][t] = 1;
            else if (a_.levels[l].isSpatialOnly()) fixedKeep_[l][t] = 0;
        }
    for (const auto& k : c_.keeps) {
        const int l = a_.levelIndex(k.level);
        if (l > 0) fixedKeep_[l][w_.tensorIndex(k.tensor)] = k.keep ? 1 : 0;
    }
    for (int l = 0; l < L; ++l)
        for (int t = 0; t < T; ++t)
            if (fixedKeep_[l][t] < 0) freeKeeps_.emplace_back(l, t);
    if (freeKeeps_.size() > 62)
        throw NestorError("constraints.bypass", "too many free keep/bypass choices (" + std::to_string(freeKeeps_.size()) +
                                                    "; at most 62): fix some with bypass constraints");
    buildCapacityLevels();
    buildDecodeOrder();
}

void Mapspace::buildSlots()
{
    const int nd = w_.numDims();
    for (int l = 0; l < a_.numLevels(); ++l) {
        if (!a_.levels[l].isSpatialOnly())
            slots_.push_back({l, MapspaceSlot::Kind::Temporal, 1, allowsTemporalRemainders(kind_)});
        if (a_.fanoutY(l) > 1)
            slots_.push_back({l, MapspaceSlot::Kind::SpatialY, a_.fanoutY(l), allowsSpatialRemainders(kind_)});
        if (a_.fanoutX(l) > 1)
            slots_.push_back({l, MapspaceSlot::Kind::SpatialX, a_.fanoutX(l), allowsSpatialRemainders(kind_)});
    }
    levelSlots_.assign(static_cast<std::size_t>(a_.numLevels()) + 1, 0);
    for (const MapspaceSlot& sl : slots_) ++levelSlots_[static_cast<std::size_t>(sl.level) + 1];
    for (int l = 0; l < a_.numLevels(); ++l) levelSlots_[static_cast<std::size_t>(l) + 1] += levelSlots_[static_cast<std::size_t>(l)];
    lo_.assign(slots_.size(), std::vector<std::int64_t>(nd, 1));
    hi_.assign(slots_.size(), std::vector<std::int64_t>(nd, 1));
    fixedOrder_.assign(slots_.size(), {});
    for (int s = 0; s < numSlots(); ++s) {
        const MapspaceSlot& sl = slots_[s];
        if (sl.kind != MapspaceSlot::Kind::Temporal) spatialSlots_.push_back(s);
        for (int dim = 0; dim < nd; ++dim)
            hi_[s][dim] = sl.kind == MapspaceSlot::Kind::Temporal ? w_.bounds[dim] : std::min(sl.fanout, w_.bounds[dim]);
    }
    auto temporalSlot = [&](int level) {
        for (int s = 0; s < numSlots(); ++s)
            if (slots_[s].level == level && slots_[s].kind == MapspaceSlot::Kind::Temporal) return s;
        return -1;
    };
    for (const auto& f : c_.factors) {
        if (f.spatial) continue;  // applied to spatial tuples
        const int l = a_.levelIndex(f.level), dim = w_.dimIndex(f.dim), s = temporalSlot(l);
        if (s < 0) {
            if (!holds(f.op, 1, f.value))
                throw NestorError("constraints.factors", "level " + f.level + " has no temporal loops");
            continue;
        }
        if (f.op != FactorConstraint::Op::Ge) hi_[s][dim] = std::min(hi_[s][dim], f.value);
        if (f.op != FactorConstraint::Op::Le) lo_[s][dim] = std::max(lo_[s][dim], f.value);
    }
    for (const auto& sa : c_.spatialAxes) {
        const int l = a_.levelIndex(sa.level);
        for (int s = 0; s < numSlots(); ++s) {
            if (slots_[s].level != l || slots_[s].kind == MapspaceSlot::Kind::Temporal) continue;
            const auto& names = slots_[s].kind == MapspaceSlot::Kind::SpatialX ? sa.x : sa.y;
            for (int dim = 0; dim < nd; ++dim)
                if (std::find(names.begin(), names.end(), w_.dimNames[dim]) == names.end()) hi_[s][dim] = 1;
        }
    }
    for (const auto& p : c_.permutations) {
        const int s = temporalSlot(a_.levelIndex(p.level));
        if (s < 0) continue;
        for (const auto& n : p.innermostFirst) {
            const int dim = w_.dimIndex(n);
            if (std::find(fixedOrder_[s].begin(), fixedOrder_[s].end(), dim) == fixedOrder_[s].end())
                fixedOrder_[s].push_back(dim);
        }
    }
}

void Mapspace::buildDimension(int dim, MapspaceBuildGuard& guard)
{
    DimSpace& ds = dims_[dim];
    const std::int64_t D = w_.bounds[dim];
    guard.setSubject("constraints.factors." + w_.dimNames[dim],
                     "dimension " + w_.dimNames[dim] + " (" + std::to_string(D) + ") of the " + mapspaceKindName(kind_) +
                         " mapspace",
                     "constrain its factors or use a mapspace without temporal remainders");
    std::vector<FactorSlotSpec> specs(slots_.size());
    std::vector<std::int64_t> spatialHi;
    for (int s = 0; s < numSlots(); ++s) {
        specs[s].imperfect = slots_[s].imperfect;
        specs[s].lo = lo_[s][dim];
        specs[s].hi = hi_[s][dim];
        if (slots_[s].kind != MapspaceSlot::Kind::Temporal) {
            specs[s].spatialIndex = static_cast<int>(spatialHi.size());
            spatialHi.push_back(hi_[s][dim]);
        }
    }
    ds.factorizer = DimensionFactorizer(D, specs);
    // every spatial tuple within the per-slot ranges and the per-level spatial constraints
    std::vector<std::int64_t> u(spatialHi.size(), 1);
    std::optional<DimensionFactorizer::Table> suffix;  // the rows that no spatial bound changes
    for (;;) {
        bool ok = true;
        for (const auto& f : c_.factors) {
            if (!f.spatial || w_.dimIndex(f.dim) != dim) continue;
            const int l = a_.levelIndex(f.level);
            std::int64_t prod = 1;
            for (std::size_t j = 0; j < spatialSlots_.size(); ++j)
                if (slots_[spatialSlots_[j]].level == l) prod *= u[j];
            ok = ok && holds(f.op, prod, f.value);
        }
        if (ok) {
            DimensionFactorizer::Table t = ds.factorizer.table(u, &guard, suffix ? &*suffix : nullptr);
            if (!suffix) suffix = t;
            const long double n = t.count();
            if (n > 0.0L) {
                ds.tuples.push_back(u);
                ds.counts.push_back(n);
                ds.tables.push_back(std::move(t));
            }
        }
        std::size_t j = 0;
        for (; j < u.size(); ++j) {
            if (++u[j] <= spatialHi[j]) break;
            u[j] = 1;
        }
        if (j == u.size()) break;
        guard.step();
    }
    indexDimension(ds);
    auto tableBytes = [&] {
        long double bytes = 0;
        for (const auto& d : dims_)
            for (const auto& t : d.tables) bytes += static_cast<long double>(t.bytes());
        return bytes;
    };
    if (tableBytes() <= kTableMemoryBudgetBytes) return;
    // Over the budget: first without the bound indexes (decoding then scans), then without the
    // tables of this dimension (recomputed on demand).
    for (auto& d : dims_)
        for (auto& t : d.tables) DimensionFactorizer::dropBoundIndex(t);
    if (tableBytes() > kTableMemoryBudgetBytes) ds.tables.clear();
}

// Every bound candidate indexed where the dimension's index stays small so (decoding a count
// with more than kMaxRunsPerCount candidates scans them: a third of random Ruby's decoding on
// VGG-16 conv3_1), else at most kMaxRunsPerCount per count. The tables share the rows of the
// slots no spatial bound changes, so the first one's runs of those slots are copied to the others.
void Mapspace::indexDimension(DimSpace& ds) const
{
    auto indexAll = [&](std::size_t perCount, std::size_t budget) {
        std::size_t runs = 0;
        for (std::size_t k = 0; k < ds.tables.size(); ++k) {
            DimensionFactorizer::Table& t = ds.tables[k];
            const DimensionFactorizer::Table* first = k > 0 && !ds.tables[0].runsAt.empty() ? &ds.tables[0] : nullptr;
            const bool indexed = ds.factorizer.indexBounds(t, ds.tuples[k], first, perCount, budget - std::min(budget, runs));
            if (!indexed && !t.exactPrefix.empty()) return false;  // (past the budget; no index without integer sums)
            runs += t.runs.size();
        }
        return true;
    };
    if (!indexAll(kWideRunsPerCount, kWideIndexRuns)) indexAll(DimensionFactorizer::kMaxRunsPerCount, SIZE_MAX);
}

// Names the dimension whose constraints leave nothing, with those constraints (they have no
// file location here: the project reader checked their syntax, not whether they can hold).
NestorError Mapspace::noFactorizationError() const
{
    auto opText = [](FactorConstraint::Op op) { return op == FactorConstraint::Op::Eq ? "=" : op == FactorConstraint::Op::Le ? "<=" : ">="; };
    for (int d = 0; d < w_.numDims(); ++d) {
        long double sum = 0.0L;
        for (long double c : dims_[d].counts) sum += c;
        if (sum > 0.0L) continue;
        const std::string& name = w_.dimNames[d];
        std::string list;
        for (const auto& f : c_.factors) {
            if (f.dim != name) continue;
            list += (list.empty() ? "" : "; ") + f.level + (f.spatial ? " spatial " : " temporal ") + name + opText(f.op) +
                    std::to_string(f.value);
        }
        return NestorError("constraints.factors." + name,
                           "no factorization of " + name + " (" + std::to_string(w_.bounds[d]) + ") in the " +
                               mapspaceKindName(kind_) + " mapspace satisfies " +
                               (list.empty() ? std::string("the fanouts and capacities") : "the constraints " + list));
    }
    return NestorError("constraints.factors", "the spatial factors the constraints require of the dimensions cannot share "
                                              "the fanouts of the " + mapspaceKindName(kind_) + " mapspace");
}

void Mapspace::buildCoupling(MapspaceBuildGuard& guard)
{
    guard.setSubject("constraints.spatial", "the spatial coupling of the " + mapspaceKindName(kind_) + " mapspace",
                     "constrain the spatial factors (factors or split constraints on the levels with fanouts)");
    std::int64_t space = 1;
    strides_.clear();
    for (int s : spatialSlots_) {
        strides_.push_back(space);
        space *= slots_[s].fanout;
        if (space > kMaxTupleSpace)
            throw NestorError("architecture.levels", "the spatial fanouts give more than " + std::to_string(kMaxTupleSpace) +
                                                         " combinations of spatial factors; the mapspace is limited to that");
    }
    const int nd = w_.numDims();
    const std::size_t J = spatialSlots_.size();
    std::vector<std::vector<std::int64_t>> tv(space, std::vector<std::int64_t>(J, 1));
    for (std::int64_t t = 0; t < space; ++t)
        for (std::size_t j = 0; j < J; ++j)
            tv[t][j] = 1 + (t / strides_[j]) % slots_[spatialSlots_[j]].fanout;
    H_.assign(nd + 1, std::vector<long double>(space, 0.0L));
    std::fill(H_[nd].begin(), H_[nd].end(), 1.0L);
    for (int d = nd - 1; d >= 0; --d) {
        const DimSpace& ds = dims_[d];
        for (std::int64_t t = 0; t < space; ++t) {
            long double sum = 0.0L;
            for (std::size_t k = 0; k < ds.tuples.size(); ++k) {
                if (!fits(tv[t], ds.tuples[k])) continue;
                sum += ds.counts[k] * H_[d + 1][productIndex(tv[t], ds.tuples[k])];
            }
            H_[d][t] = sum;
            guard.step(static_cast<std::int64_t>(ds.tuples.size()));
        }
    }
    total_ = H_[0][0];
    // Below 2^63 every count is an integer that long double and std::uint64_t both hold
    // exactly: factorizations then decode in integers (random sampling decodes one per candidate).
    bool exact = true;
    for (const auto& row : H_)
        for (const long double h : row) exact = exact && h < kExactCountLimit;
    for (const auto& ds : dims_)
        for (const long double c : ds.counts) exact = exact && c < kExactCountLimit;
    exactH_.clear();
    for (auto& ds : dims_) ds.exactCounts.clear();
    if (!exact) return;
    for (const auto& row : H_) exactH_.emplace_back(row.begin(), row.end());
    for (auto& ds : dims_) ds.exactCounts.assign(ds.counts.begin(), ds.counts.end());
}

bool Mapspace::fits(const std::vector<std::int64_t>& t, const std::vector<std::int64_t>& u) const
{
    for (std::size_t j = 0; j < u.size(); ++j)
        if (t[j] * u[j] > slots_[spatialSlots_[j]].fanout) return false;
    return true;
}

std::size_t Mapspace::productIndex(const std::vector<std::int64_t>& t, const std::vector<std::int64_t>& u) const
{
    std::int64_t idx = 0;
    for (std::size_t j = 0; j < t.size(); ++j) idx += (t[j] * u[j] - 1) * strides_[j];
    return static_cast<std::size_t>(idx);
}

template <class Count>
void Mapspace::decodeDimension(int d, int k, Count x, MapspacePoint& p) const
{
    const DimSpace& ds = dims_[d];
    if constexpr (std::is_same_v<Count, long double>)
        x = std::clamp(std::floor(x), 0.0L, ds.counts[k] - 1.0L);
    else
        x = std::min(x, ds.exactCounts[k] - 1);
    if (!ds.tables.empty()) {
        ds.factorizer.decode(ds.tables[k], ds.tuples[k], x, &p.factors[d], w_.numDims());
    } else {
        const DimensionFactorizer::Table t = ds.factorizer.table(ds.tuples[k]);
        ds.factorizer.decode(t, ds.tuples[k], x, &p.factors[d], w_.numDims());
    }
}

// Dimension by dimension: the spatial tuple whose block of indices holds x (its weight: its
// count times the completions of the dimensions after it), then the dimension's index in it.
template <class Count>
bool Mapspace::factorizationIn(Count x, const std::vector<std::vector<Count>>& completions,
                               std::vector<Count> DimSpace::*counts, bool stopOverCapacity, MapspacePoint& p) const
{
    const int nd = w_.numDims();
    p.factors.assign(static_cast<std::size_t>(numSlots()) * nd, LoopFactor{});
    p.orders.assign(slots_.size(), 0);
    p.givenUp = false;
    // Per-thread scratch: a random search decodes a point per candidate.
    thread_local std::vector<std::int64_t> t;
    t.assign(spatialSlots_.size(), 1);
    const Count zero{0}, one{1};
    thread_local std::vector<std::int64_t> rankSums;
    stopOverCapacity = stopOverCapacity && boundable_;
    if (stopOverCapacity) rankSums.assign(capacityLevels_.size() * w_.numTensors() * maxRanks_, 1);
    // Each dimension's tuple and index follow from x and the dimensions before it, so the
    // dimensions can be decoded in any order: checking capacity, the ones most likely to outgrow
    // a level go first (the verdict is the bound on all of them, whatever the order). Their
    // tuples and indices are taken as far as the order needs.
    thread_local std::vector<std::pair<int, Count>> picks;
    picks.resize(static_cast<std::size_t>(nd));
    int picked = 0;
    auto pickUpTo = [&](int last) {
        for (; picked <= last; ++picked) {
            const int d = picked;
            const DimSpace& ds = dims_[d];
            int pick = -1;
            Count pickH = one, pickW = zero;
            for (std::size_t k = 0; k < ds.tuples.size(); ++k) {
                if (!fits(t, ds.tuples[k])) continue;
                const Count h = completions[d + 1][productIndex(t, ds.tuples[k])];
                const Count wgt = (ds.*counts)[k] * h;
                if (wgt <= zero) continue;
                pick = static_cast<int>(k), pickH = h, pickW = wgt;
                if (x < wgt) break;
                x -= wgt;
            }
            if (pick < 0) return false;  // unreachable: total_ > 0
            x = std::min(x, pickW - one);
            const Count inner = floorQuotient(x, pickH);
            x -= inner * pickH;
            picks[static_cast<std::size_t>(d)] = {pick, inner};
            for (std::size_t j = 0; j < t.size(); ++j) t[j] *= ds.tuples[pick][j];
        }
        return true;
    };
    for (int d : decodeOrder_) {
        if (!pickUpTo(d)) return true;
        decodeDimension(d, picks[static_cast<std::size_t>(d)].first, picks[static_cast<std::size_t>(d)].second, p);
        if (stopOverCapacity && outgrowsCapacity(p, d, rankSums)) return false;
    }
    return true;
}

void Mapspace::factorizationAt(long double x, MapspacePoint& p) const
{
    factorizationFrom(x, false, p);
}

bool Mapspace::factorizationFrom(long double x, bool stopOverCapacity, MapspacePoint& p) const
{
    x = std::clamp(std::floor(x), 0.0L, total_ - 1.0L);
    if (!exactH_.empty())
        return factorizationIn<std::uint64_t>(static_cast<std::uint64_t>(x), exactH_, &DimSpace::exactCounts, stopOverCapacity, p);
    return factorizationIn<long double>(x, H_, &DimSpace::counts, stopOverCapacity, p);
}

void Mapspace::randomFactorization(std::mt19937_64& rng, MapspacePoint& p) const
{
    drawFactorization(rng, false, p);
}

bool Mapspace::drawFactorization(std::mt19937_64& rng, bool stopOverCapacity, MapspacePoint& p) const
{
    if (exactH_.empty() || total_ <= 1.0L) return factorizationFrom(uniformIndex(rng, total_), stopOverCapacity, p);
    // uniformIndex's draw, kept in integers
    const std::uint64_t n = exactH_[0][0];
    return factorizationIn<std::uint64_t>(std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng), exactH_,
                                          &DimSpace::exactCounts, stopOverCapacity, p);
}

void Mapspace::resampleDimension(int d, std::mt19937_64& rng, MapspacePoint& p) const
{
    const int nd = w_.numDims();
    std::vector<std::int64_t> t(spatialSlots_.size(), 1);
    for (std::size_t j = 0; j < t.size(); ++j)
        for (int o = 0; o < nd; ++o)
            if (o != d) t[j] *= p.factors[static_cast<std::size_t>(spatialSlots_[j]) * nd + o].bound;
    const DimSpace& ds = dims_[d];
    long double sum = 0;
    for (std::size_t k = 0; k < ds.tuples.size(); ++k)
        if (fits(t, ds.tuples[k])) sum += ds.counts[k];
    if (sum <= 0.0L) return;
    long double x = uniformIndex(rng, sum);
    for (std::size_t k = 0; k < ds.tuples.size(); ++k) {
        if (!fits(t, ds.tuples[k])) continue;
        if (x < ds.counts[k]) {
            decodeDimension(d, static_cast<int>(k), x, p);
            return;
        }
        x -= ds.counts[k];
    }
}

bool Mapspace::moveFactor(int d, std::mt19937_64& rng, MapspacePoint& p) const
{
    const int nd = w_.numDims();
    auto at = [&](int s) -> LoopFactor& { return p.factors[static_cast<std::size_t>(s) * nd + d]; };
    thread_local std::vector<int> sources, targets;
    sources.clear();
    for (int s = 0; s < numSlots(); ++s) {
        if (at(s).residual != at(s).bound) return false;
        if (at(s).bound > 1) sources.push_back(s);
    }
    if (sources.empty()) return false;
    const int a = sources[std::uniform_int_distribution<std::size_t>(0, sources.size() - 1)(rng)];
    // A prime factor of the source bound, drawn with multiplicity.
    const std::vector<std::int64_t> primes = primeFactors(at(a).bound);
    const std::int64_t q = primes[std::uniform_int_distribution<std::size_t>(0, primes.size() - 1)(rng)];
    if (at(a).bound / q < lo_[a][d]) return false;
    targets.clear();
    for (int b = 0; b < numSlots(); ++b) {
        if (b == a || at(b).bound * q > hi_[b][d]) continue;
        if (slots_[b].kind != MapspaceSlot::Kind::Temporal) {
            std::int64_t used = 1;
            for (int o = 0; o < nd; ++o) used *= p.factors[static_cast<std::size_t>(b) * nd + o].bound;
            if (used * q > slots_[b].fanout) continue;
        }
        targets.push_back(b);
    }
    if (targets.empty()) return false;
    const int b = targets[std::uniform_int_distribution<std::size_t>(0, targets.size() - 1)(rng)];
    const LoopFactor oldA = at(a), oldB = at(b);
    at(a) = {oldA.bound / q, oldA.bound / q};
    at(b) = {oldB.bound * q, oldB.bound * q};
    // Per-level spatial factor constraints are products over the level's spatial slots: the
    // dimension's new spatial tuple must be one the mapspace admits.
    if (slots_[a].kind != MapspaceSlot::Kind::Temporal || slots_[b].kind != MapspaceSlot::Kind::Temporal) {
        thread_local std::vector<std::int64_t> u;
        u.clear();
        for (int sp : spatialSlots_) u.push_back(at(sp).bound);
        const auto& tuples = dims_[d].tuples;
        if (std::find(tuples.begin(), tuples.end(), u) == tuples.end()) {
            at(a) = oldA;
            at(b) = oldB;
            return false;
        }
    }
    return true;
}

void Mapspace::slotLoops(const MapspacePoint& p, int s, std::vector<int>& free, std::vector<int>& fixed) const
{
    const int nd = w_.numDims();
    const bool all = !opt_.pruneUnitLoops && slots_[s].kind == MapspaceSlot::Kind::Temporal;
    auto present = [&](int dim) { return all || p.factors[static_cast<std::size_t>(s) * nd + dim].bound > 1; };
    fixed.clear();
    for (int dim : fixedOrder_[s])
        if (present(dim)) fixed.push_back(dim);
    free.clear();
    for (int dim = 0; dim < nd; ++dim)
        if (present(dim) && std::find(fixed.begin(), fixed.end(), dim) == fixed.end()) free.push_back(dim);
}

std::uint64_t Mapspace::orderCount(const MapspacePoint& p, int slot) const
{
    thread_local std::vector<int> free, fixed;
    slotLoops(p, slot, free, fixed);
    return factorial(static_cast<int>(free.size()));
}

void Mapspace::randomOrders(std::mt19937_64& rng, MapspacePoint& p) const
{
    p.orders.resize(slots_.size());
    for (int s = 0; s < numSlots(); ++s) {
        const std::uint64_t n = orderCount(p, s);
        p.orders[s] = n <= 1 ? 0 : std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng);
    }
}

void Mapspace::randomKeeps(std::mt19937_64& rng, MapspacePoint& p) const
{
    p.keepBits = freeKeeps_.empty() ? 0 : std::uniform_int_distribution<std::uint64_t>(0, keepCount() - 1)(rng);
}

MapspacePoint Mapspace::randomPoint(std::mt19937_64& rng) const
{
    MapspacePoint p;
    randomPoint(rng, p);
    return p;
}

void Mapspace::randomPoint(std::mt19937_64& rng, MapspacePoint& p) const
{
    randomFactorization(rng, p);
    randomOrders(rng, p);
    randomKeeps(rng, p);
}

bool Mapspace::randomCandidate(std::mt19937_64& rng, MapspacePoint& p) const
{
    p.givenUp = !drawFactorization(rng, true, p);
    if (p.givenUp) {
        p.keepBits = keepCount() - 1;  // every free keep bypassed, as the bound assumed
        return false;
    }
    randomOrders(rng, p);
    randomKeeps(rng, p);
    return true;
}

Mapping Mapspace::toMapping(const MapspacePoint& p, const std::string& name) const
{
    Mapping m;
    toMapping(p, m, name);
    return m;
}

void Mapspace::toMapping(const MapspacePoint& p, Mapping& m, const std::string& name) const
{
    const int nd = w_.numDims();
    m.name = name;
    m.levels.resize(a_.numLevels());
    for (auto& lm : m.levels) {
        lm.temporal.clear();
        lm.spatialX.clear();
        lm.spatialY.clear();
    }
    thread_local std::vector<int> free, fixed, order;
    for (int s = 0; s < numSlots(); ++s) {
        slotLoops(p, s, free, fixed);
        std::uint64_t idx = s < static_cast<int>(p.orders.size()) ? p.orders[s] : 0;
        order.clear();  // outermost first
        for (int k = static_cast<int>(free.size()); k > 0; --k) {
            const std::uint64_t f = factorial(k - 1);
            const std::size_t pick = static_cast<std::size_t>(std::min<std::uint64_t>(idx / f, k - 1));
            idx %= f;
            order.push_back(free[pick]);
            free.erase(free.begin() + static_cast<std::ptrdiff_t>(pick));
        }
        for (auto it = fixed.rbegin(); it != fixed.rend(); ++it) order.push_back(*it);
        LevelMapping& lm = m.levels[slots_[s].level];
        std::vector<Loop>& dst = slots_[s].kind == MapspaceSlot::Kind::Temporal ? lm.temporal
                                 : slots_[s].kind == MapspaceSlot::Kind::SpatialY ? lm.spatialY
                                                                                  : lm.spatialX;
        for (int dim : order) {
            const LoopFactor& f = p.factors[static_cast<std::size_t>(s) * nd + dim];
            dst.push_back(makeLoop(dim, f.bound, f.residual));
        }
    }
    for (int l = 0; l < a_.numLevels(); ++l) {
        m.levels[l].keep.assign(w_.numTensors(), true);
        for (int t = 0; t < w_.numTensors(); ++t)
            if (fixedKeep_[l][t] >= 0) m.levels[l].keep[t] = fixedKeep_[l][t] == 1;
    }
    for (std::size_t i = 0; i < freeKeeps_.size(); ++i)
        m.levels[freeKeeps_[i].first].keep[freeKeeps_[i].second] = ((p.keepBits >> i) & 1u) == 0;
}

MapspaceSize Mapspace::size() const
{
    MapspaceSize z;
    z.factorizations = total_;
    z.factorizationsExact = factorizationCountExact();
    z.keepChoices = static_cast<long double>(keepCount());
    if (z.factorizationsExact && total_ <= opt_.exactOrderEnumerationLimit) {
        MapspacePoint p;
        long double sum = 0;
        for (long double i = 0; i < total_; i += 1.0L) {
            factorizationAt(i, p);
            long double prod = 1;
            for (int s = 0; s < numSlots(); ++s) prod *= static_cast<long double>(orderCount(p, s));
            sum += prod;
        }
        z.orders = sum;
        z.ordersExact = true;
    } else {
        long double bound = total_;
        const int nd = w_.numDims();
        for (int s = 0; s < numSlots(); ++s) {
            int k = 0;
            const bool all = !opt_.pruneUnitLoops && slots_[s].kind == MapspaceSlot::Kind::Temporal;
            for (int dim = 0; dim < nd; ++dim)
                if ((all || hi_[s][dim] > 1) &&
                    std::find(fixedOrder_[s].begin(), fixedOrder_[s].end(), dim) == fixedOrder_[s].end())
                    ++k;
            bound *= static_cast<long double>(factorial(k));
        }
        z.orders = bound;
        z.ordersExact = false;
    }
    z.total = z.orders * z.keepChoices;
    z.exact = z.factorizationsExact && z.ordersExact && z.total < 1.8e19L;
    return z;
}

} // namespace nestor
