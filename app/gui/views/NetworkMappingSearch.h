#pragma once
// Finds mappings for the layers of a network that have none (after an ONNX import, every
// layer): the engine's network search with the CLI's defaults (Ruby-S mapspace, annealing, EDP,
// the project's constraints, seed 1) in the background, with progress and Cancel in the Jobs
// dock. Each layer's best mapping is added to the project as "<layer>-ruby-s", all of them as
// one undo step.
#include <QObject>
#include <QString>

namespace nestor::app {

class BackgroundJob;
class JobsDock;
class ProjectDocument;

class NetworkMappingSearch : public QObject {
    Q_OBJECT
public:
    NetworkMappingSearch(ProjectDocument* document, QObject* parent = nullptr);
    ~NetworkMappingSearch() override;

    // Searches the layers of `network` ("" = every workload) that no mapping names; false with
    // the reason in *error when there is none or the network cannot be read.
    bool start(const QString& network, QString* error);
    void cancel();
    bool isRunning() const;
    void waitForDone();
    void setJobsDock(JobsDock* dock);

signals:
    void progressed(double fraction);
    // added: mappings added to the project; report: what was searched, added and missed.
    void finished(int added, const QString& report);

private:
    ProjectDocument* document_;
    BackgroundJob* job_;
};

} // namespace nestor::app
