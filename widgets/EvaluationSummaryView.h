#pragma once
// Headline figures of an Evaluation (MACs, cycles, utilization, energy, pJ/MAC, area,
// EDP, what bounds the run) above the per level x tensor access table.
#include "analysis/Roofline.h"
#include "model/Evaluation.h"

#include <QWidget>

#include <map>

class QLabel;
class QTableView;

namespace nestor::widgets {

class AccessCountModel;
class ColumnFitter;

class EvaluationSummaryView : public QWidget {
    Q_OBJECT
public:
    enum class Metric { Macs, Cycles, Utilization, Energy, EnergyPerMac, Area, Edp, Bound };

    explicit EvaluationSummaryView(QWidget* parent = nullptr);

    void showPending(const QString& title);                 // "Evaluating <title>…"
    // "Bound by" is the roofline's binding limit (computeRoofline of the same evaluation).
    void showEvaluation(const QString& title, const Evaluation& e, const Roofline& roofline);
    void showFailure(const QString& title, const QString& message);
    // The edited mapping is invalid: keeps the figures of `lastValid`, marked as such, and lists `errors`.
    void showStale(const QString& title, const Evaluation& lastValid, const Roofline& lastValidRoofline, const Diagnostics& errors,
                   bool overBudget = false);
    // Keeps the figures, says they are being brought up to date.
    void showUpdating(const QString& title);
    void clear();

    QString metricText(Metric m) const;
    QString statusText() const;
    AccessCountModel* accessCountModel() const { return accessModel_; }
    QTableView* accessCountTable() const { return table_; }
    // Keeps every column of the access table inside its viewport (compact counts when narrow).
    ColumnFitter* accessColumns() const { return columns_; }

private:
    void setStatus(const QString& text, bool alarming);
    void clearMetrics();
    void fillMetrics(const Evaluation& e, const Roofline& roofline);

    QLabel* status_;
    std::map<Metric, QLabel*> values_;
    AccessCountModel* accessModel_;
    QTableView* table_;
    ColumnFitter* columns_ = nullptr;
};

} // namespace nestor::widgets
