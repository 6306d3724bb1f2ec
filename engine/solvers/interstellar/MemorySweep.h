#pragma once
// Interstellar's memory-hierarchy sizing study (ASPLOS'20, Section 6.2, Fig. 12, Observation 2
// and the rule that adjacent on-chip levels should differ in capacity by about 4-16x): the
// register file per PE and the global SRAM buffer swept over powers of two, energies per access
// from the paper's 28 nm Table 3, the loop blocking re-optimized at every point by a budgeted
// search inside one dataflow (C|K by default, as the paper's Fig. 12).
//
// Energies: Table 3 as copied in arch/EnergyModels (interstellar28nm::registerFileTable /
// sramTable, Section 5 "Analysis framework"), applied by applyEnergyModel("interstellar-28nm").
// The sweep takes sizes that are powers of two inside the table (RF 16-512 B, SRAM 32-512 KiB),
// where the value is the table's own; EnergyModels interpolates log-linearly between entries
// (the table is geometric: x2 per doubling for RFs, x1.5 for SRAMs) and clamps outside, so sizes
// outside the table are refused rather than clamped. The paper's hop energy (0.035 pJ) has no
// counterpart in Nestor's model (no network energy): array communication is not charged.
//
// The hierarchy is the paper's Eyeriss-like one with one RF level: DRAM (200 pJ per 16-bit
// word) -> one SRAM -> X x Y PEs, each with an RF -> one MAC per PE (0.075 pJ); 16-bit words,
// single buffering, no bandwidth limits, keep/bypass chosen by the search.
//
// Capacity ratio: the paper's rule compares "on-chip storage sizes between adjacent levels", the
// level's whole capacity: SRAM bytes / (RF bytes x PEs). The per-instance ratio SRAM / RF is
// reported too.
#include "analysis/DataflowNotation.h"
#include "solvers/interstellar/DataflowStudy.h"

#include <cstdint>
#include <vector>

namespace nestor::interstellar {

// DRAM -> SRAM (sramBytes) -> meshX x meshY RFs (rfBytes each) -> MACs, Table 3 energies.
Architecture interstellarArchitecture(std::int64_t meshX, std::int64_t meshY, std::int64_t rfBytes, std::int64_t sramBytes);

// Throws NestorError (field `field`) for an empty list, a size that is not a power of two, or
// one outside Table 3's column (`sram` selects the column).
void checkSweepSizes(const std::vector<std::int64_t>& bytes, bool sram, const std::string& field);

struct MemorySweepOptions {
    std::vector<std::int64_t> rfBytes{16, 32, 64, 128, 256, 512};
    std::vector<std::int64_t> sramBytes{32 * 1024, 64 * 1024, 128 * 1024, 256 * 1024, 512 * 1024};
    std::int64_t meshX = 16, meshY = 16;  // the paper's 16 x 16 PE array
    Dataflow dataflow{{"C"}, {"M"}};       // C|K
    StudyOptions search;                   // budget, seed, replication ...; progress gets the point index
};

struct MemoryPoint {
    std::int64_t rfBytes = 0, sramBytes = 0;
    double rfAccess_pJ = 0.0, sramAccess_pJ = 0.0;  // Table 3, per 16-bit access
    double capacityRatio = 0.0;                     // SRAM / (RF x PEs)
    double perInstanceRatio = 0.0;                  // SRAM / RF
    DataflowResult result;                          // the search at this point
    // Energy by level (pJ): DRAM, SRAM, RF (all tensors), and the MACs.
    double dram_pJ = 0.0, sram_pJ = 0.0, rf_pJ = 0.0, mac_pJ = 0.0;
};

struct MemorySweep {
    std::vector<MemoryPoint> points;  // RF outer, SRAM inner, in the given orders
    int best = -1;                    // lowest energy among points with a mapping
    bool cancelled = false;
    double seconds = 0.0;
};

// Throws NestorError for bad sizes (checkSweepSizes), an invalid workload, or a dataflow that
// names a loop the workload lacks or an axis the array does not have (a 1-D array for C|K).
MemorySweep sweepMemory(const Workload& w, const MemorySweepOptions& o);

} // namespace nestor::interstellar
