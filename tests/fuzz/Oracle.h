#pragma once
// What the fuzz harness asserts about one nestor-cli run, and what counts as a "located" error.
//
// A run fails when it (in order of precedence; one class per run):
//   sanitizer           prints an AddressSanitizer/UndefinedBehaviorSanitizer report
//   memory              goes over the memory limit: killed by the RSS watchdog, peak RSS over the
//                       limit, or std::bad_alloc (what RLIMIT_AS turns an over-limit request into)
//   timeout             runs over the wall-time limit (killed)
//   uncaught-exception  prints "terminate called" (std::terminate: an exception escaped a thread or main)
//   crash               ends by a signal the harness did not send (SIGSEGV, SIGABRT, ...)
//   internal-error      prints "internal error" (main's catch-all: an exception no command handled)
//   bad-exit            exits with a code nestor-cli does not define (0 ok, 1 check failed, 2 usage, 3 input)
//   unlocated-error     prints an error line that names neither a position nor a field (see isLocated)
//   unexplained-invalid reports a mapping as invalid without any reason (check-reference's
//                       "FAIL (invalid mapping)" with neither a located line nor a row
//                       "FAIL  mapping.<path>  valid  invalid: <reason>")
#include "Runner.h"

#include <optional>
#include <string>
#include <vector>

namespace nestor::fuzz {

struct Finding {
    std::string kind;       // one of the classes above
    std::string detail;     // the offending line, signal name, time or memory
    std::string signature;  // kind + detail with digits normalized: groups findings of one cause
};

// The error lines of a run: every non-empty stderr line, minus headings (a line ending in ':' that
// is followed by indented lines, e.g. "mapping 'x' is invalid:"), plus the indented reasons under
// "The mapping is INVALID:" that `eval` prints to stdout in text format.
std::vector<std::string> errorLines(const RunResult& r);

// An error line is located when, after leading blanks and an optional "nestor-cli: " prefix, it
// starts with
//   (a) a position  "<file>:<line>: " or "<file>:<line>:<column>: "  (line >= 1), as
//       nestor::SourceLocation::toString() writes it (file "<input>" when there is no file), or
//   (b) a field path "<path>: " or "<file>: <path>: ", where <path> is an identifier followed by
//       at least one ".name" or "[index]" segment, e.g. "architecture.levels[2].size_words" or
//       "mappings[0].levels[1]": the form nestor::Diagnostic::toString() writes for values built in code.
// A bare word ("error: ...") or a file name alone ("x.yaml: no mappings") is not a location.
bool isLocated(const std::string& line);

// The classes above, in the order the summary lists them.
const std::vector<std::string>& findingKinds();

std::optional<Finding> judge(const RunResult& r, const Limits& limits);

} // namespace nestor::fuzz
