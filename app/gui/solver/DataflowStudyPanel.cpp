#include "DataflowStudyPanel.h"

#include "NumberFormat.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"
#include "arch/EnergyModels.h"
#include "jobs/BackgroundJob.h"
#include "solvers/interstellar/DataflowConstraints.h"
#include "views/CompareView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <exception>

namespace nestor::app {

namespace {
QTableWidgetItem* cell(const QString& text, bool number = true)
{
    auto* item = new QTableWidgetItem(text);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}
} // namespace

DataflowStudyPanel::DataflowStudyPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), job_(new BackgroundJob(this)), layer_(new QComboBox), budget_(new QSpinBox),
      run_(new QPushButton(tr("Study dataflows"))), cancel_(new QPushButton(tr("Cancel"))),
      add_(new QPushButton(tr("Add mapping to project"))), pin_(new QPushButton(tr("Pin in Compare"))), status_(new QLabel),
      table_(new QTableWidget)
{
    budget_->setRange(10, 1000000);
    budget_->setValue(2000);
    budget_->setSingleStep(500);
    budget_->setToolTip(tr("Mappings evaluated per dataflow by the loop-blocking search (annealing, perfect factors, seed 1)"));
    cancel_->setEnabled(false);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Layer:")));
    bar->addWidget(layer_);
    bar->addWidget(new QLabel(tr("Evaluations per dataflow:")));
    bar->addWidget(budget_);
    bar->addStretch(1);
    bar->addWidget(run_);
    bar->addWidget(cancel_);
    status_->setWordWrap(true);
    status_->setText(tr("Interstellar (ASPLOS'20): every U|V dataflow of the layer on this architecture, loop blocking "
                        "searched for each, ranked by energy."));
    table_->setColumnCount(9);
    table_->setHorizontalHeaderLabels({tr("Dataflow"), tr("Found as"), tr("Name"), tr("pJ/MAC"), tr("vs best"), tr("Cycles"),
                                       tr("Utilization"), tr("Energy"), tr("Valid / evaluated")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add_);
    buttons->addWidget(pin_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(status_);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);

    connect(run_, &QPushButton::clicked, this, &DataflowStudyPanel::run);
    connect(cancel_, &QPushButton::clicked, this, &DataflowStudyPanel::cancel);
    connect(table_, &QTableWidget::currentCellChanged, this, &DataflowStudyPanel::updateButtons);
    connect(add_, &QPushButton::clicked, this, [this] {
        const QString error = addToProject(table_->currentRow());
        status_->setText(error.isEmpty() ? tr("Added to the project.") : error);
    });
    connect(pin_, &QPushButton::clicked, this, [this] { pinInCompare(table_->currentRow()); });
    connect(job_, &BackgroundJob::progressed, this, [this](const JobProgress& p) {
        if (!p.message.empty()) status_->setText(tr("Searching %1").arg(QString::fromStdString(p.message)));
    });
    connect(job_, &BackgroundJob::failed, this, [this](const QString& m) { status_->setText(tr("The study failed: %1").arg(m)); });
    connect(job_, &BackgroundJob::finished, this, [this] {
        run_->setEnabled(true);
        cancel_->setEnabled(false);
        emit finished();
    });
    connect(document_, &ProjectDocument::contentReset, this, [this] {
        job_->discard();
        study_.reset();
        table_->setRowCount(0);
        refreshLayers();
        updateButtons();
    });
    connect(document_, &ProjectDocument::changed, this, [this](const ProjectChange& c) {
        if (c.subject == ProjectChange::Subject::Workload && c.changesStructure()) refreshLayers();
    });
    refreshLayers();
    updateButtons();
}

DataflowStudyPanel::~DataflowStudyPanel() = default;

void DataflowStudyPanel::setJobsDock(JobsDock* dock)
{
    job_->showIn(dock, tr("Dataflow study"));
}

void DataflowStudyPanel::refreshLayers()
{
    const QString current = layer_->currentText();
    layer_->clear();
    const Project& p = document_->project();
    for (const ProjectWorkload& w : p.workloads) layer_->addItem(QString::fromStdString(w.workload.name));
    int at = layer_->findText(current);
    if (at < 0) at = layer_->findText(QString::fromStdString(p.jobWorkload));
    layer_->setCurrentIndex(std::max(0, at));
}

void DataflowStudyPanel::setLayer(const QString& layer)
{
    const int at = layer_->findText(layer);
    if (at >= 0) layer_->setCurrentIndex(at);
}

void DataflowStudyPanel::setBudget(int evaluationsPerDataflow)
{
    budget_->setValue(evaluationsPerDataflow);
}

bool DataflowStudyPanel::isRunning() const
{
    return job_->isRunning();
}

QString DataflowStudyPanel::statusText() const
{
    return status_->text();
}

void DataflowStudyPanel::cancel()
{
    job_->cancel();
}

bool DataflowStudyPanel::run()
{
    if (job_->isRunning()) return false;
    const Project& p = document_->project();
    const ProjectWorkload* pw = p.findWorkload(layer_->currentText().toStdString());
    if (!pw) {
        status_->setText(tr("Choose a layer."));
        return false;
    }
    Architecture arch = p.architecture;
    try {
        applyEnergyModel(arch, p.energyModel);
    } catch (const std::exception& e) {
        status_->setText(tr("The architecture's energy model cannot be applied: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    interstellar::StudyOptions o;
    o.budget = budget_->value();
    o.base = interstellar::studyBaseConstraints(p.constraintsFor(pw->workload));
    const Workload w = pw->workload;
    const std::vector<Dataflow> dataflows = interstellar::enumerateDataflows(w);
    if (dataflows.empty()) {
        status_->setText(tr("Layer %1 has fewer than two loops above 1: no 2-D dataflow.").arg(layer_->currentText()));
        return false;
    }
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    status_->setText(tr("Studying %n dataflow(s)…", nullptr, int(dataflows.size())));
    job_->setTitle(tr("Dataflow study (%1)").arg(layer_->currentText()));
    job_->start<interstellar::DataflowStudy>(
        [w, arch, o, dataflows](RunningJob& job) mutable {
            o.cancel = job.cancelFlag();
            o.progress = [&job](int index, int count, const std::string& text) {
                job.reportProgress({double(index) / std::max(1, count), text + " (" + std::to_string(index + 1) + " of " + std::to_string(count) + ")"});
            };
            return interstellar::studyDataflows(w, arch, dataflows, o);
        },
        [this, w, arch](interstellar::DataflowStudy s) {
            workload_ = w;
            architecture_ = arch;
            show(std::move(s));
        });
    return true;
}

void DataflowStudyPanel::show(interstellar::DataflowStudy study)
{
    using namespace widgets::NumberFormat;
    study_ = std::move(study);
    const auto& rows = study_->rows;
    table_->setRowCount(int(rows.size()));
    const double best = study_->summary.bestEnergy_pJ;
    for (int i = 0; i < int(rows.size()); ++i) {
        const interstellar::DataflowResult& r = rows[std::size_t(i)];
        table_->setItem(i, 0, cell(QString::fromStdString(r.text), false));
        for (int c = 1; c < table_->columnCount(); ++c) table_->setItem(i, c, cell(QString()));
        table_->item(i, 8)->setText(tr("%1 / %2").arg(count(r.valid), count(r.evaluated)));
        if (!r.found) {
            table_->item(i, 1)->setText(tr("none: %1").arg(QString::fromStdString(r.error)));
            table_->item(i, 1)->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            table_->item(i, 1)->setToolTip(QString::fromStdString(r.error));
            continue;
        }
        table_->item(i, 1)->setText(QString::fromStdString(r.realized.text()));
        table_->item(i, 1)->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        table_->item(i, 2)->setText(QString::fromStdString(r.realized.name));
        table_->item(i, 2)->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        table_->item(i, 2)->setToolTip(QString::fromStdString(r.realized.reason));
        table_->item(i, 3)->setText(decimal(r.eval.pJ_per_mac));
        table_->item(i, 4)->setText(best > 0 ? QStringLiteral("+%1").arg(percent(r.eval.energy_pJ / best - 1.0)) : QString());
        table_->item(i, 5)->setText(count(r.eval.cycles));
        table_->item(i, 6)->setText(percent(r.eval.utilization));
        table_->item(i, 7)->setText(energy(r.eval.energy_pJ));
    }
    status_->setText((study_->cancelled ? tr("Cancelled; the dataflows searched so far: ") : QString()) +
                     QString::fromStdString(study_->summary.text()));
    emit message(tr("Dataflow study of %1: %2").arg(QString::fromStdString(workload_.name), QString::fromStdString(study_->summary.text())));
    if (!rows.empty()) table_->setCurrentCell(0, 0);
    updateButtons();
}

void DataflowStudyPanel::updateButtons()
{
    const int row = table_->currentRow();
    const bool ok = study_ && row >= 0 && row < int(study_->rows.size()) && study_->rows[std::size_t(row)].found;
    add_->setEnabled(ok);
    pin_->setEnabled(ok && compare_);
}

QString DataflowStudyPanel::addToProject(int row)
{
    if (!study_ || row < 0 || row >= int(study_->rows.size()) || !study_->rows[std::size_t(row)].found)
        return tr("Select a dataflow with a mapping.");
    const interstellar::DataflowResult& r = study_->rows[std::size_t(row)];
    if (!document_->project().findWorkload(workload_.name))
        return tr("The project has no layer %1 any more.").arg(QString::fromStdString(workload_.name));
    QString base = QString::fromStdString(workload_.name + "-" + r.text);
    base.replace(QLatin1Char('|'), QLatin1Char('-'));
    return commands::addMapping(*document_, QString::fromStdString(workload_.name), r.best,
                                commands::uniqueMappingName(document_->project(), base));
}

bool DataflowStudyPanel::pinInCompare(int row)
{
    if (!compare_ || !study_ || row < 0 || row >= int(study_->rows.size()) || !study_->rows[std::size_t(row)].found) return false;
    const interstellar::DataflowResult& r = study_->rows[std::size_t(row)];
    compare_->pinValue({QString::fromStdString(workload_.name + " " + r.text), workload_, architecture_, r.best});
    return true;
}

} // namespace nestor::app
