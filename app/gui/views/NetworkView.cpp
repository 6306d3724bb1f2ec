#include "NetworkView.h"

#include "NetworkChart.h"
#include "NumberFormat.h"
#include "ProjectDocument.h"
#include "model/Model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

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

void runJobs(QPromise<NetworkLayerResult>& promise, const std::vector<Job>& jobs, const Architecture& arch)
{
    promise.setProgressRange(0, int(jobs.size()));
    int done = 0;
    for (const Job& j : jobs) {
        if (promise.isCanceled()) return;
        NetworkLayerResult r{j.index, j.layer, j.mapping, j.repeat, {}};
        if (!j.mapping.isEmpty()) {
            try {
                r.evaluation = evaluate(j.workload, arch, j.m);
            } catch (const std::exception& e) {
                r.evaluation.errors.push_back({"evaluate", e.what(), {}});
            }
        }
        promise.addResult(r);
        promise.setProgressValue(++done);
    }
}

} // namespace

NetworkView::NetworkView(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), networks_(new QComboBox), run_(new QPushButton(tr("Evaluate"))),
      cancel_(new QPushButton(tr("Cancel"))), progress_(new QProgressBar), totals_(new QLabel), table_(new QTableWidget),
      chart_(new widgets::NetworkChart)
{
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Network:")));
    bar->addWidget(networks_, 1);
    bar->addWidget(run_);
    bar->addWidget(cancel_);
    bar->addWidget(progress_, 1);
    cancel_->setEnabled(false);
    QFont bold = totals_->font();
    bold.setBold(true);
    totals_->setFont(bold);

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
    layout->addWidget(totals_);
    layout->addWidget(split, 1);

    connect(run_, &QPushButton::clicked, this, &NetworkView::start);
    connect(cancel_, &QPushButton::clicked, this, &NetworkView::cancel);
    connect(&watcher_, &QFutureWatcherBase::progressRangeChanged, progress_, &QProgressBar::setRange);
    connect(&watcher_, &QFutureWatcherBase::progressValueChanged, progress_, &QProgressBar::setValue);
    connect(&watcher_, &QFutureWatcherBase::resultReadyAt, this, [this](int i) {
        results_.push_back(watcher_.resultAt(i));
        showResults();
    });
    connect(&watcher_, &QFutureWatcherBase::finished, this, [this] {
        const bool completed = !watcher_.isCanceled();
        run_->setEnabled(true);
        cancel_->setEnabled(false);
        showResults();
        emit message(completed ? tr("Network evaluated: %1 layers").arg(results_.size())
                               : tr("Network evaluation cancelled after %1 layers").arg(results_.size()));
        emit finished(completed);
    });
    connect(document_, &ProjectDocument::contentReset, this, &NetworkView::refreshNetworks);
    connect(document_, &ProjectDocument::changed, this, &NetworkView::refreshNetworks);
    refreshNetworks();
    showResults();
}

NetworkView::~NetworkView()
{
    watcher_.cancel();
    watcher_.waitForFinished();
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
    const int i = networks_->findData(current);
    if (i >= 0) networks_->setCurrentIndex(i);
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
    return watcher_.isRunning();
}

void NetworkView::start()
{
    if (watcher_.isRunning()) return;
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
    showResults();
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    watcher_.setFuture(QtConcurrent::run(runJobs, std::move(jobs), p.architecture));
    emit started();
}

void NetworkView::cancel()
{
    watcher_.cancel();
}

void NetworkView::showResults()
{
    using widgets::NumberFormat::count;
    using widgets::NumberFormat::energy;
    using widgets::NumberFormat::percent;
    table_->setRowCount(int(results_.size()));
    QStringList names;
    QVector<double> energies, cycles;
    totalEnergy_ = 0;
    totalCycles_ = 0;
    int missing = 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < results_.size(); ++i) {
        const NetworkLayerResult& r = results_[i];
        const Evaluation& e = r.evaluation;
        const int row = int(i);
        table_->setItem(row, 0, new QTableWidgetItem(r.layer));
        table_->setItem(row, 1, new QTableWidgetItem(r.mapping.isEmpty() ? tr("(no mapping)") : r.mapping));
        table_->setItem(row, 2, new QTableWidgetItem(QString::number(r.repeat)));
        names << r.layer;
        if (e.valid) {
            const double en = e.energy_pJ * double(r.repeat);
            const double cy = double(e.cycles) * double(r.repeat);
            totalEnergy_ += en;
            totalCycles_ += cy;
            energies << en;
            cycles << cy;
            table_->setItem(row, 3, new QTableWidgetItem(count(std::int64_t(cy))));
            table_->setItem(row, 4, new QTableWidgetItem(energy(en)));
            table_->setItem(row, 5, new QTableWidgetItem(percent(e.utilization)));
            table_->setItem(row, 6, new QTableWidgetItem(widgets::NumberFormat::decimal(e.pJ_per_mac)));
        } else {
            ++missing;
            energies << nan;
            cycles << nan;
            auto* item = new QTableWidgetItem(r.mapping.isEmpty() ? tr("not evaluated") : tr("invalid mapping"));
            item->setForeground(QColor(0xB0, 0x00, 0x20));
            table_->setItem(row, 3, item);
        }
    }
    chart_->setLayers(names, energies, cycles);
    totals_->setText(results_.empty() ? tr("Choose a network and press Evaluate.")
                                      : tr("Total: %1 cycles, %2 over %3 layers%4")
                                            .arg(count(std::int64_t(totalCycles_)), energy(totalEnergy_))
                                            .arg(results_.size())
                                            .arg(missing ? tr(" (%1 without a valid mapping)").arg(missing) : QString()));
}

} // namespace nestor::app
