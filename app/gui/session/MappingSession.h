#pragma once
// The mapping the workbench is looking at, and its live evaluation: which mapping is current,
// its evaluation in the background (EvaluationRunner) and the debounce that makes a burst of
// edits evaluate once. Any view can subscribe to it; MainWindow only wires its signals to the
// panels. It follows the document by itself: an edit that touches the current mapping (its
// loops, its layer, the architecture) re-evaluates it, one that does not leaves it alone, and
// removing the mapping or its layer ends the session.
#include "EvaluationRunner.h"

#include <QObject>
#include <QString>

class QTimer;

namespace nestor::app {

class ProjectDocument;
struct ProjectChange;

class MappingSession : public QObject {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 100;  // edits in a burst evaluate once

    explicit MappingSession(ProjectDocument* document, QObject* parent = nullptr);

    // Makes `name` current and evaluates it now. False (and failed() for a mapping of an unknown
    // layer) when it cannot be evaluated; the session is then unchanged.
    bool select(const QString& name);
    void clear();

    QString current() const { return current_; }
    // An evaluation is running or due (debounce pending).
    bool isEvaluating() const;

signals:
    // `name` became current; its evaluation has started.
    void selected(const QString& name, const QString& title, const nestor::Workload& workload,
                  const nestor::Architecture& architecture, const nestor::Mapping& mapping);
    // The current mapping (or what it is evaluated against) was edited; a re-evaluation is due.
    void edited(const nestor::Workload& workload, const nestor::Architecture& architecture, const nestor::Mapping& mapping);
    void evaluationStarted();
    void evaluated(const nestor::app::EvaluationResult& result);
    // There is no current mapping any more (new content, or the mapping or its layer removed).
    void cleared();
    void failed(const QString& summary, const QString& details);

private:
    void onChanged(const ProjectChange& change);
    void reevaluate();
    void onFinished(const EvaluationResult& result);

    ProjectDocument* document_;
    EvaluationRunner* runner_;
    QTimer* debounce_;
    QString current_;
};

} // namespace nestor::app
