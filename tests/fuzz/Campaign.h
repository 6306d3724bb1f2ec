#pragma once
// A deterministic campaign: input i of seed S is always the same mutation of the same seed file
// run with the same command, whatever the number of parallel jobs.
#include "Runner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nestor::fuzz {

struct CampaignOptions {
    std::string cli;             // nestor-cli
    std::string sourceDir;       // the project's source tree (seeds)
    std::string findingsDir;     // failing inputs are saved here
    std::string workDir;         // scratch folders of the jobs
    std::uint64_t seed = 1;
    std::size_t inputs = 2000;
    std::size_t firstInput = 0;  // run inputs [firstInput, firstInput + inputs)
    unsigned jobs = 2;
    std::vector<std::string> targets;  // empty = all
    std::size_t keepPerSignature = 3;  // reproducers saved per distinct failure
    Limits limits;
};

// Runs the campaign, prints the summary to stdout; returns the number of failing inputs.
std::size_t runCampaign(const CampaignOptions& o);

} // namespace nestor::fuzz
