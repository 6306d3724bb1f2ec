#include "search/SearchDriver.h"

#include "search/SearchAlgorithm.h"

#include "model/ExactBudget.h"
#include "model/SampledUse.h"
#include "model/StageMemo.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

namespace nestor {

namespace {

struct ThreadResult {
    bool found = false;
    MapspacePoint point;
    Mapping mapping;
    Evaluation evaluation;
    std::vector<double> metrics;
    std::string stopReason;
    ParetoArchive front;
    std::vector<EvaluatedPoint> scatter;
    std::exception_ptr error;  // what ended this thread, when it did not finish normally
};

struct Shared {
    std::mutex mutex;
    std::condition_variable done;
    int running = 0;
    std::atomic<bool> stop{false};  // a thread failed: the others stop too
    std::atomic<std::int64_t> evaluated{0};
    std::atomic<std::int64_t> valid{0};
    std::atomic<std::int64_t> overBudget{0};
    std::atomic<std::int64_t> overCapacity{0};
    std::atomic<std::int64_t> belowUtilization{0};
    bool hasBest = false;
    std::vector<double> best;
    std::vector<SearchCurvePoint> curve;
};

std::int64_t share(std::int64_t total, int threads, int id)
{
    if (total <= 0) return 0;
    return total / threads + (id < total % threads ? 1 : 0);
}

void searchThread(const Mapspace& space, const SearchOptions& opt, int id, const std::atomic<bool>* cancel, Shared& sh,
                  ThreadResult& out)
{
    SearchContext ctx{&space, id, opt.threads, opt.seed, opt.maxOrdersPerVisit};
    auto algo = opt.algorithmFactory ? opt.algorithmFactory(ctx) : findSearchAlgorithm(opt.algorithm)->create(ctx);
    if (!algo) throw NestorError("search.algorithm", "the algorithm factory made no algorithm");
    const bool rules = algo->usesTerminationRules();
    const std::int64_t sizeLimit = share(opt.searchSize, opt.threads, id);
    const std::int64_t budget = share(opt.evaluationBudget, opt.threads, id);
    const bool sizeOn = opt.searchSize > 0, budgetOn = opt.evaluationBudget > 0;
    std::int64_t evaluated = 0, valid = 0, nonImproving = 0, invalidStreak = 0;
    MapspacePoint p;
    const Workload& w = space.workload();
    const Architecture& a = space.architecture();
    model::StageMemo stageMemo;  // one workload for the whole run: neighbouring candidates share stages
    model::SampledUse capacityCheck;  // useful when it rejects the candidate
    ModelOptions model = opt.model;
    model.inputsValidated = true;  // the mapspace validated them
    model.stageMemo = &stageMemo;
    model.briefErrors = true;
    model.cancel = cancel;  // a walk in flight stops too (model::AnalysisCancelled, below)
    Reservoir reservoir(static_cast<std::size_t>(share(opt.scatterSize, opt.threads, id)),
                        threadSeed(opt.seed, id + 7919));  // its own stream: the search's draws stay as they are
    auto keepFor = [&](const Evaluation& e) {
        const double cycles = static_cast<double>(e.cycles);
        const bool onFront = out.front.wouldJoin(e.energy_pJ, cycles);
        const long slot = reservoir.slotForNext();
        if (!onFront && slot < 0) return;
        const EvaluatedPoint ep{EvaluatedFigures::of(e), p};
        if (onFront) out.front.offer(ep);
        reservoir.store(slot, ep);
    };
    Mapping m;                     // scratch, reused from one candidate to the next
    Evaluation ev;
    std::vector<double> mv;        // the candidate's metrics (scratch as well)
    // Shared counters are bumped in batches: one atomic add per candidate from every thread
    // would keep their cache line bouncing between cores.
    constexpr std::int64_t kFlushEvery = 64;
    std::int64_t unflushedEvaluated = 0, unflushedValid = 0, unflushedOverBudget = 0, unflushedOverCapacity = 0,
                 unflushedBelowUtilization = 0;
    auto flush = [&] {
        sh.evaluated.fetch_add(unflushedEvaluated, std::memory_order_relaxed);
        sh.valid.fetch_add(unflushedValid, std::memory_order_relaxed);
        sh.overBudget.fetch_add(unflushedOverBudget, std::memory_order_relaxed);
        sh.overCapacity.fetch_add(unflushedOverCapacity, std::memory_order_relaxed);
        sh.belowUtilization.fetch_add(unflushedBelowUtilization, std::memory_order_relaxed);
        unflushedEvaluated = unflushedValid = unflushedOverBudget = unflushedOverCapacity = unflushedBelowUtilization = 0;
    };
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed)) { out.stopReason = "cancelled"; break; }
        if (sh.stop.load(std::memory_order_relaxed)) { out.stopReason = "another thread failed"; break; }
        if (budgetOn && evaluated >= budget) { out.stopReason = "budget"; break; }
        if (sizeOn && valid >= sizeLimit) { out.stopReason = "search size"; break; }
        if (!algo->next(p)) { out.stopReason = "exhausted"; break; }
        // Tiles that cannot fit are told from the point: no mapping built, nothing evaluated.
        // Where few candidates outgrow a level (annealing's neighbours) the check costs more
        // than it saves, and only a sample is checked: evaluate() checks capacity first anyway.
        bool fits = !p.givenUp;
        if (fits && capacityCheck.admit() && space.exceedsCapacity(p)) {
            capacityCheck.hit();
            fits = false;
        }
        if (fits) {
            space.toMapping(p, m);
            try {
                evaluate(w, a, m, model, ev);
            } catch (const model::AnalysisCancelled&) {
                out.stopReason = "cancelled";  // the candidate half evaluated is not counted
                break;
            }
        }
        ++evaluated;
        if (++unflushedEvaluated == kFlushEvery) flush();
        const bool ok = fits && ev.valid && space.accepts(ev);
        bool improved = false;
        double cost = 0.0;
        if (ok) {
            ++valid;
            ++unflushedValid;
            invalidStreak = 0;
            keepFor(ev);
            metricValues(opt.metrics, ev, mv);
            cost = std::log(std::max(mv.front(), 1e-300));
            improved = !out.found || isBetter(mv, out.metrics, opt.tieTolerance);
            if (improved) {
                nonImproving = 0;
                {
                    std::lock_guard<std::mutex> lock(sh.mutex);
                    if (!sh.hasBest || isBetter(mv, sh.best, opt.tieTolerance)) {
                        // Exact with one thread; with more, other threads' unflushed work is not counted.
                        const std::int64_t globalEvaluated = sh.evaluated.load(std::memory_order_relaxed) + unflushedEvaluated;
                        sh.hasBest = true;
                        sh.best = mv;
                        sh.curve.push_back({globalEvaluated, mv.front()});
                    }
                }
                out.found = true;
                out.point = p;
                out.mapping = m;
                out.evaluation = ev;
                out.metrics = mv;
            } else {
                ++nonImproving;
            }
        } else {
            // Over-budget candidates are skipped like invalid ones (also by the timeout rule,
            // so a space where every candidate is over budget still ends), but counted apart.
            if (fits && ev.exactBudgetExceeded) ++unflushedOverBudget;
            // Why, for the report (evaluate() rejected the candidates whose check was not sampled).
            if (!fits || (!ev.valid && !ev.exactBudgetExceeded && space.exceedsCapacity(p))) ++unflushedOverCapacity;
            else if (ev.valid) ++unflushedBelowUtilization;
            ++invalidStreak;
        }
        algo->report(ok, cost, improved);
        if (rules && opt.victoryCondition > 0 && nonImproving >= opt.victoryCondition) {
            out.stopReason = "victory";
            break;
        }
        if (rules && invalidStreak > 0 && invalidStreak >= opt.timeout) {
            out.stopReason = "timeout";
            break;
        }
    }
    flush();
    out.scatter = reservoir.points();
}

// A thread's exception must not reach std::thread (std::terminate): it is kept for the caller.
void worker(const Mapspace& space, const SearchOptions& opt, int id, const std::atomic<bool>* cancel, Shared& sh,
            ThreadResult& out) noexcept
{
    try {
        searchThread(space, opt, id, cancel, sh, out);
    } catch (...) {
        out.error = std::current_exception();
        out.stopReason = "failed";
        sh.stop.store(true);
    }
    std::lock_guard<std::mutex> lock(sh.mutex);
    --sh.running;
    sh.done.notify_all();
}

[[noreturn]] void throwThreadFailure(const std::exception_ptr& error, int id)
{
    const std::string who = "search thread " + std::to_string(id + 1);
    try {
        std::rethrow_exception(error);
    } catch (const NestorError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw NestorError("search", who + " ran out of memory (std::bad_alloc)");
    } catch (const std::exception& e) {
        throw NestorError("search", who + " failed: " + e.what());
    } catch (...) {
        throw NestorError("search", who + " failed with an unknown exception");
    }
}

} // namespace

SearchResult runSearch(const Mapspace& space, const SearchOptions& opt, SearchObserver* observer,
                       const std::atomic<bool>* cancel)
{
    if (!opt.algorithmFactory && !findSearchAlgorithm(opt.algorithm))
        throw NestorError("search.algorithm", "unknown search algorithm '" + opt.algorithm + "'");
    if (opt.threads < 1 || opt.threads > kMaxSearchThreads)
        throw NestorError("search.threads", "the thread count (" + std::to_string(opt.threads) + ") must be between 1 and " +
                                                std::to_string(kMaxSearchThreads));
    if (opt.metrics.empty()) throw NestorError("search.metrics", "no metric given");
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    Shared sh;
    sh.running = opt.threads;
    std::vector<ThreadResult> results(opt.threads);
    std::vector<std::thread> threads;
    threads.reserve(opt.threads);
    std::string startFailure;
    for (int i = 0; i < opt.threads; ++i) {
        try {
            threads.emplace_back(worker, std::cref(space), std::cref(opt), i, cancel, std::ref(sh), std::ref(results[i]));
        } catch (const std::system_error& e) {
            startFailure = "cannot start search thread " + std::to_string(i + 1) + " of " + std::to_string(opt.threads) +
                           ": " + e.what();
            sh.stop.store(true);
            std::lock_guard<std::mutex> lock(sh.mutex);
            sh.running -= opt.threads - i;
            break;
        }
    }

    std::size_t curveReported = 0;
    auto report = [&](std::unique_lock<std::mutex>& lock) {
        SearchProgress pr;
        pr.evaluated = sh.evaluated.load();
        pr.valid = sh.valid.load();
        pr.overBudget = sh.overBudget.load();
        pr.overCapacity = sh.overCapacity.load();
        pr.belowUtilization = sh.belowUtilization.load();
        pr.hasBest = sh.hasBest;
        pr.best = sh.hasBest ? sh.best.front() : 0.0;
        pr.seconds = std::chrono::duration<double>(clock::now() - t0).count();
        std::vector<SearchCurvePoint> fresh(sh.curve.begin() + static_cast<std::ptrdiff_t>(curveReported), sh.curve.end());
        curveReported = sh.curve.size();
        lock.unlock();
        if (observer) {
            for (const auto& c : fresh) observer->onImprovement(c);
            observer->onProgress(pr);
        }
        lock.lock();
    };
    std::exception_ptr observerError;  // the observer runs here; the threads must still be joined
    {
        // Reported every 50 ms and once more after the last thread ended (every thread flushes its
        // counts before it ends): the last report holds the final counts, even of a search that
        // ended before the first report was due.
        std::unique_lock<std::mutex> lock(sh.mutex);
        for (bool ended = false; !ended;) {
            if (sh.running > 0) sh.done.wait_for(lock, std::chrono::milliseconds(50));
            ended = sh.running == 0;
            if (observerError) continue;
            try {
                report(lock);
            } catch (...) {
                if (!lock.owns_lock()) lock.lock();
                observerError = std::current_exception();
                sh.stop.store(true);
            }
        }
    }
    for (auto& t : threads) t.join();
    if (observerError) std::rethrow_exception(observerError);
    if (!startFailure.empty()) throw NestorError("search.threads", startFailure);
    for (int i = 0; i < static_cast<int>(results.size()); ++i)
        if (results[i].error) throwThreadFailure(results[i].error, i);

    SearchResult r;
    ParetoArchive front;
    for (auto& tr : results) {
        r.stopReasons.push_back(tr.stopReason);
        for (const auto& e : tr.front.points()) front.offer(e);
        r.scatter.insert(r.scatter.end(), tr.scatter.begin(), tr.scatter.end());
        if (!tr.found) continue;
        if (!r.found || isBetter(tr.metrics, r.bestMetrics, opt.tieTolerance)) {
            r.found = true;
            r.best = tr.mapping;
            r.bestEvaluation = tr.evaluation;
            r.bestPoint = tr.point;
            r.bestMetrics = tr.metrics;
        }
    }
    r.energyDelayFront = front.sortedByCycles();
    r.evaluated = sh.evaluated.load();
    r.valid = sh.valid.load();
    r.overBudget = sh.overBudget.load();
    r.overCapacity = sh.overCapacity.load();
    r.belowUtilization = sh.belowUtilization.load();
    r.cancelled = cancel && cancel->load();
    r.curve = sh.curve;
    r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    return r;
}

std::string stopReasonsText(const SearchResult& r)
{
    std::string text;
    for (auto it = r.stopReasons.begin(); it != r.stopReasons.end(); ++it)
        if (std::find(r.stopReasons.begin(), it, *it) == it) text += (text.empty() ? "" : ", ") + *it;
    return text;
}

} // namespace nestor
