#pragma once
// Finds mappings for the layers of a network that have none (after an ONNX import, every
// layer): the engine's network search (annealing, the project's constraints, seed 1, as
// `nestor-cli search --network`) in the mapspace and ranked by the metric the user picks
// (default Ruby-S and EDP, the CLI's), in the background, with progress and Cancel in the Jobs
// dock. Each layer's best mapping is added to the project as "<layer>-<mapspace>", all of them as
// one undo step.
#include "mapspace/MapspaceKind.h"
#include "search/SearchMetric.h"

#include <QObject>
#include <QString>

namespace nestor::app {

class BackgroundJob;
class JobsDock;
class ProjectDocument;

// What the user chooses for a Find Mappings run.
struct FindMappingsSettings {
    MapspaceKind mapspace = MapspaceKind::RubyS;
    SearchMetric metric = SearchMetric::Edp;
};

class NetworkMappingSearch : public QObject {
    Q_OBJECT
public:
    NetworkMappingSearch(ProjectDocument* document, QObject* parent = nullptr);
    ~NetworkMappingSearch() override;

    // Searches the layers of `network` ("" = every workload) that no mapping names; false with
    // the reason in *error when there is none or the network cannot be read.
    bool start(const QString& network, const FindMappingsSettings& settings, QString* error);
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
