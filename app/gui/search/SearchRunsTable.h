#pragma once
// The table of search runs: one row per run with its settings, its progress while running, and
// its best mapping's figures and stop reasons once finished.
#include <QTableWidget>

namespace nestor::app {

struct SearchRun;

class SearchRunsTable : public QTableWidget {
    Q_OBJECT
public:
    explicit SearchRunsTable(QWidget* parent = nullptr);

    // Shows `run` in row `index` (rows are added as needed).
    void showRun(int index, const SearchRun& run);
    void clearRuns();
};

} // namespace nestor::app
