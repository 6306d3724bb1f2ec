#pragma once
// Building a mapspace is bounded, cancellable work: the builders count their steps against a
// limit and poll a cancel flag, so a huge dimension gives a clear error and Ctrl-C or a GUI
// cancel stops construction instead of waiting for it (or killing the process).
#include "common/Error.h"

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace nestor {

// Thrown by the Mapspace constructor when its cancel flag is set: no (partial) mapspace exists.
class MapspaceCancelled : public std::runtime_error {
public:
    MapspaceCancelled() : std::runtime_error("mapspace construction cancelled") {}
};

class MapspaceBuildGuard {
public:
    MapspaceBuildGuard(const std::atomic<bool>* cancel, std::int64_t stepLimit) : cancel_(cancel), limit_(stepLimit) {}

    // What is being built, for the error past the limit ("dimension M (2147483647)"): the field
    // the user can change to shrink it, and how.
    void setSubject(std::string field, std::string subject, std::string advice)
    {
        field_ = std::move(field);
        subject_ = std::move(subject);
        advice_ = std::move(advice);
    }
    // Counts n steps; throws MapspaceCancelled or, past the limit, a NestorError naming the field to constrain.
    void step(std::int64_t n = 1)
    {
        steps_ += n;
        if (steps_ - polled_ >= kPollEvery) poll();
    }
    void poll()
    {
        polled_ = steps_;
        if (cancel_ && cancel_->load(std::memory_order_relaxed)) throw MapspaceCancelled();
        if (limit_ > 0 && steps_ > limit_)
            throw NestorError(field_, subject_ + ": building the factor tables needs more than " + std::to_string(limit_) +
                                          " steps; " + advice_);
    }
    std::int64_t steps() const { return steps_; }

private:
    static constexpr std::int64_t kPollEvery = 4096;
    const std::atomic<bool>* cancel_;
    std::int64_t limit_;
    std::int64_t steps_ = 0, polled_ = 0;
    std::string field_ = "constraints", subject_ = "the mapspace", advice_ = "constrain its factors";
};

} // namespace nestor
