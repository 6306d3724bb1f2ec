#include "SearchRunQueue.h"

#include "SearchText.h"

namespace nestor::app {

SearchRunQueue::SearchRunQueue(QObject* parent) : QObject(parent), job_(new SearchJob(this))
{
    connect(job_, &SearchJob::progress, this, &SearchRunQueue::onProgress);
    connect(job_, &SearchJob::improved, this, [this](qint64 evaluated, double value) {
        if (current_ >= 0) emit improved(current_, evaluated, value);
    });
    connect(job_, &SearchJob::finished, this, &SearchRunQueue::onFinished);
}

SearchRunQueue::~SearchRunQueue()
{
    queue_.clear();
    job_->cancel();
}

void SearchRunQueue::enqueue(std::vector<SearchRequest> requests)
{
    for (SearchRequest& r : requests) queue_.push_back(std::move(r));
    startNext();
}

void SearchRunQueue::cancel()
{
    queue_.clear();
    job_->cancel();
}

bool SearchRunQueue::clear()
{
    if (isRunning()) return false;
    runs_.clear();
    current_ = -1;
    return true;
}

void SearchRunQueue::reset()
{
    queue_.clear();
    job_->discard();
    runs_.clear();
    current_ = -1;
}

bool SearchRunQueue::isRunning() const
{
    return current_ >= 0 || job_->isRunning() || !queue_.empty();
}

bool SearchRunQueue::anyBest() const
{
    for (const SearchRun& r : runs_)
        if (r.finished && r.outcome.result.found) return true;
    return false;
}

void SearchRunQueue::startNext()
{
    if (queue_.empty() || job_->isRunning()) return;
    SearchRequest r = std::move(queue_.front());
    queue_.pop_front();
    SearchRun run;
    run.label = r.label;
    run.layer = QString::fromStdString(r.workload.name);
    run.mapspace = QString::fromStdString(mapspaceKindName(r.kind));
    run.algorithm = QString::fromStdString(r.options.algorithm);
    run.seed = qint64(r.options.seed);
    run.outcome.request = r;  // the settings, for the table while running
    const QString title = tr("Search %1 (%2)").arg(run.label, run.layer);
    runs_.push_back(std::move(run));
    current_ = int(runs_.size()) - 1;
    job_->start(std::move(r), jobs_, title);
    runs_.back().job = job_->dockJob();
    emit runStarted(current_);
}

void SearchRunQueue::onProgress(const SearchProgress& p)
{
    if (current_ < 0) return;
    SearchRun& r = runs_[std::size_t(current_)];
    r.progress = p;
    emit runProgressed(current_);
}

void SearchRunQueue::onFinished()
{
    if (current_ < 0) return;
    const int index = current_;
    SearchRun& r = runs_[std::size_t(index)];
    r.outcome = job_->outcome();
    r.finished = true;
    r.summary = searchOutcomeSummary(r.outcome);  // as its Jobs-dock row says
    current_ = -1;
    emit runFinished(index);
    if (!queue_.empty()) startNext();
    else emit allRunsFinished();
}

} // namespace nestor::app
