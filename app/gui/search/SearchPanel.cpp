#include "SearchPanel.h"

#include "NumberFormat.h"
#include "ParetoChart.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "SearchProgressChart.h"
#include "jobs/BackgroundJob.h"
#include "jobs/JobsDock.h"
#include "mapspace/Mapspace.h"
#include "search/SearchAlgorithm.h"
#include "search/SearchMetric.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace nestor::app {

namespace {

using widgets::NumberFormat::count;
using widgets::NumberFormat::energy;
using widgets::NumberFormat::percent;
using widgets::NumberFormat::scientific;

enum Column { ColRun, ColMapspace, ColAlgorithm, ColSeed, ColEvaluated, ColValid, ColMetric, ColEdp, ColEnergy, ColCycles,
              ColUtilization, ColStopped, ColumnCount };

QSpinBox* spin(int lo, int hi, int value, const QString& tip)
{
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(value);
    s->setGroupSeparatorShown(true);
    s->setToolTip(tip);
    return s;
}

QString metricValueText(SearchMetric m, double v)
{
    switch (m) {
    case SearchMetric::Edp: return scientific(v, QStringLiteral("J·s"));
    case SearchMetric::Energy: return energy(v);
    case SearchMetric::Delay: return count(std::int64_t(v));
    case SearchMetric::LastLevelAccesses: return count(std::int64_t(v));
    }
    return QString::number(v);
}

// Hands each finished sweep point, with its resized architecture, to `onPoint` on the GUI
// thread (the engine calls this on the sweep's thread).
class QueuedSweepObserver : public SweepObserver {
public:
    QueuedSweepObserver(RunningJob& job, const Architecture& base, std::function<void(const SweepItem&)> onPoint)
        : points_(job, std::move(onPoint)), base_(base)
    {
    }
    void onPointFinished(const SweepPoint& pt) override
    {
        SweepItem item{pt, {}};
        try {
            item.architecture = resizePeArray(base_, pt.array.x, pt.array.y);
        } catch (const std::exception&) {
            // pt.error says why; the point has no mapping to show
        }
        points_.onEvent(item);
    }

private:
    QueuedEventSink<SweepItem> points_;
    const Architecture& base_;
};

} // namespace

const Mapping* SweepItem::best() const
{
    if (!point.found || point.search.layers.empty() || !point.search.layers.front().result.found) return nullptr;
    return &point.search.layers.front().result.best;
}

SearchPanel::SearchPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), job_(new SearchJob(this)), layer_(new QComboBox), algorithm_(new QComboBox),
      threads_(spin(1, std::max(1, QThread::idealThreadCount()), 1, tr("Search threads; a seed and a thread count fix the result"))),
      searchSize_(spin(0, std::numeric_limits<int>::max(), 0, tr("Stop after this many valid mappings (all threads; 0 = off)"))),
      budget_(spin(0, std::numeric_limits<int>::max(), 20000, tr("Stop after this many evaluated mappings (all threads; 0 = off)"))),
      victory_(spin(0, std::numeric_limits<int>::max(), 500, tr("Stop a thread after this many consecutive valid mappings that do not improve (0 = off)"))),
      timeout_(spin(0, std::numeric_limits<int>::max(), 1000, tr("Stop a thread after this many consecutive invalid mappings"))),
      metrics_(new QLineEdit(QStringLiteral("edp"))),
      seed_(spin(0, std::numeric_limits<int>::max(), 1, tr("Random seed: the same seed and thread count give the same result"))),
      sweepBudget_(spin(100, std::numeric_limits<int>::max(), 3000, tr("Evaluated mappings per PE-array configuration"))),
      run_(new QPushButton(tr("Run"))), cancel_(new QPushButton(tr("Cancel"))), clear_(new QPushButton(tr("Clear"))),
      addBest_(new QPushButton(tr("Add best to project"))), sweepButton_(new QPushButton(tr("Sweep PE arrays"))),
      status_(new QLabel), chartTabs_(new QTabWidget), curve_(new widgets::SearchProgressChart),
      energyDelay_(new widgets::ParetoChart), areaEdp_(new widgets::ParetoChart), table_(new QTableWidget)
{
    sweepPool_.setMaxThreadCount(1);
    sweepJob_ = new BackgroundJob(this, &sweepPool_);
    for (const SearchAlgorithmInfo& a : searchAlgorithms()) {
        algorithm_->addItem(QString::fromStdString(a.name));
        algorithm_->setItemData(algorithm_->count() - 1, QString::fromStdString(a.description), Qt::ToolTipRole);
    }
    algorithm_->setCurrentText(QStringLiteral("annealing"));
    metrics_->setToolTip(tr("Ordered metric list, comma separated: edp, energy, delay, last-level-accesses"));
    run_->setObjectName(QStringLiteral("runSearch"));
    cancel_->setObjectName(QStringLiteral("cancelSearch"));
    run_->setDefault(true);

    auto* kinds = new QHBoxLayout;
    for (MapspaceKind k : allMapspaceKinds()) {
        auto* box = new QCheckBox(QString::fromStdString(mapspaceKindName(k)));
        box->setChecked(k == MapspaceKind::Pfm);
        box->setToolTip(k == MapspaceKind::Pfm ? tr("perfect factorization") : tr("remainders allowed (Ruby); slower to evaluate"));
        kinds->addWidget(box);
        mapspaces_.push_back(box);
    }
    kinds->addStretch(1);

    constraints_ = new QCheckBox(tr("Apply the project's constraints"));
    constraints_->setChecked(true);
    constraints_->setToolTip(tr("The project's constraints section for the chosen layer (fixed or bounded factors, "
                                "loop orders, spatial axes, keep/bypass, minimum utilization), as nestor-cli search "
                                "applies it unless --no-constraints"));

    auto* form = new QFormLayout;
    form->addRow(tr("Layer"), layer_);
    form->addRow(tr("Mapspaces"), kinds);
    form->addRow(tr("Constraints"), constraints_);
    form->addRow(tr("Algorithm"), algorithm_);
    form->addRow(tr("Threads"), threads_);
    form->addRow(tr("Search size"), searchSize_);
    form->addRow(tr("Evaluation budget"), budget_);
    form->addRow(tr("Victory condition"), victory_);
    form->addRow(tr("Timeout"), timeout_);
    form->addRow(tr("Metrics"), metrics_);
    form->addRow(tr("Seed"), seed_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(clear_);
    auto* searchBox = new QGroupBox(tr("Search"));
    auto* searchLayout = new QVBoxLayout(searchBox);
    searchLayout->addLayout(form);
    searchLayout->addLayout(buttons);
    status_->setWordWrap(true);
    searchLayout->addWidget(status_);

    auto* sweepBox = new QGroupBox(tr("PE-array sweep (area vs EDP)"));
    auto* sweepForm = new QFormLayout(sweepBox);
    auto* sweepNote = new QLabel(tr("PE arrays from 2x7 to 16x16 on the project's architecture; the best mapping of the "
                                    "layer per array and checked mapspace by a short search with the settings above."));
    sweepNote->setWordWrap(true);
    sweepForm->addRow(sweepNote);
    sweepForm->addRow(tr("Budget per array"), sweepBudget_);
    sweepForm->addRow(sweepButton_);

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(searchBox);
    leftLayout->addWidget(sweepBox);
    leftLayout->addStretch(1);
    auto* leftScroll = new QScrollArea;  // the form never forces the window wider
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    leftScroll->setMaximumWidth(400);
    leftScroll->setMinimumWidth(160);

    energyDelay_->setAxisLabels(tr("Delay (cycles)"), tr("Energy (pJ)"));
    areaEdp_->setAxisLabels(tr("Area (µm²)"), tr("EDP (J·s)"));
    chartTabs_->addTab(curve_, tr("Best so far"));
    chartTabs_->addTab(energyDelay_, tr("Energy vs delay"));
    chartTabs_->addTab(areaEdp_, tr("Area vs EDP"));
    chartTabs_->setDocumentMode(true);

    table_->setColumnCount(ColumnCount);
    table_->setHorizontalHeaderLabels({tr("Run"), tr("Mapspace"), tr("Algorithm"), tr("Seed"), tr("Evaluated"), tr("Valid"),
                                       tr("Best"), tr("EDP"), tr("Energy"), tr("Cycles"), tr("Utilization"), tr("Stopped by")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setVisible(false);
    auto* tableBox = new QWidget;
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(table_, 1);
    auto* tableButtons = new QHBoxLayout;
    tableButtons->addWidget(new QLabel(tr("Best mapping of each run. Click a point of a Pareto plot to open its mapping.")), 1);
    tableButtons->addWidget(addBest_);
    tableLayout->addLayout(tableButtons);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(chartTabs_);
    right->addWidget(tableBox);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    right->setSizes({600, 200});  // the charts get most of the height
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(leftScroll);
    split->addWidget(right);
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
        const int row = table_->currentRow() >= 0 ? table_->currentRow() : int(runs_.size()) - 1;
        if (addBestToProject(row).isEmpty() && !lastError_.isEmpty()) status_->setText(lastError_);
    });
    connect(sweepButton_, &QPushButton::clicked, this, [this] { startSweep(); });
    connect(table_, &QTableWidget::itemSelectionChanged, this, &SearchPanel::updateButtons);
    connect(job_, &SearchJob::progress, this, &SearchPanel::onProgress);
    connect(job_, &SearchJob::improved, this, &SearchPanel::onImproved);
    connect(job_, &SearchJob::finished, this, &SearchPanel::onJobFinished);
    connect(energyDelay_, &widgets::ParetoChart::pointClicked, this, [this](int s, int i) { addEnergyDelayPoint(s, i); });
    connect(areaEdp_, &widgets::ParetoChart::pointClicked, this, [this](int s, int i) { addSweepPoint(s, i); });
    connect(sweepJob_, &BackgroundJob::finished, this, [this] {
        const bool completed = !sweepCancelled_;
        showSweep();
        updateButtons();
        emit message(completed ? tr("PE-array sweep finished: %n configuration(s)", nullptr, int(sweep_.size()))
                               : tr("PE-array sweep cancelled after %n configuration(s)", nullptr, int(sweep_.size())));
        emit sweepFinished(completed);
    });
    connect(document_, &ProjectDocument::contentReset, this, &SearchPanel::refreshLayers);
    connect(document_, &ProjectDocument::changed, this, &SearchPanel::refreshLayers);
    refreshLayers();
    updateButtons();
    status_->setText(tr("Choose a layer and press Run."));
}

SearchPanel::~SearchPanel()
{
    queue_.clear();
    job_->cancel();
    sweepJob_->cancel();
    sweepJob_->waitForDone();   // before sweepPool_ goes
}

void SearchPanel::refreshLayers()
{
    const QString current = layer_->currentText();
    layer_->clear();
    for (const ProjectWorkload& w : document_->project().workloads) layer_->addItem(QString::fromStdString(w.workload.name));
    const int i = layer_->findText(current);
    if (i >= 0) layer_->setCurrentIndex(i);
    else if (!document_->project().jobWorkload.empty())
        layer_->setCurrentText(QString::fromStdString(document_->project().jobWorkload));
    updateButtons();
}

SearchSettings SearchPanel::settings() const
{
    SearchSettings s;
    s.layer = layer_->currentText();
    s.mapspaces.clear();
    for (QCheckBox* b : mapspaces_)
        if (b->isChecked()) s.mapspaces << b->text();
    s.algorithm = algorithm_->currentText();
    s.threads = threads_->value();
    s.searchSize = searchSize_->value();
    s.evaluationBudget = budget_->value();
    s.victoryCondition = victory_->value();
    s.timeout = timeout_->value();
    s.metrics = metrics_->text();
    s.seed = seed_->value();
    s.sweepBudget = sweepBudget_->value();
    s.useConstraints = constraints_->isChecked();
    return s;
}

bool SearchPanel::setSettings(const SearchSettings& s)
{
    bool ok = true;
    if (layer_->findText(s.layer) >= 0) layer_->setCurrentText(s.layer);
    else ok = false;
    for (QCheckBox* b : mapspaces_) b->setChecked(s.mapspaces.contains(b->text()));
    for (const QString& m : s.mapspaces)
        if (!parseMapspaceKind(m.toStdString())) ok = false;
    if (algorithm_->findText(s.algorithm) >= 0) algorithm_->setCurrentText(s.algorithm);
    else ok = false;
    threads_->setValue(s.threads);
    searchSize_->setValue(int(std::min<qint64>(s.searchSize, std::numeric_limits<int>::max())));
    budget_->setValue(int(std::min<qint64>(s.evaluationBudget, std::numeric_limits<int>::max())));
    victory_->setValue(int(std::min<qint64>(s.victoryCondition, std::numeric_limits<int>::max())));
    timeout_->setValue(int(std::min<qint64>(s.timeout, std::numeric_limits<int>::max())));
    metrics_->setText(s.metrics);
    seed_->setValue(int(std::min<qint64>(s.seed, std::numeric_limits<int>::max())));
    sweepBudget_->setValue(s.sweepBudget);
    constraints_->setChecked(s.useConstraints);
    return ok;
}

QString SearchPanel::metricLabel() const
{
    try {
        const SearchMetric m = parseSearchMetrics(metrics_->text().toStdString()).front();
        switch (m) {
        case SearchMetric::Edp: return tr("EDP (J·s)");
        case SearchMetric::Energy: return tr("energy (pJ)");
        case SearchMetric::Delay: return tr("delay (cycles)");
        case SearchMetric::LastLevelAccesses: return tr("last-level accesses");
        }
    } catch (const std::exception&) {
    }
    return metrics_->text();
}

bool SearchPanel::run()
{
    lastError_.clear();
    const Project& p = document_->project();
    const SearchSettings s = settings();
    const ProjectWorkload* pw = p.findWorkload(s.layer.toStdString());
    if (!pw) lastError_ = tr("Choose a layer to search.");
    else if (s.mapspaces.isEmpty()) lastError_ = tr("Check at least one mapspace.");
    SearchOptions o;
    if (lastError_.isEmpty()) {
        try {
            o.metrics = parseSearchMetrics(s.metrics.toStdString());
        } catch (const std::exception& e) {
            lastError_ = tr("Metrics: %1").arg(QString::fromStdString(e.what()));
        }
    }
    if (!lastError_.isEmpty()) {
        status_->setText(lastError_);
        return false;
    }
    o.algorithm = s.algorithm.toStdString();
    o.threads = s.threads;
    o.seed = std::uint64_t(s.seed);
    o.searchSize = s.searchSize;
    o.evaluationBudget = s.evaluationBudget;
    o.victoryCondition = s.victoryCondition;
    o.timeout = s.timeout;
    for (const QString& m : s.mapspaces) {
        SearchRequest r;
        r.kind = *parseMapspaceKind(m.toStdString());
        r.label = QStringLiteral("#%1 %2 %3").arg(++runCounter_).arg(m, s.algorithm);
        r.workload = pw->workload;
        r.architecture = p.architecture;
        if (s.useConstraints) r.constraints = p.constraintsFor(pw->workload);
        r.options = o;
        queue_.push_back(std::move(r));
    }
    curve_->setMetricName(metricLabel());
    if (!job_->isRunning()) startNext();
    updateButtons();
    return true;
}

void SearchPanel::startNext()
{
    if (queue_.empty() || job_->isRunning()) return;
    SearchRequest r = std::move(queue_.front());
    queue_.pop_front();
    RunRecord rec;
    rec.label = r.label;
    rec.layer = QString::fromStdString(r.workload.name);
    rec.mapspace = QString::fromStdString(mapspaceKindName(r.kind));
    rec.algorithm = QString::fromStdString(r.options.algorithm);
    rec.seed = qint64(r.options.seed);
    rec.curve = curve_->addRun(QStringLiteral("%1 %2 %3").arg(rec.mapspace, rec.algorithm, rec.label.section(QLatin1Char(' '), 0, 0)));
    rec.outcome.request = r;  // the settings, for the table while running
    const QString title = tr("Search %1 (%2)").arg(rec.label, rec.layer);
    if (jobs_) rec.job = jobs_->addJob(title, [this] { cancel(); });
    runs_.push_back(std::move(rec));
    current_ = int(runs_.size()) - 1;
    table_->setRowCount(int(runs_.size()));
    updateRow(current_);
    status_->setText(tr("Searching %1…").arg(title));
    job_->start(std::move(r));
}

void SearchPanel::cancel()
{
    queue_.clear();
    job_->cancel();
}

bool SearchPanel::isRunning() const
{
    return current_ >= 0 || job_->isRunning() || !queue_.empty();
}

void SearchPanel::onProgress(const SearchProgress& p)
{
    if (current_ < 0) return;
    RunRecord& r = runs_[std::size_t(current_)];
    r.progress = p;
    curve_->extendTo(r.curve, double(p.evaluated));
    updateRow(current_);
    if (!jobs_ || !r.job) return;
    const SearchOptions& o = r.outcome.request.options;
    if (o.evaluationBudget > 0) jobs_->setProgress(r.job, p.evaluated, o.evaluationBudget);
    else if (o.searchSize > 0) jobs_->setProgress(r.job, p.valid, o.searchSize);
    else jobs_->setProgress(r.job, 0, 0);
    const QString skipped = p.overBudget > 0 ? tr(" (%1 over the exact-evaluation budget, skipped)").arg(count(p.overBudget))
                                             : QString();
    jobs_->setStatus(r.job, tr("%1 evaluated, %2 valid%3, best %4, %5 s")
                                .arg(count(p.evaluated), count(p.valid), skipped,
                                     p.hasBest ? metricValueText(o.metrics.front(), p.best) : QStringLiteral("—"))
                                .arg(p.seconds, 0, 'f', 1));
}

void SearchPanel::onImproved(qint64 evaluated, double value)
{
    if (current_ >= 0) curve_->addImprovement(runs_[std::size_t(current_)].curve, double(evaluated), value);
}

void SearchPanel::onJobFinished()
{
    if (current_ < 0) return;
    const int index = current_;
    RunRecord& r = runs_[std::size_t(index)];
    r.outcome = job_->outcome();
    r.finished = true;
    const SearchResult& res = r.outcome.result;
    curve_->extendTo(r.curve, double(res.evaluated));
    QString summary;
    if (!r.outcome.failure.isEmpty()) {
        summary = tr("failed: %1").arg(r.outcome.failure);
    } else {
        summary = tr("%1 evaluated in %2 s%3; %4").arg(count(res.evaluated)).arg(res.seconds, 0, 'f', 2)
                      .arg(res.cancelled ? tr(" (cancelled)") : QString(),
                           res.found ? tr("best %1").arg(metricValueText(r.outcome.request.options.metrics.front(),
                                                                         res.bestMetrics.front()))
                                     : tr("no valid mapping"));
        QVector<QPointF> pts;
        for (const EvaluatedMapping& m : r.outcome.sample) pts << QPointF(m.cycles, m.energy_pJ);
        if (!pts.isEmpty()) r.paretoSeries = energyDelay_->addSeries(
                QStringLiteral("%1 %2 %3").arg(r.mapspace, r.algorithm, r.label.section(QLatin1Char(' '), 0, 0)), pts);
    }
    if (jobs_ && r.job) jobs_->finishJob(r.job, summary);
    updateRow(index);
    status_->setText(tr("%1: %2").arg(r.label, summary));
    emit message(tr("Search %1 on %2: %3").arg(r.label, r.layer, summary));
    current_ = -1;
    emit runFinished(index);
    if (!queue_.empty()) {
        startNext();
    } else {
        updateButtons();
        emit allRunsFinished();
    }
}

void SearchPanel::updateRow(int index)
{
    const RunRecord& r = runs_[std::size_t(index)];
    auto set = [&](int col, const QString& text) {
        auto* item = new QTableWidgetItem(text);
        if (col >= ColSeed && col <= ColUtilization) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(index, col, item);
    };
    set(ColRun, r.label.section(QLatin1Char(' '), 0, 0));
    set(ColMapspace, r.mapspace);
    set(ColAlgorithm, r.algorithm);
    set(ColSeed, QString::number(r.seed));
    const SearchOptions& o = r.outcome.request.options;
    const SearchMetric first = o.metrics.front();
    const QString metricName = first == SearchMetric::Edp      ? tr("EDP")
                               : first == SearchMetric::Energy ? tr("energy")
                               : first == SearchMetric::Delay  ? tr("delay")
                                                               : tr("last-level accesses");
    table_->horizontalHeaderItem(ColMetric)->setText(tr("Best %1").arg(metricName));
    if (!r.finished) {
        set(ColEvaluated, count(r.progress.evaluated));
        set(ColValid, count(r.progress.valid));
        set(ColMetric, r.progress.hasBest ? metricValueText(o.metrics.front(), r.progress.best) : QStringLiteral("—"));
        for (int c = ColEdp; c <= ColUtilization; ++c) set(c, QString());
        set(ColStopped, tr("running…"));
        return;
    }
    const SearchResult& res = r.outcome.result;
    set(ColEvaluated, count(res.evaluated));
    set(ColValid, count(res.valid));
    if (res.overBudget > 0)
        table_->item(index, ColValid)->setToolTip(tr("%1 candidates skipped: their exact evaluation exceeds the model's budget")
                                                    .arg(count(res.overBudget)));
    QStringList reasons;
    for (const std::string& s : res.stopReasons)
        if (!reasons.contains(QString::fromStdString(s))) reasons << QString::fromStdString(s);
    set(ColStopped, r.outcome.failure.isEmpty() ? reasons.join(QStringLiteral(", ")) : r.outcome.failure);
    if (!res.found) {
        set(ColMetric, tr("no valid mapping"));
        for (int c = ColEdp; c <= ColUtilization; ++c) set(c, QString());
        return;
    }
    const Evaluation& ev = res.bestEvaluation;
    set(ColMetric, metricValueText(o.metrics.front(), res.bestMetrics.front()));
    set(ColEdp, scientific(ev.edp_J_s, QStringLiteral("J·s")));
    set(ColEnergy, energy(ev.energy_pJ));
    set(ColCycles, count(ev.cycles));
    set(ColUtilization, percent(ev.utilization));
}

void SearchPanel::clearRuns()
{
    if (isRunning()) return;
    runs_.clear();
    current_ = -1;
    curve_->clear();
    energyDelay_->clear();
    table_->setRowCount(0);
    updateButtons();
}

void SearchPanel::updateButtons()
{
    const bool busy = isRunning();
    run_->setEnabled(layer_->count() > 0);
    cancel_->setEnabled(busy || isSweeping());
    clear_->setEnabled(!busy && !runs_.empty());
    sweepButton_->setEnabled(!isSweeping() && layer_->count() > 0);
    bool anyBest = false;
    for (const RunRecord& r : runs_) anyBest = anyBest || (r.finished && r.outcome.result.found);
    addBest_->setEnabled(anyBest);
}

QString SearchPanel::addMapping(const QString& layer, const Mapping& m, const QString& name, const QString& compareLabel,
                                const Architecture* architecture)
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
    if (!compareLabel.isEmpty()) {
        const Project& p = document_->project();
        const ProjectWorkload* pw = p.findWorkload(layer.toStdString());
        const ProjectMapping* pm = p.findMapping(added.toStdString());
        if (pw && pm) emit compareRequested(compareLabel, pw->workload, architecture ? *architecture : p.architecture, pm->mapping);
    }
    return added;
}

QString SearchPanel::addBestToProject(int index)
{
    lastError_.clear();
    if (index < 0 || index >= int(runs_.size()) || !runs_[std::size_t(index)].finished ||
        !runs_[std::size_t(index)].outcome.result.found) {
        lastError_ = tr("That run has no best mapping (yet).");
        return {};
    }
    const RunRecord& r = runs_[std::size_t(index)];
    const QString name = QStringLiteral("%1-%2-%3-s%4").arg(r.layer, r.mapspace, r.algorithm).arg(r.seed);
    return addMapping(r.layer, r.outcome.result.best, name, QString(), nullptr);
}

QString SearchPanel::addEnergyDelayPoint(int series, int point)
{
    for (const RunRecord& r : runs_) {
        if (r.paretoSeries != series) continue;
        if (point < 0 || point >= int(r.outcome.sample.size())) break;
        const QString name = QStringLiteral("%1-%2-pareto").arg(r.layer, r.mapspace);
        const QString added = addMapping(r.layer, r.outcome.sample[std::size_t(point)].mapping, name, QString(), nullptr);
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
    const SweepItem& item = sweep_[std::size_t(sweepSeries_[std::size_t(series)][std::size_t(point)])];
    const Mapping* best = item.best();
    if (!best) {
        lastError_ = tr("That configuration has no valid mapping.");
        return {};
    }
    const QString label = QString::fromStdString(item.point.array.name());
    const QString name = QStringLiteral("%1-%2-%3").arg(sweepLayer_, QString::fromStdString(mapspaceKindName(item.point.kind)), label);
    // Pinned on the array it was found for; on the project's own array it may not fit.
    const QString added = addMapping(sweepLayer_, *best, name, QString(), nullptr);
    if (!added.isEmpty()) {
        const ProjectWorkload* pw = document_->project().findWorkload(sweepLayer_.toStdString());
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
    SearchOptions o;
    try {
        o.metrics = parseSearchMetrics(s.metrics.toStdString());
    } catch (const std::exception& e) {
        lastError_ = QString::fromStdString(e.what());
    }
    if (!pw) lastError_ = tr("Choose a layer to sweep.");
    std::vector<MapspaceKind> kinds;
    for (const QString& m : s.mapspaces) kinds.push_back(*parseMapspaceKind(m.toStdString()));
    if (kinds.empty()) lastError_ = tr("Check at least one mapspace.");
    if (!lastError_.isEmpty()) {
        status_->setText(lastError_);
        return false;
    }
    o.algorithm = s.algorithm.toStdString();
    o.threads = s.threads;
    o.seed = std::uint64_t(s.seed);
    o.evaluationBudget = s.sweepBudget;
    o.victoryCondition = s.victoryCondition;
    o.timeout = s.timeout;
    sweep_.clear();
    sweepLayer_ = s.layer;
    showSweep();
    sweepCancelled_ = false;
    if (jobs_) sweepJob_->showIn(jobs_, tr("PE-array sweep (%1, %2)").arg(s.layer, s.mapspaces.join(QStringLiteral(", "))));
    SweepOptions so;
    so.kinds = std::move(kinds);
    so.search = std::move(o);
    NetworkSearchLayer layer;
    layer.name = pw->workload.name;
    layer.workload = pw->workload;
    layer.constraints = s.useConstraints ? p.constraintsFor(pw->workload) : MapspaceConstraints{};
    sweepJob_->start<bool>(
        [base = p.architecture, layer = std::move(layer), so = std::move(so), this](RunningJob& job) {
            QueuedSweepObserver observer(job, base, [this](const SweepItem& item) {
                sweep_.push_back(item);
                showSweep();
            });
            try {
                runArchitectureSweep(base, {layer}, so, &observer, &job);
            } catch (const std::exception&) {
                // an unknown algorithm: the panel checked the name; nothing to report
            }
            return job.cancelRequested();
        },
        [this](bool cancelled) { sweepCancelled_ = cancelled; });
    chartTabs_->setCurrentWidget(areaEdp_);
    updateButtons();
    return true;
}

bool SearchPanel::isSweeping() const
{
    return sweepJob_->isRunning();
}

void SearchPanel::cancelSweep()
{
    sweepJob_->cancel();
}

void SearchPanel::showSweep()
{
    areaEdp_->clear();
    sweepSeries_.clear();
    QStringList errors;
    for (MapspaceKind k : allMapspaceKinds()) {
        QVector<QPointF> pts;
        std::vector<int> index;
        for (std::size_t i = 0; i < sweep_.size(); ++i) {
            const SweepItem& it = sweep_[i];
            if (it.point.kind != k) continue;
            if (!it.point.error.empty() && !errors.contains(QString::fromStdString(it.point.error)))
                errors << QString::fromStdString(it.point.error);
            if (!it.best()) continue;
            pts << QPointF(it.point.area_um2, it.point.edp_J_s);
            index.push_back(int(i));
        }
        if (pts.isEmpty()) continue;
        areaEdp_->addSeries(QString::fromStdString(mapspaceKindName(k)), pts);
        sweepSeries_.push_back(index);
    }
    if (!errors.isEmpty()) status_->setText(tr("Sweep: %1").arg(errors.join(QStringLiteral("; "))));
}

} // namespace nestor::app
