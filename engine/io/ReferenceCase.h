#pragma once
// A Timeloop reference case (tests/data/timeloop/cases/*.yaml): the workload,
// architecture and mapping of one Timeloop run, converted to Nestor values, plus the
// figures that run printed (`expected`) and, where present, the exact loop-nest counts
// (`exact_counts`). Informational keys of the format are ignored.
#include "arch/Architecture.h"
#include "common/Error.h"
#include "mapping/Mapping.h"
#include "workload/Workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nestor {

// One access count of a tensor at a level, in the forms a case may give it.
struct RefCount {
    std::optional<std::int64_t> perInstance;                               // *_per_instance
    std::optional<std::pair<std::int64_t, std::int64_t>> perInstanceRange; // *_per_instance_range [min, max]
    std::optional<std::int64_t> total;                                     // *_total
    bool empty() const { return !perInstance && !perInstanceRange && !total; }
};

struct RefTensorFigures {
    std::string tensor;
    std::optional<std::int64_t> utilized_capacity;
    std::optional<std::int64_t> utilized_instances;  // expected: utilized_instances; exact_counts: instances_used
    RefCount reads, fills, updates;
    std::optional<double> energy_total_pJ;
    SourceLocation location;
};

struct RefLevelFigures {
    std::string level;
    bool isCompute = false;
    std::optional<std::int64_t> cycles;
    std::optional<double> leakage_energy_total_pJ;   // storage
    std::optional<std::int64_t> computes_total;      // compute
    std::optional<std::int64_t> utilized_instances;  // compute
    std::optional<double> energy_total_pJ;           // compute
    std::vector<RefTensorFigures> tensors;           // storage: only tensors the level keeps
    SourceLocation location;

    const RefTensorFigures* findTensor(const std::string& name) const;
};

struct RefSummary {
    std::optional<std::int64_t> cycles;
    std::optional<std::int64_t> computes;
    std::optional<double> utilization;      // utilization_exact when given, else utilization
    std::optional<double> energy_total_pJ;
};

struct RefFigures {
    RefSummary summary;
    std::vector<RefLevelFigures> levels;
    const RefLevelFigures* findLevel(const std::string& name) const;
};

struct ReferenceCase {
    std::string path;     // file it was read from
    std::string name;     // `case`
    std::string title;
    std::vector<std::string> notes;
    Workload workload;
    Architecture architecture;
    Mapping mapping;
    std::optional<std::int64_t> totalMacs;               // workload.total_macs
    std::vector<std::optional<std::int64_t>> tensorSizes; // workload.data_spaces[].tensor_size, per tensor
    RefFigures expected;
    std::optional<RefFigures> exact;                     // exact_counts
    std::vector<std::string> changedVsExpected;          // exact_counts.changed_vs_expected
};

// Throws NestorError (file:line:column, field path) on any problem.
ReferenceCase readReferenceCase(const std::string& path);
ReferenceCase parseReferenceCase(const std::string& yamlText, const std::string& pathForMessages);

} // namespace nestor
