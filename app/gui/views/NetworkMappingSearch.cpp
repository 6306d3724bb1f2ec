#include "NetworkMappingSearch.h"

#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "jobs/BackgroundJob.h"
#include "search/EnergyRanking.h"
#include "search/NetworkSearch.h"
#include "search/SearchAlgorithm.h"

#include <QThread>
#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>
#include <set>

namespace nestor::app {

namespace {

// Reports the layer being searched as the job's progress.
class LayerProgress : public NetworkSearchObserver {
public:
    explicit LayerProgress(RunningJob& run) : run_(run) {}
    void onLayerStarted(int index, int count, const std::string& name) override
    {
        run_.reportProgress({double(index) / std::max(count, 1),
                             "layer " + std::to_string(index + 1) + "/" + std::to_string(count) + " " + name});
    }

private:
    RunningJob& run_;
};

} // namespace

QString findMappingsStopText(std::int64_t budget)
{
    return budget > 0 ? NetworkMappingSearch::tr("budget %1 per layer").arg(budget) : NetworkMappingSearch::tr("default stop");
}

SearchOptions findMappingsSearchOptions(const FindMappingsSettings& settings)
{
    SearchOptions o;
    o.algorithm = settings.algorithm;
    o.metrics = {settings.metric};
    o.seed = settings.seed;
    o.evaluationBudget = settings.budget;
    if (settings.budget > 0) o.victoryCondition = 0;
    o.threads = std::clamp(QThread::idealThreadCount(), 1, 2);
    return o;
}

NetworkMappingSearch::NetworkMappingSearch(ProjectDocument* document, QObject* parent)
    : QObject(parent), document_(document), job_(new BackgroundJob(this))
{
    connect(job_, &BackgroundJob::progressed, this, [this](const JobProgress& p) { emit progressed(p.fraction); });
    connect(job_, &BackgroundJob::failed, this, [this](const QString& message) {
        emit finished(0, tr("The search failed: %1").arg(message));
    });
    // Another project: the results would belong to the previous one.
    connect(document_, &ProjectDocument::contentReset, job_, &BackgroundJob::discard);
}

NetworkMappingSearch::~NetworkMappingSearch()
{
    job_->cancel();
    job_->waitForDone();
}

void NetworkMappingSearch::setJobsDock(JobsDock* dock)
{
    job_->showIn(dock, tr("Find mappings for a network"));
}

bool NetworkMappingSearch::isRunning() const
{
    return job_->isRunning();
}

void NetworkMappingSearch::cancel()
{
    job_->cancel();
}

void NetworkMappingSearch::waitForDone()
{
    job_->waitForDone();
}

bool NetworkMappingSearch::start(const QString& network, const FindMappingsSettings& settings, QString* error)
{
    if (job_->isRunning()) {
        *error = tr("A search for this network is already running.");
        return false;
    }
    const Project& p = document_->project();
    std::vector<NetworkSearchLayer> all;
    try {
        if (network.isEmpty()) {
            for (const ProjectWorkload& w : p.workloads)
                all.push_back({w.workload.name, w.workload, 1, p.constraintsFor(w.workload)});
        } else {
            all = projectNetworkLayers(p, network.toStdString());
        }
    } catch (const NestorError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    std::set<std::string> seen;
    std::vector<NetworkSearchLayer> missing;
    for (NetworkSearchLayer& l : all) {
        const bool mapped = std::any_of(p.mappings.begin(), p.mappings.end(),
                                        [&](const ProjectMapping& m) { return m.workload == l.name; });
        if (!mapped && seen.insert(l.name).second) missing.push_back(std::move(l));
    }
    if (missing.empty()) {
        *error = tr("Every layer already has a mapping.");
        return false;
    }
    if (!findSearchAlgorithm(settings.algorithm)) {
        *error = tr("Unknown search algorithm '%1'.").arg(QString::fromStdString(settings.algorithm));
        return false;
    }
    if (settings.budget < 0) {
        *error = tr("The budget per layer must be 0 (the default stop rules) or more, not %1.").arg(settings.budget);
        return false;
    }
    NetworkSearchOptions options;
    options.kind = settings.mapspace;
    options.search = findMappingsSearchOptions(settings);
    const int searched = int(missing.size());
    job_->start<NetworkSearchResult>(
        [arch = p.architecture, layers = std::move(missing), options](RunningJob& run) {
            LayerProgress progress(run);
            return runNetworkSearch(arch, layers, options, &progress, &run);
        },
        [this, searched, settings](NetworkSearchResult result) {
            const QString mapspace = QString::fromStdString(mapspaceKindName(settings.mapspace));
            const QString metric = QString::fromStdString(searchMetricName(settings.metric));
            std::vector<const NetworkLayerResult*> found;
            QStringList missed;
            for (const NetworkLayerResult& l : result.layers) {
                const QString layer = QString::fromStdString(l.name);
                const Project& now = document_->project();
                const bool stillUnmapped = now.findWorkload(l.name) &&
                                           std::none_of(now.mappings.begin(), now.mappings.end(),
                                                        [&](const ProjectMapping& m) { return m.workload == l.name; });
                if (!l.result.found || !stillUnmapped) {
                    if (!l.result.found) missed << layer + (l.error.empty() ? QString() : " (" + QString::fromStdString(l.error) + ")");
                    continue;
                }
                found.push_back(&l);
            }
            // Each child inserts at the end of the list as it is now: made last layer first, the
            // new mappings end up in network order.
            auto* step = new QUndoCommand(tr("Find mappings (%1 layers)").arg(searched));
            for (auto it = found.rbegin(); it != found.rend(); ++it) {
                const QString layer = QString::fromStdString((*it)->name);
                commands::addMappingCommand(*document_, layer, (*it)->result.best, layer + "-" + mapspace, nullptr, step);
            }
            const int added = int(found.size());
            if (added > 0) document_->undoStack()->push(step);
            else delete step;
            QString report = tr("%1 of %2 layers got a mapping (%3 mapspace, %4, seed %5, %6, ranked by %7)")
                                 .arg(added)
                                 .arg(searched)
                                 .arg(mapspace, QString::fromStdString(settings.algorithm))
                                 .arg(settings.seed)
                                 .arg(findMappingsStopText(settings.budget), metric);
            if (result.cancelled) report += tr("; cancelled");
            if (added > 0 && energyRankedNothing({settings.metric}, result.energy_pJ))
                report += tr("; every mapping costs 0 pJ (the architecture has no energies), so %1 ranked nothing: "
                             "rank by delay or give the architecture energies")
                              .arg(metric);
            if (!missed.isEmpty()) report += tr("; no valid mapping found for %1").arg(missed.join(QStringLiteral(", ")));
            emit finished(added, report);
        });
    return true;
}

} // namespace nestor::app
