#pragma once
// The one adapter between the engine's job contract (common/Job.h) and the GUI: runs any job
// function on a thread pool (QtConcurrent::run + QFutureWatcher; capture inputs by value),
// delivers its progress and events on the GUI thread in the order the job sent them, turns an
// exception into failed(message), and cancels through the contract's flag. With showIn() each
// run is a row of the Jobs dock (progress bar, status, Cancel).
//
// start() while a run is in progress cancels that run and drops whatever it still delivers:
// only the latest run reports (an evaluation re-run on every edit needs exactly this).
#include "common/Job.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace nestor::app {

class JobsDock;
class BackgroundJob;

// The context a run's job function receives: the contract, plus delivery to the GUI thread.
class RunningJob final : public JobContext {
public:
    RunningJob(QPointer<BackgroundJob> owner, quint64 run) : owner_(std::move(owner)), run_(run) {}

    const std::atomic<bool>* cancelFlag() const override { return &cancel_; }
    void reportProgress(const JobProgress& progress) override;
    // Runs `f` on the GUI thread, after everything delivered before it; dropped when the run
    // is no longer the owner's latest.
    void deliver(std::function<void()> f);

    void requestCancel() { cancel_.store(true); }
    quint64 run() const { return run_; }
    // What the run's Jobs-dock row says when it ends without failing (default "done" or
    // "cancelled"); set by the job function before it returns.
    void setSummary(QString summary) { summary_ = std::move(summary); }
    const QString& summary() const { return summary_; }

private:
    QPointer<BackgroundJob> owner_;
    quint64 run_;
    std::atomic<bool> cancel_{false};
    QString summary_;  // written on the pool thread before the run returns, read after it has
};

// An EventSink whose events reach `handler` on the GUI thread, in order.
template <class Event>
class QueuedEventSink final : public EventSink<Event> {
public:
    QueuedEventSink(RunningJob& job, std::function<void(const Event&)> handler) : job_(job), handler_(std::move(handler)) {}
    void onEvent(const Event& event) override
    {
        job_.deliver([h = handler_, event] { h(event); });
    }

private:
    RunningJob& job_;
    std::function<void(const Event&)> handler_;
};

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    explicit BackgroundJob(QObject* parent = nullptr, QThreadPool* pool = nullptr);
    ~BackgroundJob() override;   // cancels every run and waits for them

    void showIn(JobsDock* dock, QString title);   // each run becomes a row of the dock
    void setTitle(QString title) { title_ = std::move(title); }

    // Runs `work` on the pool; on the GUI thread, `done(result)` when it returns, failed()
    // when it throws. Then finished().
    template <class Result>
    void start(std::function<Result(RunningJob&)> work, std::function<void(Result)> done);

    void cancel();                      // the latest run stops at its next poll
    // The latest run's results are dropped (it is cancelled too) and no finished() follows for
    // it: the caller resets what it showed for the run (its callers clear their views anyway).
    void discard();
    bool isRunning() const { return current_ != nullptr; }
    bool cancelRequested() const { return current_ && current_->cancelRequested(); }
    int dockJob() const { return dockJob_; }   // the latest run's row in the dock, 0 = none
    void waitForDone();                 // blocks until every run has returned (tests, shutdown)

    bool isLatest(quint64 run) const { return current_ && current_->run() == run; }

signals:
    void progressed(const nestor::JobProgress& progress);
    void failed(const QString& message);
    void finished();                    // the latest run ended (after done() or failed())

private:
    template <class Result>
    struct Outcome {
        std::optional<Result> value;
        QString failure;
    };
    std::shared_ptr<RunningJob> beginRun();
    void endRun(quint64 run, const QString& failure, const std::function<void()>& deliverResult);
    void showProgress(const JobProgress& p);
    static QString describe(std::exception_ptr e);

    friend class RunningJob;

    QThreadPool* pool_;
    QPointer<JobsDock> dock_;
    QString title_;
    int dockJob_ = 0;
    quint64 lastRun_ = 0;
    std::shared_ptr<RunningJob> current_;
    std::vector<QFuture<void>> futures_;
};

template <class Result>
void BackgroundJob::start(std::function<Result(RunningJob&)> work, std::function<void(Result)> done)
{
    std::shared_ptr<RunningJob> run = beginRun();
    auto* watcher = new QFutureWatcher<Outcome<Result>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, run, done = std::move(done)] {
        watcher->deleteLater();
        Outcome<Result> o = watcher->result();
        endRun(run->run(), o.failure, [&] {
            if (o.value && done) done(std::move(*o.value));
        });
    });
    QFuture<Outcome<Result>> future = QtConcurrent::run(pool_, [work = std::move(work), run] {
        Outcome<Result> o;
        try {
            o.value.emplace(work(*run));
        } catch (...) {
            o.failure = describe(std::current_exception());
        }
        return o;
    });
    futures_.push_back(QFuture<void>(future));
    watcher->setFuture(future);
}

} // namespace nestor::app
