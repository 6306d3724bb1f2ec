#pragma once
// Energy and area models taken from papers, used to fill an Architecture's per-action
// energies instead of giving them by hand (project key `architecture.energy_model`).
//
//  * "interstellar-28nm": Table 3 of Yang et al., "Interstellar: Using Halide's Scheduling
//    Language to Analyze DNN Accelerators", ASPLOS'20. Energy per 16-bit access of register
//    files (16 B .. 512 B) and SRAMs (32 KB .. 512 KB), a MAC, one hop and a DRAM access,
//    28 nm. The paper gives no areas and no leakage.
//  * "thistle-45nm": Table III and Eq. (4)/(5) of Chatarasi et al., "Thistle: ...
//    architecture-dataflow co-design", CGO'22. eps_R = sigma_R * R (R registers),
//    eps_S = sigma_S * sqrt(S) (S SRAM words), DRAM 128 pJ, int16 MAC 2.2 pJ, and linear
//    areas per register, per SRAM word and per MAC, 45 nm. No leakage.
//  * "table": energies and areas are given in the project; nothing is computed.
//  * "table-scaled": the project's figures hold at the sizes the project gives; when a size
//    changes (an edit in the workbench), rescaleForSize() moves the level's energies and area
//    along the scaling laws below, so figures follow sizes without a full model.
//
// Both papers use 16-bit words. Every per-access figure below is for one 16-bit word.
// applyEnergyModel() extends that to other word widths (a documented choice of ours, not the
// papers'): a w-bit word costs w/16 of a 16-bit access of the same memory, the memory's
// capacity is measured in bytes (Interstellar) or in 16-bit words (Thistle), and Thistle's
// per-word areas scale by w/16 as well. For word_bits == 16 every number is exactly the paper's.
#include "arch/Architecture.h"

#include <string>
#include <vector>

namespace nestor {

enum class MemoryKind { RegisterFile, SRAM, DRAM };

namespace interstellar28nm {

struct TableEntry {
    double size_bytes;  // capacity of the memory
    double energy_pJ;   // per 16-bit access
};

// Table 3, register-file column: 16 B 0.03 pJ ... 512 B 0.96 pJ.
const std::vector<TableEntry>& registerFileTable();
// Table 3, SRAM column: 32 KB 6 pJ ... 512 KB 30.375 pJ (1 KB = 1024 B).
const std::vector<TableEntry>& sramTable();

inline constexpr double kMacEnergy_pJ = 0.075;   // one 16-bit MAC
inline constexpr double kHopEnergy_pJ = 0.035;   // one hop of inter-PE communication
inline constexpr double kDramEnergy_pJ = 200.0;  // one 16-bit DRAM access

// Energy of one 16-bit access of a register file or SRAM of `size_bytes` bytes, or of DRAM
// (size ignored). At a table size the table's value is returned exactly. Between two
// neighbouring entries (s0, e0) and (s1, e1) the interpolation is linear in log(size) vs
// log(energy), i.e. a power law through both entries:
//     e(s) = e0 * (s / s0) ^ (log(e1 / e0) / log(s1 / s0)).
// The table itself is geometric (each doubling of size multiplies the energy by 2 for RFs
// and by 1.5 for SRAMs), so this reproduces the table's own scaling between entries.
// Outside the table the value is clamped to the nearest end entry (no extrapolation).
// size_bytes must be positive for RF and SRAM (std::invalid_argument otherwise).
double accessEnergy_pJ(MemoryKind kind, double size_bytes);

} // namespace interstellar28nm

namespace thistle45nm {

// Table III. The register constant is printed in pJ/word. The SRAM constant is printed as
// "17.88" without a unit; read as pJ it would make a single access to a 64-word SRAM cost
// more than a DRAM access (17.88 * 8 = 143 pJ > 128 pJ) and the baseline's 128 KB SRAM
// 4577 pJ per access, which is physically meaningless. We therefore read it in fJ per
// access per sqrt(word), i.e. sigma_S = 17.88e-3 pJ: the baseline 64 Ki-word SRAM then
// costs 4.58 pJ per access, the same order as its 512-register file (4.64 pJ) and far
// below DRAM, consistent with the 45 nm Accelergy tables the paper took its numbers from.
inline constexpr double kSigmaR_pJ_per_word = 9.06719e-3;
inline constexpr double kSigmaS_pJ_per_sqrt_word = 17.88e-3;
inline constexpr double kDramEnergy_pJ = 128.0;
inline constexpr double kMacEnergy_pJ = 2.2;
inline constexpr double kAreaMac_um2 = 1239.5;
inline constexpr double kAreaRegister_um2 = 19.874;
inline constexpr double kAreaSramWord_um2 = 6.806;

// Eq. (4): energy of one access to a register file of R registers, eps_R = sigma_R * R.
double registerFileEnergy_pJ(double registers);
// Eq. (4): energy of one access to an SRAM of S words, eps_S = sigma_S * sqrt(S).
double sramEnergy_pJ(double words);
// Eq. (5): (Area_R * R + Area_MAC) * P + Area_S * S.
double totalArea_um2(double registersPerPE, double pes, double sramWords);

} // namespace thistle45nm

// How a level's figures follow its size ("table-scaled"), from `before` to `after` (the same
// level with another size_words, word_bits or block_size). Per vector access, as Thistle's Eq. 4
// extended to word widths the way applyEnergyModel does: an SRAM access costs ~ sqrt(words) x
// word_bits, a register-file access ~ registers x word_bits, both x block_size; area and leakage
// ~ words x word_bits (the storage bits). DRAM, dummy and spatial-only levels, and sizes that are
// unbounded or 0 on either side, keep their figures, and so does a level with energyFixed.
// Changes only after's energies and area.
void rescaleForSize(const StorageLevel& before, StorageLevel& after);

// Names accepted by applyEnergyModel(): "table", "table-scaled", "interstellar-28nm", "thistle-45nm".
const std::vector<std::string>& energyModelNames();
bool isKnownEnergyModel(const std::string& model);

// Fills every storage level's ActionEnergies (read = fill = update = per-word energy x
// block_size, i.e. per vector access; leak = 0 since neither paper gives leakage) and the
// compute level's MAC energy from `model`. "thistle-45nm" also sets area_um2 per instance of
// every level (registers x Area_R for regfiles, words x Area_S for SRAMs, 0 for DRAM and
// spatial-only levels) and of the MAC; "interstellar-28nm" leaves areas untouched (the paper
// gives none). "table" changes nothing. Levels with energyFixed keep their figures.
// Technology picks the formula: "regfile" -> register file, "SRAM" -> SRAM, "DRAM" -> DRAM,
// "dummy" or size_words == 0 -> all energies and the area 0.
// Throws NestorError: field `architecture.energy_model` for an unknown model;
// `architecture.levels[i].technology` for an unknown technology;
// `architecture.levels[i].size_words` for an unbounded register file or SRAM.
void applyEnergyModel(Architecture& arch, const std::string& model);

} // namespace nestor
