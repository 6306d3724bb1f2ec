#pragma once
// The Network tab: evaluates every layer of a network with its mapping (the first mapping
// that names the layer's workload) in the background, with progress and Cancel; shows a
// per-layer table (repeats included) with totals, and energy / cycles bars per layer.
// "(all layers)" stands for every workload of the project in order.
#include "model/Evaluation.h"

#include <QFutureWatcher>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace nestor::widgets {
class NetworkChart;
}

namespace nestor::app {

class ProjectDocument;

struct NetworkLayerResult {
    int index = 0;
    QString layer;
    QString mapping;        // empty: no mapping for this layer
    qint64 repeat = 1;
    Evaluation evaluation;
};

class NetworkView : public QWidget {
    Q_OBJECT
public:
    NetworkView(ProjectDocument* document, QWidget* parent = nullptr);
    ~NetworkView() override;

    bool selectNetwork(const QString& name);   // "" = all layers
    void start();
    void cancel();
    bool isRunning() const;
    QFutureWatcherBase* watcher() { return &watcher_; }
    const std::vector<NetworkLayerResult>& results() const { return results_; }
    double totalEnergy_pJ() const { return totalEnergy_; }
    double totalCycles() const { return totalCycles_; }
    QTableWidget* table() const { return table_; }
    widgets::NetworkChart* chart() const { return chart_; }

signals:
    void started();
    void finished(bool completed);
    void message(const QString& text);

private:
    void refreshNetworks();
    void showResults();

    ProjectDocument* document_;
    QComboBox* networks_;
    QPushButton* run_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* totals_;
    QTableWidget* table_;
    widgets::NetworkChart* chart_;
    QFutureWatcher<NetworkLayerResult> watcher_;
    std::vector<NetworkLayerResult> results_;
    double totalEnergy_ = 0;
    double totalCycles_ = 0;
};

} // namespace nestor::app
