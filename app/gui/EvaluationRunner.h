#pragma once
// Runs nestor::evaluate as a background job (jobs/BackgroundJob.h) with its inputs copied into
// the task, and reports on the GUI thread. Only the result of the most recent request is
// delivered; older ones still finish but are dropped.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <QObject>
#include <QString>

namespace nestor::app {

class BackgroundJob;

struct EvaluationRequest {
    QString mappingName;
    Workload workload;
    Architecture architecture;
    Mapping mapping;
};

struct EvaluationResult {
    QString mappingName;
    Evaluation evaluation;
    QString failure;        // non-empty when evaluate threw (a bug or an input it rejects)
    qint64 elapsed_ms = 0;
};

class EvaluationRunner : public QObject {
    Q_OBJECT
public:
    explicit EvaluationRunner(QObject* parent = nullptr);

    void start(EvaluationRequest request);
    void discardPending();             // results of requests made so far are dropped
    bool hasPendingResult() const;

    static EvaluationResult run(const EvaluationRequest& request);  // the task itself

signals:
    void finished(const nestor::app::EvaluationResult& result);

private:
    BackgroundJob* job_;
};

} // namespace nestor::app
