#include "jobs/BackgroundJob.h"

#include "jobs/JobsDock.h"

#include <algorithm>

namespace nestor::app {

void RunningJob::reportProgress(const JobProgress& progress)
{
    deliver([owner = owner_, progress] {
        if (owner) owner->showProgress(progress);
    });
}

void RunningJob::deliver(std::function<void()> f)
{
    // The owner outlives the run (its destructor waits), so the pointer is valid here; queued
    // calls to one receiver run in the order they were posted.
    BackgroundJob* owner = owner_.data();
    if (!owner) return;
    QMetaObject::invokeMethod(
        owner,
        [owner = owner_, run = run_, f = std::move(f)] {
            if (owner && owner->isLatest(run)) f();
        },
        Qt::QueuedConnection);
}

BackgroundJob::BackgroundJob(QObject* parent, QThreadPool* pool)
    : QObject(parent), pool_(pool ? pool : QThreadPool::globalInstance())
{
}

BackgroundJob::~BackgroundJob()
{
    if (current_) current_->requestCancel();
    current_.reset();
    waitForDone();
}

void BackgroundJob::showIn(JobsDock* dock, QString title)
{
    dock_ = dock;
    title_ = std::move(title);
}

std::shared_ptr<RunningJob> BackgroundJob::beginRun()
{
    discard();
    futures_.erase(std::remove_if(futures_.begin(), futures_.end(), [](const QFuture<void>& f) { return f.isFinished(); }),
                   futures_.end());
    current_ = std::make_shared<RunningJob>(QPointer<BackgroundJob>(this), ++lastRun_);
    if (dock_) {
        std::weak_ptr<RunningJob> run = current_;
        dockJob_ = dock_->addJob(title_, [run] {
            if (auto r = run.lock()) r->requestCancel();
        });
    }
    return current_;
}

void BackgroundJob::cancel()
{
    if (current_) current_->requestCancel();
}

void BackgroundJob::discard()
{
    if (!current_) return;
    current_->requestCancel();
    current_.reset();
    if (dock_ && dockJob_) dock_->finishJob(dockJob_, tr("superseded"));
    dockJob_ = 0;
}

void BackgroundJob::waitForDone()
{
    for (QFuture<void>& f : futures_) f.waitForFinished();
}

void BackgroundJob::showProgress(const JobProgress& p)
{
    if (dock_ && dockJob_) {
        constexpr qint64 kSteps = 1000;
        if (p.known())
            dock_->setProgress(dockJob_, qint64(std::clamp(p.fraction, 0.0, 1.0) * kSteps), kSteps);
        else
            dock_->setProgress(dockJob_, 0, 0);
        if (!p.message.empty()) dock_->setStatus(dockJob_, QString::fromStdString(p.message));
    }
    emit progressed(p);
}

void BackgroundJob::endRun(quint64 run, const QString& failure, const std::function<void()>& deliverResult)
{
    if (!isLatest(run)) return;   // superseded or discarded: its outcome is dropped
    const bool cancelled = current_->cancelRequested();
    const QString summary = current_->summary();
    current_.reset();
    const int row = dockJob_;
    dockJob_ = 0;
    if (dock_ && row)
        dock_->finishJob(row, !failure.isEmpty() ? tr("failed: %1").arg(failure)
                              : !summary.isEmpty() ? summary
                              : cancelled          ? tr("cancelled")
                                                   : tr("done"));
    if (failure.isEmpty())
        deliverResult();
    else
        emit failed(failure);
    emit finished();
}

QString BackgroundJob::describe(std::exception_ptr e)
{
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& ex) {
        return QString::fromStdString(ex.what());
    } catch (...) {
        return tr("unknown error");
    }
}

} // namespace nestor::app
