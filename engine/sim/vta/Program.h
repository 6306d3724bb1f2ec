#pragma once
// A decoded instruction stream and its static checks: every instruction decodes and is valid
// for the configuration, there is exactly one FINISH and nothing follows it on the compute
// module (FORMAT.md §6-7: fsim never terminates otherwise).
#include "sim/vta/Instruction.h"
#include "sim/vta/Routing.h"

#include <vector>

namespace nestor::vta {

struct Program {
    std::vector<Instruction> insns;
    // Per module, the program indices of its instructions in order (its command queue).
    std::vector<std::size_t> moduleInsns[kModuleCount];
};

// Routes the instructions to the modules. Validation problems (ISA, FINISH rules) are
// returned, each naming "insns[i].<field>" with the disassembly.
Program buildProgram(std::vector<Instruction> insns, const IsaLayout& layout, Diagnostics& problems);

} // namespace nestor::vta
