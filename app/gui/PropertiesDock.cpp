#include "PropertiesDock.h"

#include "NumberFormat.h"
#include "analysis/DataflowNotation.h"

#include <algorithm>
#include <exception>


#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace nestor::app {

namespace {

QString loops(const Workload& w, const std::vector<Loop>& list)
{
    QStringList parts;
    for (const Loop& l : list) {
        const QString dim = l.dim >= 0 && l.dim < w.numDims() ? QString::fromStdString(w.dimNames[std::size_t(l.dim)]) : QStringLiteral("?");
        parts << (l.isImperfect() ? QStringLiteral("%1 %2/%3").arg(dim).arg(l.bound).arg(l.residual)
                                  : QStringLiteral("%1 %2").arg(dim).arg(l.bound));
    }
    return parts.join(QStringLiteral(", "));
}

QString bandwidth(const std::optional<double>& bw)
{
    return bw ? QObject::tr("%1 words/cycle").arg(widgets::NumberFormat::decimal(*bw)) : QObject::tr("unlimited");
}

} // namespace

PropertiesDock::PropertiesDock(QWidget* parent) : QDockWidget(tr("Properties"), parent), title_(new QLabel), table_(new QTableWidget)
{
    setObjectName(QStringLiteral("propertiesDock"));
    table_->setColumnCount(2);
    table_->setHorizontalHeaderLabels({tr("Property"), tr("Value")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    table_->viewport()->installEventFilter(this);  // refit the columns when the dock is resized
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(true);
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    title_->setWordWrap(true);  // its hint must not hold the dock wide on a small screen
    layout->addWidget(title_);
    layout->addWidget(table_, 1);
    setWidget(content);
    clear();
}

void PropertiesDock::clear()
{
    kind_.clear();
    name_.clear();
    table_->setRowCount(0);
    title_->setText(tr("Choose a layer, mapping or level in the project tree."));
}

void PropertiesDock::add(const QString& property, const QString& value)
{
    const int row = table_->rowCount();
    table_->insertRow(row);
    auto* name = new QTableWidgetItem(property);
    name->setToolTip(property);
    table_->setItem(row, 0, name);
    auto* item = new QTableWidgetItem(value);
    item->setToolTip(value);
    table_->setItem(row, 1, item);
}

void PropertiesDock::addDataflow(const Workload& w, const Architecture& a, const Mapping& m)
{
    // Interstellar's U|V of the PE array and the usual name, with the rule that gave it.
    try {
        const DataflowClass c = classifyDataflow(w, a, m);
        const QString uv = c.spatial.x.empty() && c.spatial.y.empty() ? tr("no spatial loops") : QString::fromStdString(c.text());
        add(tr("Dataflow"), c.name.empty() ? uv : tr("%1 (%2)").arg(uv, QString::fromStdString(c.name)));
        table_->item(table_->rowCount() - 1, 1)->setToolTip(QString::fromStdString(c.reason));
    } catch (const std::exception& e) {
        add(tr("Dataflow"), tr("unknown: %1").arg(QString::fromUtf8(e.what())));
    }
}

QString PropertiesDock::value(const QString& property) const
{
    for (int r = 0; r < table_->rowCount(); ++r)
        if (table_->item(r, 0)->text() == property) return table_->item(r, 1)->text();
    return {};
}

bool PropertiesDock::showObject(const Project& project, const QString& kind, const QString& name, const Evaluation* evaluation)
{
    using namespace widgets::NumberFormat;
    clear();
    const std::string key = name.toStdString();
    if (kind == QLatin1String("workload")) {
        const ProjectWorkload* pw = project.findWorkload(key);
        if (!pw) return false;
        const Workload& w = pw->workload;
        title_->setText(tr("Layer %1").arg(name));
        add(tr("Name"), name);
        add(tr("Type"), QString::fromStdString(pw->spec.type));
        for (int d = 0; d < w.numDims(); ++d)
            add(QString::fromStdString(w.dimNames[std::size_t(d)]), QString::number(w.bounds[std::size_t(d)]));
        QStringList tensors;
        for (const Tensor& t : w.tensors) tensors << QString::fromStdString(t.name);
        add(tr("Tensors"), tensors.join(QStringLiteral(", ")));
        add(tr("MACs"), count(w.macs()));
    } else if (kind == QLatin1String("mapping")) {
        const ProjectMapping* pm = project.findMapping(key);
        const ProjectWorkload* pw = pm ? project.findWorkload(pm->workload) : nullptr;
        if (!pm) return false;
        title_->setText(tr("Mapping %1").arg(name));
        add(tr("Name"), name);
        add(tr("Layer"), QString::fromStdString(pm->workload));
        add(tr("Imperfect factors"), pm->mapping.hasImperfectFactors() ? tr("yes") : tr("no"));
        const Architecture& a = project.architecture;
        if (pw) addDataflow(pw->workload, a, pm->mapping);
        if (!pm->description.empty()) add(tr("Description"), QString::fromStdString(pm->description));
        for (std::size_t i = 0; pw && i < pm->mapping.levels.size(); ++i) {
            const LevelMapping& lm = pm->mapping.levels[i];
            QStringList parts;
            if (!lm.temporal.empty()) parts << tr("for %1").arg(loops(pw->workload, lm.temporal));
            if (!lm.spatialY.empty()) parts << tr("parallel Y %1").arg(loops(pw->workload, lm.spatialY));
            if (!lm.spatialX.empty()) parts << tr("parallel X %1").arg(loops(pw->workload, lm.spatialX));
            const QString level = i < a.levels.size() ? QString::fromStdString(a.levels[i].name) : tr("level %1").arg(i);
            add(level, parts.isEmpty() ? tr("(no loops)") : parts.join(QStringLiteral("; ")));
        }
        if (evaluation && evaluation->valid) {
            add(tr("Cycles"), count(evaluation->cycles));
            add(tr("Energy"), energy(evaluation->energy_pJ));
            add(tr("Utilization"), percent(evaluation->utilization));
            add(tr("EDP"), scientific(evaluation->edp_J_s, QStringLiteral("J·s")));
            add(tr("Area"), area(evaluation->area_um2));
        }
    } else if (kind == QLatin1String("level")) {
        const Architecture& a = project.architecture;
        const StorageLevel* level = nullptr;
        for (const StorageLevel& l : a.levels)
            if (l.name == key) level = &l;
        if (level) {
            title_->setText(tr("Level %1").arg(name));
            add(tr("Name"), name);
            add(tr("Technology"), QString::fromStdString(level->technology));
            add(tr("Size"), level->size_words ? tr("%1 words").arg(count(*level->size_words)) : tr("unbounded"));
            add(tr("Word bits"), QString::number(level->word_bits));
            add(tr("Block size"), tr("%1 words").arg(level->block_size));
            add(tr("Instances"), QStringLiteral("%1 (%2 × %3)").arg(level->instances).arg(level->meshX).arg(level->meshY()));
            add(tr("Read bandwidth"), bandwidth(level->read_bw_words_per_cycle));
            add(tr("Write bandwidth"), bandwidth(level->write_bw_words_per_cycle));
            add(tr("Multiple buffering"), decimal(level->multiple_buffering));
            add(tr("Area per instance"), area(level->area_um2));
        } else if (a.compute.name == key) {
            title_->setText(tr("Compute %1").arg(name));
            add(tr("Name"), name);
            add(tr("Instances"), QStringLiteral("%1 (%2 × %3)").arg(a.compute.instances).arg(a.compute.meshX).arg(a.compute.meshY()));
            add(tr("Energy per MAC"), energy(a.compute.mac_energy_pJ));
            add(tr("Area per instance"), area(a.compute.area_um2));
        } else {
            return false;
        }
    } else {
        return false;
    }
    kind_ = kind;
    name_ = name;
    fitPropertyColumn();
    return true;
}

void PropertiesDock::fitPropertyColumn()
{
    table_->resizeColumnToContents(0);
    const int cap = std::max(60, table_->viewport()->width() * 45 / 100);
    if (table_->columnWidth(0) > cap) table_->setColumnWidth(0, cap);
    table_->resizeRowsToContents();
}

bool PropertiesDock::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == table_->viewport() && event->type() == QEvent::Resize && table_->rowCount() > 0) fitPropertyColumn();
    return QDockWidget::eventFilter(watched, event);
}

} // namespace nestor::app
