// nestor-cli: command-line front end of the Nestor engine (no Qt).
#include "CheckReferenceCommand.h"
#include "CliOptions.h"
#include "EvalCommand.h"
#include "ExitCodes.h"
#include "ImportOnnxCommand.h"
#include "ImportTimeloopCommand.h"
#include "InterstellarCommand.h"
#include "OptimizeCommand.h"
#include "SearchCommand.h"
#include "SweepCommand.h"
#include "VtaCommand.h"

#include <exception>
#include <iostream>

#ifndef NESTOR_VERSION
#define NESTOR_VERSION "unknown"
#endif

int main(int argc, char** argv)
{
    using namespace nestor::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    Command cmd;
    try {
        cmd = parseCommandLine(args);
    } catch (const UsageError& e) {
        std::cerr << "nestor-cli: " << e.what() << "\n\n" << e.usage();
        return kExitUsage;
    }
    try {
        switch (cmd.kind) {
        case Command::Kind::Help: std::cout << cmd.helpText; return kExitOk;
        case Command::Kind::Version: std::cout << "nestor-cli " << NESTOR_VERSION << "\n"; return kExitOk;
        case Command::Kind::Eval: return runEval(cmd.eval, std::cout, std::cerr);
        case Command::Kind::CheckReference: return runCheckReference(cmd.check, std::cout, std::cerr);
        case Command::Kind::Search: return runSearchCommand(cmd.search, std::cout, std::cerr);
        case Command::Kind::Sweep: return runSweepCommand(cmd.search, std::cout, std::cerr);
        case Command::Kind::Optimize: return runOptimizeCommand(cmd.solverArgs, false, std::cout, std::cerr);
        case Command::Kind::Codesign: return runOptimizeCommand(cmd.solverArgs, true, std::cout, std::cerr);
        case Command::Kind::Dataflows: return runDataflowsCommand(cmd.solverArgs, std::cout, std::cerr);
        case Command::Kind::Memsweep: return runMemsweepCommand(cmd.solverArgs, std::cout, std::cerr);
        case Command::Kind::Vta: return runVtaCommand(cmd.vtaArgs, std::cout, std::cerr);
        case Command::Kind::ImportTimeloop: return runImportTimeloopCommand(cmd.importTimeloopArgs, std::cout, std::cerr);
        case Command::Kind::ImportOnnx: return runImportOnnxCommand(cmd.importOnnxArgs, std::cout, std::cerr);
        }
    } catch (const std::exception& e) {
        std::cerr << "nestor-cli: internal error: " << e.what() << "\n";
        return kExitCheckFailed;
    }
    return kExitOk;
}
