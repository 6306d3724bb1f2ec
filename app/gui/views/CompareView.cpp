#include "CompareView.h"

#include "ComparisonChart.h"
#include "NumberFormat.h"
#include "ProjectDocument.h"
#include "io/ProjectYaml.h"
#include "jobs/BackgroundJob.h"
#include "model/Model.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <exception>

namespace nestor::app {

namespace {

QString loopsText(const Workload& w, const LevelMapping& lm)
{
    QStringList lines;
    auto add = [&](const std::vector<Loop>& loops, const QString& prefix) {
        for (const Loop& l : loops) {
            const QString dim = l.dim >= 0 && l.dim < w.numDims() ? QString::fromStdString(w.dimNames[std::size_t(l.dim)]) : QStringLiteral("?");
            QString s = QStringLiteral("%1 %2 [0:%3)").arg(prefix, dim).arg(l.bound);
            if (l.isImperfect()) s += QStringLiteral(" r%1").arg(l.residual);
            lines << s;
        }
    };
    add(lm.temporal, QStringLiteral("for"));
    add(lm.spatialX, QStringLiteral("par-x"));
    add(lm.spatialY, QStringLiteral("par-y"));
    return lines.join(QLatin1Char('\n'));
}

// Long mapping names do not fit a column: the header elides the middle (both the name's start and
// its distinguishing suffix stay visible) and the tooltip has the whole name.
void showFullNamesOnHover(QTableWidget* table)
{
    table->horizontalHeader()->setTextElideMode(Qt::ElideMiddle);
    for (int c = 0; c < table->columnCount(); ++c)
        if (QTableWidgetItem* item = table->horizontalHeaderItem(c)) item->setToolTip(item->text());
}

struct MetricRow {
    const char* name;
    double (*value)(const Evaluation&);
    QString (*format)(double);
};

const MetricRow kRows[] = {
    {"Cycles", [](const Evaluation& e) { return double(e.cycles); }, [](double v) { return widgets::NumberFormat::count(std::int64_t(v)); }},
    {"Utilization", [](const Evaluation& e) { return e.utilization; }, [](double v) { return widgets::NumberFormat::percent(v); }},
    {"Energy", [](const Evaluation& e) { return e.energy_pJ; }, [](double v) { return widgets::NumberFormat::energy(v); }},
    {"pJ/MAC", [](const Evaluation& e) { return e.pJ_per_mac; }, [](double v) { return widgets::NumberFormat::decimal(v); }},
    {"EDP (J·s)", [](const Evaluation& e) { return e.edp_J_s; }, [](double v) { return widgets::NumberFormat::scientific(v, {}); }},
    {"Area", [](const Evaluation& e) { return e.area_um2; }, [](double v) { return widgets::NumberFormat::area(v); }},
};

} // namespace

CompareView::CompareView(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), job_(new BackgroundJob(this)), mappings_(new QComboBox), metrics_(new QTableWidget), nests_(new QTableWidget),
      chart_(new widgets::ComparisonChart)
{
    auto* pinButton = new QPushButton(tr("Pin"));
    auto* pinArch = new QPushButton(tr("Pin on another architecture…"));
    auto* pinAll = new QPushButton(tr("Compare all"));
    pinAll->setToolTip(tr("Pin every mapping of the chosen mapping's layer (e.g. the dataflows of the teaching gallery)"));
    auto* clear = new QPushButton(tr("Clear pins"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Mapping:")));
    bar->addWidget(mappings_, 1);
    bar->addWidget(pinButton);
    bar->addWidget(pinAll);
    bar->addWidget(pinArch);
    bar->addWidget(clear);
    connect(pinButton, &QPushButton::clicked, this, [this] { pin(mappings_->currentText()); });
    connect(pinArch, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Project with the other architecture"), QString(),
                                                          tr("Nestor projects (*.yaml *.yml)"));
        if (!path.isEmpty()) pinWithArchitecture(mappings_->currentText(), path);
    });
    connect(pinAll, &QPushButton::clicked, this, [this] { pinAllOfLayer(mappings_->currentText()); });
    connect(clear, &QPushButton::clicked, this, &CompareView::clearPins);

    for (QTableWidget* t : {metrics_, nests_}) {
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
        t->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    }
    nests_->setWordWrap(true);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    nests_->setFont(mono);

    auto* tables = new QSplitter(Qt::Horizontal);
    tables->addWidget(nests_);
    tables->addWidget(metrics_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(tables);
    split->addWidget(chart_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    hint_ = new QLabel(tr("Nothing pinned yet. Choose a mapping above and press Pin; pin two or more to see "
                          "their loop nests side by side, the difference of the last against the first, and "
                          "energy per level. Search results and sweep points can be pinned from the Search tab."));
    hint_->setWordWrap(true);
    hint_->setObjectName(QStringLiteral("compareHint"));
    hint_->setStyleSheet(QStringLiteral("QLabel { color: palette(mid); padding: 8px; }"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(hint_);
    layout->addWidget(split, 1);

    connect(document_, &ProjectDocument::contentReset, this, [this] {
        clearPins();
        refreshMappings();
    });
    connect(document_, &ProjectDocument::changed, this, [this](const ProjectChange& change) {
        // The list names the mappings; pins are snapshots that keep the mapping as it was when pinned.
        if (change.subject == ProjectChange::Subject::Project ||
            (change.subject == ProjectChange::Subject::Mapping && change.changesStructure()))
            refreshMappings();
    });
    refreshMappings();
    showResults();
}

void CompareView::refreshMappings()
{
    const QString current = mappings_->currentText();
    mappings_->clear();
    for (const ProjectMapping& m : document_->project().mappings) mappings_->addItem(QString::fromStdString(m.mapping.name));
    if (!current.isEmpty()) mappings_->setCurrentText(current);
}

void CompareView::setCurrentMapping(const QString& name)
{
    mappings_->setCurrentText(name);
}

int CompareView::pinAllOfLayer(const QString& mapping)
{
    const Project& p = document_->project();
    const ProjectMapping* chosen = p.findMapping(mapping.toStdString());
    const ProjectWorkload* pw = chosen ? p.findWorkload(chosen->workload) : nullptr;
    if (!pw) return 0;
    pins_.clear();
    for (const ProjectMapping& pm : p.mappings)
        if (pm.workload == chosen->workload)
            pins_.push_back({QString::fromStdString(pm.mapping.name), pw->workload, p.architecture, pm.mapping});
    emit message(tr("Comparing the %1 mappings of %2").arg(pins_.size()).arg(QString::fromStdString(chosen->workload)));
    evaluatePins();
    return int(pins_.size());
}

bool CompareView::pin(const QString& mapping)
{
    const Project& p = document_->project();
    const ProjectMapping* pm = p.findMapping(mapping.toStdString());
    const ProjectWorkload* pw = pm ? p.findWorkload(pm->workload) : nullptr;
    if (!pw) return false;
    pins_.push_back({mapping, pw->workload, p.architecture, pm->mapping});
    emit message(tr("Pinned %1 for comparison").arg(mapping));
    evaluatePins();
    return true;
}

void CompareView::pinValue(Pin pin)
{
    emit message(tr("Pinned %1 for comparison").arg(pin.label));
    pins_.push_back(std::move(pin));
    evaluatePins();
}

bool CompareView::pinWithArchitecture(const QString& mapping, const QString& projectPath)
{
    const Project& p = document_->project();
    const ProjectMapping* pm = p.findMapping(mapping.toStdString());
    const ProjectWorkload* pw = pm ? p.findWorkload(pm->workload) : nullptr;
    if (!pw) return false;
    Project other;
    try {
        other = readProject(projectPath.toStdString());
    } catch (const std::exception& e) {
        emit message(tr("Cannot read %1: %2").arg(projectPath, QString::fromStdString(e.what())));
        return false;
    }
    if (other.architecture.numLevels() != p.architecture.numLevels()) {
        emit message(tr("%1 has %2 levels; the mapping needs %3.").arg(projectPath).arg(other.architecture.numLevels()).arg(p.architecture.numLevels()));
        return false;
    }
    pins_.push_back({tr("%1 on %2").arg(mapping, QString::fromStdString(other.architecture.name)), pw->workload,
                     other.architecture, pm->mapping});
    evaluatePins();
    return true;
}

void CompareView::clearPins()
{
    job_->discard();   // its evaluations are of the pins just removed
    pins_.clear();
    evaluations_.clear();
    showResults();
}

void CompareView::evaluatePins()
{
    // A new request supersedes the running one (its evaluations are of pins that changed).
    job_->start<std::vector<Evaluation>>(
        [pins = pins_](RunningJob&) {
            std::vector<Evaluation> out;
            for (const Pin& p : pins) {
                try {
                    out.push_back(evaluate(p.workload, p.architecture, p.mapping));
                } catch (const std::exception& e) {
                    Evaluation bad;
                    bad.errors.push_back({"evaluate", e.what(), {}});
                    out.push_back(bad);
                }
            }
            return out;
        },
        [this](std::vector<Evaluation> evaluations) {
            evaluations_ = std::move(evaluations);
            showResults();
        });
}

bool CompareView::isEvaluating() const
{
    return job_->isRunning();
}

void CompareView::showResults()
{
    hint_->setVisible(pins_.empty());
    QStringList labels;
    for (const Pin& p : pins_) labels << p.label;
    const bool results = evaluations_.size() == pins_.size();

    const int n = int(pins_.size());
    metrics_->clear();
    metrics_->setRowCount(int(std::size(kRows)));
    metrics_->setColumnCount(n + (n >= 2 ? 1 : 0));
    QStringList headers = labels;
    if (n >= 2) headers << tr("%1 vs %2").arg(labels.last(), labels.first());
    metrics_->setHorizontalHeaderLabels(headers);
    showFullNamesOnHover(metrics_);
    QStringList rowNames;
    for (const MetricRow& r : kRows) rowNames << tr(r.name);
    metrics_->setVerticalHeaderLabels(rowNames);
    if (results) {
        for (int r = 0; r < int(std::size(kRows)); ++r) {
            for (int c = 0; c < n; ++c) {
                const Evaluation& e = evaluations_[std::size_t(c)];
                metrics_->setItem(r, c, new QTableWidgetItem(e.valid ? kRows[r].format(kRows[r].value(e)) : tr("invalid")));
            }
            if (n >= 2 && evaluations_.front().valid && evaluations_.back().valid) {
                const double a = kRows[r].value(evaluations_.front());
                const double b = kRows[r].value(evaluations_.back());
                const QString diff = a != 0 ? QStringLiteral("%1%2 %").arg(b >= a ? "+" : "").arg(100.0 * (b - a) / a, 0, 'f', 1) : QStringLiteral("—");
                auto* item = new QTableWidgetItem(diff);
                if (b != a) item->setForeground(b < a ? QColor(0x1B, 0x7F, 0x3B) : QColor(0xB0, 0x00, 0x20));
                metrics_->setItem(r, n, item);
            }
        }
    }
    fillNests();
    if (results) chart_->setEvaluations(labels, evaluations_);
    else chart_->clear();
    emit comparisonUpdated();
}

void CompareView::fillNests()
{
    nests_->clear();
    const int n = int(pins_.size());
    // Levels aligned by name, in the order of the first architecture that has them.
    QStringList levels;
    for (const Pin& p : pins_)
        for (const StorageLevel& l : p.architecture.levels)
            if (!levels.contains(QString::fromStdString(l.name))) levels << QString::fromStdString(l.name);
    nests_->setRowCount(int(levels.size()));
    nests_->setColumnCount(n);
    QStringList headers;
    for (const Pin& p : pins_) headers << p.label;
    nests_->setHorizontalHeaderLabels(headers);
    showFullNamesOnHover(nests_);
    nests_->setVerticalHeaderLabels(levels);
    for (int c = 0; c < n; ++c) {
        const Pin& p = pins_[std::size_t(c)];
        for (int l = 0; l < p.architecture.numLevels() && std::size_t(l) < p.mapping.levels.size(); ++l) {
            const int row = int(levels.indexOf(QString::fromStdString(p.architecture.levels[std::size_t(l)].name)));
            nests_->setItem(row, c, new QTableWidgetItem(loopsText(p.workload, p.mapping.levels[std::size_t(l)])));
        }
    }
}

} // namespace nestor::app
