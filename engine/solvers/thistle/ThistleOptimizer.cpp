#include "solvers/thistle/ThistleOptimizer.h"

#include "arch/EnergyModels.h"
#include "model/Model.h"
#include "solvers/thistle/NestMapping.h"
#include "solvers/thistle/Polish.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <sstream>
#include <thread>

namespace nestor::thistle {

void checkThistleArchitecture(const Architecture& a)
{
    auto fail = [](const std::string& field, const std::string& why) {
        throw NestorError(field, "the Thistle solver needs DRAM -> SRAM -> one register file per PE -> MACs: " + why);
    };
    if (a.numLevels() != 3) fail("architecture.levels", "found " + std::to_string(a.numLevels()) + " storage levels, expected 3");
    const auto& dram = a.levels[0];
    const auto& sram = a.levels[1];
    const auto& rf = a.levels[2];
    if (dram.size_words) fail("architecture.levels[0].size_words", "the outermost level must be unbounded (DRAM)");
    if (!sram.size_words || *sram.size_words <= 0) fail("architecture.levels[1].size_words", "the SRAM level needs a positive size");
    if (sram.instances != 1) fail("architecture.levels[1].instances", "one shared SRAM expected");
    if (!rf.size_words || *rf.size_words <= 0) fail("architecture.levels[2].size_words", "the register file needs a positive size");
    if (rf.instances != a.compute.instances) fail("architecture.levels[2].instances", "one register file per MAC expected");
    for (int i = 0; i < 3; ++i)
        if (a.levels[static_cast<std::size_t>(i)].block_size != 1)
            fail("architecture.levels[" + std::to_string(i) + "].block_size", "block_size 1 expected (the solver counts words)");
}

Architecture codesignArchitecture(const Architecture& base, std::int64_t registers, std::int64_t sramWords, std::int64_t pes)
{
    Architecture a = base;
    a.levels[1].size_words = sramWords;
    a.levels[2].size_words = registers;
    a.levels[2].instances = pes;
    a.levels[2].meshX = pes;
    a.compute.instances = pes;
    a.compute.meshX = pes;
    applyEnergyModel(a, "thistle-45nm");
    return a;
}

namespace {

double perWord(const StorageLevel& l) { return l.energy.read_pJ / std::max(1, l.block_size); }

ProgramSpec specFor(const Architecture& a, const OptimizeOptions& o)
{
    ProgramSpec s;
    s.objective = o.objective;
    s.codesign = o.codesign;
    s.tech = Technology::thistle45nm();
    s.area_um2 = o.area_um2;
    s.registers = static_cast<double>(a.levels[2].effectiveSizeWords().value_or(0));
    s.sramWords = static_cast<double>(a.levels[1].effectiveSizeWords().value_or(0));
    s.pes = static_cast<double>(a.levels[2].instances);
    s.eR_pJ = perWord(a.levels[2]);
    s.eS_pJ = perWord(a.levels[1]);
    s.eD_pJ = perWord(a.levels[0]);
    s.eMac_pJ = a.compute.mac_energy_pJ;
    s.bw.dramRead = a.levels[0].read_bw_words_per_cycle;
    s.bw.dramWrite = a.levels[0].write_bw_words_per_cycle;
    s.bw.sramRead = a.levels[1].read_bw_words_per_cycle;
    s.bw.sramWrite = a.levels[1].write_bw_words_per_cycle;
    s.bw.rfRead = a.levels[2].read_bw_words_per_cycle;
    s.bw.rfWrite = a.levels[2].write_bw_words_per_cycle;
    return s;
}

std::string fmt(double v)
{
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}

// Keeps the climb's result when it beats the layer's best.
void adopt(LayerOptimization& r, SolvedCandidate best, const PolishStats& st, Objective objective, DesignOrigin origin)
{
    r.polishEvaluations += st.evaluations;
    r.polishSteps += st.improvements;
    if (!betterEvaluation(best.eval, r.best.eval, objective)) return;
    r.best = best;
    r.candidates.push_back(std::move(best));
    r.origin = origin;
}

// The hill climb of Polish.h from the best distinct rounded designs.
void polish(LayerOptimization& r, const ThistleLayer& L, const Architecture& arch, const ProgramSpec& spec, const OptimizeOptions& o)
{
    std::vector<const SolvedCandidate*> ranked;
    for (const SolvedCandidate& c : r.candidates) ranked.push_back(&c);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](const SolvedCandidate* a, const SolvedCandidate* b) { return betterEvaluation(a->eval, b->eval, o.objective); });
    std::vector<const SolvedCandidate*> starts;
    for (const SolvedCandidate* c : ranked) {
        const bool seen = std::any_of(starts.begin(), starts.end(), [&](const SolvedCandidate* s) {
            return s->perm.dram == c->perm.dram && s->perm.sram == c->perm.sram && s->trips == c->trips;
        });
        if (!seen) starts.push_back(c);
        if (static_cast<int>(starts.size()) >= o.polishStarts) break;
    }
    PolishStats st;
    SolvedCandidate best = polishDesigns(L, arch, spec, o, starts, &st);
    adopt(r, std::move(best), st, o.objective, DesignOrigin::Climb);
}

} // namespace

const char* designOriginName(DesignOrigin origin)
{
    switch (origin) {
    case DesignOrigin::Rounding: return "rounding";
    case DesignOrigin::Climb: return "climb";
    case DesignOrigin::SingleArchitectureClimb: return "single-architecture climb";
    }
    return "rounding";
}

void climbFrom(LayerOptimization& r, const Workload& w, const Architecture& base, const OptimizeOptions& o, const SolvedCandidate& start,
               DesignOrigin origin)
{
    PolishStats st;
    if (o.polishStarts <= 0) {
        adopt(r, start, st, o.objective, origin);  // no climbing asked for: the design itself
        return;
    }
    const ThistleLayer L = makeThistleLayer(w);
    SolvedCandidate best = polishDesigns(L, base, specFor(base, o), o, {&start}, &st);
    adopt(r, std::move(best), st, o.objective, origin);
}

bool betterFigures(double energyA, double cyclesA, double energyB, double cyclesB, Objective o)
{
    if (o == Objective::Energy) return energyA < energyB || (energyA == energyB && cyclesA < cyclesB);
    return cyclesA < cyclesB || (cyclesA == cyclesB && energyA < energyB);
}

bool betterEvaluation(const Evaluation& a, const Evaluation& b, Objective o)
{
    return betterFigures(a.energy_pJ, static_cast<double>(a.cycles), b.energy_pJ, static_cast<double>(b.cycles), o);
}

SolvedCandidate scoreDesign(const ThistleLayer& L, const Architecture& base, bool codesign, const Permutation& perm,
                            const TileNest& nest, const RoundedCandidate& rc)
{
    SolvedCandidate sc;
    sc.perm = perm;
    sc.trips = rc.trips;
    sc.arch = codesign ? codesignArchitecture(base, rc.registers, rc.sramWords, rc.pes) : base;
    sc.mapping = toMapping(nest, rc.trips, L.w.name + "-thistle");
    sc.eval = evaluate(L.w, sc.arch, sc.mapping, ModelOptions{});
    sc.solverEnergy_pJ = rc.solverEnergy_pJ;
    sc.solverCycles = rc.solverCycles;
    sc.registers = rc.registers;
    sc.sramWords = rc.sramWords;
    sc.pes = codesign ? rc.pes : base.levels[2].instances;
    sc.area_um2 = sc.arch.area_um2();
    return sc;
}

MinimumTiles minimumTiles(const Workload& w)
{
    const ThistleLayer L = makeThistleLayer(w);
    const Permutation any{L.tiled, L.tiled};
    std::vector<std::int64_t> trips(static_cast<std::size_t>(L.numNestVars), 1);
    for (int d : L.tiled) trips[static_cast<std::size_t>(L.varDram[static_cast<std::size_t>(d)])] = w.bounds[static_cast<std::size_t>(d)];
    for (int d : L.whole) trips[static_cast<std::size_t>(L.varReg[static_cast<std::size_t>(d)])] = w.bounds[static_cast<std::size_t>(d)];
    const ThistleCounts k = exactCounts(L, buildNest(L, any), trips);
    return {k.rfFootprint, k.sramFootprint};
}

LayerOptimization optimizeLayer(const Workload& w, const Architecture& arch, const OptimizeOptions& o)
{
    const auto t0 = std::chrono::steady_clock::now();
    LayerOptimization r;
    r.layer = w.name;
    auto say = [&](const std::string& s) {
        if (o.progress) o.progress(s);
    };
    auto finish = [&] {
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return r;
    };
    checkThistleArchitecture(arch);
    if (o.codesign && !(o.area_um2 > 0)) throw NestorError("area_um2", "co-design needs a positive area budget");

    const ThistleLayer L = makeThistleLayer(w);
    const ProgramSpec spec = specFor(arch, o);

    // Ill-posed before any solve: the smallest tiles must fit, and in co-design one PE with
    // them must fit the area.
    {
        const MinimumTiles k = minimumTiles(w);
        if (o.codesign) {
            const Technology& t = spec.tech;
            const double minArea = t.areaRegister_um2 * k.registers + t.areaMac_um2 + t.areaSramWord_um2 * k.sramWords;
            if (o.area_um2 < minArea) {
                r.error = "area budget " + fmt(o.area_um2) + " um^2 is too small for one PE: layer " + w.name + " needs at least " +
                          fmt(minArea) + " um^2 (one MAC, " + fmt(k.registers) + " registers, " + fmt(k.sramWords) +
                          " SRAM words for its smallest tiles)";
                return finish();
            }
        } else {
            if (k.registers > spec.registers) {
                r.error = "layer " + w.name + " cannot fit: its smallest register tiles need " + fmt(k.registers) +
                          " words (filters kept whole) and " + arch.levels[2].name + " holds " + fmt(spec.registers);
                return finish();
            }
            if (k.sramWords > spec.sramWords) {
                r.error = "layer " + w.name + " cannot fit: its smallest SRAM tiles need " + fmt(k.sramWords) + " words and " +
                          arch.levels[1].name + " holds " + fmt(spec.sramWords);
                return finish();
            }
        }
    }

    const std::vector<Permutation> perms = prunedPermutations(L, &r.permutationsBefore);
    r.permutations = static_cast<int>(perms.size());
    say(w.name + ": " + std::to_string(r.permutations) + " permutations after pruning (of " + std::to_string(r.permutationsBefore) + ")");

    struct Solved {
        std::size_t perm;
        ThistleProgram prog;
        GpResult res;
    };
    std::vector<Solved> solved;
    std::string lastFailure;
    GpSolverOptions gpo = o.gp;
    gpo.cancel = o.cancel;
    for (std::size_t i = 0; i < perms.size(); ++i) {
        if (o.cancel && o.cancel->load()) {
            r.cancelled = true;
            break;
        }
        ThistleProgram prog = buildProgram(L, perms[i], spec);
        GpResult res = solveGp(prog.gp, gpo);
        r.solverIterations += res.iterations;
        if (res.solved && res.maxViolation < 1e-5) {
            ++r.programsSolved;
            solved.push_back({i, std::move(prog), std::move(res)});
        } else {
            lastFailure = res.status;
        }
        if ((i + 1) % 16 == 0 || i + 1 == perms.size())
            say(w.name + ": solved " + std::to_string(i + 1) + "/" + std::to_string(perms.size()) + " programs");
    }
    r.cancelled = r.cancelled || (o.cancel && o.cancel->load());
    if (solved.empty()) {
        r.error = r.cancelled ? "cancelled before any program was solved"
                              : "no program of layer " + w.name + " could be solved (" + lastFailure + ")";
        return finish();
    }
    std::sort(solved.begin(), solved.end(), [](const Solved& a, const Solved& b) { return a.res.objective < b.res.objective; });

    // Rounding and scoring one program is independent of the others (no Ipopt in it): the
    // programs are rounded `threads` at a time, and merged in rank order, so the result is the
    // one of a sequential run.
    struct Rounded {
        std::size_t candidates = 0;       // integer candidates that survived the filters
        int evaluated = 0;                // of them, scored by the cost model
        std::vector<SolvedCandidate> valid;
        RoundingStats stats;
    };
    auto roundAndScore = [&](const Solved& s) {
        Rounded out;
        const Permutation& perm = perms[s.perm];
        const std::vector<double> x = s.prog.valuesAt(s.res.y);
        std::vector<RoundedCandidate> cands = roundSolution(L, perm, spec, s.prog, x, o.rounding, &out.stats);
        out.candidates = cands.size();
        if (cands.empty()) return out;
        auto key = [&](const RoundedCandidate& c) { return o.objective == Objective::Energy ? c.solverEnergy_pJ : c.solverCycles; };
        // The best estimates go to the cost model, and the candidates tied with the last of them
        // too (up to kMaxTied more: the delay's max ties often): the model, not the order of the
        // enumeration, breaks ties.
        constexpr std::size_t kMaxTied = 256;
        std::stable_sort(cands.begin(), cands.end(), [&](const RoundedCandidate& a, const RoundedCandidate& b) { return key(a) < key(b); });
        const std::size_t wanted = std::min<std::size_t>(cands.size(), static_cast<std::size_t>(std::max(1, o.candidatesPerPermutation)));
        std::size_t keep = wanted;
        while (keep < cands.size() && keep < wanted + kMaxTied && key(cands[keep]) == key(cands[keep - 1])) ++keep;
        const TileNest nest = buildNest(L, perm);
        for (std::size_t c = 0; c < keep; ++c) {
            SolvedCandidate sc = scoreDesign(L, arch, o.codesign, perm, nest, cands[c]);
            ++out.evaluated;
            if (!sc.eval.valid) continue;
            sc.relaxedObjective = s.res.objective;
            out.valid.push_back(std::move(sc));
        }
        return out;
    };

    bool have = false;
    RoundingStats lastStats;
    // The best `topPermutations` programs that give integer candidates are rounded; a program
    // whose every rounding fails a filter is passed over for the next one, up to 4 x as many
    // programs in all (each rounding enumerates thousands of combinations).
    int rounded = 0;
    const std::size_t maxTried = std::min(solved.size(), 4 * static_cast<std::size_t>(std::max(1, o.topPermutations)));
    std::size_t next = 0;
    while (next < maxTried && rounded < o.topPermutations) {
        // Cancelled: the first batch is still rounded and scored (a second or so), so that a stop
        // reports the best result so far.
        if (have && o.cancel && o.cancel->load()) {
            r.cancelled = true;
            break;
        }
        const std::size_t batch = std::min(maxTried - next, static_cast<std::size_t>(o.topPermutations - rounded));
        std::vector<Rounded> results(batch);
        std::atomic<std::size_t> claim{0};
        std::vector<std::exception_ptr> failures(batch);
        auto work = [&] {
            for (std::size_t i; (i = claim.fetch_add(1)) < batch;) {
                try {
                    results[i] = roundAndScore(solved[next + i]);
                } catch (...) {
                    failures[i] = std::current_exception();
                }
            }
        };
        const std::size_t helpers = std::min<std::size_t>(batch, static_cast<std::size_t>(std::max(1, o.threads))) - 1;
        std::vector<std::thread> pool;
        for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
        work();
        for (std::thread& t : pool) t.join();
        for (const std::exception_ptr& f : failures)
            if (f) std::rethrow_exception(f);
        for (std::size_t i = 0; i < batch; ++i) {
            Rounded& res = results[i];
            lastStats = res.stats;
            r.candidatesEvaluated += res.evaluated;
            if (res.candidates == 0 || rounded >= o.topPermutations) continue;
            ++rounded;
            for (SolvedCandidate& sc : res.valid) {
                r.candidates.push_back(sc);
                if (!have || betterEvaluation(sc.eval, r.best.eval, o.objective)) {
                    r.best = std::move(sc);
                    have = true;
                }
            }
            say(w.name + ": rounded permutation " + std::to_string(next + i + 1) + ": " + std::to_string(res.candidates) + " integer candidates");
        }
        next += batch;
    }
    if (!have && r.cancelled) {
        r.error = "cancelled before an integer candidate was scored";
        return finish();
    }
    if (!have) {
        r.error = "no integer candidate of layer " + w.name + " survived rounding in any of " + std::to_string(solved.size()) +
                  " solved programs (the last: " + std::to_string(lastStats.combinations) + " combinations: " + std::to_string(lastStats.rejectedCapacity) + " over capacity, " +
                  std::to_string(lastStats.rejectedArea) + " over the area, " + std::to_string(lastStats.rejectedUtilization) +
                  " under the utilization threshold)";
        return finish();
    }
    if (o.polishStarts > 0 && !r.cancelled) polish(r, L, arch, spec, o);
    r.ok = true;
    return finish();
}

} // namespace nestor::thistle
