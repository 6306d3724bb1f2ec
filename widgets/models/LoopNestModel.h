#pragma once
// The mapping as a loop nest: one top-level row per storage level (outermost first) with
// its loops as children, then a row for the compute level. Loop text is indented by its
// depth in the whole nest so the levels read as one program:
//   DRAM                          37 / unbounded       W 3, I 18, O 16
//     for P in [0:4)
//   Buffer                        13 / 64 (20.3 %)     W 3, I 6, O 4
//       for R in [0:3)
//       par-for P in [0:4) (X)
// Level rows carry the capacity use and the tile (utilized capacity, words) of each kept
// tensor (tensor initials when they are distinct) once an Evaluation is set. An invalid evaluation adds an error row on top
// whose children are the diagnostics.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "model/Evaluation.h"
#include "workload/Workload.h"

#include <QAbstractItemModel>

#include <optional>
#include <vector>

namespace nestor::widgets {

class LoopNestModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NestColumn, CapacityColumn, TilesColumn, ColumnCount };
    enum class RowKind { Errors, Diagnostic, Level, Loop, Compute };
    enum Role { RowKindRole = Qt::UserRole + 1 };  // int(RowKind)

    explicit LoopNestModel(QObject* parent = nullptr);

    // Shows the loops of `m`; any previous evaluation is dropped.
    void setMapping(const Workload& w, const Architecture& a, const Mapping& m);
    // Annotates the current mapping with `e` (tiles, capacity use, errors).
    void setEvaluation(const Evaluation& e);
    void clear();

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        RowKind kind = RowKind::Loop;
        QString text[ColumnCount];
        QString toolTip;
        bool muted = false;     // trivial loop (bound 1)
        bool alarming = false;  // error or capacity overflow
        std::vector<Row> children;
    };

    void rebuild();
    Row levelRow(int level, int& depth) const;
    Row computeRow() const;
    Row errorsRow() const;
    const Row* rowAt(const QModelIndex& index) const;

    std::optional<Workload> workload_;
    std::optional<Architecture> architecture_;
    std::optional<Mapping> mapping_;
    std::optional<Evaluation> evaluation_;
    std::vector<Row> rows_;
};

} // namespace nestor::widgets
