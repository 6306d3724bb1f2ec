#pragma once
// The project's contents as a tree: workloads, mappings and the architecture's levels,
// with details (shapes, mapped workload, sizes) in the tooltips. Choosing a mapping emits
// mappingActivated.
#include "core/Project.h"

#include <QDockWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace nestor::app {

class ProjectTreeDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ProjectTreeDock(QWidget* parent = nullptr);

    void setProject(const Project& project);
    void clear();
    // Makes the mapping's item current without emitting mappingActivated.
    bool setCurrentMapping(const QString& name);
    QString currentMapping() const;
    QTreeWidget* tree() const { return tree_; }

signals:
    void mappingActivated(const QString& name);
    // Any item chosen: kind is "workload", "mapping" or "level" (the compute level included).
    void objectSelected(const QString& kind, const QString& name);

private:
    QTreeWidgetItem* findMappingItem(const QString& name) const;
    void onCurrentItemChanged(QTreeWidgetItem* item);

    QTreeWidget* tree_;
    QTreeWidgetItem* mappingsGroup_ = nullptr;
};

} // namespace nestor::app
