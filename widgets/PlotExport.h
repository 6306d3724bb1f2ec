#pragma once
// PNG / PDF export shared by the charts (QCustomPlot savePng / savePdf), and the
// "Export as PNG… / PDF…" context menu with its file dialog.
#include <QString>

class QCustomPlot;
class QPoint;
class QWidget;

namespace nestor::widgets::PlotExport {

// width/height 0: the plot's size when shown, else 800 x 500.
bool png(QCustomPlot* plot, const QString& path, int width = 0, int height = 0);
bool pdf(QCustomPlot* plot, const QString& path, const QString& title, int width = 0, int height = 0);
void withDialog(QCustomPlot* plot, const QString& title);      // .png or .pdf by the chosen name
void contextMenu(QCustomPlot* plot, const QString& title, const QPoint& globalPos);

} // namespace nestor::widgets::PlotExport
