#include "EvaluationRunner.h"

#include "jobs/BackgroundJob.h"
#include "model/Model.h"

#include <QElapsedTimer>

#include <exception>

namespace nestor::app {

EvaluationRunner::EvaluationRunner(QObject* parent) : QObject(parent), job_(new BackgroundJob(this)) {}

EvaluationResult EvaluationRunner::run(const EvaluationRequest& request)
{
    EvaluationResult result;
    result.mappingName = request.mappingName;
    QElapsedTimer timer;
    timer.start();
    try {
        result.evaluation = evaluate(request.workload, request.architecture, request.mapping);
    } catch (const std::exception& e) {
        result.failure = QString::fromStdString(e.what());
    } catch (...) {
        result.failure = tr("unknown error");
    }
    result.elapsed_ms = timer.elapsed();
    return result;
}

void EvaluationRunner::start(EvaluationRequest request)
{
    // A new request supersedes the running one: its result is dropped.
    job_->start<EvaluationResult>([request = std::move(request)](RunningJob&) { return run(request); },
                                  [this](EvaluationResult result) { emit finished(result); });
}

void EvaluationRunner::discardPending()
{
    job_->discard();
}

bool EvaluationRunner::hasPendingResult() const
{
    return job_->isRunning();
}

} // namespace nestor::app
