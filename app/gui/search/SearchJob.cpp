#include "SearchJob.h"

#include "SearchText.h"
#include "jobs/BackgroundJob.h"
#include "mapspace/Mapspace.h"

#include <chrono>
#include <exception>

namespace nestor::app {

namespace {

constexpr auto kSignalInterval = std::chrono::milliseconds(100);  // ~10 Hz

// Runs on the search's calling thread (a pool thread); forwards to the job on the GUI thread.
class QueuedObserver : public SearchObserver {
public:
    QueuedObserver(RunningJob& run, SearchJob* job, const SearchOptions& options) : run_(run), job_(job), options_(options) {}

    void onImprovement(const SearchCurvePoint& c) override { pending_.push_back(c); }
    void onProgress(const SearchProgress& p) override
    {
        const auto now = std::chrono::steady_clock::now();
        if (sent_ && now - last_ < kSignalInterval) return;
        sent_ = true;
        last_ = now;
        flush(p);
    }
    void flush(const SearchProgress& p)
    {
        run_.reportProgress(searchJobProgress(options_, p));
        std::vector<SearchCurvePoint> points;
        points.swap(pending_);
        // The job outlives the run (its destructor waits for it); delivery is dropped once
        // the run is no longer current.
        run_.deliver([job = job_, points = std::move(points), p] {
            for (const auto& c : points) emit job->improved(c.evaluated, c.value);
            emit job->progress(p);
        });
    }

private:
    RunningJob& run_;
    SearchJob* job_;
    const SearchOptions& options_;
    std::vector<SearchCurvePoint> pending_;
    std::chrono::steady_clock::time_point last_;
    bool sent_ = false;
};

} // namespace

SearchJob::SearchJob(QObject* parent) : QObject(parent), job_(new BackgroundJob(this, &pool_))
{
    pool_.setMaxThreadCount(1);
    connect(job_, &BackgroundJob::finished, this, [this] { emit finished(); });
}

SearchJob::~SearchJob()
{
    job_->cancel();
    job_->waitForDone();   // before pool_ goes
}

bool SearchJob::isRunning() const
{
    return job_->isRunning();
}

int SearchJob::dockJob() const
{
    return job_->dockJob();
}

bool SearchJob::start(SearchRequest request, JobsDock* dock, const QString& title)
{
    if (job_->isRunning()) return false;
    outcome_ = {};
    if (dock) job_->showIn(dock, title);
    job_->start<SearchOutcome>(
        [request = std::move(request), self = this](RunningJob& job) {
            QueuedObserver observer(job, self, request.options);
            SearchOutcome o = run(request, &observer, job.cancelFlag());
            SearchProgress last;
            last.evaluated = o.result.evaluated;
            last.valid = o.result.valid;
            last.overBudget = o.result.overBudget;
            last.hasBest = o.result.found;
            last.best = o.result.found && !o.result.bestMetrics.empty() ? o.result.bestMetrics.front() : 0.0;
            last.seconds = o.result.seconds;
            observer.flush(last);  // the improvements after the last throttled signal
            job.setSummary(searchOutcomeSummary(o));
            return o;
        },
        [this](SearchOutcome o) { outcome_ = std::move(o); });
    return true;
}

void SearchJob::cancel()
{
    job_->cancel();
}

void SearchJob::discard()
{
    job_->discard();
}

SearchOutcome SearchJob::run(const SearchRequest& request, SearchObserver* observer, const std::atomic<bool>* cancel)
{
    SearchOutcome o;
    o.request = request;
    try {
        const Mapspace space(request.workload, request.architecture, request.kind, request.constraints, MapspaceOptions{},
                             cancel);
        o.mapspaceSize = double(space.size().total);
        SearchOptions options = request.options;
        options.scatterSize = request.sampleSize;
        o.result = runSearch(space, options, observer, cancel);
        for (const auto* points : {&o.result.energyDelayFront, &o.result.scatter})
            for (const EvaluatedPoint& e : *points) o.sample.push_back({e, space.toMapping(e.point)});
        if (o.result.found) o.sample.push_back({EvaluatedFigures::of(o.result.bestEvaluation), o.result.best});
    } catch (const MapspaceCancelled&) {
        o.result.cancelled = true;  // cancelled before the search started: nothing found, nothing failed
    } catch (const std::exception& e) {
        // Invalid inputs, and a search thread that failed (out of memory, ...): runSearch stops
        // and joins its threads before it throws, so the job ends as failed with the message.
        o.failure = QString::fromStdString(e.what());
    } catch (...) {
        o.failure = QStringLiteral("the search failed with an unknown exception");
    }
    return o;
}

} // namespace nestor::app
