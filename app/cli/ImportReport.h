#pragma once
// What the import commands report after writing a project: the summary goes to stdout when the
// project went to a file (stdout is free), else to stderr; the warnings go to stderr under a
// "warnings:" heading, one indented line each, each starting with its place in the input.
#include <ostream>
#include <string>
#include <vector>

namespace nestor::cli {

inline void printImportReport(const std::string& summary, const std::vector<std::string>& warnings,
                              const std::string& outputFile, std::ostream& out, std::ostream& err)
{
    if (outputFile.empty()) err << summary << "\n";
    else out << summary << " -> " << outputFile << "\n";
    if (warnings.empty()) return;
    err << "warnings:\n";
    for (const auto& w : warnings) err << "  " << w << "\n";
}

} // namespace nestor::cli
