#pragma once
// A mapping: per storage level (same order as Architecture::levels, outermost first)
// temporal loops (outermost first), spatial loops split into X and Y (outermost first,
// sitting inside the level's temporal loops), and keep/bypass per tensor.
//
// Imperfect factors follow Timeloop/Ruby: a loop has a bound and a residual; the residual
// is the trip count on the last global iteration, i.e. when every outer loop of the same
// dimension is at its last iteration. For one dimension with loops l_1 (outer) .. l_n:
//   size = 1 + sum_i (residual_i - 1) * prod_{j inner to i} bound_j.
#include "arch/Architecture.h"
#include "common/Error.h"
#include "workload/Workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nestor {

struct Loop {
    int dim = 0;
    std::int64_t bound = 1;
    std::int64_t residual = 1;  // == bound for a perfect factor
    bool isImperfect() const { return residual != bound; }
    bool operator==(const Loop&) const = default;
};

inline Loop makeLoop(int dim, std::int64_t bound) { return Loop{dim, bound, bound}; }
inline Loop makeLoop(int dim, std::int64_t bound, std::int64_t residual) { return Loop{dim, bound, residual}; }

// Which of a level's loop lists a loop sits in: the one encoding of "loop kind" in Nestor
// (the model's flattened nest, the GUI's loop references and its item roles all use it).
enum class LoopKind : std::uint8_t { Temporal, SpatialX, SpatialY };

// The kind stored as an int (a Qt item role, a file); nullopt when `value` names no kind.
std::optional<LoopKind> loopKindFromInt(int value);

struct LevelMapping {
    std::vector<Loop> temporal;   // outermost first
    std::vector<Loop> spatialX;   // outermost first; X index = row-major over these
    std::vector<Loop> spatialY;
    std::vector<bool> keep;       // per tensor; empty = keep all

    std::vector<Loop>& loops(LoopKind kind);
    const std::vector<Loop>& loops(LoopKind kind) const;
    bool operator==(const LevelMapping&) const = default;
};

struct Mapping {
    std::string name;
    std::vector<LevelMapping> levels;  // one per storage level, outermost first
    bool operator==(const Mapping&) const = default;

    // (inline: the model asks it for every stage of every candidate of a search)
    bool keeps(int level, int tensor) const
    {
        if (level < 0 || level >= static_cast<int>(levels.size())) return false;
        const auto& k = levels[static_cast<std::size_t>(level)].keep;
        if (k.empty()) return true;
        return tensor >= 0 && tensor < static_cast<int>(k.size()) && k[static_cast<std::size_t>(tensor)];
    }
    bool hasImperfectFactors() const;
    // Validation against a workload and an architecture: dimension indices, factor
    // products, fanout limits, keep lists. Capacity is checked by the model.
    Diagnostics validate(const Workload& w, const Architecture& a, const std::string& prefix = "mapping") const;
};

// Size covered by the loops of one dimension (outermost first) under the residual rule;
// saturated at kCountLimit (2^62) like every size (common/CheckedMath.h).
std::int64_t coveredSize(const std::vector<Loop>& loopsOfDimOuterFirst);

} // namespace nestor
