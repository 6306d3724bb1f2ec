#pragma once
// Thrown while executing one instruction (an index outside a scratchpad or DRAM, the step
// budget); the scheduler adds the module, instruction index and disassembly to the report.
#include <stdexcept>
#include <string>

namespace nestor::vta {

class ExecutionFault : public std::runtime_error {
public:
    explicit ExecutionFault(const std::string& message) : std::runtime_error(message) {}
};

} // namespace nestor::vta
