// Paint speed of the teaching view (widgets/DataflowView), offscreen, at 1366 x 768:
//  (i)  playing each mapping of the gallery (examples/teaching/dataflows.yaml, 14 x 12 PEs) at
//       the level and tensor the Dataflow tab shows by default: per step the trace frames (the
//       step and the one before, which decides reuse, as DataflowTab::goToStep computes them)
//       and the paint into a QImage; median and worst, and the frames/s of the median
//       (target: >= 30 frames/s, i.e. <= 33 ms a step);
//  (ii) scrubbing VGG-16 conv3_1 (examples/eyeriss-like.yaml, every mapping) to random steps:
//       the same work for one step (target: <= 100 ms).
// The paint alone is reported too, and the paint of the busiest step played (most moves), as the
// median of 30 repaints.
// Usage: bench_dataflow_paint [steps played per mapping, default 300] [scrub samples, default 50]
#include "DataflowContext.h"
#include "DataflowView.h"
#include "io/ProjectYaml.h"
#include "teaching/DataflowTab.h"
#include "trace/StepTrace.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>

using namespace nestor;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

// CPU time of the process (all threads) in ms: on a shared machine, steadier than the wall clock.
double cpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

struct Stats {
    double median = 0, worst = 0;
};

Stats stats(std::vector<double> v)
{
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.back()};
}

// What the tab shows by default for a mapping: its level and the first tensor kept there.
struct Shown {
    int level = 0, tensor = 0;
};

Shown shownByDefault(const Workload& w, const Architecture& a, const Mapping& m)
{
    Shown s;
    s.level = app::DataflowTab::defaultLevel(a, m);
    for (int t = 0; t < w.numTensors(); ++t)
        if (m.keeps(s.level, t)) {
            s.tensor = t;
            break;
        }
    return s;
}

struct Timing {
    std::vector<double> step, paint, paintCpu;
    std::int64_t busiest = -1, slowest = -1;
    std::size_t busiestMoves = 0;
};

// Shows `step` on the view (frames of step and step - 1) and paints it; appends the times.
void showAndPaint(const trace::StepTrace& tr, widgets::DataflowView& view, QImage& image, std::int64_t step, Timing& t)
{
    const auto a = Clock::now();
    trace::StepFrame f = tr.frame(step);
    std::optional<trace::StepFrame> previous;
    if (step > 0) previous = tr.frame(step - 1);
    view.setFrame(f, previous);
    const auto b = Clock::now();
    const double cpu = cpuMs();
    QPainter p(&image);
    view.paint(p);
    p.end();
    const auto c = Clock::now();
    t.paintCpu.push_back(cpuMs() - cpu);
    if (t.step.empty() || ms(a, c) > *std::max_element(t.step.begin(), t.step.end())) t.slowest = step;
    t.step.push_back(ms(a, c));
    t.paint.push_back(ms(b, c));
    if (f.moves.size() > t.busiestMoves || t.busiest < 0) {
        t.busiestMoves = f.moves.size();
        t.busiest = step;
    }
}

// One mapping of a project as the Dataflow tab first shows it, at 1366 x 768.
struct Shown1366 {
    Shown1366(const Project& p, const ProjectMapping& pm, const ProjectWorkload& pw)
        : project(p), mapping(pm), layer(pw), shown(shownByDefault(pw.workload, p.architecture, pm.mapping)),
          trace(pw.workload, p.architecture, pm.mapping, shown.level)
    {
        view.resize(1366, 768);
        view.setContext(widgets::makeDataflowContext(pw.workload, p.architecture, pm.mapping, shown.level));
        view.setTensor(shown.tensor);
        image = QImage(view.size(), QImage::Format_ARGB32_Premultiplied);
    }
    const Project& project;
    const ProjectMapping& mapping;
    const ProjectWorkload& layer;
    Shown shown;
    trace::StepTrace trace;
    widgets::DataflowView view;
    QImage image;
};

// Calls fn(Shown1366&) for every mapping of the project file (examples/...).
template <class Fn>
void forEachMapping(const std::string& file, Fn&& fn)
{
    const Project p = readProject(std::string(NESTOR_EXAMPLES_DIR) + "/" + file);
    for (const ProjectMapping& pm : p.mappings) {
        const ProjectWorkload* pw = p.findWorkload(pm.workload);
        if (!pw) continue;
        Shown1366 m(p, pm, *pw);
        fn(m);
    }
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int played = argc > 1 ? std::max(1, std::atoi(argv[1])) : 300;
    const int scrubs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
    bool playOk = true, scrubOk = true;

    std::printf("Playing the gallery, %d steps from step 0 per mapping, view 1366 x 768 (ms per step)\n", played);
    try {
        forEachMapping("teaching/dataflows.yaml", [&](Shown1366& m) {
            const trace::StepTrace& tr = m.trace;
            widgets::DataflowView& view = m.view;
            QImage& image = m.image;
            Timing t;
            for (std::int64_t step = 0; step < std::min<std::int64_t>(played, tr.numSteps()); ++step) showAndPaint(tr, view, image, step, t);
            // The busiest step (most moves) again, 30 times: its paint without the machine's noise.
            Timing busy;
            for (int i = 0; i < 30; ++i) showAndPaint(tr, view, image, t.busiest, busy);
            const Stats st = stats(t.step), sp = stats(t.paint), sb = stats(busy.paint), sbCpu = stats(busy.paintCpu);
            std::size_t groups = 0, leaves = 0, buses = 0;
            for (const auto& g : view.arrowGroups()) {
                ++groups;
                leaves += g.leaves.size();
                buses += g.bus ? 1 : 0;
            }
            std::printf("  %-18s %-12s %-8s steps %8lld  step median %6.2f worst %6.2f  (paint median %6.2f worst %6.2f)  "
                        "%6.0f frames/s  slowest step %lld; busiest %lld (%zu moves, %zu arrows, %zu buses, %zu ends): paint median %6.2f (CPU %6.2f)\n",
                        m.mapping.mapping.name.c_str(), m.project.architecture.levels[std::size_t(m.shown.level)].name.c_str(),
                        m.layer.workload.tensors[std::size_t(m.shown.tensor)].name.c_str(), static_cast<long long>(tr.numSteps()), st.median,
                        st.worst, sp.median, sp.worst, 1000.0 / st.median, static_cast<long long>(t.slowest), static_cast<long long>(t.busiest),
                        t.busiestMoves, groups, buses, leaves, sb.median, sbCpu.median);
            playOk = playOk && st.median <= 1000.0 / 30 && sb.median <= 1000.0 / 30;
        });
    } catch (const std::exception& e) {
        std::printf("  gallery: %s\n", e.what());
        playOk = false;
    }

    std::printf("Scrubbing VGG-16 conv3_1 to %d random steps per mapping (ms per step)\n", scrubs);
    try {
        forEachMapping("eyeriss-like.yaml", [&](Shown1366& m) {
            const trace::StepTrace& tr = m.trace;
            QImage& image = m.image;
            std::mt19937_64 rng(42);
            std::uniform_int_distribution<std::int64_t> any(0, tr.numSteps() - 1);
            Timing t;
            for (int i = 0; i < scrubs; ++i) showAndPaint(tr, m.view, image, any(rng), t);
            const Stats st = stats(t.step), sp = stats(t.paint);
            std::printf("  %-18s %-12s %-8s steps %10lld  step median %6.2f worst %6.2f  (paint median %6.2f worst %6.2f)\n",
                        m.mapping.mapping.name.c_str(), m.project.architecture.levels[std::size_t(m.shown.level)].name.c_str(),
                        m.layer.workload.tensors[std::size_t(m.shown.tensor)].name.c_str(), static_cast<long long>(tr.numSteps()), st.median,
                        st.worst, sp.median, sp.worst);
            scrubOk = scrubOk && st.worst <= 100.0;
        });
    } catch (const std::exception& e) {
        std::printf("  conv3_1: %s\n", e.what());
        scrubOk = false;
    }
    std::printf("targets: playing >= 30 frames/s (median step and busiest paint <= 33 ms): %s; scrubbing <= 100 ms (worst): %s\n",
                playOk ? "met" : "NOT met", scrubOk ? "met" : "NOT met");
    return 0;
}
