#pragma once
// Per-layer energy (left axis) and cycles (right axis) of a network as grouped bars.
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCustomPlot;

namespace nestor::widgets {

class NetworkChart : public QWidget {
    Q_OBJECT
public:
    explicit NetworkChart(QWidget* parent = nullptr);

    // Energies in pJ and cycles per layer (repeats included); NaN = no valid evaluation.
    void setLayers(const QStringList& names, const QVector<double>& energy_pJ, const QVector<double>& cycles);
    void clear();
    int layerCount() const { return layers_; }
    bool exportPng(const QString& path, int width = 0, int height = 0);
    bool exportPdf(const QString& path, int width = 0, int height = 0);
    void replotNow();
    QCustomPlot* plot() const { return plot_; }

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    QCustomPlot* plot_;
    int layers_ = 0;
};

} // namespace nestor::widgets
