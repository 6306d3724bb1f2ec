#include "JobsDock.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

namespace nestor::app {

JobsDock::JobsDock(QWidget* parent) : QDockWidget(tr("Jobs"), parent), rows_(new QVBoxLayout), empty_(new QLabel)
{
    setObjectName(QStringLiteral("jobsDock"));
    auto* content = new QWidget;
    auto* outer = new QVBoxLayout(content);
    outer->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    empty_->setText(tr("No background jobs."));
    empty_->setEnabled(false);
    auto* clear = new QPushButton(tr("Clear finished"));
    clear->setObjectName(QStringLiteral("clearFinishedJobs"));
    connect(clear, &QPushButton::clicked, this, &JobsDock::clearFinished);
    top->addWidget(empty_, 1);
    top->addWidget(clear);
    outer->addLayout(top);
    rows_->setContentsMargins(0, 0, 0, 0);
    rows_->setSpacing(6);
    outer->addLayout(rows_);
    outer->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    setWidget(scroll);
    updateEmptyLabel();
}

int JobsDock::addJob(const QString& title, std::function<void()> cancel)
{
    const int id = nextId_++;
    Row r;
    r.widget = new QWidget;
    r.widget->setObjectName(QStringLiteral("job%1").arg(id));
    auto* grid = new QGridLayout(r.widget);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(4);
    grid->setVerticalSpacing(1);
    r.title = new QLabel(title);
    QFont bold = r.title->font();
    bold.setBold(true);
    r.title->setFont(bold);
    r.status = new QLabel(tr("starting…"));
    r.status->setWordWrap(true);
    r.bar = new QProgressBar;
    r.bar->setRange(0, 0);
    r.bar->setMaximumHeight(14);
    r.bar->setTextVisible(false);
    r.cancel = new QPushButton(tr("Cancel"));
    r.cancel->setObjectName(QStringLiteral("cancelJob"));
    r.remove = new QPushButton(style()->standardIcon(QStyle::SP_DialogCloseButton), QString());
    r.remove->setObjectName(QStringLiteral("removeJob"));
    r.remove->setToolTip(tr("Remove from the list"));
    r.remove->setFlat(true);
    r.remove->setVisible(false);
    grid->addWidget(r.title, 0, 0);
    grid->addWidget(r.remove, 0, 1, Qt::AlignRight);
    grid->addWidget(r.bar, 1, 0);
    grid->addWidget(r.cancel, 1, 1);
    grid->addWidget(r.status, 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    r.onCancel = std::move(cancel);
    connect(r.cancel, &QPushButton::clicked, this, [this, id] { cancelJob(id); });
    connect(r.remove, &QPushButton::clicked, this, [this, id] { removeJob(id); });
    rows_->insertWidget(0, r.widget);  // newest on top
    jobs_.emplace(id, std::move(r));
    updateEmptyLabel();
    emit jobAdded(id);
    return id;
}

void JobsDock::setProgress(int id, qint64 value, qint64 maximum)
{
    auto it = jobs_.find(id);
    if (it == jobs_.end() || !it->second.running) return;
    QProgressBar* bar = it->second.bar;
    if (maximum <= 0) {
        bar->setRange(0, 0);
        return;
    }
    // QProgressBar is int-based: scale large totals to per-mille.
    const int max = maximum > 1000000 ? 1000 : int(maximum);
    const int val = maximum > 1000000 ? int(1000.0 * double(value) / double(maximum)) : int(value);
    bar->setRange(0, max);
    bar->setValue(std::clamp(val, 0, max));
}

void JobsDock::setStatus(int id, const QString& text)
{
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return;
    if (it->second.cancelRequested && it->second.running)
        it->second.status->setText(tr("cancelling… %1").arg(text));
    else
        it->second.status->setText(text);
}

void JobsDock::finishJob(int id, const QString& status)
{
    auto it = jobs_.find(id);
    if (it == jobs_.end() || !it->second.running) return;
    Row& r = it->second;
    r.running = false;
    r.onCancel = nullptr;
    r.status->setText(status);
    if (r.bar->maximum() == 0) r.bar->setRange(0, 1);
    r.bar->setValue(r.bar->maximum());
    r.cancel->setEnabled(false);
    r.remove->setVisible(true);
    updateEmptyLabel();
    emit jobFinished(id);
}

bool JobsDock::cancelJob(int id)
{
    auto it = jobs_.find(id);
    if (it == jobs_.end() || !it->second.running || it->second.cancelRequested) return false;
    Row& r = it->second;
    r.cancelRequested = true;
    r.cancel->setEnabled(false);
    r.status->setText(tr("cancelling…"));
    if (r.onCancel) r.onCancel();
    return true;
}

void JobsDock::removeJob(int id)
{
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return;
    if (it->second.running) cancelJob(id);
    it->second.widget->deleteLater();
    jobs_.erase(it);
    updateEmptyLabel();
    emit jobRemoved(id);
}

void JobsDock::clearFinished()
{
    std::vector<int> done;
    for (const auto& [id, r] : jobs_)
        if (!r.running) done.push_back(id);
    for (int id : done) removeJob(id);
}

int JobsDock::runningCount() const
{
    return int(std::count_if(jobs_.begin(), jobs_.end(), [](const auto& j) { return j.second.running; }));
}

bool JobsDock::isRunning(int id) const
{
    auto it = jobs_.find(id);
    return it != jobs_.end() && it->second.running;
}

QString JobsDock::status(int id) const
{
    auto it = jobs_.find(id);
    return it == jobs_.end() ? QString() : it->second.status->text();
}

QString JobsDock::title(int id) const
{
    auto it = jobs_.find(id);
    return it == jobs_.end() ? QString() : it->second.title->text();
}

void JobsDock::updateEmptyLabel()
{
    empty_->setText(jobs_.empty() ? tr("No background jobs.") : tr("%n running", nullptr, runningCount()));
}

} // namespace nestor::app
