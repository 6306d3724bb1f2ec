#include "NetworkView.h"

#include "FindMappingsOptions.h"
#include "NetworkChart.h"
#include "NetworkMappingSearch.h"
#include "NumberFormat.h"
#include "ProjectDocument.h"
#include "jobs/BackgroundJob.h"
#include "model/Model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace nestor::app {

namespace {

struct Job {
    int index;
    QString layer;
    QString mapping;
    qint64 repeat;
    Workload workload;
    Mapping m;
};

// Evaluates the layers one after the other; each result goes to `done` as it is ready.
void runJobs(RunningJob& run, const std::vector<Job>& jobs, const Architecture& arch, EventSink<NetworkLayerEvaluation>& done)
{
    const int count = int(jobs.size());
    for (const Job& j : jobs) {
        if (run.cancelRequested()) return;
        run.reportProgress({double(j.index) / count, "layer " + std::to_string(j.index + 1) + "/" + std::to_string(count) + " " +
                                                         j.layer.toStdString()});
        NetworkLayerEvaluation r{j.index, j.layer, j.mapping, j.repeat, {}};
        if (!j.mapping.isEmpty()) {
            try {
                r.evaluation = evaluate(j.workload, arch, j.m);
            } catch (const std::exception& e) {
                r.evaluation.errors.push_back({"evaluate", e.what(), {}});
            }
        }
        done.onEvent(r);
    }
    run.reportProgress({1.0, std::to_string(count) + " layers evaluated"});
}

} // namespace

NetworkView::NetworkView(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), networks_(new QComboBox), run_(new QPushButton(tr("Evaluate"))),
      find_(new QPushButton(tr("Find Mappings"))), findMapspace_(new QComboBox), findMetric_(new QComboBox), findOptions_(new FindMappingsOptions), cancel_(new QPushButton(tr("Cancel"))), progress_(new QProgressBar),
      totalsLabel_(new QLabel), table_(new QTableWidget), chart_(new widgets::NetworkChart), job_(new BackgroundJob(this)),
      search_(new NetworkMappingSearch(document, this))
{
    find_->setToolTip(tr("Search mappings (the project's constraints; algorithm, budget and seed under Options) for the "
                         "layers that have none, add them to the project as one undo step, then evaluate"));
    for (MapspaceKind k : allMapspaceKinds())
        findMapspace_->addItem(QString::fromStdString(mapspaceKindName(k)), int(k));
    findMapspace_->setCurrentIndex(findMapspace_->findData(int(MapspaceKind::RubyS)));
    findMapspace_->setToolTip(tr("Mapspace of Find Mappings: pfm (perfect factors), ruby-s (remainders at spatial "
                                 "loops, the CLI's default), ruby-t (at temporal loops), ruby (everywhere)"));
    for (SearchMetric m : {SearchMetric::Edp, SearchMetric::Energy, SearchMetric::Delay, SearchMetric::LastLevelAccesses})
        findMetric_->addItem(QString::fromStdString(searchMetricName(m)), int(m));
    findMetric_->setToolTip(tr("What Find Mappings ranks the mappings of a layer by"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Network:")));
    bar->addWidget(networks_, 1);
    bar->addWidget(run_);
    bar->addWidget(find_);
    bar->addWidget(new QLabel(tr("in")));
    bar->addWidget(findMapspace_);
    bar->addWidget(new QLabel(tr("by")));
    bar->addWidget(findMetric_);
    bar->addWidget(findOptions_);
    bar->addWidget(cancel_);
    bar->addWidget(progress_, 1);
    cancel_->setEnabled(false);
    QFont bold = totalsLabel_->font();
    bold.setBold(true);
    totalsLabel_->setFont(bold);

    table_->setColumnCount(7);
    table_->setHorizontalHeaderLabels({tr("Layer"), tr("Mapping"), tr("Repeat"), tr("Cycles"), tr("Energy"), tr("Utilization"), tr("pJ/MAC")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setVisible(false);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(totalsLabel_);
    layout->addWidget(split, 1);

    connect(run_, &QPushButton::clicked, this, &NetworkView::start);
    connect(find_, &QPushButton::clicked, this, &NetworkView::findMappings);
    connect(search_, &NetworkMappingSearch::progressed, this, [this](double f) { progress_->setValue(int(f * kProgressSteps)); });
    connect(search_, &NetworkMappingSearch::finished, this, [this](int added, const QString& report) {
        setRunning(false);
        emit message(report);
        if (added > 0) start();
    });
    connect(cancel_, &QPushButton::clicked, this, &NetworkView::cancel);
    progress_->setRange(0, kProgressSteps);
    connect(job_, &BackgroundJob::progressed, this,
            [this](const JobProgress& p) { progress_->setValue(int(p.fraction * kProgressSteps)); });
    connect(job_, &BackgroundJob::finished, this, [this] {
        const bool completed = !cancelled_;
        setRunning(false);
        showResults();
        emit message(completed ? tr("Network evaluated: %1 layers").arg(results_.size())
                               : tr("Network evaluation cancelled after %1 layers").arg(results_.size()));
        emit finished(completed);
    });
    connect(document_, &ProjectDocument::contentReset, this, [this] {
        // Another project: nothing of the previous one's results stays (a discarded run never
        // reports finished: the buttons are reset here). NetworkMappingSearch discards its own.
        job_->discard();
        setRunning(false);
        results_.clear();
        showResults();
        refreshNetworks();
    });
    connect(document_, &ProjectDocument::changed, this, [this](const ProjectChange& change) {
        // The list names the networks; a run reads the project when it starts.
        if (change.subject == ProjectChange::Subject::Project ||
            (change.subject == ProjectChange::Subject::Network && change.changesStructure()))
            refreshNetworks();
    });
    refreshNetworks();
    showResults();
}

NetworkView::~NetworkView()
{
    job_->cancel();
    job_->waitForDone();
}

void NetworkView::setJobsDock(JobsDock* dock)
{
    job_->showIn(dock, tr("Network evaluation"));
    search_->setJobsDock(dock);
}

void NetworkView::setRunning(bool running)
{
    run_->setEnabled(!running);
    find_->setEnabled(!running);
    findMapspace_->setEnabled(!running);
    findMetric_->setEnabled(!running);
    findOptions_->setEnabled(!running);
    cancel_->setEnabled(running);
}

bool NetworkView::findMappings()
{
    if (isRunning()) return false;
    QString error;
    FindMappingsSettings settings;
    settings.mapspace = MapspaceKind(findMapspace_->currentData().toInt());
    settings.metric = SearchMetric(findMetric_->currentData().toInt());
    findOptions_->applyTo(settings);
    if (!search_->start(networks_->currentData().toString(), settings, &error)) {
        emit message(error);
        return false;
    }
    setRunning(true);
    progress_->setValue(0);
    return true;
}

void NetworkView::refreshNetworks()
{
    const QString current = networks_->currentData().toString();
    networks_->clear();
    for (const ProjectNetwork& n : document_->project().networks) {
        const QString name = QString::fromStdString(n.name);
        networks_->addItem(name, name);
    }
    networks_->addItem(tr("(all layers)"), QString());
    // The previous choice when it is still there; else the project's first network (its repeats
    // are the network's), "(all layers)" only when the project defines none.
    const int i = networks_->findData(current);
    networks_->setCurrentIndex(i >= 0 && !current.isEmpty() ? i : 0);
}

bool NetworkView::selectNetwork(const QString& name)
{
    const int i = networks_->findData(name);
    if (i < 0) return false;
    networks_->setCurrentIndex(i);
    return true;
}

bool NetworkView::isRunning() const
{
    return job_->isRunning() || search_->isRunning();
}

void NetworkView::start()
{
    if (job_->isRunning()) return;
    const Project& p = document_->project();
    std::vector<std::pair<std::string, std::int64_t>> layers;
    const std::string network = networks_->currentData().toString().toStdString();
    if (network.empty()) {
        for (const ProjectWorkload& w : p.workloads) layers.push_back({w.workload.name, 1});
    } else {
        for (const ProjectNetwork& n : p.networks)
            if (n.name == network) layers = n.layers;
    }
    std::vector<Job> jobs;
    for (const auto& [name, repeat] : layers) {
        Job j{int(jobs.size()), QString::fromStdString(name), {}, repeat, {}, {}};
        if (const ProjectWorkload* pw = p.findWorkload(name)) j.workload = pw->workload;
        for (const ProjectMapping& m : p.mappings)
            if (m.workload == name) {
                j.mapping = QString::fromStdString(m.mapping.name);
                j.m = m.mapping;
                break;
            }
        jobs.push_back(std::move(j));
    }
    results_.clear();
    cycleSeconds_ = p.architecture.cycle_seconds;
    showResults();
    setRunning(true);
    cancelled_ = false;
    progress_->setValue(0);
    job_->start<bool>(
        [jobs = std::move(jobs), arch = p.architecture, this](RunningJob& run) {
            QueuedEventSink<NetworkLayerEvaluation> done(run, [this](const NetworkLayerEvaluation& r) {
                results_.push_back(r);
                showResults();
            });
            runJobs(run, jobs, arch, done);
            return run.cancelRequested();
        },
        [this](bool cancelled) { cancelled_ = cancelled; });
    emit started();
}

void NetworkView::cancel()
{
    job_->cancel();
    search_->cancel();
}

void NetworkView::showResults()
{
    using widgets::NumberFormat::count;
    using widgets::NumberFormat::energy;
    using widgets::NumberFormat::percent;
    table_->setRowCount(int(results_.size()));
    QStringList names;
    QVector<double> energies, cycles;
    std::vector<RepeatedEvaluation> layers;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < results_.size(); ++i) {
        const NetworkLayerEvaluation& r = results_[i];
        const Evaluation& e = r.evaluation;
        const int row = int(i);
        table_->setItem(row, 0, new QTableWidgetItem(r.layer));
        table_->setItem(row, 1, new QTableWidgetItem(r.mapping.isEmpty() ? tr("(no mapping)") : r.mapping));
        table_->setItem(row, 2, new QTableWidgetItem(QString::number(r.repeat)));
        names << r.layer;
        layers.push_back({&e, r.repeat});
        if (e.valid) {
            const double en = e.energy_pJ * double(r.repeat);
            const double cy = double(e.cycles) * double(r.repeat);
            energies << en;
            cycles << cy;
            table_->setItem(row, 3, new QTableWidgetItem(count(std::int64_t(cy))));
            table_->setItem(row, 4, new QTableWidgetItem(energy(en)));
            table_->setItem(row, 5, new QTableWidgetItem(percent(e.utilization)));
            table_->setItem(row, 6, new QTableWidgetItem(widgets::NumberFormat::decimal(e.pJ_per_mac)));
        } else {
            energies << nan;
            cycles << nan;
            auto* item = new QTableWidgetItem(r.mapping.isEmpty() ? tr("not evaluated") : tr("invalid mapping"));
            item->setForeground(QColor(0xB0, 0x00, 0x20));
            table_->setItem(row, 3, item);
        }
    }
    chart_->setLayers(names, energies, cycles);
    totals_ = NetworkTotals{};
    const int unmapped = int(std::count_if(results_.begin(), results_.end(), [](const NetworkLayerEvaluation& r) { return r.mapping.isEmpty(); }));
    if (results_.empty()) {
        totalsLabel_->setText(tr("Choose a network and press Evaluate."));
        return;
    }
    try {
        totals_ = networkTotals(layers, cycleSeconds_);
    } catch (const NestorError& e) {
        totalsLabel_->setText(tr("No totals: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    totalsLabel_->setText(tr("Total: %1 cycles, %2, EDP %3, %4 MACs over %5 layers%6")
                              .arg(count(totals_.cycles), energy(totals_.energy_pJ),
                                   widgets::NumberFormat::scientific(totals_.edp_J_s, QStringLiteral("J·s")), count(totals_.macs))
                              .arg(results_.size())
                              .arg(totals_.missing ? tr(" (%1 without a valid mapping)").arg(totals_.missing) : QString()) +
                          (unmapped ? tr("; Find Mappings searches the %n without a mapping", nullptr, unmapped) : QString()));
}

} // namespace nestor::app
