#pragma once
// Finds mappings for the layers of a network that have none (after an ONNX import, every
// layer): the engine's network search (the project's constraints, as `nestor-cli search
// --network`) in the mapspace, by the algorithm, budget and seed, and ranked by the metric the
// user picks (default Ruby-S, annealing, the default stop rules, seed 1 and EDP: the CLI's), in
// the background, with progress and Cancel in the Jobs dock. Each layer's best mapping is added
// to the project as "<layer>-<mapspace>", all of them as one undo step.
#include "mapspace/MapspaceKind.h"
#include "search/SearchDriver.h"
#include "search/SearchMetric.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <string>

namespace nestor::app {

class BackgroundJob;
class JobsDock;
class ProjectDocument;

// What the user chooses for a Find Mappings run.
struct FindMappingsSettings {
    MapspaceKind mapspace = MapspaceKind::RubyS;
    SearchMetric metric = SearchMetric::Edp;
    std::string algorithm = "annealing";  // a name of the engine's registry (searchAlgorithms())
    // Evaluated mappings per layer; 0 = the default stop rules (SearchOptions' victory and timeout). A
    // budget is spent whole: the victory rule is off then, as with nestor-cli's --victory 0.
    std::int64_t budget = 0;
    std::uint64_t seed = 1;
};

// The engine's options of a search for one layer under `settings` (threads: up to two).
SearchOptions findMappingsSearchOptions(const FindMappingsSettings& settings);
// The stop rule of a budget per layer as the report and the Options tooltip name it:
// "budget N per layer", or "default stop" for 0.
QString findMappingsStopText(std::int64_t budget);

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
