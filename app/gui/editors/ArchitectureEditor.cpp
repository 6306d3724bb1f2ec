#include "ArchitectureEditor.h"

#include "ArchitectureCommands.h"
#include "ArchitectureDiagram.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <optional>

namespace nestor::app {

namespace {

enum Role { LevelRole = Qt::UserRole + 1, KeyRole };

QString optText(const std::optional<double>& v)
{
    return v ? QString::number(*v) : QStringLiteral("unlimited");
}

// (key, value text) of every editable property of a storage level.
QList<QPair<QString, QString>> properties(const StorageLevel& l)
{
    return {{QStringLiteral("name"), QString::fromStdString(l.name)},
            {QStringLiteral("technology"), QString::fromStdString(l.technology)},
            {QStringLiteral("size_words"), l.size_words ? QString::number(*l.size_words) : QStringLiteral("unbounded")},
            {QStringLiteral("word_bits"), QString::number(l.word_bits)},
            {QStringLiteral("block_size"), QString::number(l.block_size)},
            {QStringLiteral("instances"), QString::number(l.instances)},
            {QStringLiteral("mesh_x"), QString::number(l.meshX)},
            {QStringLiteral("read_bw"), optText(l.read_bw_words_per_cycle)},
            {QStringLiteral("write_bw"), optText(l.write_bw_words_per_cycle)},
            {QStringLiteral("shared_bw"), optText(l.shared_bw_words_per_cycle)},
            {QStringLiteral("multiple_buffering"), QString::number(l.multiple_buffering)},
            {QStringLiteral("energy_pJ.read"), QString::number(l.energy.read_pJ)},
            {QStringLiteral("energy_pJ.fill"), QString::number(l.energy.fill_pJ)},
            {QStringLiteral("energy_pJ.update"), QString::number(l.energy.update_pJ)},
            {QStringLiteral("energy_pJ.leak"), QString::number(l.energy.leak_pJ)},
            {QStringLiteral("area_um2"), QString::number(l.area_um2)},
            {QStringLiteral("energy_fixed"), l.energyFixed ? QStringLiteral("true") : QStringLiteral("false")}};
}

QList<QPair<QString, QString>> properties(const ComputeLevel& c)
{
    return {{QStringLiteral("name"), QString::fromStdString(c.name)},
            {QStringLiteral("instances"), QString::number(c.instances)},
            {QStringLiteral("mesh_x"), QString::number(c.meshX)},
            {QStringLiteral("energy_pJ"), QString::number(c.mac_energy_pJ)},
            {QStringLiteral("area_um2"), QString::number(c.area_um2)}};
}

bool parseInt(const QString& t, std::int64_t* out, std::int64_t min)
{
    bool ok = false;
    *out = t.trimmed().toLongLong(&ok);
    return ok && *out >= min;
}

bool parseDouble(const QString& t, double* out)
{
    bool ok = false;
    *out = t.trimmed().toDouble(&ok);
    return ok && *out >= 0;
}

bool isUnlimited(const QString& t)
{
    const QString s = t.trimmed().toLower();
    return s.isEmpty() || s == QLatin1String("unlimited") || s == QLatin1String("unbounded") || s == QLatin1String("null");
}

} // namespace

ArchitectureEditor::ArchitectureEditor(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), columns_(new QSpinBox), rows_(new QSpinBox),
      resize_(new QPushButton(tr("Resize"))), add_(new QPushButton(tr("Add level inside"))),
      duplicate_(new QPushButton(tr("Duplicate"))), remove_(new QPushButton(tr("Remove"))),
      moveOut_(new QPushButton(tr("Move out"))), moveIn_(new QPushButton(tr("Move in"))), tree_(new QTreeWidget),
      diagram_(new widgets::ArchitectureDiagram), message_(new QLabel)
{
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Level / property"), tr("Value")});
    // Names get a fixed share, values the rest: both columns visible at any width.
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    tree_->setColumnWidth(0, tree_->fontMetrics().horizontalAdvance(QStringLiteral("  multiple_buffering  ")) + 24);
    tree_->header()->setStretchLastSection(true);
    tree_->header()->setMinimumSectionSize(90);
    tree_->setMinimumWidth(tree_->columnWidth(0) + 110);
    tree_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #b00020;"));

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(tree_, 1);
    leftLayout->addWidget(message_);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(diagram_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildBar());
    layout->addWidget(split, 1);

    connect(tree_, &QTreeWidget::itemChanged, this, &ArchitectureEditor::onItemChanged);
    connect(tree_, &QTreeWidget::itemSelectionChanged, this, &ArchitectureEditor::updateBar);
    connect(document_, &ProjectDocument::changed, this, [this](const ProjectChange& change) {
        if (change.touchesArchitecture()) refresh();
    });
    connect(document_, &ProjectDocument::contentReset, this, &ArchitectureEditor::refresh);
    refresh();
}

QWidget* ArchitectureEditor::buildBar()
{
    for (QSpinBox* box : {columns_, rows_}) {
        box->setRange(1, 1024);
        box->setKeyboardTracking(false);
    }
    columns_->setObjectName(QStringLiteral("peColumns"));
    rows_->setObjectName(QStringLiteral("peRows"));
    resize_->setObjectName(QStringLiteral("resizePeArray"));
    add_->setObjectName(QStringLiteral("addLevel"));
    duplicate_->setObjectName(QStringLiteral("duplicateLevel"));
    remove_->setObjectName(QStringLiteral("removeLevel"));
    columns_->setToolTip(tr("PE columns (mesh X)"));
    rows_->setToolTip(tr("PE rows (mesh Y)"));
    resize_->setToolTip(tr("Resize the PE array and every level that follows it, in one step"));
    add_->setToolTip(tr("Add a storage level just inside the selected one (one per instance of it)"));
    duplicate_->setToolTip(tr("Add a copy of the selected level just inside it"));
    remove_->setToolTip(tr("Remove the selected level; its loops go to the level outside it"));
    moveOut_->setToolTip(tr("Swap the selected level with the one outside it"));
    moveIn_->setToolTip(tr("Swap the selected level with the one inside it"));
    auto* bar = new QWidget;
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(4, 4, 4, 0);
    row->addWidget(new QLabel(tr("PE array")));
    row->addWidget(columns_);
    row->addWidget(new QLabel(QStringLiteral("×")));
    row->addWidget(rows_);
    row->addWidget(resize_);
    row->addSpacing(16);
    row->addWidget(new QLabel(tr("Level:")));
    for (QPushButton* b : {add_, duplicate_, remove_, moveOut_, moveIn_}) row->addWidget(b);
    row->addStretch(1);
    connect(resize_, &QPushButton::clicked, this, [this] { resizePeArray(columns_->value(), rows_->value()); });
    connect(add_, &QPushButton::clicked, this, [this] { addLevelInside(selectedLevel()); });
    connect(duplicate_, &QPushButton::clicked, this, [this] { duplicateLevel(selectedLevel()); });
    connect(remove_, &QPushButton::clicked, this, [this] { removeLevel(selectedLevel()); });
    connect(moveOut_, &QPushButton::clicked, this, [this] { moveLevel(selectedLevel(), -1); });
    connect(moveIn_, &QPushButton::clicked, this, [this] { moveLevel(selectedLevel(), +1); });
    return bar;
}

void ArchitectureEditor::updateBar()
{
    const Architecture& a = document_->project().architecture;
    const int level = selectedLevel();
    columns_->setValue(int(std::min<std::int64_t>(a.compute.meshX, columns_->maximum())));
    rows_->setValue(int(std::min<std::int64_t>(a.compute.meshY(), rows_->maximum())));
    resize_->setEnabled(a.compute.instances > 1);
    for (QPushButton* b : {add_, duplicate_, remove_}) b->setEnabled(level >= 0);
    remove_->setEnabled(level >= 0 && a.numLevels() > 1);
    moveOut_->setEnabled(level > 0);
    moveIn_->setEnabled(level >= 0 && level + 1 < a.numLevels());
}

int ArchitectureEditor::selectedLevel() const
{
    const QTreeWidgetItem* item = tree_->currentItem();
    if (!item) return -1;
    if (item->parent()) item = item->parent();
    const int index = tree_->indexOfTopLevelItem(const_cast<QTreeWidgetItem*>(item));
    return index < document_->project().architecture.numLevels() ? index : -1;
}

QString ArchitectureEditor::message() const
{
    return message_->text();
}

QString ArchitectureEditor::report(const QString& error)
{
    message_->setText(error);
    if (!error.isEmpty()) emit editRejected(error);
    return error;
}

QString ArchitectureEditor::resizePeArray(int columns, int rows)
{
    return report(commands::resizePeArray(*document_, columns, rows));
}

QString ArchitectureEditor::addLevelInside(int level)
{
    const Architecture& a = document_->project().architecture;
    if (level < 0 || level >= a.numLevels()) return report(tr("Select the level the new one goes inside."));
    return report(commands::insertLevel(*document_, level + 1, commands::newLevelInside(a, level)));
}

QString ArchitectureEditor::duplicateLevel(int level)
{
    return report(commands::duplicateLevel(*document_, level));
}

QString ArchitectureEditor::removeLevel(int level)
{
    return report(commands::removeLevel(*document_, level));
}

QString ArchitectureEditor::moveLevel(int level, int delta)
{
    const QString error = report(commands::moveLevel(*document_, level, delta));
    if (error.isEmpty() && tree_->topLevelItem(level + delta)) tree_->setCurrentItem(tree_->topLevelItem(level + delta));
    return error;
}

namespace {

QString levelTitle(const StorageLevel& l)
{
    return QStringLiteral("%1 (%2)").arg(QString::fromStdString(l.name), QString::fromStdString(l.technology));
}

} // namespace

bool ArchitectureEditor::refreshValuesInPlace()
{
    const Architecture& a = document_->project().architecture;
    if (tree_->topLevelItemCount() != a.numLevels() + 1) return false;
    auto update = [&](int index, const QString& title, const QList<QPair<QString, QString>>& props) {
        QTreeWidgetItem* item = tree_->topLevelItem(index);
        if (item->childCount() != props.size()) return false;
        item->setText(0, title);
        for (int c = 0; c < props.size(); ++c) {
            QTreeWidgetItem* child = item->child(c);
            if (child->data(0, KeyRole).toString() != props[c].first) return false;
            if (child->text(1) != props[c].second) child->setText(1, props[c].second);
        }
        return true;
    };
    for (int i = 0; i < a.numLevels(); ++i)
        if (!update(i, levelTitle(a.levels[std::size_t(i)]), properties(a.levels[std::size_t(i)]))) return false;
    return update(a.numLevels(), tr("%1 (compute)").arg(QString::fromStdString(a.compute.name)), properties(a.compute));
}

void ArchitectureEditor::refresh()
{
    refreshing_ = true;
    const Architecture& a = document_->project().architecture;
    diagram_->setArchitecture(a);
    if (refreshValuesInPlace()) {
        refreshing_ = false;
        updateBar();
        return;
    }
    QSet<int> collapsed;
    for (int i = 0; i < tree_->topLevelItemCount(); ++i)
        if (!tree_->topLevelItem(i)->isExpanded()) collapsed << i;
    const bool first = tree_->topLevelItemCount() == 0;
    const int selected = selectedLevel();
    tree_->clear();
    auto addLevel = [&](int level, const QString& title, const QList<QPair<QString, QString>>& props) {
        auto* item = new QTreeWidgetItem(tree_, {title});
        QFont bold = item->font(0);
        bold.setBold(true);
        item->setFont(0, bold);
        for (const auto& [key, value] : props) {
            auto* child = new QTreeWidgetItem(item, {key, value});
            child->setData(0, LevelRole, level);
            child->setData(0, KeyRole, key);
            child->setFlags(child->flags() | Qt::ItemIsEditable);
        }
        const int index = tree_->topLevelItemCount() - 1;
        item->setExpanded(first ? index < 2 : !collapsed.contains(index));
    };
    for (int i = 0; i < a.numLevels(); ++i) addLevel(i, levelTitle(a.levels[std::size_t(i)]), properties(a.levels[std::size_t(i)]));
    addLevel(-1, tr("%1 (compute)").arg(QString::fromStdString(a.compute.name)), properties(a.compute));
    if (selected >= 0 && tree_->topLevelItem(std::min(selected, a.numLevels() - 1)))
        tree_->setCurrentItem(tree_->topLevelItem(std::min(selected, a.numLevels() - 1)));
    refreshing_ = false;
    updateBar();
}

void ArchitectureEditor::onItemChanged(QTreeWidgetItem* item, int column)
{
    if (refreshing_ || column != 1 || !item->parent()) return;
    const QString error = setProperty(item->data(0, LevelRole).toInt(), item->data(0, KeyRole).toString(), item->text(1));
    if (!error.isEmpty()) QMetaObject::invokeMethod(this, &ArchitectureEditor::refresh, Qt::QueuedConnection);
}

QString ArchitectureEditor::setProperty(int level, const QString& key, const QString& text)
{
    const Architecture& a = document_->project().architecture;
    QString error;
    auto bad = [&](const QString& what) { error = tr("%1: %2").arg(key, what); };
    std::int64_t i = 0;
    double d = 0;
    if (level < 0) {
        ComputeLevel c = a.compute;
        if (key == QLatin1String("name")) c.name = text.trimmed().toStdString();
        else if (key == QLatin1String("instances")) { if (parseInt(text, &i, 1)) c.instances = i; else bad(tr("a positive integer")); }
        else if (key == QLatin1String("mesh_x")) { if (parseInt(text, &i, 1)) c.meshX = i; else bad(tr("a positive integer")); }
        else if (key == QLatin1String("energy_pJ")) { if (parseDouble(text, &d)) c.mac_energy_pJ = d; else bad(tr("a number >= 0")); }
        else if (key == QLatin1String("area_um2")) { if (parseDouble(text, &d)) c.area_um2 = d; else bad(tr("a number >= 0")); }
        if (error.isEmpty()) error = commands::setCompute(*document_, c, key);
    } else {
        if (level >= a.numLevels()) return tr("No such level.");
        StorageLevel l = a.levels[std::size_t(level)];
        auto optional = [&](std::optional<double>& target) {
            if (isUnlimited(text)) target.reset();
            else if (parseDouble(text, &d)) target = d;
            else bad(tr("a number >= 0, or \"unlimited\""));
        };
        if (key == QLatin1String("name")) l.name = text.trimmed().toStdString();
        else if (key == QLatin1String("technology")) l.technology = text.trimmed().toStdString();
        else if (key == QLatin1String("size_words")) {
            if (isUnlimited(text)) l.size_words.reset();
            else if (parseInt(text, &i, 0)) l.size_words = i;
            else bad(tr("a number of words, or \"unbounded\""));
        } else if (key == QLatin1String("word_bits")) { if (parseInt(text, &i, 1)) l.word_bits = int(i); else bad(tr("a positive integer")); }
        else if (key == QLatin1String("block_size")) { if (parseInt(text, &i, 1)) l.block_size = int(i); else bad(tr("a positive integer")); }
        else if (key == QLatin1String("instances")) { if (parseInt(text, &i, 1)) l.instances = i; else bad(tr("a positive integer")); }
        else if (key == QLatin1String("mesh_x")) { if (parseInt(text, &i, 1)) l.meshX = i; else bad(tr("a positive integer")); }
        else if (key == QLatin1String("read_bw")) optional(l.read_bw_words_per_cycle);
        else if (key == QLatin1String("write_bw")) optional(l.write_bw_words_per_cycle);
        else if (key == QLatin1String("shared_bw")) optional(l.shared_bw_words_per_cycle);
        else if (key == QLatin1String("multiple_buffering")) { if (parseDouble(text, &d) && d >= 1) l.multiple_buffering = d; else bad(tr("a number >= 1")); }
        else if (key == QLatin1String("energy_pJ.read")) { if (parseDouble(text, &d)) l.energy.read_pJ = d; else bad(tr("a number >= 0")); }
        else if (key == QLatin1String("energy_pJ.fill")) { if (parseDouble(text, &d)) l.energy.fill_pJ = d; else bad(tr("a number >= 0")); }
        else if (key == QLatin1String("energy_pJ.update")) { if (parseDouble(text, &d)) l.energy.update_pJ = d; else bad(tr("a number >= 0")); }
        else if (key == QLatin1String("energy_pJ.leak")) { if (parseDouble(text, &d)) l.energy.leak_pJ = d; else bad(tr("a number >= 0")); }
        else if (key == QLatin1String("area_um2")) { if (parseDouble(text, &d)) l.area_um2 = d; else bad(tr("a number >= 0")); }
        else if (key == QLatin1String("energy_fixed")) {
            const QString t = text.trimmed().toLower();
            if (t == QLatin1String("true") || t == QLatin1String("yes") || t == QLatin1String("1")) l.energyFixed = true;
            else if (t == QLatin1String("false") || t == QLatin1String("no") || t == QLatin1String("0")) l.energyFixed = false;
            else bad(tr("true or false"));
        }
        else bad(tr("unknown property"));
        if (error.isEmpty()) error = commands::setStorageLevel(*document_, level, l, key);
    }
    return report(error);
}

} // namespace nestor::app
