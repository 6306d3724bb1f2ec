#pragma once
// Exit codes of nestor-cli.
namespace nestor::cli {

enum ExitCode : int {
    kExitOk = 0,           // success; every check passed
    kExitCheckFailed = 1,  // a reference check failed or the mapping is invalid
    kExitUsage = 2,        // bad command line
    kExitInput = 3,        // unreadable or invalid input file
};

} // namespace nestor::cli
