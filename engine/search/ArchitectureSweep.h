#pragma once
// Architecture sweep over PE-array sizes: for every array size and mapspace kind, the best
// mapping of one layer or of every layer of a network (runNetworkSearch), its EDP, energy,
// cycles and the architecture's area; then, per mapspace kind, the area-vs-EDP Pareto front
// (engine/analysis/ParetoFront.h) of the points that have a valid mapping.
#include "search/NetworkSearch.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

struct PeArraySize {
    std::int64_t x = 1, y = 1;  // columns (mesh X) x rows
    std::string name() const { return std::to_string(x) + "x" + std::to_string(y); }
};

// "2x7" -> {2, 7}; throws NestorError when it is not XxY with X, Y >= 1.
PeArraySize parsePeArraySize(const std::string& text);
// The range from 2x7 to 16x16: 2x7, 4x7, 7x7, 8x8, 14x8, 14x12, 16x12, 16x16.
std::vector<PeArraySize> defaultSweepArrays();

// The architecture with an X x Y PE array: the compute level and every level with as many
// instances as it get X*Y instances (mesh X); levels with one instance per column of the old
// array get X. Throws NestorError when the array cannot be identified.
Architecture resizePeArray(const Architecture& a, std::int64_t x, std::int64_t y);

struct SweepOptions {
    std::vector<PeArraySize> arrays = defaultSweepArrays();
    std::vector<MapspaceKind> kinds{MapspaceKind::Pfm, MapspaceKind::RubyS};
    MapspaceOptions mapspace;
    SearchOptions search;
};

struct SweepPoint {
    PeArraySize array;
    MapspaceKind kind = MapspaceKind::Pfm;
    bool found = false;                // every layer has a valid mapping
    std::string error;                 // the array or a mapspace could not be built
    double area_um2 = 0.0;
    double edp_J_s = 0.0;              // network EDP (total energy x total delay)
    double energy_pJ = 0.0;
    std::int64_t cycles = 0;
    double utilization = 0.0;          // MACs / (PEs x cycles) over the network
    std::int64_t evaluated = 0;
    bool pareto = false;               // on the area-vs-EDP front of its mapspace kind
    NetworkSearchResult search;        // per-layer results (best mappings)
};

struct SweepResult {
    std::vector<SweepPoint> points;    // arrays outer, kinds inner, in the given order
    bool cancelled = false;
    // Indices into `points` of the front of each kind, in the order of SweepOptions::kinds.
    std::vector<std::vector<std::size_t>> fronts;
};

class SweepObserver : public NetworkSearchObserver {
public:
    virtual void onPointStarted(const PeArraySize&, MapspaceKind) {}
    virtual void onPointFinished(const SweepPoint&) {}
};

// Throws NestorError for an unknown algorithm; per-point failures are recorded in the point.
// A job (common/Job.h): cancel is the job's flag; progress is the share of points done, each
// point's network search reporting within its share ("14x12 pfm: layer 1/3 conv1").
SweepResult runArchitectureSweep(const Architecture& base, const std::vector<NetworkSearchLayer>& layers, const SweepOptions& opt,
                                 SweepObserver* observer = nullptr, JobContext* job = nullptr);

} // namespace nestor
