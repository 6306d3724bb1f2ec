#pragma once
// The PE-array sweep of the Search tab in the background: the engine's runArchitectureSweep
// (the same as `nestor-cli sweep`) for one layer, on its own one-thread pool, each finished
// point handed to the GUI thread with the resized architecture its mapping was found for.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "search/ArchitectureSweep.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <vector>

namespace nestor::app {

class BackgroundJob;
class JobsDock;

// One point of the sweep and the resized architecture its mapping was found for.
struct SweepItem {
    SweepPoint point;
    Architecture architecture;
    const Mapping* best() const;   // nullptr without a valid mapping
};

class PeArraySweep : public QObject {
    Q_OBJECT
public:
    explicit PeArraySweep(QObject* parent = nullptr);
    ~PeArraySweep() override;      // cancels and waits

    // Starts the sweep of `layer` over `base`'s PE arrays; false while one runs.
    bool start(const Architecture& base, NetworkSearchLayer layer, SweepOptions options, JobsDock* jobs, const QString& title);
    void cancel();
    void reset();                  // discards the running sweep (no finished()) and its points
    bool isRunning() const;        // until finished() has been emitted

    const std::vector<SweepItem>& items() const { return items_; }
    QString layer() const { return layer_; }

signals:
    void pointAdded(int index);
    void finished(bool completed);

private:
    QThreadPool pool_;             // its own thread, as SearchJob's
    BackgroundJob* job_;
    std::vector<SweepItem> items_;
    QString layer_;
    bool cancelled_ = false;
};

} // namespace nestor::app
