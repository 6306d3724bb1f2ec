#pragma once
// The Jobs dock: every long background job (network evaluation, search, PE-array sweep) as a
// row with its title, a progress bar (busy when the total is unknown), a status line and a
// Cancel button. A finished job keeps its last status until it is removed (its × button or
// "Clear finished"). The dock never runs anything itself: the job's owner (a BackgroundJob,
// jobs/BackgroundJob.h, or a queue that manages its own rows) reports progress and gets the
// cancel request through the callback it registered.
#include <QDockWidget>

#include <functional>
#include <map>

class QLabel;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace nestor::app {

class JobsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit JobsDock(QWidget* parent = nullptr);

    // A new running job; `cancel` is called (once) when the user presses Cancel.
    int addJob(const QString& title, std::function<void()> cancel);
    void setProgress(int id, qint64 value, qint64 maximum);   // maximum <= 0: busy indicator
    void setStatus(int id, const QString& text);
    void finishJob(int id, const QString& status);
    bool cancelJob(int id);          // as the Cancel button; false if not running
    void removeJob(int id);
    void clearFinished();

    int jobCount() const { return int(jobs_.size()); }
    int runningCount() const;
    bool isRunning(int id) const;
    bool contains(int id) const { return jobs_.count(id) > 0; }
    QString status(int id) const;
    QString title(int id) const;

signals:
    void jobAdded(int id);
    void jobFinished(int id);
    void jobRemoved(int id);

private:
    struct Row {
        QWidget* widget = nullptr;
        QLabel* title = nullptr;
        QLabel* status = nullptr;
        QProgressBar* bar = nullptr;
        QPushButton* cancel = nullptr;
        QPushButton* remove = nullptr;
        std::function<void()> onCancel;
        bool running = true;
        bool cancelRequested = false;
    };
    void updateEmptyLabel();

    QVBoxLayout* rows_;
    QLabel* empty_;
    std::map<int, Row> jobs_;
    int nextId_ = 1;
};

} // namespace nestor::app
