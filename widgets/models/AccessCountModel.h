#pragma once
// Per level x tensor access counts of an Evaluation as a flat table. Every storage level
// (outermost first) gets a bold level row with its totals (energy including leakage),
// followed by one indented row per tensor it keeps; a last row holds the compute. Counts
// have a compact form (CompactTextRole, ItemRoles.h); every cell's tooltip starts with its
// exact figure.
#include "model/Evaluation.h"

#include <QAbstractTableModel>

#include <vector>

namespace nestor::widgets {

class AccessCountModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn, InstancesColumn, ReadsColumn, FillsColumn, UpdatesColumn, CapacityColumn, EnergyColumn, ColumnCount
    };
    enum class RowKind { Level, Tensor, Compute };
    enum Role {
        RawValueRole = Qt::UserRole + 1,  // name (NameColumn), qint64 counts, double energy in pJ
        RowKindRole,                      // int(RowKind)
        LevelRole                         // name of the row's level
    };

    explicit AccessCountModel(QObject* parent = nullptr);

    void setEvaluation(const Evaluation& e);  // an invalid evaluation empties the table
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        RowKind kind = RowKind::Tensor;
        QString level;
        QString name;
        std::int64_t instances = 0, reads = 0, fills = 0, updates = 0, capacity = 0;
        double energy_pJ = 0.0;
        QString toolTip;
    };
    QVariant display(const Row& row, int column) const;
    QVariant raw(const Row& row, int column) const;
    QVariant compact(const Row& row, int column) const;  // CompactTextRole of a count
    QVariant toolTip(const Row& row, int column) const;

    std::vector<Row> rows_;
};

} // namespace nestor::widgets
