#pragma once
// Import of Timeloop's own input files (problem, architecture, mapping, and an Accelergy ERT)
// into a Nestor project: one custom workload, the architecture and the mapping, ready to
// evaluate. What is read and what is ignored: docs/timeloop-import.md.
#include "core/Project.h"

#include <string>
#include <vector>

namespace nestor {

struct TimeloopImportOptions {
    // An Accelergy ERT file (timeloop-model.ERT.yaml) in addition to the inputs; an `ERT:` key
    // in one of the inputs works as well. At most one ERT in all.
    std::string ertFile;
    // Energies when no ERT is given: "table" (all energies 0, with a warning),
    // "interstellar-28nm" or "thistle-45nm" (engine/arch/EnergyModels.h). With an ERT only
    // "table" is allowed (the ERT gives the table).
    std::string energyModel = "table";
    std::string projectName;  // empty: the problem's shape name
};

struct TimeloopImport {
    Project project;
    std::vector<std::string> warnings;  // what was ignored or assumed, located where possible
    bool ertGiven = false;              // the energies come from an Accelergy ERT
    std::string summary() const;        // one line: workload, levels, mapping, energy source
};

// One source: a file name (for messages) and its text.
struct TimeloopSource {
    std::string path;
    std::string text;
};

// Reads the files as Timeloop would (their top-level keys merged; a key given in two files is
// an error). Throws NestorError located at file:line:column and the field on any problem.
TimeloopImport importTimeloop(const std::vector<std::string>& files, const TimeloopImportOptions& options);
TimeloopImport importTimeloopSources(const std::vector<TimeloopSource>& sources, const TimeloopImportOptions& options);

} // namespace nestor
