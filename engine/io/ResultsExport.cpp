#include "io/ResultsExport.h"

#include "io/JsonWriter.h"
#include "io/TextFormat.h"

#include <sstream>

namespace nestor {

namespace {

std::string tensorName(const Evaluation& ev, std::size_t t)
{
    return t < ev.tensorNames.size() ? ev.tensorNames[t] : "tensor" + std::to_string(t);
}

void writeTensor(JsonWriter& j, const TensorLevelStats& s)
{
    j.beginObject();
    j.field("kept", s.kept);
    j.field("utilized_capacity", s.utilized_capacity);
    j.field("utilized_instances", s.utilized_instances);
    j.field("partition_size", s.partition_size);
    j.field("reads", s.reads).field("fills", s.fills).field("updates", s.updates);
    j.field("link_transfers", s.link_transfers);
    j.field("reads_min", s.reads_min).field("reads_max", s.reads_max);
    j.field("fills_min", s.fills_min).field("fills_max", s.fills_max);
    j.field("updates_min", s.updates_min).field("updates_max", s.updates_max);
    j.field("multicast_factor", s.multicast_factor);
    j.field("energy_pJ", s.energy_pJ);
    j.field("read_bw_words_per_cycle", s.read_bw_words_per_cycle);
    j.field("write_bw_words_per_cycle", s.write_bw_words_per_cycle);
    j.endObject();
}

} // namespace

std::string evaluationToJson(const Evaluation& ev, const ResultsMeta& meta)
{
    JsonWriter j;
    j.beginObject();
    j.field("project", meta.project).field("workload", meta.workload);
    j.field("mapping", meta.mapping).field("architecture", meta.architecture);
    j.field("valid", ev.valid);
    j.field("exact_budget_exceeded", ev.exactBudgetExceeded);
    j.key("errors").beginArray();
    for (const auto& d : ev.errors) {
        j.beginObject();
        j.field("field", d.field).field("message", d.message);
        if (!d.location.toString().empty()) j.field("location", d.location.toString());
        j.endObject();
    }
    j.endArray();
    j.key("summary").beginObject();
    j.field("macs", ev.macs);
    j.field("cycles", ev.cycles);
    j.field("compute_cycles", ev.compute_cycles);
    j.field("utilized_macs", ev.utilized_macs);
    j.field("utilization", ev.utilization);
    j.field("energy_pJ", ev.energy_pJ);
    j.field("compute_energy_pJ", ev.compute_energy_pJ);
    j.field("pJ_per_mac", ev.pJ_per_mac);
    j.field("area_um2", ev.area_um2);
    j.field("edp_J_s", ev.edp_J_s);
    j.endObject();
    j.key("levels").beginArray();
    for (const auto& l : ev.levels) {
        j.beginObject();
        j.field("name", l.name);
        j.field("cycles", l.cycles);
        j.field("slowdown", l.slowdown);
        j.field("capacity_used_words", l.capacity_used_words);
        j.field("utilized_instances", l.utilized_instances);
        j.field("leakage_energy_pJ", l.leakage_energy_pJ);
        j.field("energy_pJ", l.energy_pJ);
        j.key("tensors").beginObject();
        for (std::size_t t = 0; t < l.tensors.size(); ++t) {
            j.key(tensorName(ev, t));
            writeTensor(j, l.tensors[t]);
        }
        j.endObject();
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.str();
}

std::string evaluationToCsv(const Evaluation& ev, const ResultsMeta& meta)
{
    using text::csvField;
    using text::shortest;
    std::ostringstream o;
    o << "level,tensor,kept,utilized_capacity,utilized_instances,partition_size,reads,fills,updates,link_transfers,"
         "reads_min,reads_max,fills_min,fills_max,updates_min,updates_max,multicast_factor,energy_pJ,"
         "read_bw_words_per_cycle,write_bw_words_per_cycle\n";
    for (const auto& l : ev.levels)
        for (std::size_t t = 0; t < l.tensors.size(); ++t) {
            const TensorLevelStats& s = l.tensors[t];
            o << csvField(l.name) << ',' << csvField(tensorName(ev, t)) << ',' << (s.kept ? "yes" : "no") << ','
              << s.utilized_capacity << ',' << s.utilized_instances << ',' << s.partition_size << ',' << s.reads << ','
              << s.fills << ',' << s.updates << ',' << s.link_transfers << ',' << s.reads_min << ',' << s.reads_max
              << ',' << s.fills_min << ',' << s.fills_max << ',' << s.updates_min << ',' << s.updates_max << ','
              << shortest(s.multicast_factor) << ',' << shortest(s.energy_pJ) << ','
              << shortest(s.read_bw_words_per_cycle) << ',' << shortest(s.write_bw_words_per_cycle) << '\n';
        }
    o << "\nkey,value\n";
    auto kv = [&](const char* k, const std::string& v) { o << k << ',' << csvField(v) << '\n'; };
    kv("project", meta.project);
    kv("workload", meta.workload);
    kv("mapping", meta.mapping);
    kv("architecture", meta.architecture);
    kv("valid", ev.valid ? "yes" : "no");
    kv("exact_budget_exceeded", ev.exactBudgetExceeded ? "yes" : "no");
    for (const auto& d : ev.errors) kv("error", d.toString());
    kv("macs", std::to_string(ev.macs));
    kv("cycles", std::to_string(ev.cycles));
    kv("compute_cycles", std::to_string(ev.compute_cycles));
    kv("utilized_macs", std::to_string(ev.utilized_macs));
    kv("utilization", shortest(ev.utilization));
    kv("energy_pJ", shortest(ev.energy_pJ));
    kv("compute_energy_pJ", shortest(ev.compute_energy_pJ));
    kv("pJ_per_mac", shortest(ev.pJ_per_mac));
    kv("area_um2", shortest(ev.area_um2));
    kv("edp_J_s", shortest(ev.edp_J_s));
    for (const auto& l : ev.levels) {
        o << csvField(l.name + ".cycles") << ',' << l.cycles << '\n';
        o << csvField(l.name + ".leakage_energy_pJ") << ',' << shortest(l.leakage_energy_pJ) << '\n';
        o << csvField(l.name + ".energy_pJ") << ',' << shortest(l.energy_pJ) << '\n';
    }
    return o.str();
}

} // namespace nestor
