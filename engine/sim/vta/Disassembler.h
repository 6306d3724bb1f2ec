#pragma once
// One readable line per instruction, in the style of the vectors' `asm` lines, e.g.
//   GEMM uop[1,3) iter=(2,2) dst_f=(2,1) src_f=(2,0) wgt_f=(0,2)  [pop LD->CMP, push CMP->ST]
// Flags that name no queue on the instruction's module are shown as "unused pop_prev" etc.
#include "sim/vta/Instruction.h"

#include <string>

namespace nestor::vta {

std::string disassemble(const Instruction& insn);
std::string disassembleUop(const Uop& uop);  // "uop dst=40 src=20 wgt=10"

} // namespace nestor::vta
