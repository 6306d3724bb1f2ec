#include "arch/EnergyModels.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nestor {

namespace interstellar28nm {

const std::vector<TableEntry>& registerFileTable()
{
    static const std::vector<TableEntry> t = {
        {16.0, 0.03}, {32.0, 0.06}, {64.0, 0.12}, {128.0, 0.24}, {256.0, 0.48}, {512.0, 0.96},
    };
    return t;
}

const std::vector<TableEntry>& sramTable()
{
    constexpr double KB = 1024.0;
    static const std::vector<TableEntry> t = {
        {32.0 * KB, 6.0}, {64.0 * KB, 9.0}, {128.0 * KB, 13.5}, {256.0 * KB, 20.25}, {512.0 * KB, 30.375},
    };
    return t;
}

namespace {

double lookup(const std::vector<TableEntry>& t, double s)
{
    if (!(s > 0.0) || !std::isfinite(s))
        throw std::invalid_argument("interstellar28nm: memory size must be positive and finite");
    if (s <= t.front().size_bytes) return t.front().energy_pJ;  // clamped (or exact)
    if (s >= t.back().size_bytes) return t.back().energy_pJ;    // clamped (or exact)
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
        const TableEntry& a = t[i];
        const TableEntry& b = t[i + 1];
        if (s == a.size_bytes) return a.energy_pJ;
        if (s < b.size_bytes) {
            const double exponent = std::log(b.energy_pJ / a.energy_pJ) / std::log(b.size_bytes / a.size_bytes);
            return a.energy_pJ * std::pow(s / a.size_bytes, exponent);
        }
    }
    return t.back().energy_pJ;  // s == last size (handled above); kept for completeness
}

} // namespace

double accessEnergy_pJ(MemoryKind kind, double size_bytes)
{
    switch (kind) {
    case MemoryKind::DRAM: return kDramEnergy_pJ;
    case MemoryKind::RegisterFile: return lookup(registerFileTable(), size_bytes);
    case MemoryKind::SRAM: return lookup(sramTable(), size_bytes);
    }
    return 0.0;
}

} // namespace interstellar28nm

namespace thistle45nm {

double registerFileEnergy_pJ(double registers) { return kSigmaR_pJ_per_word * registers; }

double sramEnergy_pJ(double words) { return kSigmaS_pJ_per_sqrt_word * std::sqrt(words); }

double totalArea_um2(double registersPerPE, double pes, double sramWords)
{
    return (kAreaRegister_um2 * registersPerPE + kAreaMac_um2) * pes + kAreaSramWord_um2 * sramWords;
}

} // namespace thistle45nm

const std::vector<std::string>& energyModelNames()
{
    static const std::vector<std::string> names = {"table", "table-scaled", "interstellar-28nm", "thistle-45nm"};
    return names;
}

bool isKnownEnergyModel(const std::string& model)
{
    const auto& n = energyModelNames();
    return std::find(n.begin(), n.end(), model) != n.end();
}

namespace {

enum class Tech { RegisterFile, SRAM, DRAM, Dummy };

Tech technologyOf(const StorageLevel& l, const std::string& field)
{
    if (l.technology == "regfile") return Tech::RegisterFile;
    if (l.technology == "SRAM") return Tech::SRAM;
    if (l.technology == "DRAM") return Tech::DRAM;
    if (l.technology == "dummy") return Tech::Dummy;
    throw NestorError(field + ".technology",
                      "unknown technology '" + l.technology + "' (expected regfile, SRAM, DRAM or dummy)");
}

} // namespace

void applyEnergyModel(Architecture& arch, const std::string& model)
{
    if (model == "table" || model == "table-scaled") return;  // the given figures, at the given sizes
    const bool interstellar = model == "interstellar-28nm";
    const bool thistle = model == "thistle-45nm";
    if (!interstellar && !thistle)
        throw NestorError("architecture.energy_model",
                          "unknown energy model '" + model + "' (expected table, table-scaled, interstellar-28nm or thistle-45nm)");

    // Validate everything first so that a failure leaves the architecture unchanged.
    std::vector<Tech> techs;
    for (int i = 0; i < arch.numLevels(); ++i) {
        const StorageLevel& l = arch.levels[static_cast<std::size_t>(i)];
        const std::string field = "architecture.levels[" + std::to_string(i) + "]";
        Tech t = technologyOf(l, field);
        if (l.isSpatialOnly()) t = Tech::Dummy;
        if ((t == Tech::RegisterFile || t == Tech::SRAM) && !l.size_words)
            throw NestorError(field + ".size_words", "the " + model + " energy model needs a finite size for a " +
                                                         l.technology + " level");
        if ((t == Tech::RegisterFile || t == Tech::SRAM) && *l.size_words < 0)
            throw NestorError(field + ".size_words", "size must not be negative");
        if (t != Tech::Dummy && l.word_bits <= 0)
            throw NestorError(field + ".word_bits", "word_bits must be positive");
        techs.push_back(t);
    }

    for (int i = 0; i < arch.numLevels(); ++i) {
        StorageLevel& l = arch.levels[static_cast<std::size_t>(i)];
        if (l.energyFixed) continue;
        const Tech t = techs[static_cast<std::size_t>(i)];
        const double wordScale = double(l.word_bits) / 16.0;  // a w-bit word = w/16 16-bit accesses
        double perWord_pJ = 0.0;
        double area_um2 = 0.0;
        if (t != Tech::Dummy) {
            const double sizeWords = l.size_words ? double(*l.size_words) : 0.0;
            if (interstellar) {
                const double sizeBytes = sizeWords * double(l.word_bits) / 8.0;
                const MemoryKind kind = t == Tech::DRAM           ? MemoryKind::DRAM
                                        : t == Tech::RegisterFile ? MemoryKind::RegisterFile
                                                                  : MemoryKind::SRAM;
                perWord_pJ = interstellar28nm::accessEnergy_pJ(kind, sizeBytes) * wordScale;
            } else {
                const double words16 = sizeWords * wordScale;  // capacity in 16-bit words
                if (t == Tech::DRAM) {
                    perWord_pJ = thistle45nm::kDramEnergy_pJ * wordScale;
                } else if (t == Tech::RegisterFile) {
                    perWord_pJ = thistle45nm::registerFileEnergy_pJ(words16) * wordScale;
                    area_um2 = thistle45nm::kAreaRegister_um2 * words16;
                } else {
                    perWord_pJ = thistle45nm::sramEnergy_pJ(words16) * wordScale;
                    area_um2 = thistle45nm::kAreaSramWord_um2 * words16;
                }
            }
        }
        const double perVector_pJ = perWord_pJ * double(std::max(1, l.block_size));
        l.energy.read_pJ = perVector_pJ;
        l.energy.fill_pJ = perVector_pJ;
        l.energy.update_pJ = perVector_pJ;
        l.energy.leak_pJ = 0.0;
        if (thistle) l.area_um2 = area_um2;
    }

    if (interstellar) {
        arch.compute.mac_energy_pJ = interstellar28nm::kMacEnergy_pJ;
    } else {
        arch.compute.mac_energy_pJ = thistle45nm::kMacEnergy_pJ;
        arch.compute.area_um2 = thistle45nm::kAreaMac_um2;
    }
}

void rescaleForSize(const StorageLevel& before, StorageLevel& after)
{
    if (after.energyFixed) return;
    const bool sram = after.technology == "SRAM", regfile = after.technology == "regfile";
    if (!(sram || regfile) || before.technology != after.technology) return;
    if (!before.size_words || !after.size_words || *before.size_words <= 0 || *after.size_words <= 0) return;
    if (before.word_bits <= 0 || after.word_bits <= 0 || before.block_size <= 0 || after.block_size <= 0) return;
    const double words = double(*after.size_words) / double(*before.size_words);
    const double bits = double(after.word_bits) / double(before.word_bits);
    const double block = double(after.block_size) / double(before.block_size);
    const double access = (sram ? std::sqrt(words) : words) * bits * block;
    const double storage = words * bits;
    after.energy.read_pJ = before.energy.read_pJ * access;
    after.energy.fill_pJ = before.energy.fill_pJ * access;
    after.energy.update_pJ = before.energy.update_pJ * access;
    after.energy.leak_pJ = before.energy.leak_pJ * storage;
    after.area_um2 = before.area_um2 * storage;
}

} // namespace nestor
