#pragma once
// --screenshot: waits until the window shows a finished evaluation (or right away when
// nothing is being evaluated), lets pending layout and replots settle, renders the window
// into a PNG and ends the event loop with an ExitCode.
#include <QObject>
#include <QString>

namespace nestor::app {

class MainWindow;

class ScreenshotController : public QObject {
    Q_OBJECT
public:
    enum ExitCode { Saved = 0, SaveFailed = 3, TimedOut = 4 };

    ScreenshotController(MainWindow* window, QString path, QObject* parent = nullptr);

    // Call once the window is shown and the project (if any) is opened.
    void start(int timeoutMs = 120000);

private:
    void captureSoon();
    void capture();

    MainWindow* window_;
    QString path_;
    bool scheduled_ = false;
};

} // namespace nestor::app
