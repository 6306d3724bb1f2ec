#include "sim/vta/Program.h"

#include "sim/vta/Disassembler.h"

namespace nestor::vta {

Program buildProgram(std::vector<Instruction> insns, const IsaLayout& layout, Diagnostics& problems)
{
    Program p;
    p.insns = std::move(insns);
    std::size_t finishes = 0;
    std::size_t firstFinish = 0;
    for (std::size_t i = 0; i < p.insns.size(); ++i) {
        const Instruction& insn = p.insns[i];
        for (auto& d : layout.validate(insn, i)) problems.push_back(std::move(d));
        const Module m = moduleOf(insn);
        if (m == Module::Compute && finishes > 0)
            problems.push_back({"insns[" + std::to_string(i) + "]",
                                "compute instruction after the FINISH at instruction " + std::to_string(firstFinish) +
                                    ": it would run after FINISH and fsim would never terminate [" + disassemble(insn) + "]",
                                {}});
        if (insn.opcode == Opcode::Finish && finishes++ == 0) firstFinish = i;
        p.moduleInsns[static_cast<int>(m)].push_back(i);
    }
    if (finishes == 0)
        problems.push_back({"insns", "the program has no FINISH instruction: the run would never end (" +
                                         std::to_string(p.insns.size()) + " instructions)",
                            {}});
    return p;
}

} // namespace nestor::vta
