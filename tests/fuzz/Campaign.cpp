#include "Campaign.h"

#include "Files.h"
#include "Mutator.h"
#include "Oracle.h"
#include "Targets.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace nestor::fuzz {

namespace {

struct LoadedTarget {
    const Target* target;
    std::vector<fs::path> seedPaths;
    std::vector<std::string> seedTexts;
    std::vector<std::pair<fs::path, fs::path>> companions;  // source file -> path in the work folder
};

struct InputRecord {
    std::string target, seedName;
    std::vector<std::string> mutations;
    Args args;
    RunResult run;
    std::optional<Finding> finding;
};

std::vector<LoadedTarget> loadTargets(const CampaignOptions& o)
{
    std::vector<LoadedTarget> loaded;
    for (const auto& t : allTargets()) {
        if (!o.targets.empty() && std::find(o.targets.begin(), o.targets.end(), t.name) == o.targets.end()) continue;
        LoadedTarget lt{&t, {}, {}, {}};
        for (const auto& g : t.seeds)
            for (const auto& p : listFiles(fs::path(o.sourceDir) / g.dir, g.suffix)) {
                lt.seedPaths.push_back(p);
                lt.seedTexts.push_back(readFile(p));
            }
        for (const auto& g : t.companions)
            for (const auto& p : listFiles(fs::path(o.sourceDir) / g.dir, g.suffix))
                lt.companions.emplace_back(p, fs::path(t.companionSubdir) / p.filename());
        if (lt.seedPaths.empty()) throw std::runtime_error("target " + t.name + " has no seed files under " + o.sourceDir);
        loaded.push_back(std::move(lt));
    }
    if (loaded.empty()) throw std::runtime_error("no fuzz target selected");
    return loaded;
}

// Input `index`: pick a target by weight, a seed file, mutate it, build the command, lay out the
// work folder and run. Everything random comes from the input's own seed.
InputRecord runInput(const std::vector<LoadedTarget>& targets, const CampaignOptions& o, std::size_t index,
                     const fs::path& work)
{
    Random r(inputSeed(o.seed, index));
    unsigned total = 0;
    for (const auto& t : targets) total += t.target->weight;
    std::size_t w = r.below(total), k = 0;
    while (w >= targets[k].target->weight) w -= targets[k++].target->weight;
    const LoadedTarget& lt = targets[k];
    const std::size_t s = r.below(lt.seedPaths.size());
    const MutationResult m = mutate(lt.seedTexts[s], lt.seedTexts, r);
    const fs::path input = fs::path(lt.target->inputSubdir) / lt.seedPaths[s].filename();

    InputRecord rec;
    rec.target = lt.target->name;
    rec.seedName = fs::relative(lt.seedPaths[s], o.sourceDir).string();
    rec.mutations = m.applied;
    rec.args = lt.target->args(input.string(), r);
    resetDir(work);
    for (const auto& [from, to] : lt.companions) writeFile(work / to, readFile(from));
    writeFile(work / input, m.text);
    rec.run = runProcess(o.cli, rec.args, work.string(), o.limits);
    rec.finding = judge(rec.run, o.limits);
    return rec;
}

std::string join(const std::vector<std::string>& v, const std::string& sep)
{
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

// Saves the work folder (the input and its companions) with the command that reproduces the run.
fs::path saveFinding(const CampaignOptions& o, std::size_t index, const InputRecord& rec, const fs::path& work)
{
    char id[32];
    std::snprintf(id, sizeof id, "%06zu", index);
    const fs::path dir = fs::path(o.findingsDir) / rec.finding->kind / (std::string(id) + "-" + rec.target);
    resetDir(dir);
    copyTree(work, dir);
    writeFile(dir / "command", shellJoin(rec.args) + "\n");
    writeFile(dir / "repro.sh", "#!/bin/sh\n# Reproduces fuzz input " + std::to_string(index) + " of seed " + std::to_string(o.seed) +
                                   "; pass nestor-cli as $1 (default: on PATH).\ncd \"$(dirname \"$0\")\" && exec \"${1:-nestor-cli}\" " +
                                   shellJoin(rec.args) + "\n");
    fs::permissions(dir / "repro.sh", fs::perms::owner_exec, fs::perm_options::add);
    std::ostringstream info;
    info << "class:     " << rec.finding->kind << "\n"
         << "detail:    " << rec.finding->detail << "\n"
         << "signature: " << rec.finding->signature << "\n"
         << "campaign:  seed " << o.seed << ", input " << index << "\n"
         << "target:    " << rec.target << "\n"
         << "seed file: " << rec.seedName << "\n"
         << "mutations: " << join(rec.mutations, "; ") << "\n"
         << "command:   nestor-cli " << shellJoin(rec.args) << "\n"
         << "exit:      " << (rec.run.signaled ? signalName(rec.run.signal) : std::to_string(rec.run.exitCode))
         << (rec.run.timedOut ? " (killed: timeout)" : "") << (rec.run.rssExceeded ? " (killed: memory)" : "") << "\n"
         << "time:      " << rec.run.seconds << " s\n"
         << "peak RSS:  " << rec.run.peakRssKB / 1024 << " MB\n";
    writeFile(dir / "info.txt", info.str());
    writeFile(dir / "stdout.txt", rec.run.out.substr(0, 16384));
    writeFile(dir / "stderr.txt", rec.run.err.substr(0, 16384));
    return dir;
}

struct SignatureStats {
    std::string kind;
    std::size_t count = 0;
    std::string firstReproducer;
    std::string firstMutations;
};

} // namespace

std::size_t runCampaign(const CampaignOptions& o)
{
    const auto targets = loadTargets(o);
    // Reproducers of an earlier campaign would mix with this one's; only the harness's own folders go.
    for (const auto& kind : findingKinds())
        fs::remove_all(fs::path(o.findingsDir) / kind);
    fs::remove(fs::path(o.findingsDir) / "summary.txt");
    std::vector<InputRecord> records(o.inputs);
    std::map<std::string, SignatureStats> signatures;
    std::mutex mutex;
    std::atomic<std::size_t> next{0}, done{0};

    auto worker = [&](unsigned job) {
        const fs::path work = fs::path(o.workDir) / ("job" + std::to_string(job));
        for (std::size_t i; (i = next++) < o.inputs;) {
            const std::size_t index = o.firstInput + i;
            InputRecord rec = runInput(targets, o, index, work);
            if (rec.finding) {
                std::lock_guard lock(mutex);
                SignatureStats& st = signatures[rec.finding->signature];
                st.kind = rec.finding->kind;
                if (st.count++ < o.keepPerSignature) {
                    const fs::path dir = saveFinding(o, index, rec, work);
                    if (st.firstReproducer.empty()) {
                        st.firstReproducer = dir.string();
                        st.firstMutations = rec.seedName + ": " + join(rec.mutations, "; ");
                    }
                }
            }
            // Free the outputs: the harness's resident size is inherited by every child it forks
            // and would inflate their measured peak RSS.
            rec.run.out = std::string();
            rec.run.err = std::string();
            records[i] = std::move(rec);
            const std::size_t d = ++done;
            if (d % 500 == 0) {
                std::lock_guard lock(mutex);
                std::cerr << "fuzz: " << d << " of " << o.inputs << " inputs\n";
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < std::max(1u, o.jobs); ++j) pool.emplace_back(worker, j);
    for (auto& t : pool) t.join();

    // Summary.
    std::map<std::string, std::size_t> perTarget, perExit, perKind;
    std::map<std::string, double> targetSeconds;
    double maxSeconds = 0, totalSeconds = 0;
    long maxRss = 0;
    std::string slowest;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto& rec = records[i];
        ++perTarget[rec.target];
        targetSeconds[rec.target] += rec.run.seconds;
        ++perExit[rec.run.signaled ? signalName(rec.run.signal) : "exit " + std::to_string(rec.run.exitCode)];
        if (rec.finding) ++perKind[rec.finding->kind];
        totalSeconds += rec.run.seconds;
        maxRss = std::max(maxRss, rec.run.peakRssKB);
        if (rec.run.seconds > maxSeconds) {
            maxSeconds = rec.run.seconds;
            slowest = "input " + std::to_string(o.firstInput + i) + " (" + rec.target + ", " + rec.seedName + ")";
        }
    }
    std::size_t failing = 0;
    for (const auto& [k, n] : perKind) failing += n;
    std::ostringstream s;
    s << "Fuzz campaign: seed " << o.seed << ", inputs " << o.firstInput << ".." << o.firstInput + o.inputs - 1 << " ("
      << o.inputs << "), limits " << o.limits.timeoutSeconds << " s, RSS " << o.limits.maxRssMB << " MB, RLIMIT_AS "
      << (o.limits.addressSpaceMB ? std::to_string(o.limits.addressSpaceMB) + " MB" : std::string("off")) << "\n";
    s << "Targets:";
    for (const auto& [t, n] : perTarget) s << " " << t << " " << n << " (" << static_cast<long>(targetSeconds[t]) << " s);";
    s << "\nExit codes:";
    for (const auto& [e, n] : perExit) s << " " << e << ": " << n << ";";
    char buf[256];
    std::snprintf(buf, sizeof buf, "\nTime: %.1f s of runs, slowest %.2f s (%s); peak RSS %ld MB\n", totalSeconds, maxSeconds,
                  slowest.c_str(), maxRss / 1024);
    s << buf;
    s << "Failing inputs: " << failing << " of " << o.inputs << "\n";
    for (const auto& kind : findingKinds())
        s << "  " << kind << ": " << (perKind.count(kind) ? perKind[kind] : 0) << "\n";
    if (!signatures.empty()) {
        std::vector<std::pair<std::string, SignatureStats>> sorted(signatures.begin(), signatures.end());
        std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
        s << "Distinct failures (" << sorted.size() << "), most frequent first:\n";
        for (const auto& [sig, st] : sorted)
            s << "  " << st.count << "x  " << sig << "\n      e.g. " << st.firstReproducer << "\n      from " << st.firstMutations << "\n";
    }
    std::cout << s.str() << std::flush;
    if (!o.findingsDir.empty() && failing > 0) writeFile(fs::path(o.findingsDir) / "summary.txt", s.str());
    return failing;
}

} // namespace nestor::fuzz
