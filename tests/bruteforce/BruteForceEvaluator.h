#pragma once
// An independent brute-force evaluator of a loop nest, used only by tests.
//
// It walks EVERY iteration of the mapped loop nest (every temporal step and every
// spatial instance) and counts, per storage level and tensor, what Nestor's analytical
// model (nestor::evaluate) must report, following Timeloop's counting rules as written
// in reference/timeloop/semantics.md (sections 1-6 and 9), but exactly per instance
// instead of Timeloop's extrapolated averages:
//  - tiles are dense boxes per rank; a level's tile is the box of all loops of that
//    level (temporal and spatial) and of all inner levels at the current indices of
//    the outer loops;
//  - deltas follow the translation rule of section 1 (current rule or the legacy one);
//  - every MAC reads each operand once from its innermost keeping level;
//  - at each spatial fanout, identical child deltas form one multicast / reduction
//    group; link transfers between mesh neighbours as in section 2;
//  - bypass chains are charged to the next keeping level scaled by each bypassed
//    stage's multicast ratio;
//  - reads / fills / updates from section 3 with exact per-instance first-read
//    elision (distinct words the instance ever holds).
// It is deliberately slow and simple; keep the nests small.
#include "arch/Architecture.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nestor::test {

struct BruteForceOptions {
    // Timeloop before commit a12fff5: a zero translation is remembered like any other.
    bool legacyZeroTranslationRule = false;
    bool linkTransfers = true;
    bool firstReadElision = true;
    // semantics.md section 3: a read-only tensor's reads = content accesses + peer accesses
    // (read-write: updates + peer - partition). A word a child gets over a link is read from
    // the neighbour that had it (the sender; neighbours tried in Timeloop's order: the one
    // above, below, left, right), so the sender's reads grow by it. Off = reads are the
    // content accesses only.
    bool peerReads = true;
};

struct BFTensorStats {
    bool kept = false;
    std::int64_t utilized_capacity = 0;   // max tile words one instance holds
    std::int64_t utilized_instances = 0;  // instances that ever hold data
    std::int64_t partition_size = 0;      // max over instances of distinct words ever held
    std::int64_t reads = 0, fills = 0, updates = 0;  // totals over instances
    // Words delivered over neighbour links into this level's children (recorded at the
    // level whose fanout carries them, kept or not).
    std::int64_t link_transfers = 0;
    std::int64_t reads_min = 0, reads_max = 0;
    std::int64_t fills_min = 0, fills_max = 0;
    std::int64_t updates_min = 0, updates_max = 0;
    double energy_pJ = 0.0;               // reads + fills + updates, total over instances
    // Per instance (index = instance id at this level), only meaningful where active.
    std::vector<std::int64_t> inst_reads, inst_fills, inst_updates;
    std::vector<char> inst_active;
};

struct BFLevelStats {
    std::string name;
    std::vector<BFTensorStats> tensors;
    std::int64_t utilized_instances = 0;  // max over tensors
    double average_busy_instances = 0.0;  // mean busy instances over the level's time steps (0: keeps nothing)
    std::int64_t cycles = 0;              // bandwidth-limited cycles (>= compute cycles)
    double leakage_energy_pJ = 0.0;
    double energy_pJ = 0.0;               // accesses + leakage
};

struct BFResult {
    std::vector<BFLevelStats> levels;     // outermost first, like the architecture
    std::int64_t macs = 0;                // operations actually performed
    std::int64_t compute_cycles = 0;      // operations of the busiest MAC
    std::int64_t utilized_macs = 0;       // MACs that perform at least one operation
    std::int64_t cycles = 0;              // max(compute cycles, every level's cycles)
    double utilization = 0.0;
    double compute_energy_pJ = 0.0;
    double energy_pJ = 0.0;
};

// Walks the whole nest. Assumes a mapping that passes Mapping::validate (factor
// products, fanout limits); capacity is not checked.
BFResult bruteForceEvaluate(const Workload& w, const Architecture& a, const Mapping& m,
                            const BruteForceOptions& opt = {});

// Human-readable dump of a case (workload, architecture, mapping) for failure messages.
std::string describeCase(const Workload& w, const Architecture& a, const Mapping& m);

} // namespace nestor::test
