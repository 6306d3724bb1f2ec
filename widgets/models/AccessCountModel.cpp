#include "models/AccessCountModel.h"

#include "ItemRoles.h"
#include "NumberFormat.h"

#include <QFont>

namespace nestor::widgets {

namespace {
const QString kIndent = QStringLiteral("    ");
const QString kNone = QStringLiteral("—");
} // namespace

AccessCountModel::AccessCountModel(QObject* parent) : QAbstractTableModel(parent) {}

void AccessCountModel::setEvaluation(const Evaluation& e)
{
    beginResetModel();
    rows_.clear();
    if (e.valid) {
        for (const LevelStats& level : e.levels) {
            const QString levelName = QString::fromStdString(level.name);
            Row total;
            total.kind = RowKind::Level;
            total.level = levelName;
            total.name = levelName;
            total.instances = level.utilized_instances;
            total.capacity = level.capacity_used_words;
            total.energy_pJ = level.energy_pJ;
            total.toolTip = tr("Totals of %1; energy includes %2 of leakage")
                                .arg(levelName, NumberFormat::energy(level.leakage_energy_pJ));
            std::vector<Row> tensorRows;
            for (std::size_t t = 0; t < level.tensors.size(); ++t) {
                const TensorLevelStats& s = level.tensors[t];
                if (!s.kept) continue;
                Row row;
                row.kind = RowKind::Tensor;
                row.level = levelName;
                row.name = t < e.tensorNames.size() ? QString::fromStdString(e.tensorNames[t]) : QStringLiteral("#%1").arg(t);
                row.instances = s.utilized_instances;
                row.reads = s.reads;
                row.fills = s.fills;
                row.updates = s.updates;
                row.capacity = s.utilized_capacity;
                row.energy_pJ = s.energy_pJ;
                row.toolTip = tr("Per instance: reads %1..%2, fills %3..%4, updates %5..%6\nMulticast factor %7")
                                  .arg(NumberFormat::count(s.reads_min), NumberFormat::count(s.reads_max),
                                       NumberFormat::count(s.fills_min), NumberFormat::count(s.fills_max),
                                       NumberFormat::count(s.updates_min), NumberFormat::count(s.updates_max),
                                       NumberFormat::decimal(s.multicast_factor));
                total.reads += s.reads;
                total.fills += s.fills;
                total.updates += s.updates;
                tensorRows.push_back(std::move(row));
            }
            if (tensorRows.empty()) total.toolTip += tr("\n%1 keeps no tensor").arg(levelName);
            rows_.push_back(std::move(total));
            for (Row& row : tensorRows) rows_.push_back(std::move(row));
        }
        Row compute;
        compute.kind = RowKind::Compute;
        compute.level = tr("compute");
        compute.name = tr("MACs");
        compute.toolTip = tr("%1 MACs on %2 used instances").arg(NumberFormat::count(e.macs), NumberFormat::count(e.utilized_macs));
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
    case NameColumn: return row.name;
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
    const bool counts = row.kind != RowKind::Compute;
    switch (column) {
    case NameColumn:
        return row.kind == RowKind::Tensor ? kIndent + row.name : row.name;
    case InstancesColumn: return NumberFormat::count(row.instances);
    case ReadsColumn: return counts ? NumberFormat::count(row.reads) : kNone;
    case FillsColumn: return counts ? NumberFormat::count(row.fills) : kNone;
    case UpdatesColumn: return counts ? NumberFormat::count(row.updates) : kNone;
    case CapacityColumn: return counts ? NumberFormat::count(row.capacity) : kNone;
    case EnergyColumn: return NumberFormat::energy(row.energy_pJ);
    default: return {};
    }
}

QVariant AccessCountModel::compact(const Row& row, int column) const
{
    const QVariant value = raw(row, column);
    if (column == NameColumn || column == EnergyColumn || display(row, column).toString() == kNone) return {};
    return NumberFormat::compactCount(value.toLongLong());
}

QVariant AccessCountModel::toolTip(const Row& row, int column) const
{
    // The exact figure first: a narrow column shows it compacted ("11.14 M").
    QString tip = row.toolTip;
    if (column != NameColumn && display(row, column).toString() != kNone)
        tip.prepend(QStringLiteral("%1: %2%3")
                        .arg(headerData(column, Qt::Horizontal).toString(), display(row, column).toString(),
                             tip.isEmpty() ? QString() : QStringLiteral("\n")));
    return tip.isEmpty() ? QVariant() : QVariant(tip);
}

QVariant AccessCountModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size())) return {};
    const Row& row = rows_[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: return display(row, index.column());
    case RawValueRole: return raw(row, index.column());
    case RowKindRole: return int(row.kind);
    case LevelRole: return row.level;
    case CompactTextRole: return compact(row, index.column());
    case Qt::ToolTipRole: return toolTip(row, index.column());
    case Qt::TextAlignmentRole:
        return index.column() == NameColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::FontRole:
        if (row.kind == RowKind::Level || row.kind == RowKind::Compute) {
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
        case NameColumn: return tr("Each storage level with its totals, then the tensors it keeps");
        case InstancesColumn: return tr("Instances that hold data of the tensor");
        case ReadsColumn: return tr("Words read, total over all instances");
        case FillsColumn: return tr("Words written from the parent level, total over all instances");
        case UpdatesColumn: return tr("Partial results written back by the child, total over all instances");
        case CapacityColumn: return tr("Largest tile held by one instance, in words");
        case EnergyColumn: return tr("Access energy (level rows include leakage)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn: return tr("Level / tensor");
    case InstancesColumn: return tr("Instances");
    case ReadsColumn: return tr("Reads");
    case FillsColumn: return tr("Fills");
    case UpdatesColumn: return tr("Updates");
    case CapacityColumn: return tr("Capacity");
    case EnergyColumn: return tr("Energy");
    default: return {};
    }
}

} // namespace nestor::widgets
