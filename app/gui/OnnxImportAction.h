#pragma once
// File > Import ONNX Network…: asks for a model and a batch size, imports it off the GUI thread
// and adds its layers and network to the open project (one undo step); the summary and warnings
// go to the log, errors to a message box and the log; `imported(network)` runs after a success
// (the main window shows the network).
#include <functional>

class QString;
class QWidget;

namespace nestor::app {

class LogDock;
class ProjectDocument;

void importOnnxWithDialog(QWidget* parent, ProjectDocument& doc, LogDock& log,
                          std::function<void(const QString& network)> imported = {});

} // namespace nestor::app
