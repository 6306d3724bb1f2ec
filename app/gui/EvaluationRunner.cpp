#include "EvaluationRunner.h"

#include "model/Model.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace nestor::app {

EvaluationRunner::EvaluationRunner(QObject* parent) : QObject(parent) {}

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
    const quint64 ticket = ++lastTicket_;
    awaited_ = ticket;
    auto* watcher = new QFutureWatcher<EvaluationResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, ticket] {
        watcher->deleteLater();
        if (ticket != awaited_) return;
        awaited_ = 0;
        emit finished(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([request = std::move(request)] { return run(request); }));
}

void EvaluationRunner::discardPending()
{
    awaited_ = 0;
}

} // namespace nestor::app
