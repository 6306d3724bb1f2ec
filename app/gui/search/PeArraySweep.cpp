#include "PeArraySweep.h"

#include "jobs/BackgroundJob.h"

#include <exception>
#include <functional>

namespace nestor::app {

namespace {

// Hands each finished sweep point, with its resized architecture, to `onPoint` on the GUI
// thread (the engine calls this on the sweep's thread).
class QueuedSweepObserver : public SweepObserver {
public:
    QueuedSweepObserver(RunningJob& job, const Architecture& base, std::function<void(const SweepItem&)> onPoint)
        : points_(job, std::move(onPoint)), base_(base)
    {
    }
    void onPointFinished(const SweepPoint& pt) override
    {
        SweepItem item{pt, {}};
        try {
            item.architecture = resizePeArray(base_, pt.array.x, pt.array.y);
        } catch (const std::exception&) {
            // pt.error says why; the point has no mapping to show
        }
        points_.onEvent(item);
    }

private:
    QueuedEventSink<SweepItem> points_;
    const Architecture& base_;
};

} // namespace

const Mapping* SweepItem::best() const
{
    if (!point.found || point.search.layers.empty() || !point.search.layers.front().result.found) return nullptr;
    return &point.search.layers.front().result.best;
}

PeArraySweep::PeArraySweep(QObject* parent) : QObject(parent)
{
    pool_.setMaxThreadCount(1);
    job_ = new BackgroundJob(this, &pool_);
    connect(job_, &BackgroundJob::finished, this, [this] { emit finished(!cancelled_); });
}

PeArraySweep::~PeArraySweep()
{
    job_->cancel();
    job_->waitForDone();  // before pool_ goes
}

bool PeArraySweep::start(const Architecture& base, NetworkSearchLayer layer, SweepOptions options, JobsDock* jobs,
                         const QString& title)
{
    if (isRunning()) return false;
    items_.clear();
    layer_ = QString::fromStdString(layer.name);
    cancelled_ = false;
    if (jobs) job_->showIn(jobs, title);
    job_->start<bool>(
        [base, layer = std::move(layer), options = std::move(options), this](RunningJob& job) {
            QueuedSweepObserver observer(job, base, [this](const SweepItem& item) {
                items_.push_back(item);
                emit pointAdded(int(items_.size()) - 1);
            });
            try {
                runArchitectureSweep(base, {layer}, options, &observer, &job);
            } catch (const std::exception&) {
                // an unknown algorithm: the panel checked the name; nothing to report
            }
            return job.cancelRequested();
        },
        [this](bool cancelled) { cancelled_ = cancelled; });
    return true;
}

void PeArraySweep::cancel()
{
    job_->cancel();
}

void PeArraySweep::reset()
{
    job_->discard();
    items_.clear();
    layer_.clear();
}

bool PeArraySweep::isRunning() const
{
    return job_->isRunning();
}

} // namespace nestor::app
