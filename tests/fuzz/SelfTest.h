#pragma once
// Checks the harness itself against processes whose outcome is known without nestor-cli (a shell
// that kills itself, sleeps, or prints a given error; a child that allocates memory), the
// located-error rule against hand-written lines, and the mutator's determinism.
#include <string>

namespace nestor::fuzz {

// `self` is this executable (it is re-run as the allocating child). Returns the number of failed checks.
int selfTest(const std::string& self, const std::string& workDir);

// The allocating child: touches `mb` MiB, then sleeps a few seconds.
int allocateChild(long mb);

} // namespace nestor::fuzz
