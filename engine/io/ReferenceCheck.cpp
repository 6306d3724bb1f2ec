#include "io/ReferenceCheck.h"

#include "io/TextFormat.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace nestor {

int CheckResult::failures() const
{
    return static_cast<int>(std::count_if(rows.begin(), rows.end(), [](const CheckRow& r) { return !r.pass; }));
}

bool energyMatches(double expected, double got)
{
    // The tiny factor keeps a difference of exactly the tolerance (e.g. 0.01 pJ) from failing on
    // binary rounding.
    return std::fabs(expected - got) <= std::max(0.01, 1e-6 * std::fabs(expected)) * (1.0 + 1e-9);
}

bool utilizationMatches(double expected, double got)
{
    return std::fabs(expected - got) <= 1e-4;
}

namespace {

const char* kExpected = "expected";
const char* kExact = "exact_counts";

std::string energyText(double v) { return text::fixed(v, 4); }

class Checker {
public:
    Checker(const ReferenceCase& rc, const Evaluation& ev) : rc_(rc), ev_(ev) {}

    CheckResult run();

private:
    void add(std::string field, std::string expected, std::string got, bool pass, std::string source)
    {
        res_.rows.push_back(CheckRow{std::move(field), std::move(expected), std::move(got), pass, std::move(source)});
    }
    void intRow(const std::string& field, std::int64_t expected, std::int64_t got, const char* source)
    {
        add(field, std::to_string(expected), std::to_string(got), expected == got, source);
    }
    void energyRow(const std::string& field, double expected, double got, const char* source)
    {
        add(field, energyText(expected), energyText(got), energyMatches(expected, got), source);
    }

    void checkWorkload();
    void checkSummary();
    void checkCompute(const RefLevelFigures* exp, const RefLevelFigures* ex);
    void checkStorage(const std::string& level, const RefLevelFigures* exp, const RefLevelFigures* ex);
    void checkTensor(const std::string& level, const LevelStats& ls, int t, const RefTensorFigures* exp,
                     const RefTensorFigures* ex);
    void checkCount(const std::string& field, const RefCount& c, const char* source, std::int64_t total,
                    std::int64_t mn, std::int64_t mx, std::int64_t instances);

    const LevelStats* findLevel(const std::string& name) const
    {
        for (const auto& l : ev_.levels)
            if (l.name == name) return &l;
        return nullptr;
    }
    const RefLevelFigures* exactLevel(const std::string& name) const
    {
        return rc_.exact ? rc_.exact->findLevel(name) : nullptr;
    }

    const ReferenceCase& rc_;
    const Evaluation& ev_;
    CheckResult res_;
};

// A value from exact_counts when given there, else from expected.
template <typename T>
std::optional<std::pair<T, const char*>> pick(const std::optional<T>& exact, const std::optional<T>& expected)
{
    if (exact) return std::make_pair(*exact, kExact);
    if (expected) return std::make_pair(*expected, kExpected);
    return std::nullopt;
}

void Checker::checkWorkload()
{
    const Workload& w = rc_.workload;
    if (rc_.totalMacs) intRow("workload/total_macs", *rc_.totalMacs, w.macs(), "workload");
    for (int t = 0; t < w.numTensors() && t < static_cast<int>(rc_.tensorSizes.size()); ++t)
        if (rc_.tensorSizes[t])
            intRow("workload/" + w.tensors[t].name + "/tensor_size", *rc_.tensorSizes[t], w.tensorSize(t), "workload");
}

void Checker::checkSummary()
{
    const RefSummary& e = rc_.expected.summary;
    const RefSummary none;
    const RefSummary& x = rc_.exact ? rc_.exact->summary : none;
    if (auto v = pick(x.cycles, e.cycles)) intRow("summary/cycles", v->first, ev_.cycles, v->second);
    if (auto v = pick(x.computes, e.computes)) intRow("summary/computes", v->first, ev_.macs, v->second);
    if (auto v = pick(x.utilization, e.utilization))
        add("summary/utilization", text::fixed(v->first, 6), text::fixed(ev_.utilization, 6),
            utilizationMatches(v->first, ev_.utilization), v->second);
    if (auto v = pick(x.energy_total_pJ, e.energy_total_pJ))
        energyRow("summary/energy_total_pJ", v->first, ev_.energy_pJ, v->second);
}

void Checker::checkCompute(const RefLevelFigures* exp, const RefLevelFigures* ex)
{
    const RefLevelFigures none;
    const RefLevelFigures& e = exp ? *exp : none;
    const RefLevelFigures& x = ex ? *ex : none;
    const std::string name = exp ? exp->level : ex->level;
    if (auto v = pick(x.computes_total, e.computes_total)) intRow(name + "/computes_total", v->first, ev_.macs, v->second);
    if (auto v = pick(x.energy_total_pJ, e.energy_total_pJ))
        energyRow(name + "/energy_total_pJ", v->first, ev_.compute_energy_pJ, v->second);
}

void Checker::checkCount(const std::string& field, const RefCount& c, const char* source, std::int64_t total,
                         std::int64_t mn, std::int64_t mx, std::int64_t instances)
{
    const std::string got = (mn == mx ? std::to_string(mn) : "[" + std::to_string(mn) + ", " + std::to_string(mx) + "]") +
                            " (total " + std::to_string(total) + ")";
    if (c.perInstance) {
        const std::int64_t x = *c.perInstance;
        // Per-instance extremes when the evaluation has them; the total when only it is comparable.
        const bool extremesKnown = mn != 0 || mx != 0 || total == 0;
        const bool pass = extremesKnown ? (mn == x && mx == x) : total == x * instances;
        add(field + "_per_instance", std::to_string(x), got, pass, source);
    }
    if (c.perInstanceRange) {
        const auto [lo, hi] = *c.perInstanceRange;
        add(field + "_per_instance_range", "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]", got,
            mn == lo && mx == hi, source);
    }
    if (c.total) add(field + "_total", std::to_string(*c.total), std::to_string(total), *c.total == total, source);
}

void Checker::checkTensor(const std::string& level, const LevelStats& ls, int t, const RefTensorFigures* exp,
                          const RefTensorFigures* ex)
{
    const RefTensorFigures none;
    const RefTensorFigures& e = exp ? *exp : none;
    const RefTensorFigures& x = ex ? *ex : none;
    const std::string& tname = rc_.workload.tensors[t].name;
    const std::string f = level + "/" + tname + "/";
    const TensorLevelStats* ts = t < static_cast<int>(ls.tensors.size()) ? &ls.tensors[t] : nullptr;
    if (!ts || !ts->kept) {
        add(f + "kept", "yes", "no (bypassed or missing)", false, exp ? kExpected : kExact);
        return;
    }
    if (auto v = pick(x.utilized_capacity, e.utilized_capacity))
        intRow(f + "utilized_capacity", v->first, ts->utilized_capacity, v->second);
    if (auto v = pick(x.utilized_instances, e.utilized_instances))
        intRow(f + "utilized_instances", v->first, ts->utilized_instances, v->second);
    const std::int64_t ui = ts->utilized_instances;
    const bool exR = !x.reads.empty(), exF = !x.fills.empty(), exU = !x.updates.empty();
    checkCount(f + "reads", exR ? x.reads : e.reads, exR ? kExact : kExpected, ts->reads, ts->reads_min,
               ts->reads_max, ui);
    checkCount(f + "fills", exF ? x.fills : e.fills, exF ? kExact : kExpected, ts->fills, ts->fills_min,
               ts->fills_max, ui);
    checkCount(f + "updates", exU ? x.updates : e.updates, exU ? kExact : kExpected, ts->updates, ts->updates_min,
               ts->updates_max, ui);
    if (auto v = pick(x.energy_total_pJ, e.energy_total_pJ)) energyRow(f + "energy_total_pJ", v->first, ts->energy_pJ, v->second);
}

void Checker::checkStorage(const std::string& level, const RefLevelFigures* exp, const RefLevelFigures* ex)
{
    const LevelStats* ls = findLevel(level);
    if (!ls) {
        add(level, "level stats", "missing in the evaluation", false, exp ? kExpected : kExact);
        return;
    }
    const RefLevelFigures none;
    const RefLevelFigures& e = exp ? *exp : none;
    const RefLevelFigures& x = ex ? *ex : none;
    if (auto v = pick(x.cycles, e.cycles)) intRow(level + "/cycles", v->first, ls->cycles, v->second);
    if (auto v = pick(x.leakage_energy_total_pJ, e.leakage_energy_total_pJ))
        energyRow(level + "/leakage_energy_total_pJ", v->first, ls->leakage_energy_pJ, v->second);
    for (int t = 0; t < rc_.workload.numTensors(); ++t) {
        const std::string& tname = rc_.workload.tensors[t].name;
        const RefTensorFigures* te = e.findTensor(tname);
        const RefTensorFigures* tx = x.findTensor(tname);
        if (te || tx) {
            checkTensor(level, *ls, t, te, tx);
        } else if (exp && t < static_cast<int>(ls->tensors.size()) && ls->tensors[t].kept) {
            // The case lists stats only for kept tensors: this one is bypassed there.
            add(level + "/" + tname + "/kept", "no", "yes", false, kExpected);
        }
    }
}

CheckResult Checker::run()
{
    res_.caseName = rc_.name;
    res_.mappingValid = ev_.valid;
    checkWorkload();
    if (!ev_.valid) {
        if (ev_.errors.empty()) add("mapping", "valid", "invalid (no reason given)", false, "mapping");
        for (const auto& d : ev_.errors)
            add(d.field.empty() ? std::string("mapping") : d.field, "valid", "invalid: " + d.message, false, "mapping");
        res_.pass = false;
        return res_;
    }
    checkSummary();
    // Levels in architecture order (outermost first), then compute.
    const Architecture& a = rc_.architecture;
    for (const auto& l : a.levels) {
        const RefLevelFigures* exp = rc_.expected.findLevel(l.name);
        const RefLevelFigures* ex = exactLevel(l.name);
        if (exp || ex) checkStorage(l.name, exp, ex);
    }
    const RefLevelFigures* exp = rc_.expected.findLevel(a.compute.name);
    const RefLevelFigures* ex = exactLevel(a.compute.name);
    if (exp || ex) checkCompute(exp, ex);
    res_.pass = res_.failures() == 0;
    return res_;
}

} // namespace

CheckResult checkReference(const ReferenceCase& rc, const Evaluation& ev)
{
    return Checker(rc, ev).run();
}

} // namespace nestor
