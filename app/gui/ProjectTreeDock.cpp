#include "ProjectTreeDock.h"

#include <QSignalBlocker>
#include <QStringList>
#include <QTreeWidget>

namespace nestor::app {

namespace {

enum ItemRole { KindRole = Qt::UserRole + 1, NameRole };
enum class ItemKind { Group, Workload, Mapping, Level };

QTreeWidgetItem* addItem(QTreeWidgetItem* parent, ItemKind kind, const QString& name, const QString& details)
{
    auto* item = new QTreeWidgetItem(parent, QStringList{name});
    item->setData(0, KindRole, int(kind));
    item->setData(0, NameRole, name);
    item->setToolTip(0, QStringLiteral("%1: %2").arg(name, details));
    return item;
}

QTreeWidgetItem* addGroup(QTreeWidget* tree, const QString& title)
{
    auto* item = new QTreeWidgetItem(tree, QStringList{title});
    item->setData(0, KindRole, int(ItemKind::Group));
    item->setFlags(Qt::ItemIsEnabled);
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    return item;
}

QString shapeText(const Workload& w)
{
    QStringList dims;
    for (int d = 0; d < w.numDims(); ++d)
        dims << QStringLiteral("%1=%2").arg(QString::fromStdString(w.dimNames[std::size_t(d)])).arg(w.bounds[std::size_t(d)]);
    return dims.join(QLatin1Char(' '));
}

QString levelText(const StorageLevel& l)
{
    const QString size = l.size_words ? QObject::tr("%1 words").arg(*l.size_words) : QObject::tr("unbounded");
    QString s = QStringLiteral("%1, %2").arg(QString::fromStdString(l.technology), size);
    if (l.instances > 1) s += QStringLiteral(", ×%1").arg(l.instances);
    return s;
}

} // namespace

ProjectTreeDock::ProjectTreeDock(QWidget* parent) : QDockWidget(tr("Project"), parent), tree_(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("projectDock"));
    tree_->setColumnCount(1);
    tree_->setHeaderHidden(true);  // one column; details are in the tooltips
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    setWidget(tree_);
    connect(tree_, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem* current) { onCurrentItemChanged(current); });
}

void ProjectTreeDock::clear()
{
    const QSignalBlocker block(tree_);
    tree_->clear();
    mappingsGroup_ = nullptr;
}

void ProjectTreeDock::setProject(const Project& project)
{
    clear();
    const QSignalBlocker block(tree_);

    QTreeWidgetItem* workloads = addGroup(tree_, tr("Workloads"));
    for (const ProjectWorkload& pw : project.workloads) {
        const QString details = QStringLiteral("%1: %2").arg(QString::fromStdString(pw.spec.type), shapeText(pw.workload));
        addItem(workloads, ItemKind::Workload, QString::fromStdString(pw.workload.name), details);
    }

    mappingsGroup_ = addGroup(tree_, tr("Mappings"));
    for (const ProjectMapping& pm : project.mappings) {
        QString details = tr("maps %1").arg(QString::fromStdString(pm.workload));
        if (pm.mapping.hasImperfectFactors()) details += tr(", imperfect factors");
        addItem(mappingsGroup_, ItemKind::Mapping, QString::fromStdString(pm.mapping.name), details);
    }

    const Architecture& a = project.architecture;
    QTreeWidgetItem* arch = addGroup(tree_, tr("Architecture"));
    if (!a.name.empty()) arch->setText(0, tr("Architecture: %1").arg(QString::fromStdString(a.name)));
    for (const StorageLevel& l : a.levels) addItem(arch, ItemKind::Level, QString::fromStdString(l.name), levelText(l));
    addItem(arch, ItemKind::Level, QString::fromStdString(a.compute.name), tr("compute, ×%1").arg(a.compute.instances));

    tree_->expandAll();
}

QTreeWidgetItem* ProjectTreeDock::findMappingItem(const QString& name) const
{
    if (!mappingsGroup_) return nullptr;
    for (int i = 0; i < mappingsGroup_->childCount(); ++i) {
        QTreeWidgetItem* item = mappingsGroup_->child(i);
        if (item->data(0, NameRole).toString() == name) return item;
    }
    return nullptr;
}

bool ProjectTreeDock::setCurrentMapping(const QString& name)
{
    QTreeWidgetItem* item = findMappingItem(name);
    if (!item) return false;
    const QSignalBlocker block(tree_);
    tree_->setCurrentItem(item);
    return true;
}

QString ProjectTreeDock::currentMapping() const
{
    const QTreeWidgetItem* item = tree_->currentItem();
    if (!item || item->data(0, KindRole).toInt() != int(ItemKind::Mapping)) return {};
    return item->data(0, NameRole).toString();
}

void ProjectTreeDock::onCurrentItemChanged(QTreeWidgetItem* item)
{
    if (item) {
        const int kind = item->data(0, KindRole).toInt();
        const QString name = item->data(0, NameRole).toString();
        if (kind == int(ItemKind::Workload)) emit objectSelected(QStringLiteral("workload"), name);
        if (kind == int(ItemKind::Mapping)) emit objectSelected(QStringLiteral("mapping"), name);
        if (kind == int(ItemKind::Level)) emit objectSelected(QStringLiteral("level"), name);
    }
    if (item && item->data(0, KindRole).toInt() == int(ItemKind::Mapping))
        emit mappingActivated(item->data(0, NameRole).toString());
}

} // namespace nestor::app
