#include "solvers/thistle/CodesignCsv.h"

#include "io/TextFormat.h"

namespace nestor::thistle {

namespace {

std::string row(const char* design, const Workload& w, const LayerOptimization& r)
{
    using text::csvField;
    using text::fixed;
    std::string s = std::string(design) + "," + csvField(r.layer) + "," + (r.ok ? "1" : "0") + ",";
    if (!r.ok) return s + ",,,,,,,,," + csvField(r.error) + "\n";
    const SolvedCandidate& b = r.best;
    const double macs = static_cast<double>(b.eval.macs);
    return s + csvField(b.perm.text(w)) + "," + std::to_string(b.registers) + "," + std::to_string(b.sramWords) + "," +
           std::to_string(b.pes) + "," + fixed(b.eval.area_um2, 1) + "," + fixed(b.eval.pJ_per_mac, 4) + "," +
           fixed(b.solverEnergy_pJ / macs, 4) + "," + std::to_string(b.eval.cycles) + "," + fixed(b.eval.utilization, 4) + ",\n";
}

} // namespace

std::string codesignCsv(const std::vector<const Workload*>& layers, const NetworkCodesign& result)
{
    std::string csv = "design,layer,ok,permutation,registers_per_pe,sram_words,pes,area_um2,pJ_per_mac,solver_pJ_per_mac,"
                      "cycles,utilization,error\n";
    const std::pair<const char*, const std::vector<LayerOptimization>*> designs[] = {
        {"fixed", &result.fixed}, {"layer-wise", &result.layerwise}, {"single", &result.single}};
    for (const auto& [name, rows] : designs)
        for (std::size_t i = 0; i < rows->size() && i < layers.size(); ++i) csv += row(name, *layers[i], (*rows)[i]);
    return csv;
}

} // namespace nestor::thistle
