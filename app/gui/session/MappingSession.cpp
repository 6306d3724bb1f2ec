#include "MappingSession.h"

#include "ProjectDocument.h"

#include <QTimer>

namespace nestor::app {

namespace {

struct Located {
    const ProjectMapping* mapping = nullptr;
    const ProjectWorkload* workload = nullptr;
};

Located locate(const Project& p, const QString& name)
{
    Located l;
    l.mapping = p.findMapping(name.toStdString());
    if (l.mapping) l.workload = p.findWorkload(l.mapping->workload);
    return l;
}

} // namespace

MappingSession::MappingSession(ProjectDocument* document, QObject* parent)
    : QObject(parent), document_(document), runner_(new EvaluationRunner(this)), debounce_(new QTimer(this))
{
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &MappingSession::reevaluate);
    connect(runner_, &EvaluationRunner::finished, this, &MappingSession::onFinished);
    connect(document_, &ProjectDocument::contentReset, this, &MappingSession::clear);
    connect(document_, &ProjectDocument::changed, this, &MappingSession::onChanged);
}

bool MappingSession::select(const QString& name)
{
    const Project& p = document_->project();
    const Located l = locate(p, name);
    if (!l.mapping) return false;
    if (!l.workload) {
        emit failed(tr("Mapping \"%1\" maps an unknown workload").arg(name),
                    tr("No workload named \"%1\".").arg(QString::fromStdString(l.mapping->workload)));
        return false;
    }
    debounce_->stop();
    current_ = name;
    const QString title = QStringLiteral("%1 → %2").arg(name, QString::fromStdString(l.workload->workload.name));
    runner_->start({name, l.workload->workload, p.architecture, l.mapping->mapping});
    emit selected(name, title, l.workload->workload, p.architecture, l.mapping->mapping);
    return true;
}

void MappingSession::clear()
{
    runner_->discardPending();
    debounce_->stop();
    const bool had = !current_.isEmpty();
    current_.clear();
    if (had) emit cleared();
}

bool MappingSession::isEvaluating() const
{
    return runner_->hasPendingResult() || debounce_->isActive();
}

void MappingSession::onChanged(const ProjectChange& change)
{
    if (current_.isEmpty()) return;
    const Project& p = document_->project();
    const Located l = locate(p, current_);
    if (!l.workload) {
        clear();
        return;
    }
    if (!change.touchesEvaluationOf(current_, QString::fromStdString(l.workload->workload.name))) return;
    emit edited(l.workload->workload, p.architecture, l.mapping->mapping);
    debounce_->start();  // restarts: a burst of edits evaluates once
}

void MappingSession::reevaluate()
{
    const Project& p = document_->project();
    const Located l = locate(p, current_);
    if (!l.workload) return;
    runner_->start({current_, l.workload->workload, p.architecture, l.mapping->mapping});
    emit evaluationStarted();
}

void MappingSession::onFinished(const EvaluationResult& result)
{
    if (result.mappingName != current_) return;  // a result for a mapping no longer shown
    emit evaluated(result);
}

} // namespace nestor::app
