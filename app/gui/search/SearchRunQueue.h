#pragma once
// The search runs of the Search tab: requests wait in a queue and run one at a time as a
// SearchJob, each a row of the Jobs dock through the one background-job adapter (Cancel there
// stops that run; cancel() here also drops the queued ones); every run, finished or not, is
// kept as a SearchRun until cleared. No widgets: the panel draws what the signals report.
#include "SearchJob.h"

#include <QObject>
#include <QString>

#include <deque>
#include <vector>

namespace nestor::app {

class JobsDock;

struct SearchRun {
    QString label;
    QString layer;
    QString mapspace;
    QString algorithm;
    qint64 seed = 0;
    int curve = -1;             // line in the progress chart
    int job = 0;                // its Jobs-dock row (0 = none)
    int paretoSeries = -1;
    bool finished = false;
    SearchProgress progress;
    SearchOutcome outcome;      // while running: only the request
    QString summary;            // when finished: "1,000 evaluated in 0.20 s; best ..." or the failure
};

class SearchRunQueue : public QObject {
    Q_OBJECT
public:
    explicit SearchRunQueue(QObject* parent = nullptr);
    ~SearchRunQueue() override;

    void setJobsDock(JobsDock* jobs) { jobs_ = jobs; }
    void enqueue(std::vector<SearchRequest> requests);
    void cancel();                  // the running search returns its best so far; queued runs are dropped
    bool clear();                   // forgets every run; false (nothing happens) while running
    void reset();                   // drops the queue, discards the running search, forgets every run
    bool isRunning() const;

    const std::vector<SearchRun>& runs() const { return runs_; }
    SearchRun& run(int index) { return runs_[std::size_t(index)]; }
    int current() const { return current_; }
    bool anyBest() const;           // some finished run found a valid mapping

signals:
    void runStarted(int index);     // the run is in runs() (curve and series still unset)
    void runProgressed(int index);
    void improved(int index, qint64 evaluated, double value);
    void runFinished(int index);
    void allRunsFinished();

private:
    void startNext();
    void onProgress(const SearchProgress& p);
    void onFinished();

    SearchJob* job_;
    JobsDock* jobs_ = nullptr;
    std::deque<SearchRequest> queue_;
    std::vector<SearchRun> runs_;
    int current_ = -1;
};

} // namespace nestor::app
