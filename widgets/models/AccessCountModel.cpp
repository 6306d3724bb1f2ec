#include "models/AccessCountModel.h"

#include "NumberFormat.h"

#include <QColor>
#include <QFont>

namespace nestor::widgets {

AccessCountModel::AccessCountModel(QObject* parent) : QAbstractTableModel(parent) {}

void AccessCountModel::setEvaluation(const Evaluation& e)
{
    beginResetModel();
    rows_.clear();
    if (e.valid) {
        for (const LevelStats& level : e.levels) {
            const QString levelName = QString::fromStdString(level.name);
            Row total;
            total.kind = RowKind::LevelTotal;
            total.level = levelName;
            total.tensor = tr("all");
            total.instances = level.utilized_instances;
            total.capacity = level.capacity_used_words;
            total.energy_pJ = level.energy_pJ;
            total.toolTip = tr("Energy includes %1 of leakage").arg(NumberFormat::energy(level.leakage_energy_pJ));
            for (std::size_t t = 0; t < level.tensors.size(); ++t) {
                const TensorLevelStats& s = level.tensors[t];
                Row row;
                row.kind = s.kept ? RowKind::Tensor : RowKind::Bypassed;
                row.level = levelName;
                row.tensor = t < e.tensorNames.size() ? QString::fromStdString(e.tensorNames[t]) : QStringLiteral("#%1").arg(t);
                row.instances = s.utilized_instances;
                row.reads = s.reads;
                row.fills = s.fills;
                row.updates = s.updates;
                row.capacity = s.utilized_capacity;
                row.energy_pJ = s.energy_pJ;
                if (s.kept) {
                    row.toolTip = tr("Per instance: reads %1..%2, fills %3..%4, updates %5..%6\nMulticast factor %7")
                                      .arg(NumberFormat::count(s.reads_min), NumberFormat::count(s.reads_max),
                                           NumberFormat::count(s.fills_min), NumberFormat::count(s.fills_max),
                                           NumberFormat::count(s.updates_min), NumberFormat::count(s.updates_max),
                                           NumberFormat::decimal(s.multicast_factor));
                } else {
                    row.toolTip = tr("%1 bypasses %2").arg(levelName, row.tensor);
                }
                total.reads += s.reads;
                total.fills += s.fills;
                total.updates += s.updates;
                rows_.push_back(std::move(row));
            }
            rows_.push_back(std::move(total));
        }
        Row compute;
        compute.kind = RowKind::Compute;
        compute.level = tr("compute");
        compute.tensor = tr("%1 MACs").arg(NumberFormat::count(e.macs));
        compute.instances = e.utilized_macs;
        compute.energy_pJ = e.compute_energy_pJ;
        rows_.push_back(std::move(compute));
    }
    endResetModel();
}

void AccessCountModel::clear()
{
    beginResetModel();
    rows_.clear();
    endResetModel();
}

int AccessCountModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int AccessCountModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AccessCountModel::raw(const Row& row, int column) const
{
    switch (column) {
    case LevelColumn: return row.level;
    case TensorColumn: return row.tensor;
    case InstancesColumn: return qint64(row.instances);
    case ReadsColumn: return qint64(row.reads);
    case FillsColumn: return qint64(row.fills);
    case UpdatesColumn: return qint64(row.updates);
    case CapacityColumn: return qint64(row.capacity);
    case EnergyColumn: return row.energy_pJ;
    default: return {};
    }
}

QVariant AccessCountModel::display(const Row& row, int column) const
{
    const bool countsApply = row.kind == RowKind::Tensor || row.kind == RowKind::LevelTotal;
    switch (column) {
    case LevelColumn: return row.level;
    case TensorColumn: return row.kind == RowKind::Bypassed ? tr("%1 (bypass)").arg(row.tensor) : row.tensor;
    case InstancesColumn: return row.kind == RowKind::Bypassed ? QStringLiteral("—") : NumberFormat::count(row.instances);
    case ReadsColumn: return countsApply ? NumberFormat::count(row.reads) : QStringLiteral("—");
    case FillsColumn: return countsApply ? NumberFormat::count(row.fills) : QStringLiteral("—");
    case UpdatesColumn: return countsApply ? NumberFormat::count(row.updates) : QStringLiteral("—");
    case CapacityColumn: return countsApply ? NumberFormat::count(row.capacity) : QStringLiteral("—");
    case EnergyColumn: return row.kind == RowKind::Bypassed ? QStringLiteral("—") : NumberFormat::energy(row.energy_pJ);
    default: return {};
    }
}

QVariant AccessCountModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size())) return {};
    const Row& row = rows_[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: return display(row, index.column());
    case RawValueRole: return raw(row, index.column());
    case RowKindRole: return int(row.kind);
    case Qt::ToolTipRole: return row.toolTip.isEmpty() ? QVariant() : QVariant(row.toolTip);
    case Qt::TextAlignmentRole:
        return index.column() >= InstancesColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Qt::ForegroundRole:
        return row.kind == RowKind::Bypassed ? QVariant(QColor(Qt::gray)) : QVariant();
    case Qt::FontRole:
        if (row.kind == RowKind::LevelTotal || row.kind == RowKind::Compute) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    default: return {};
    }
}

QVariant AccessCountModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case InstancesColumn: return tr("Instances that hold data of the tensor");
        case ReadsColumn: return tr("Words read, total over all instances");
        case FillsColumn: return tr("Words written from the parent level, total over all instances");
        case UpdatesColumn: return tr("Partial results written back by the child, total over all instances");
        case CapacityColumn: return tr("Largest tile held by one instance, in words");
        case EnergyColumn: return tr("Access energy (level totals include leakage)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case LevelColumn: return tr("Level");
    case TensorColumn: return tr("Tensor");
    case InstancesColumn: return tr("Instances");
    case ReadsColumn: return tr("Reads");
    case FillsColumn: return tr("Fills");
    case UpdatesColumn: return tr("Updates");
    case CapacityColumn: return tr("Capacity (words)");
    case EnergyColumn: return tr("Energy");
    default: return {};
    }
}

} // namespace nestor::widgets
