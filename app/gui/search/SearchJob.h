#pragma once
// One mapspace search in the background: nestor::runSearch run as a background job
// (jobs/BackgroundJob.h) on its own one-thread pool, with its inputs copied into the task. The
// engine's SearchObserver is adapted into signals on the GUI thread, throttled to about 10 Hz;
// cancel() sets the job's cancel flag, so the search stops and returns its best so far within
// the engine's polling time (well under 100 ms).
//
// The energy-vs-delay scatter shows the mappings the search itself evaluated: the engine's
// exact energy-delay Pareto front over all of them plus a uniform sample of `sampleSize`.
#include "arch/Architecture.h"
#include "mapspace/MapspaceKind.h"
#include "search/SearchDriver.h"
#include "workload/Workload.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <vector>

namespace nestor::app {

class BackgroundJob;
class JobsDock;

struct SearchRequest {
    QString label;                  // e.g. "conv3_1 pfm random #1"
    Workload workload;
    Architecture architecture;
    MapspaceKind kind = MapspaceKind::Pfm;
    MapspaceConstraints constraints;
    SearchOptions options;
    int sampleSize = 300;           // evaluated mappings kept for the energy-vs-delay scatter (0 = front only)
};

struct EvaluatedMapping : EvaluatedFigures {
    Mapping mapping;
};

struct SearchOutcome {
    SearchRequest request;
    SearchResult result;
    double mapspaceSize = 0;        // mappings (an upper bound when not exact)
    std::vector<EvaluatedMapping> sample;  // the search's front, its scatter sample, and the best
    QString failure;                // the engine refused the inputs, or the search failed (out of memory, ...)
};

class SearchJob : public QObject {
    Q_OBJECT
public:
    explicit SearchJob(QObject* parent = nullptr);
    ~SearchJob() override;          // cancels and waits

    // False while running. With a dock, the run is a row of it (progress, status, Cancel).
    bool start(SearchRequest request, JobsDock* dock = nullptr, const QString& title = {});
    int dockJob() const;            // the latest run's row in the dock, 0 = none
    void cancel();
    void discard();                 // cancels the run and drops its outcome (no finished())
    bool isRunning() const;         // until finished() has been emitted
    const SearchOutcome& outcome() const { return outcome_; }

    // The task itself (also usable without Qt's event loop).
    static SearchOutcome run(const SearchRequest& request, SearchObserver* observer, const std::atomic<bool>* cancel);

signals:
    void progress(const nestor::SearchProgress& progress);
    void improved(qint64 evaluated, double value);
    void finished();

private:
    QThreadPool pool_;   // its own thread: a long search never holds up the global pool's evaluations
    BackgroundJob* job_;
    SearchOutcome outcome_;
};

} // namespace nestor::app
