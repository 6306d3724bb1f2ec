#include "SolverView.h"

#include "GroupedBarChart.h"
#include "NumberFormat.h"
#include "ArchitectureCommands.h"
#include "ParetoChart.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "arch/EnergyModels.h"
#include "io/AtomicFile.h"
#include "jobs/BackgroundJob.h"
#include "solvers/thistle/CodesignCsv.h"
#include "views/CompareView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <exception>
#include <limits>

namespace nestor::app {

namespace {

const QString kNetworkPrefix = QStringLiteral("network:");

QString designName(SolverView::Row::Design d)
{
    switch (d) {
    case SolverView::Row::Design::Fixed: return SolverView::tr("fixed architecture");
    case SolverView::Row::Design::Layerwise: return SolverView::tr("layer-wise co-design");
    case SolverView::Row::Design::Single: return SolverView::tr("single architecture");
    }
    return {};
}

double macsPerCycle(const Evaluation& e) { return e.cycles > 0 ? double(e.macs) / double(e.cycles) : 0.0; }

QTableWidgetItem* cell(const QString& text, bool number = true)
{
    auto* item = new QTableWidgetItem(text);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

SolverView::SolverView(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), job_(new BackgroundJob(this)), target_(new QComboBox), objective_(new QComboBox),
      fixed_(new QCheckBox(tr("Fixed architecture"))), codesign_(new QCheckBox(tr("Co-design"))),
      single_(new QCheckBox(tr("Single architecture"))), climb_(new QCheckBox(tr("Climb"))), area_(new QDoubleSpinBox), run_(new QPushButton(tr("Solve"))),
      cancel_(new QPushButton(tr("Cancel"))), add_(new QPushButton(tr("Open in workbench"))),
      pin_(new QPushButton(tr("Pin in Compare"))), csv_(new QPushButton(tr("Export CSV…"))), status_(new QLabel),
      table_(new QTableWidget), bars_(new widgets::GroupedBarChart), pareto_(new widgets::ParetoChart)
{
    objective_->addItems({tr("Energy"), tr("Delay")});
    fixed_->setToolTip(tr("Eq. 3: the best dataflow (loop order and tile sizes) on the project's architecture"));
    codesign_->setToolTip(tr("Eq. 5: registers per PE, SRAM size and PE count free under the area budget, per layer"));
    single_->setToolTip(tr("The layer-wise design of the dominant layer, with every layer's dataflow optimized for it"));
    climb_->setToolTip(tr("After the paper's rounding, climb on with the cost model: move trip-count factors between levels, "
                          "swap outer loops, jump and climb again (off: the paper's rounding alone)"));
    for (QCheckBox* c : {fixed_, codesign_, single_, climb_}) c->setChecked(true);
    area_->setRange(0, 1e12);
    area_->setDecimals(0);
    area_->setSingleStep(100000);
    area_->setSuffix(tr(" µm²"));
    area_->setSpecialValueText(tr("architecture's area"));
    area_->setToolTip(tr("Area budget of the co-design (0: the area of the project's architecture)"));
    cancel_->setEnabled(false);

    // Two rows, so that the tab fits a 1366-pixel screen beside the project dock.
    target_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Solve:")));
    bar->addWidget(target_);
    bar->addWidget(new QLabel(tr("Objective:")));
    bar->addWidget(objective_);
    bar->addStretch(1);
    bar->addWidget(run_);
    bar->addWidget(cancel_);
    auto* designs = new QHBoxLayout;
    designs->addWidget(new QLabel(tr("Designs:")));
    designs->addWidget(fixed_);
    designs->addWidget(codesign_);
    designs->addWidget(single_);
    designs->addWidget(new QLabel(tr("Area budget:")));
    designs->addWidget(area_);
    designs->addWidget(climb_);
    designs->addStretch(1);

    status_->setWordWrap(true);
    status_->setText(tr("Thistle (CGO'22) on a DRAM → SRAM → registers-per-PE architecture, e.g. examples/thistle/resnet18.yaml: "
                        "choose a layer or a network and press Solve."));
    table_->setColumnCount(11);
    table_->setHorizontalHeaderLabels({tr("Layer"), tr("Design"), tr("pJ/MAC (model)"), tr("pJ/MAC (solver)"), tr("Gap"),
                                       tr("Cycles"), tr("MACs/cycle"), tr("Registers/PE"), tr("SRAM words"), tr("PEs"), tr("Area")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    auto* tableButtons = new QHBoxLayout;
    tableButtons->addWidget(add_);
    tableButtons->addWidget(pin_);
    tableButtons->addWidget(csv_);
    tableButtons->addStretch(1);
    auto* tableBox = new QWidget;
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(table_, 1);
    tableLayout->addLayout(tableButtons);

    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(bars_);
    charts->addWidget(pareto_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(tableBox);
    split->addWidget(charts);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(designs);
    layout->addWidget(status_);
    layout->addWidget(split, 1);

    connect(run_, &QPushButton::clicked, this, &SolverView::run);
    connect(cancel_, &QPushButton::clicked, this, &SolverView::cancel);
    connect(codesign_, &QCheckBox::toggled, this, [this](bool on) {
        single_->setEnabled(on);
        area_->setEnabled(on);
    });
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        showCandidates(row);
        updateButtons();
    });
    connect(add_, &QPushButton::clicked, this, [this] {
        const QString error = addToProject(table_->currentRow(), candidate_);
        if (!error.isEmpty()) status_->setText(error);
    });
    connect(pareto_, &widgets::ParetoChart::pointClicked, this, [this](int, int index) {
        const int row = table_->currentRow();
        if (row < 0 || row >= int(rows_.size()) || index < 0 || index >= int(rows_[std::size_t(row)].result->candidates.size())) return;
        candidate_ = index;
        const thistle::SolvedCandidate& c = rows_[std::size_t(row)].result->candidates[std::size_t(index)];
        status_->setText(tr("Candidate %1 of %2: %3 pJ/MAC, %4 cycles, %5 registers per PE, %6 SRAM words, %7 PEs. "
                            "Open in workbench opens this one.")
                             .arg(index + 1)
                             .arg(rows_[std::size_t(row)].result->candidates.size())
                             .arg(c.eval.pJ_per_mac, 0, 'f', 3)
                             .arg(c.eval.cycles)
                             .arg(c.registers)
                             .arg(c.sramWords)
                             .arg(c.pes));
    });
    connect(pin_, &QPushButton::clicked, this, [this] { pinInCompare(table_->currentRow()); });
    connect(csv_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export solver results"), QString(), tr("CSV files (*.csv)"));
        if (!path.isEmpty()) exportCsv(path);
    });
    connect(job_, &BackgroundJob::progressed, this, [this](const JobProgress& p) {
        if (!p.message.empty()) status_->setText(tr("Solving: %1").arg(QString::fromStdString(p.message)));
    });
    connect(job_, &BackgroundJob::failed, this, [this](const QString& m) { status_->setText(tr("The solver failed: %1").arg(m)); });
    connect(job_, &BackgroundJob::finished, this, [this] {
        run_->setEnabled(true);
        cancel_->setEnabled(false);
        emit finished();
    });
    connect(document_, &ProjectDocument::contentReset, this, [this] {
        // Another project: its results would be about layers that are not there.
        job_->discard();
        result_.reset();
        layers_.clear();
        rows_.clear();
        fillTable();
        bars_->clear();
        pareto_->clear();
        refreshTargets();
    });
    connect(document_, &ProjectDocument::changed, this, [this](const ProjectChange& c) {
        if ((c.subject == ProjectChange::Subject::Workload || c.subject == ProjectChange::Subject::Network) && c.changesStructure())
            refreshTargets();
    });
    refreshTargets();
    updateButtons();
}

SolverView::~SolverView() = default;

void SolverView::setJobsDock(JobsDock* dock)
{
    job_->showIn(dock, tr("Thistle solver"));
}

void SolverView::refreshTargets()
{
    const QString current = target_->currentData().toString();
    target_->clear();
    const Project& p = document_->project();
    // Layers first: one layer solves in seconds, a network in minutes.
    for (const ProjectWorkload& w : p.workloads)
        target_->addItem(tr("layer %1").arg(QString::fromStdString(w.workload.name)), QString::fromStdString(w.workload.name));
    for (const ProjectNetwork& n : p.networks)
        target_->addItem(tr("network %1").arg(QString::fromStdString(n.name)), kNetworkPrefix + QString::fromStdString(n.name));
    int at = target_->findData(current);
    if (at < 0) at = target_->findData(QString::fromStdString(p.jobWorkload));
    target_->setCurrentIndex(std::max(0, at));
}

SolverView::Settings SolverView::settings() const
{
    Settings s;
    s.target = target_->currentData().toString();
    s.energyObjective = objective_->currentIndex() == 0;
    s.fixedArchitecture = fixed_->isChecked();
    s.codesign = codesign_->isChecked();
    s.singleArchitecture = single_->isChecked();
    s.areaBudget_um2 = area_->value();
    s.climb = climb_->isChecked();
    return s;
}

void SolverView::setSettings(const Settings& s)
{
    const int at = target_->findData(s.target);
    if (at >= 0) target_->setCurrentIndex(at);
    objective_->setCurrentIndex(s.energyObjective ? 0 : 1);
    fixed_->setChecked(s.fixedArchitecture);
    codesign_->setChecked(s.codesign);
    single_->setChecked(s.singleArchitecture);
    area_->setValue(s.areaBudget_um2);
    climb_->setChecked(s.climb);
}

bool SolverView::isRunning() const
{
    return job_->isRunning();
}

QString SolverView::statusText() const
{
    return status_->text();
}

void SolverView::cancel()
{
    job_->cancel();
}

bool SolverView::run()
{
    if (job_->isRunning()) return false;
    const Settings s = settings();
    const Project& p = document_->project();
    auto refuse = [this](const QString& why) {
        status_->setText(why);
        emit message(tr("Solver: %1").arg(why));
        return false;
    };
    std::vector<Workload> layers;
    if (s.target.startsWith(kNetworkPrefix)) {
        if (const ProjectNetwork* n = p.findNetwork(s.target.mid(kNetworkPrefix.size()).toStdString()))
            for (const ProjectWorkload* pw : p.distinctLayers(*n)) layers.push_back(pw->workload);
    } else if (const ProjectWorkload* pw = p.findWorkload(s.target.toStdString())) {
        layers.push_back(pw->workload);
    }
    if (layers.empty()) return refuse(tr("Nothing to solve: choose a layer or a network with layers."));
    if (!s.fixedArchitecture && !s.codesign) return refuse(tr("Choose the fixed architecture, the co-design or both."));
    Architecture arch = p.architecture;
    try {
        applyEnergyModel(arch, p.energyModel);
        thistle::checkThistleArchitecture(arch);
    } catch (const std::exception& e) {
        return refuse(tr("The Thistle solver cannot use this architecture: %1").arg(QString::fromUtf8(e.what())));
    }
    thistle::NetworkCodesignOptions o;
    o.optimize.objective = s.energyObjective ? thistle::Objective::Energy : thistle::Objective::Delay;
    o.optimize.area_um2 = s.areaBudget_um2 > 0 ? s.areaBudget_um2 : arch.area_um2();
    o.fixedArchitecture = s.fixedArchitecture;
    o.layerwise = s.codesign;
    o.singleArchitecture = s.codesign && s.singleArchitecture;
    if (!s.climb) o.optimize.polishStarts = 0;
    if (s.codesign && !(o.optimize.area_um2 > 0)) return refuse(tr("The co-design needs an area budget above 0 µm²."));

    run_->setEnabled(false);
    cancel_->setEnabled(true);
    status_->setText(tr("Solving %n layer(s)…", nullptr, int(layers.size())));
    job_->setTitle(tr("Thistle solver (%1)").arg(target_->currentText()));
    job_->start<thistle::NetworkCodesign>(
        [layers, arch, o](RunningJob& job) mutable {
            o.optimize.cancel = job.cancelFlag();
            o.progress = [&job](double fraction, const std::string& what) { job.reportProgress({fraction, what}); };
            std::vector<const Workload*> ptrs;
            for (const Workload& w : layers) ptrs.push_back(&w);
            thistle::NetworkCodesign r = thistle::codesignNetwork(ptrs, arch, o);
            job.setSummary(r.cancelled ? QStringLiteral("cancelled (results so far shown)") : QStringLiteral("done"));
            return r;
        },
        [this, layers, energy = s.energyObjective](thistle::NetworkCodesign r) {
            layers_ = layers;
            energyObjective_ = energy;
            show(std::move(r));
        });
    return true;
}

void SolverView::show(thistle::NetworkCodesign result)
{
    result_ = std::move(result);
    rows_.clear();
    const std::pair<Row::Design, const std::vector<thistle::LayerOptimization>*> designs[] = {
        {Row::Design::Fixed, &result_->fixed}, {Row::Design::Layerwise, &result_->layerwise}, {Row::Design::Single, &result_->single}};
    // Layer by layer, the designs of a layer next to each other.
    for (std::size_t l = 0; l < layers_.size(); ++l)
        for (const auto& [design, results] : designs)
            if (l < results->size()) rows_.push_back({int(l), design, &(*results)[l]});
    fillTable();
    fillBars();
    QStringList notes;
    if (result_->cancelled) notes << tr("Cancelled: the layers solved so far are shown.");
    if (!result_->singleError.empty()) notes << tr("No single architecture: %1.").arg(QString::fromStdString(result_->singleError));
    if (!result_->singleFrom.empty())
        notes << tr("Single architecture: the co-design of %1.").arg(QString::fromStdString(result_->singleFrom));
    int failed = 0;
    for (const Row& r : rows_) failed += r.result->ok ? 0 : 1;
    if (failed) notes << tr("%n design(s) without a result (see the table).", nullptr, failed);
    status_->setText(tr("%n layer(s) solved. ", nullptr, int(layers_.size())) + notes.join(QLatin1Char(' ')) +
                     tr(" Select a row to see its candidates; the cost model's figures decide, the solver's estimate is beside them."));
    emit message(tr("Solver: %n layer(s) solved", nullptr, int(layers_.size())));
    if (!rows_.empty()) selectRow(0);
    updateButtons();
}

void SolverView::fillTable()
{
    table_->setRowCount(int(rows_.size()));
    using namespace widgets::NumberFormat;
    for (int i = 0; i < int(rows_.size()); ++i) {
        const Row& row = rows_[std::size_t(i)];
        const thistle::LayerOptimization& r = *row.result;
        table_->setItem(i, 0, cell(QString::fromStdString(layers_[std::size_t(row.layer)].name), false));
        table_->setItem(i, 1, cell(designName(row.design), false));
        for (int c = 2; c < table_->columnCount(); ++c) table_->setItem(i, c, cell(QString()));
        if (!r.ok) {
            table_->setItem(i, 2, cell(tr("no result: %1").arg(QString::fromStdString(r.error)), false));
            table_->item(i, 2)->setToolTip(QString::fromStdString(r.error));
            continue;
        }
        const thistle::SolvedCandidate& b = r.best;
        table_->item(i, 1)->setToolTip(tr("Found by the %1").arg(QString::fromUtf8(thistle::designOriginName(r.origin))));
        const double solver = b.solverEnergy_pJ / double(b.eval.macs);
        table_->item(i, 2)->setText(decimal(b.eval.pJ_per_mac));
        table_->item(i, 3)->setText(decimal(solver));
        table_->item(i, 4)->setText(percent((solver - b.eval.pJ_per_mac) / b.eval.pJ_per_mac));
        table_->item(i, 5)->setText(count(b.eval.cycles));
        table_->item(i, 6)->setText(decimal(macsPerCycle(b.eval)));
        table_->item(i, 7)->setText(count(b.registers));
        table_->item(i, 8)->setText(count(b.sramWords));
        table_->item(i, 9)->setText(count(b.pes));
        table_->item(i, 10)->setText(area(b.eval.area_um2));
        table_->item(i, 1)->setToolTip(QString::fromStdString(b.perm.text(layers_[std::size_t(row.layer)])));
    }
}

void SolverView::fillBars()
{
    QStringList names;
    for (const Workload& w : layers_) names << QString::fromStdString(w.name);
    bars_->setCategories(names, energyObjective_ ? tr("pJ/MAC (cost model)") : tr("MACs per cycle (cost model)"));
    const std::pair<QString, const std::vector<thistle::LayerOptimization>*> series[] = {
        {tr("fixed architecture"), &result_->fixed}, {tr("layer-wise co-design"), &result_->layerwise}, {tr("single architecture"), &result_->single}};
    for (const auto& [name, results] : series) {
        if (results->empty()) continue;
        QVector<double> values(int(layers_.size()), std::numeric_limits<double>::quiet_NaN());
        for (std::size_t l = 0; l < results->size() && l < layers_.size(); ++l)
            if ((*results)[l].ok)
                values[int(l)] = energyObjective_ ? (*results)[l].best.eval.pJ_per_mac : macsPerCycle((*results)[l].best.eval);
        bars_->addSeries(name, values);
    }
}

void SolverView::selectRow(int row)
{
    if (row >= 0 && row < table_->rowCount()) table_->setCurrentCell(row, 0);
}

void SolverView::showCandidates(int row)
{
    pareto_->clear();
    candidate_ = -1;
    if (row < 0 || row >= int(rows_.size())) return;
    const Row& r = rows_[std::size_t(row)];
    const Workload& w = layers_[std::size_t(r.layer)];
    // On the fixed architecture every candidate has the same area: energy against cycles then.
    const bool fixedArea = r.design != Row::Design::Layerwise;
    if (fixedArea) pareto_->setAxisLabels(tr("Cycles (cost model)"), tr("pJ/MAC (cost model)"));
    else pareto_->setAxisLabels(tr("Area (mm²)"), energyObjective_ ? tr("pJ/MAC (cost model)") : tr("Cycles (cost model)"));
    QVector<QPointF> points;
    QStringList labels;
    for (const thistle::SolvedCandidate& c : r.result->candidates) {
        if (fixedArea) points << QPointF(double(c.eval.cycles), c.eval.pJ_per_mac);
        else points << QPointF(c.eval.area_um2 / 1e6, energyObjective_ ? c.eval.pJ_per_mac : double(c.eval.cycles));
        labels << tr("%1 registers, %2 SRAM words, %3 PEs, %4")
                      .arg(c.registers)
                      .arg(c.sramWords)
                      .arg(c.pes)
                      .arg(QString::fromStdString(c.perm.text(w)));
    }
    pareto_->addSeries(QString::fromStdString(w.name), points, labels);
}

void SolverView::updateButtons()
{
    const int row = table_->currentRow();
    const bool ok = row >= 0 && row < int(rows_.size()) && rows_[std::size_t(row)].result->ok;
    add_->setEnabled(ok);
    add_->setToolTip(tr("Adds the design's mapping to the project and shows it; a co-designed architecture replaces the "
                        "project's (one undo step). A point clicked in the plot opens that candidate instead of the best."));
    pin_->setEnabled(ok && compare_);
    csv_->setEnabled(result_.has_value());
}

QString SolverView::addToProject(int row, int candidate)
{
    if (row < 0 || row >= int(rows_.size()) || !rows_[std::size_t(row)].result->ok) return tr("Select a row with a result.");
    const Row& r = rows_[std::size_t(row)];
    const std::vector<thistle::SolvedCandidate>& all = r.result->candidates;
    if (candidate >= int(all.size())) return tr("No such candidate.");
    const thistle::SolvedCandidate& c = candidate >= 0 ? all[std::size_t(candidate)] : r.result->best;
    const std::string layer = layers_[std::size_t(r.layer)].name;
    if (!document_->project().findWorkload(layer)) return tr("The project has no layer %1 any more.").arg(QString::fromStdString(layer));
    const QString base = QString::fromStdString(layer + (r.design == Row::Design::Fixed ? "-thistle" : "-codesign"));
    QString added;
    const QString error = r.design == Row::Design::Fixed
                              ? commands::addMapping(*document_, QString::fromStdString(layer), c.mapping, base, &added)
                              : commands::adoptDesign(*document_, c.arch, QString::fromStdString(layer), c.mapping, base, &added);
    if (!error.isEmpty()) return error;
    status_->setText(r.design == Row::Design::Fixed
                         ? tr("Added mapping %1 to the project.").arg(added)
                         : tr("The project's architecture is now this design (%1 registers per PE, %2 SRAM words, %3 PEs), with "
                              "mapping %4; Undo restores the previous architecture.")
                               .arg(c.registers)
                               .arg(c.sramWords)
                               .arg(c.pes)
                               .arg(added));
    emit message(status_->text());
    emit mappingOpened(added);
    return {};
}

bool SolverView::pinInCompare(int row)
{
    if (!compare_ || row < 0 || row >= int(rows_.size()) || !rows_[std::size_t(row)].result->ok) return false;
    const Row& r = rows_[std::size_t(row)];
    const Workload& w = layers_[std::size_t(r.layer)];
    compare_->pinValue({QStringLiteral("%1 (%2)").arg(QString::fromStdString(w.name), designName(r.design)), w,
                        r.result->best.arch, r.result->best.mapping});
    return true;
}

bool SolverView::exportCsv(const QString& path)
{
    if (!result_) return false;
    std::vector<const Workload*> ptrs;
    for (const Workload& w : layers_) ptrs.push_back(&w);
    try {
        writeFileAtomically(path.toStdString(), thistle::codesignCsv(ptrs, *result_));
    } catch (const std::exception& e) {
        status_->setText(tr("Cannot write %1: %2").arg(path, QString::fromUtf8(e.what())));
        return false;
    }
    emit message(tr("Solver results written to %1").arg(path));
    return true;
}

} // namespace nestor::app
