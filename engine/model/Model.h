#pragma once
// The loop-nest cost model (Timeloop semantics, exact counts). One evaluation path:
// search, solvers, sweeps, CLI and GUI all score a mapping through evaluate().
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace nestor {

namespace model {
class StageMemo;
}

struct ModelOptions {
    // Timeloop before commit a12fff5 remembered a zero translation as a stride, so the
    // first move after a stationary loop counted the whole tile. Off = current rule.
    bool legacyZeroTranslationRule = false;
    bool linkTransfers = true;       // neighbour-to-neighbour forwarding (Timeloop default)
    bool firstReadElision = true;    // first update of an element needs no read
    // The workload and architecture were validated already (a mapspace does so once, then
    // evaluates millions of mappings of them); only the mapping is checked.
    bool inputsValidated = false;
    // An invalid mapping gets one short error without figures (a search only counts them).
    bool briefErrors = false;
    // Bounds on the exact analysis of stages that no closed form covers (the memoized walk):
    // memory of its memo and steps of work. Past either, the evaluation stops with
    // `exactBudgetExceeded` and an error saying which bound; it never returns a guess.
    std::size_t exactMemoryBudgetMB = 256;
    std::uint64_t exactWorkBudget = 5'000'000;  // walk steps per evaluation (a few seconds on one core)
    // Polled by that walk as it counts its steps: once raised, the evaluation stops where it is
    // and evaluate() throws model::AnalysisCancelled (a search's cancel then waits for no walk).
    const std::atomic<bool>* cancel = nullptr;
    // Stage results of earlier evaluations of the same workload (model/StageMemo.h): a search
    // thread's neighbouring candidates share most stages. Null = every stage analysed afresh.
    model::StageMemo* stageMemo = nullptr;
};

// Never throws on a bad mapping: an invalid mapping yields valid == false with errors. Throws
// model::AnalysisCancelled (model/ExactBudget.h) only when opt.cancel is raised during a walk.
Evaluation evaluate(const Workload& w, const Architecture& a, const Mapping& m, const ModelOptions& opt = {});
// Same, into `ev`, reusing its storage (a search's per-thread scratch evaluation).
void evaluate(const Workload& w, const Architecture& a, const Mapping& m, const ModelOptions& opt, Evaluation& ev);

} // namespace nestor
