#pragma once
// The result of evaluating one mapping: exact per-level, per-tensor counts (totals over
// all instances and per-instance ranges), capacities, energies, cycles, utilization.
#include "common/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nestor {

struct TensorLevelStats {
    bool kept = false;
    std::int64_t utilized_capacity = 0;   // words: max tile held by one instance
    std::int64_t utilized_instances = 0;  // instances that ever hold data of this tensor
    std::int64_t partition_size = 0;      // distinct words one instance ever holds (read-write tensors; 0 for read-only)
    // Totals over all instances (exact counts).
    std::int64_t reads = 0;
    std::int64_t fills = 0;
    std::int64_t updates = 0;
    std::int64_t link_transfers = 0;      // words this level's children got from a neighbour over a link (set on every level below the backing store)
    // Per-instance extremes over used instances.
    std::int64_t reads_min = 0, reads_max = 0;
    std::int64_t fills_min = 0, fills_max = 0;
    std::int64_t updates_min = 0, updates_max = 0;
    double multicast_factor = 1.0;        // average multicast (or spatial-reduction) factor at this level's fanout
    double energy_pJ = 0.0;               // total over instances (reads + fills + updates)
    double read_bw_words_per_cycle = 0.0; // per instance, against compute cycles
    double write_bw_words_per_cycle = 0.0;
};

struct LevelStats {
    std::string name;
    std::vector<TensorLevelStats> tensors;  // per workload tensor
    std::int64_t capacity_used_words = 0;   // sum over kept tensors of utilized capacity
    std::int64_t utilized_instances = 0;    // max over tensors
    // Leakage's instances: over the level's time steps (the iterations of the temporal loops
    // above it), the mean number of its instances that are busy (docs/model.md, "Leakage").
    double average_busy_instances = 0.0;
    std::int64_t cycles = 0;                // ceil(compute cycles / slowdown)
    double slowdown = 1.0;                  // Timeloop's "bandwidth throttling"
    double leakage_energy_pJ = 0.0;
    double energy_pJ = 0.0;                 // accesses + leakage
};

struct Evaluation {
    bool valid = false;
    Diagnostics errors;                     // why the mapping is invalid
    // The mapping may be valid, but its exact analysis needs more memory or work than
    // ModelOptions allows: no figures (a search counts and skips it).
    bool exactBudgetExceeded = false;
    std::vector<LevelStats> levels;         // same order as the architecture (outermost first)
    std::vector<std::string> tensorNames;
    std::int64_t macs = 0;                  // computes
    std::int64_t compute_cycles = 0;        // exact temporal steps of the busiest MAC
    std::int64_t utilized_macs = 0;         // MAC instances ever used
    std::int64_t cycles = 0;                // max over compute and every level
    double utilization = 0.0;               // macs / (MAC instances * cycles)
    double compute_energy_pJ = 0.0;
    double energy_pJ = 0.0;
    double pJ_per_mac = 0.0;
    double area_um2 = 0.0;
    double edp_J_s = 0.0;                   // energy [J] x delay [s]
};

} // namespace nestor
