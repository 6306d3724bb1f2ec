#pragma once
// The Architecture tab: the levels as a tree (one item per level, its properties as
// children with editable values: size, word bits, block size, instances, mesh X,
// bandwidths, multiple buffering, energies, area; then the compute level) beside the
// ArchitectureDiagram, under a bar with the PE array's columns x rows and the level operations
// (add a level inside the selected one, duplicate, remove, move out / in). Each edit is one
// undoable command validated as a whole (ArchitectureCommands.h); rejected values are reported.
// The tree is updated in place when only values change, so an open cell editor survives.
#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;
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
    // The bar's operations, as its controls do; each returns the error or "".
    QString resizePeArray(int columns, int rows);
    QString addLevelInside(int level);
    QString duplicateLevel(int level);
    QString removeLevel(int level);
    QString moveLevel(int level, int delta);
    int selectedLevel() const;   // the storage level of the selected item, -1 for none or compute
    QString message() const;

signals:
    void editRejected(const QString& reason);

private:
    QWidget* buildBar();
    void refresh();
    bool refreshValuesInPlace();
    void onItemChanged(QTreeWidgetItem* item, int column);
    QString report(const QString& error);
    void updateBar();

    ProjectDocument* document_;
    QSpinBox* columns_;
    QSpinBox* rows_;
    QPushButton* resize_;
    QPushButton* add_;
    QPushButton* duplicate_;
    QPushButton* remove_;
    QPushButton* moveOut_;
    QPushButton* moveIn_;
    QTreeWidget* tree_;
    widgets::ArchitectureDiagram* diagram_;
    QLabel* message_;
    bool refreshing_ = false;
};

} // namespace nestor::app
