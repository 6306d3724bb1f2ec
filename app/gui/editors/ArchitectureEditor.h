#pragma once
// The Architecture tab: the levels as a tree (one item per level, its properties as
// children with editable values: size, word bits, block size, instances, mesh X,
// bandwidths, multiple buffering, energies, area; then the compute level) beside the
// ArchitectureDiagram. Each edit is one undoable command; rejected values are reported.
#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace nestor::widgets {
class ArchitectureDiagram;
}

namespace nestor::app {

class ProjectDocument;

class ArchitectureEditor : public QWidget {
    Q_OBJECT
public:
    ArchitectureEditor(ProjectDocument* document, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return tree_; }
    widgets::ArchitectureDiagram* diagram() const { return diagram_; }
    // Sets property `key` (as in the project file, e.g. "size_words") of level `level`
    // (-1 = compute) from text, as the tree does; returns the error or "".
    QString setProperty(int level, const QString& key, const QString& text);

signals:
    void editRejected(const QString& reason);

private:
    void refresh();
    void onItemChanged(QTreeWidgetItem* item, int column);

    ProjectDocument* document_;
    QTreeWidget* tree_;
    widgets::ArchitectureDiagram* diagram_;
    QLabel* message_;
    bool refreshing_ = false;
};

} // namespace nestor::app
