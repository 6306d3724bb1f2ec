#include "OnnxImportAction.h"

#include "LogDock.h"
#include "OnnxImportCommand.h"
#include "ProjectDocument.h"

#include <QFileDialog>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QMessageBox>
#include <QtConcurrent>

#include <variant>

namespace nestor::app {

void importOnnxWithDialog(QWidget* parent, ProjectDocument& doc, LogDock& log, std::function<void(const QString&)> imported)
{
    const QString path = QFileDialog::getOpenFileName(parent, QObject::tr("Import ONNX Network"), {},
                                                      QObject::tr("ONNX models (*.onnx);;All files (*)"));
    if (path.isEmpty()) return;
    bool ok = false;
    const int batch = QInputDialog::getInt(parent, QObject::tr("Import ONNX Network"),
                                           QObject::tr("Batch size (for symbolic input dimensions):"), 1, 1, 1 << 30, 1, &ok);
    if (!ok) return;
    OnnxImportOptions options;
    options.batch = batch;
    // A zoo model holds hundreds of MB of weights: read it off the GUI thread.
    using Outcome = std::variant<OnnxImportResult, std::string>;
    auto* watcher = new QFutureWatcher<Outcome>(parent);
    QObject::connect(watcher, &QFutureWatcher<Outcome>::finished, parent, [watcher, parent, &doc, &log, path, imported] {
        const Outcome outcome = watcher->result();
        watcher->deleteLater();
        QString error;
        if (const auto* failure = std::get_if<std::string>(&outcome)) error = QString::fromStdString(*failure);
        else error = commands::addImportedNetwork(doc, std::get<OnnxImportResult>(outcome));
        if (!error.isEmpty()) {
            log.error(QObject::tr("ONNX import of %1 failed: %2").arg(path, error));
            QMessageBox::warning(parent, QObject::tr("Import ONNX Network"), error);
            return;
        }
        const auto& result = std::get<OnnxImportResult>(outcome);
        log.info(QString::fromStdString(result.summary()));
        for (const auto& w : result.warnings) log.warning(QString::fromStdString(w));
        if (imported) imported(QString::fromStdString(result.network.name));
    });
    const std::string file = path.toStdString();
    watcher->setFuture(QtConcurrent::run([file, options]() -> Outcome {
        try {
            return importOnnx(file, options);
        } catch (const NestorError& e) {
            return std::string(e.what());
        }
    }));
}

} // namespace nestor::app
