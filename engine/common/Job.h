#pragma once
// The job contract: how any long-running engine computation (evaluation of many layers, a
// search, a network search, a sweep, and later the simulator and the solvers) reports
// progress, polls for cancel and emits its typed events, without knowing who listens.
// The GUI adapts it onto a thread pool (app/gui/jobs/BackgroundJob.h); the CLI and the tests
// pass NullJobContext / NullEventSink where they do not care.
#include <atomic>
#include <functional>
#include <string>
#include <utility>

namespace nestor {

struct JobProgress {
    static constexpr double kUnknown = -1.0;
    double fraction = kUnknown;     // 0..1, or kUnknown (the GUI shows a busy indicator)
    std::string message;            // e.g. "layer 3 of 12: conv3_1"

    bool known() const { return fraction >= 0.0; }
};

// What a running job sees of its runner. Implementations must be callable from the job's
// thread; progress may be called often (a runner throttles if it needs to).
class JobContext {
public:
    virtual ~JobContext() = default;
    // The flag the job polls. Engine loops that already take `const std::atomic<bool>*`
    // (mapspace construction, runSearch) are handed this pointer, so there is one flag per job.
    virtual const std::atomic<bool>* cancelFlag() const = 0;
    virtual void reportProgress(const JobProgress& progress) = 0;

    bool cancelRequested() const { return cancelFlag()->load(std::memory_order_relaxed); }
};

// Never cancelled; progress goes nowhere.
class NullJobContext final : public JobContext {
public:
    const std::atomic<bool>* cancelFlag() const override { return &never_; }
    void reportProgress(const JobProgress&) override {}

private:
    std::atomic<bool> never_{false};
};

// A job context over a caller-owned flag (the CLI's Ctrl-C flag, a test's flag); progress is
// passed to `onProgress` when set.
class FlagJobContext final : public JobContext {
public:
    explicit FlagJobContext(const std::atomic<bool>* cancel, std::function<void(const JobProgress&)> onProgress = {})
        : cancel_(cancel ? cancel : &never_), onProgress_(std::move(onProgress))
    {
    }
    const std::atomic<bool>* cancelFlag() const override { return cancel_; }
    void reportProgress(const JobProgress& p) override
    {
        if (onProgress_) onProgress_(p);
    }

private:
    std::atomic<bool> never_{false};
    const std::atomic<bool>* cancel_;
    std::function<void(const JobProgress&)> onProgress_;
};

// A typed event stream: a job takes one EventSink<E> per kind of event it emits (plain
// structs such as "improved", "layer done", "point done"). Called on the job's thread.
// A part of an outer job (one point of a sweep): progress maps into [start, start + width] of
// the outer job, messages get `prefix`; cancel is the outer job's.
class JobSlice final : public JobContext {
public:
    JobSlice(JobContext& outer, double start, double width, std::string prefix)
        : outer_(outer), start_(start), width_(width), prefix_(std::move(prefix))
    {
    }
    const std::atomic<bool>* cancelFlag() const override { return outer_.cancelFlag(); }
    void reportProgress(const JobProgress& p) override
    {
        outer_.reportProgress({start_ + width_ * (p.known() ? p.fraction : 0.0), prefix_ + p.message});
    }

private:
    JobContext& outer_;
    double start_, width_;
    std::string prefix_;
};

template <class Event>
class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void onEvent(const Event& event) = 0;
};

template <class Event>
class NullEventSink final : public EventSink<Event> {
public:
    void onEvent(const Event&) override {}
};

template <class Event>
class FunctionEventSink final : public EventSink<Event> {
public:
    explicit FunctionEventSink(std::function<void(const Event&)> handler) : handler_(std::move(handler)) {}
    void onEvent(const Event& event) override
    {
        if (handler_) handler_(event);
    }

private:
    std::function<void(const Event&)> handler_;
};

} // namespace nestor
