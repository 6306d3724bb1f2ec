#pragma once
// nestor-cli search: search a mapspace for the best mapping of one layer.
#include "CliOptions.h"
#include "core/Project.h"
#include "search/SearchDriver.h"

#include <atomic>
#include <iosfwd>

namespace nestor::cli {

int runSearchCommand(const SearchCliOptions& opt, std::ostream& out, std::ostream& err);

// nestor-cli search --network: every layer of a project network.
int runNetworkSearchCommand(const SearchCliOptions& opt, const Project& p, const Architecture& arch, std::ostream& out,
                            std::ostream& err);

// Shared with sweep ------------------------------------------------------------------------
// Reads the project, applies its energy model and picks the layer; returns false after
// printing the reason (exit code in `code`).
bool loadSearchInput(const SearchCliOptions& opt, Project& p, Architecture& arch, const ProjectWorkload*& layer,
                     int& code, std::ostream& err);
// The engine's SearchOptions from the command line (throws NestorError on a bad metric).
SearchOptions engineSearchOptions(const SearchCliOptions& opt);
// First Ctrl-C sets the returned flag (stop and report the best so far); the second exits.
const std::atomic<bool>* installInterruptHandler();

// A one-line progress display on stderr, redrawn at most 5 times a second.
class ProgressLine : public SearchObserver {
public:
    ProgressLine(std::ostream& err, std::string label, std::string metric, bool enabled);
    void onProgress(const SearchProgress& p) override;
    void finish();
private:
    std::ostream& err_;
    std::string label_, metric_;
    bool enabled_;
    double lastDrawn_ = -1.0;
    bool drawn_ = false;
};

} // namespace nestor::cli
