#include "SearchPanel.h"

#include "ParetoChart.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "SearchProgressChart.h"
#include "SearchRunsTable.h"
#include "SearchSettingsForm.h"
#include "mapspace/Mapspace.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace nestor::app {

namespace {

QString runTag(const SearchRun& r)
{
    return QStringLiteral("%1 %2 %3").arg(r.mapspace, r.algorithm, r.label.section(QLatin1Char(' '), 0, 0));
}

} // namespace

SearchPanel::SearchPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), queue_(new SearchRunQueue(this)), sweep_(new PeArraySweep(this)),
      form_(new SearchSettingsForm), run_(new QPushButton(tr("Run"))), cancel_(new QPushButton(tr("Cancel"))),
      clear_(new QPushButton(tr("Clear"))), addBest_(new QPushButton(tr("Add best to project"))),
      sweepButton_(new QPushButton(tr("Sweep PE arrays"))), status_(new QLabel), chartTabs_(new QTabWidget),
      curve_(new widgets::SearchProgressChart), energyDelay_(new widgets::ParetoChart), areaEdp_(new widgets::ParetoChart),
      table_(new SearchRunsTable)
{
    run_->setObjectName(QStringLiteral("runSearch"));
    cancel_->setObjectName(QStringLiteral("cancelSearch"));
    run_->setDefault(true);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(buildSettingsColumn());
    split->addWidget(buildResultsColumn());
    split->setCollapsible(1, false);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(run_, &QPushButton::clicked, this, [this] { run(); });
    connect(cancel_, &QPushButton::clicked, this, [this] {
        cancel();
        cancelSweep();
    });
    connect(clear_, &QPushButton::clicked, this, &SearchPanel::clearRuns);
    connect(addBest_, &QPushButton::clicked, this, [this] {
        const int row = table_->currentRow() >= 0 ? table_->currentRow() : int(runs().size()) - 1;
        if (addBestToProject(row).isEmpty() && !lastError_.isEmpty()) status_->setText(lastError_);
    });
    connect(sweepButton_, &QPushButton::clicked, this, [this] { startSweep(); });
    connect(table_, &QTableWidget::itemSelectionChanged, this, &SearchPanel::updateButtons);

    connect(queue_, &SearchRunQueue::runStarted, this, &SearchPanel::onRunStarted);
    connect(queue_, &SearchRunQueue::runProgressed, this, [this](int index) {
        const SearchRun& r = runs()[std::size_t(index)];
        curve_->extendTo(r.curve, double(r.progress.evaluated));
        table_->showRun(index, r);
    });
    connect(queue_, &SearchRunQueue::improved, this, [this](int index, qint64 evaluated, double value) {
        curve_->addImprovement(runs()[std::size_t(index)].curve, double(evaluated), value);
    });
    connect(queue_, &SearchRunQueue::runFinished, this, &SearchPanel::onRunFinished);
    connect(queue_, &SearchRunQueue::allRunsFinished, this, [this] {
        updateButtons();
        emit allRunsFinished();
    });

    connect(energyDelay_, &widgets::ParetoChart::pointClicked, this, [this](int s, int i) { addEnergyDelayPoint(s, i); });
    connect(areaEdp_, &widgets::ParetoChart::pointClicked, this, [this](int s, int i) { addSweepPoint(s, i); });
    connect(sweep_, &PeArraySweep::pointAdded, this, &SearchPanel::showSweep);
    connect(sweep_, &PeArraySweep::finished, this, [this](bool completed) {
        showSweep();
        updateButtons();
        const int n = int(sweepResults().size());
        emit message(completed ? tr("PE-array sweep finished: %n configuration(s)", nullptr, n)
                               : tr("PE-array sweep cancelled after %n configuration(s)", nullptr, n));
        emit sweepFinished(completed);
    });

    connect(document_, &ProjectDocument::contentReset, this, [this] {
        reset();
        refreshLayers();
    });
    connect(document_, &ProjectDocument::changed, this, [this](const ProjectChange& change) {
        if (change.touchesWorkloads() && change.changesStructure()) refreshLayers();
    });
    refreshLayers();
    updateButtons();
    status_->setText(tr("Choose a layer and press Run."));
}

SearchPanel::~SearchPanel() = default;  // the queue and the sweep cancel and wait for their jobs

QWidget* SearchPanel::buildSettingsColumn()
{
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(clear_);
    auto* searchBox = new QGroupBox(tr("Search"));
    auto* searchLayout = new QVBoxLayout(searchBox);
    searchLayout->addWidget(form_);
    searchLayout->addLayout(buttons);
    status_->setWordWrap(true);
    searchLayout->addWidget(status_);

    auto* sweepBox = new QGroupBox(tr("PE-array sweep (area vs EDP)"));
    auto* sweepForm = new QFormLayout(sweepBox);
    auto* sweepNote = new QLabel(tr("PE arrays from 2x7 to 16x16 on the project's architecture; the best mapping of the "
                                    "layer per array and checked mapspace by a short search with the settings above."));
    sweepNote->setWordWrap(true);
    sweepForm->addRow(sweepNote);
    sweepForm->addRow(tr("Budget per array"), form_->sweepBudgetField());
    sweepForm->addRow(sweepButton_);

    auto* column = new QWidget;
    auto* columnLayout = new QVBoxLayout(column);
    columnLayout->setContentsMargins(0, 0, 0, 0);
    columnLayout->addWidget(searchBox);
    columnLayout->addWidget(sweepBox);
    columnLayout->addStretch(1);
    auto* scroll = new QScrollArea;  // the form never forces the window wider
    scroll->setWidget(column);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setMaximumWidth(400);
    scroll->setMinimumWidth(160);
    return scroll;
}

QWidget* SearchPanel::buildResultsColumn()
{
    energyDelay_->setAxisLabels(tr("Delay (cycles)"), tr("Energy (pJ)"));
    areaEdp_->setAxisLabels(tr("Area (µm²)"), tr("EDP (J·s)"));
    chartTabs_->addTab(curve_, tr("Best so far"));
    chartTabs_->addTab(energyDelay_, tr("Energy vs delay"));
    chartTabs_->addTab(areaEdp_, tr("Area vs EDP"));
    chartTabs_->setDocumentMode(true);

    auto* tableBox = new QWidget;
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(table_, 1);
    auto* tableButtons = new QHBoxLayout;
    tableButtons->addWidget(new QLabel(tr("Best mapping of each run. Click a point of a Pareto plot to open its mapping.")), 1);
    tableButtons->addWidget(addBest_);
    tableLayout->addLayout(tableButtons);

    auto* column = new QSplitter(Qt::Vertical);
    column->addWidget(chartTabs_);
    column->addWidget(tableBox);
    column->setStretchFactor(0, 3);
    column->setStretchFactor(1, 1);
    column->setSizes({600, 200});  // the charts get most of the height
    return column;
}

void SearchPanel::setJobsDock(JobsDock* jobs)
{
    jobs_ = jobs;
    queue_->setJobsDock(jobs);
}

QTableWidget* SearchPanel::resultsTable() const
{
    return table_;
}

SearchSettings SearchPanel::settings() const
{
    return form_->settings();
}

bool SearchPanel::setSettings(const SearchSettings& s)
{
    return form_->setSettings(s);
}

void SearchPanel::refreshLayers()
{
    QStringList names;
    for (const ProjectWorkload& w : document_->project().workloads) names << QString::fromStdString(w.workload.name);
    form_->setLayers(names, QString::fromStdString(document_->project().jobWorkload));
    updateButtons();
}

bool SearchPanel::fail(const QString& error)
{
    lastError_ = error;
    status_->setText(error);
    return false;
}

bool SearchPanel::run()
{
    lastError_.clear();
    const Project& p = document_->project();
    const SearchSettings s = settings();
    const ProjectWorkload* pw = p.findWorkload(s.layer.toStdString());
    if (!pw) return fail(tr("Choose a layer to search."));
    QString error;
    const std::optional<SearchOptions> options = searchOptionsFrom(s, &error);
    if (!options) return fail(error);
    std::vector<SearchRequest> requests;
    for (const QString& m : s.mapspaces) {
        SearchRequest r;
        r.kind = *parseMapspaceKind(m.toStdString());
        r.label = QStringLiteral("#%1 %2 %3").arg(++runCounter_).arg(m, s.algorithm);
        r.workload = pw->workload;
        r.architecture = p.architecture;
        if (s.useConstraints) r.constraints = p.constraintsFor(pw->workload);
        r.options = *options;
        requests.push_back(std::move(r));
    }
    curve_->setMetricName(metricAxisLabel(s.metrics));
    queue_->enqueue(std::move(requests));
    updateButtons();
    return true;
}

void SearchPanel::onRunStarted(int index)
{
    SearchRun& r = queue_->run(index);
    r.curve = curve_->addRun(runTag(r));
    table_->showRun(index, r);
    status_->setText(tr("Searching %1 (%2)…").arg(r.label, r.layer));
}

void SearchPanel::onRunFinished(int index)
{
    SearchRun& r = queue_->run(index);
    curve_->extendTo(r.curve, double(r.outcome.result.evaluated));
    if (r.outcome.failure.isEmpty()) {
        QVector<QPointF> pts;
        for (const EvaluatedMapping& m : r.outcome.sample) pts << QPointF(m.cycles, m.energy_pJ);
        if (!pts.isEmpty()) r.paretoSeries = energyDelay_->addSeries(runTag(r), pts);
    }
    table_->showRun(index, r);
    status_->setText(tr("%1: %2").arg(r.label, r.summary));
    emit message(tr("Search %1 on %2: %3").arg(r.label, r.layer, r.summary));
    emit runFinished(index);
}

void SearchPanel::cancel()
{
    queue_->cancel();
}

bool SearchPanel::isRunning() const
{
    return queue_->isRunning();
}

void SearchPanel::clearRuns()
{
    if (!queue_->clear()) return;
    curve_->clear();
    energyDelay_->clear();
    table_->clearRuns();
    updateButtons();
}

void SearchPanel::reset()
{
    queue_->reset();
    sweep_->reset();
    curve_->clear();
    energyDelay_->clear();
    areaEdp_->clear();
    sweepSeries_.clear();
    table_->clearRuns();
    lastError_.clear();
    status_->setText(tr("Choose a layer and press Run."));
    updateButtons();
}

void SearchPanel::updateButtons()
{
    const bool busy = isRunning();
    run_->setEnabled(form_->hasLayers());
    cancel_->setEnabled(busy || isSweeping());
    clear_->setEnabled(!busy && !runs().empty());
    sweepButton_->setEnabled(!isSweeping() && form_->hasLayers());
    addBest_->setEnabled(queue_->anyBest());
}

QString SearchPanel::addMapping(const QString& layer, const Mapping& m, const QString& name)
{
    lastError_.clear();
    QString added;
    const QString error = commands::addMapping(*document_, layer, m, name, &added);
    if (!error.isEmpty()) {
        lastError_ = error;
        emit message(tr("Cannot add the mapping: %1").arg(error));
        return {};
    }
    emit message(tr("Added mapping %1 to the project").arg(added));
    emit mappingAdded(added);
    return added;
}

QString SearchPanel::addBestToProject(int index)
{
    lastError_.clear();
    if (index < 0 || index >= int(runs().size()) || !runs()[std::size_t(index)].finished ||
        !runs()[std::size_t(index)].outcome.result.found) {
        lastError_ = tr("That run has no best mapping (yet).");
        return {};
    }
    const SearchRun& r = runs()[std::size_t(index)];
    const QString name = QStringLiteral("%1-%2-%3-s%4").arg(r.layer, r.mapspace, r.algorithm).arg(r.seed);
    return addMapping(r.layer, r.outcome.result.best, name);
}

QString SearchPanel::addEnergyDelayPoint(int series, int point)
{
    for (const SearchRun& r : runs()) {
        if (r.paretoSeries != series) continue;
        if (point < 0 || point >= int(r.outcome.sample.size())) break;
        const QString name = QStringLiteral("%1-%2-pareto").arg(r.layer, r.mapspace);
        const QString added = addMapping(r.layer, r.outcome.sample[std::size_t(point)].mapping, name);
        if (!added.isEmpty()) {
            const Project& p = document_->project();
            const ProjectMapping* pm = p.findMapping(added.toStdString());
            const ProjectWorkload* pw = p.findWorkload(r.layer.toStdString());
            if (pm && pw) emit compareRequested(added, pw->workload, p.architecture, pm->mapping);
        }
        return added;
    }
    lastError_ = tr("No such point.");
    return {};
}

QString SearchPanel::addSweepPoint(int series, int point)
{
    if (series < 0 || series >= int(sweepSeries_.size()) || point < 0 || point >= int(sweepSeries_[std::size_t(series)].size())) {
        lastError_ = tr("No such point.");
        return {};
    }
    const SweepItem& item = sweepResults()[std::size_t(sweepSeries_[std::size_t(series)][std::size_t(point)])];
    const Mapping* best = item.best();
    if (!best) {
        lastError_ = tr("That configuration has no valid mapping.");
        return {};
    }
    const QString layer = sweep_->layer();
    const QString label = QString::fromStdString(item.point.array.name());
    const QString name = QStringLiteral("%1-%2-%3").arg(layer, QString::fromStdString(mapspaceKindName(item.point.kind)), label);
    // Pinned on the array it was found for; on the project's own array it may not fit.
    const QString added = addMapping(layer, *best, name);
    if (!added.isEmpty()) {
        const ProjectWorkload* pw = document_->project().findWorkload(layer.toStdString());
        if (pw) emit compareRequested(tr("%1 on %2").arg(added, label), pw->workload, item.architecture, *best);
        const ComputeLevel& c = document_->project().architecture.compute;
        if (label != QStringLiteral("%1x%2").arg(c.meshX).arg(c.meshY()))
            emit message(tr("%1 was found for a %2 PE array; on the project's array it may not fit.").arg(added, label));
    }
    return added;
}

bool SearchPanel::startSweep()
{
    lastError_.clear();
    if (isSweeping()) return false;
    const Project& p = document_->project();
    const SearchSettings s = settings();
    const ProjectWorkload* pw = p.findWorkload(s.layer.toStdString());
    if (!pw) return fail(tr("Choose a layer to sweep."));
    QString error;
    std::optional<SearchOptions> options = searchOptionsFrom(s, &error);
    if (!options) return fail(error);
    options->searchSize = 0;
    options->evaluationBudget = s.sweepBudget;
    SweepOptions so;
    so.kinds.clear();  // the engine's default kinds give way to the checked ones
    for (const QString& m : s.mapspaces) so.kinds.push_back(*parseMapspaceKind(m.toStdString()));
    so.search = std::move(*options);
    NetworkSearchLayer layer;
    layer.name = pw->workload.name;
    layer.workload = pw->workload;
    layer.constraints = s.useConstraints ? p.constraintsFor(pw->workload) : MapspaceConstraints{};
    sweep_->start(p.architecture, std::move(layer), std::move(so), jobs_,
                  tr("PE-array sweep (%1, %2)").arg(s.layer, s.mapspaces.join(QStringLiteral(", "))));
    showSweep();
    chartTabs_->setCurrentWidget(areaEdp_);
    updateButtons();
    return true;
}

bool SearchPanel::isSweeping() const
{
    return sweep_->isRunning();
}

void SearchPanel::cancelSweep()
{
    sweep_->cancel();
}

void SearchPanel::showSweep()
{
    areaEdp_->clear();
    sweepSeries_.clear();
    QStringList errors;
    const std::vector<SweepItem>& items = sweepResults();
    for (MapspaceKind k : allMapspaceKinds()) {
        QVector<QPointF> pts;
        QStringList labels;
        std::vector<int> index;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const SweepItem& it = items[i];
            if (it.point.kind != k) continue;
            if (!it.point.error.empty() && !errors.contains(QString::fromStdString(it.point.error)))
                errors << QString::fromStdString(it.point.error);
            if (!it.best()) continue;
            pts << QPointF(it.point.area_um2, it.point.edp_J_s);
            labels << tr("%1 PE array").arg(QString::fromStdString(it.point.array.name()));
            index.push_back(int(i));
        }
        if (pts.isEmpty()) continue;
        areaEdp_->addSeries(QString::fromStdString(mapspaceKindName(k)), pts, labels);
        sweepSeries_.push_back(index);
    }
    if (!errors.isEmpty()) status_->setText(tr("Sweep: %1").arg(errors.join(QStringLiteral("; "))));
}

} // namespace nestor::app
