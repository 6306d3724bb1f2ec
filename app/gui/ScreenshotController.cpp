#include "ScreenshotController.h"


#include "EnergyBreakdownChart.h"
#include "CompareView.h"
#include "EvaluationPanel.h"
#include "NetworkView.h"
#include "MainWindow.h"
#include "search/SearchPanel.h"
#include "simulator/SimulatorView.h"
#include "solver/DataflowStudyPanel.h"
#include "solver/SolverView.h"
#include "teaching/DataflowTab.h"

#include <QCoreApplication>
#include <QDir>
#include <QPixmap>
#include <QTextStream>
#include <QTimer>

namespace nestor::app {

namespace {
constexpr int kSettleMs = 1000;  // layouts, queued replots, pinned comparisons, the first paint
}

ScreenshotController::ScreenshotController(MainWindow* window, QString path, QObject* parent)
    : QObject(parent), window_(window), path_(std::move(path))
{
    connect(window_, &MainWindow::evaluationDisplayed, this, &ScreenshotController::captureSoon);
}

void ScreenshotController::start(int timeoutMs)
{
    if (!window_->isEvaluating()) captureSoon();
    QTimer::singleShot(timeoutMs, this, [this] {
        if (scheduled_) return;
        QTextStream(stderr) << "nestor: the evaluation did not finish in time; no screenshot written\n";
        QCoreApplication::exit(TimedOut);
    });
}

void ScreenshotController::captureSoon()
{
    if (scheduled_) return;
    scheduled_ = true;
    QTimer::singleShot(kSettleMs, this, &ScreenshotController::capture);
}

void ScreenshotController::capture()
{
    if (window_->compareView()->isEvaluating() || window_->networkView()->isRunning() ||
        window_->searchPanel()->isRunning() || window_->searchPanel()->isSweeping() || window_->simulatorView()->isRunning() ||
        window_->dataflowTab()->isBusy() || window_->solverView()->isRunning() ||
        window_->dataflowStudyPanel()->isRunning()) {
        QTimer::singleShot(100, this, &ScreenshotController::capture);  // background views still working
        return;
    }
    window_->evaluationPanel()->replotNow();
    const QPixmap image = window_->grab();
    if (!image.save(path_, "PNG")) {
        QTextStream(stderr) << "nestor: cannot write " << QDir::toNativeSeparators(path_) << "\n";
        QCoreApplication::exit(SaveFailed);
        return;
    }
    QTextStream(stdout) << "nestor: screenshot saved to " << QDir::toNativeSeparators(path_) << "\n";
    QCoreApplication::exit(Saved);
}

} // namespace nestor::app
