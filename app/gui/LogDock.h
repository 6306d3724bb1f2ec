#pragma once
// The log: timestamped messages (info, warning, error) of everything the window did.
#include <QDockWidget>

class QPlainTextEdit;

namespace nestor::app {

class LogDock : public QDockWidget {
    Q_OBJECT
public:
    enum class Severity { Info, Warning, Error };

    explicit LogDock(QWidget* parent = nullptr);

    void append(Severity severity, const QString& message);
    void info(const QString& message) { append(Severity::Info, message); }
    void warning(const QString& message) { append(Severity::Warning, message); }
    void error(const QString& message) { append(Severity::Error, message); }

    QString plainText() const;
    int errorCount() const { return errors_; }

private:
    QPlainTextEdit* text_;
    int errors_ = 0;
};

} // namespace nestor::app
