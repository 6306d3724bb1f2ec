#pragma once
// Whole-network search: the best mapping of every layer of a network on one architecture and
// one mapspace kind, each layer searched by runSearch (the one cost model), one after the
// other. A layer that appears several times (or with `repeat: n`) is searched once and counted
// n times in the totals. Totals: energy and cycles are sums over layers x repeats (layers run
// one after the other); the network's EDP is total energy x total delay; the sum of the
// layers' own EDPs is reported as well (analysis/NetworkTotals.h computes them).
//
// A network search is a job (common/Job.h): cancel is the job's flag, progress is the share of
// layers done with "layer i/n NAME"; the observer gets the typed events (each layer's search
// progress and improvements from runSearch, and when a layer starts and finishes). On cancel the current layer returns its best
// so far and the remaining layers are not searched (complete = false).
// Deterministic: every layer is searched with the same options and seed.
#include "common/Job.h"
#include "mapspace/Mapspace.h"
#include "search/SearchDriver.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

struct Project;

struct NetworkSearchLayer {
    std::string name;                  // workload name
    Workload workload;
    std::int64_t repeat = 1;
    MapspaceConstraints constraints;
};

struct NetworkSearchOptions {
    MapspaceKind kind = MapspaceKind::Pfm;
    MapspaceOptions mapspace;
    SearchOptions search;
};

struct NetworkLayerResult {
    std::string name;
    std::int64_t repeat = 1;
    bool searched = false;             // false when cancelled before or while building its mapspace
    // Another layer of the network with the same shape and constraints was searched first: its
    // result is this layer's (evaluated 0). Empty when this layer was searched itself.
    std::string sameAs;
    std::string error;                 // the mapspace could not be built (constraints, ...) or the search failed
    long double mapspaceSize = 0;      // MapspaceSize::total
    SearchResult result;               // result.found: a valid mapping was found
};

struct NetworkSearchResult {
    std::vector<NetworkLayerResult> layers;  // in network order
    bool complete = false;             // every layer has a valid best mapping
    bool cancelled = false;
    double energy_pJ = 0.0;            // sum of layer energy x repeat (layers with a mapping)
    std::int64_t cycles = 0;           // sum of layer cycles x repeat
    double seconds_delay = 0.0;        // cycles x cycle time
    double edp_J_s = 0.0;              // energy [J] x delay [s] of the whole network
    double sumLayerEdp_J_s = 0.0;      // sum of layer EDP x repeat
    std::int64_t evaluated = 0;        // candidates evaluated over all layers
    double seconds = 0.0;              // wall time
};

class NetworkSearchObserver : public SearchObserver {
public:
    virtual void onLayerStarted(int /*index*/, int /*count*/, const std::string& /*name*/) {}
    virtual void onLayerFinished(int /*index*/, const NetworkLayerResult&) {}
};

// The layers of project network `network` with the project's constraints for each (empty
// constraints when `withConstraints` is false). Throws NestorError for an unknown network.
std::vector<NetworkSearchLayer> projectNetworkLayers(const Project& p, const std::string& network, bool withConstraints = true);

// Throws NestorError for an unknown algorithm or a thread count outside [1, kMaxSearchThreads];
// a layer whose mapspace cannot be built or whose search fails (a search thread out of
// memory, ...) gets an error and no mapping (the others are still searched).
NetworkSearchResult runNetworkSearch(const Architecture& a, const std::vector<NetworkSearchLayer>& layers,
                                     const NetworkSearchOptions& opt, NetworkSearchObserver* observer = nullptr,
                                     JobContext* job = nullptr);

} // namespace nestor
