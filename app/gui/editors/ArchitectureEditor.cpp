#include "ArchitectureEditor.h"

#include "ArchitectureDiagram.h"
#include "ProjectCommands.h"
#include "ProjectDocument.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

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
            {QStringLiteral("area_um2"), QString::number(l.area_um2)}};
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
    : QWidget(parent), document_(document), tree_(new QTreeWidget), diagram_(new widgets::ArchitectureDiagram),
      message_(new QLabel)
{
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Level / property"), tr("Value")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
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
    layout->addWidget(split);

    connect(tree_, &QTreeWidget::itemChanged, this, &ArchitectureEditor::onItemChanged);
    connect(document_, &ProjectDocument::changed, this, [this](const ProjectChange& change) {
        if (change.touchesArchitecture()) refresh();
    });
    connect(document_, &ProjectDocument::contentReset, this, &ArchitectureEditor::refresh);
    refresh();
}

void ArchitectureEditor::refresh()
{
    refreshing_ = true;
    const Architecture& a = document_->project().architecture;
    QSet<int> collapsed;
    for (int i = 0; i < tree_->topLevelItemCount(); ++i)
        if (!tree_->topLevelItem(i)->isExpanded()) collapsed << i;
    const bool first = tree_->topLevelItemCount() == 0;
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
    for (int i = 0; i < a.numLevels(); ++i) {
        const StorageLevel& l = a.levels[std::size_t(i)];
        addLevel(i, QStringLiteral("%1 (%2)").arg(QString::fromStdString(l.name), QString::fromStdString(l.technology)), properties(l));
    }
    addLevel(-1, tr("%1 (compute)").arg(QString::fromStdString(a.compute.name)), properties(a.compute));
    diagram_->setArchitecture(a);
    refreshing_ = false;
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
        else bad(tr("unknown property"));
        if (error.isEmpty()) error = commands::setStorageLevel(*document_, level, l, key);
    }
    message_->setText(error);
    if (!error.isEmpty()) emit editRejected(error);
    return error;
}

} // namespace nestor::app
