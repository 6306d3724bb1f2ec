#include "VtaTraceLanes.h"

#include "sim/vta/Disassembler.h"

#include <QObject>

#include <algorithm>
#include <iterator>

namespace nestor::app {

namespace {

QColor opcodeColor(vta::Opcode op)
{
    switch (op) {
    case vta::Opcode::Load: return QColor(0x2A, 0x9D, 0x8F);   // teal
    case vta::Opcode::Store: return QColor(0x6A, 0x4C, 0x93);  // purple
    case vta::Opcode::Gemm: return QColor(0x1F, 0x6F, 0xB4);   // blue
    case vta::Opcode::Alu: return QColor(0xE0, 0x8E, 0x0B);    // orange
    case vta::Opcode::Finish: return QColor(0x55, 0x55, 0x55);
    }
    return Qt::gray;
}

QColor stallColor(vta::Activity a)
{
    switch (a) {
    case vta::Activity::StallToken: return QColor(0xC6, 0x28, 0x28);   // red: waiting for another module
    case vta::Activity::StallMemory: return QColor(0xB8, 0x86, 0x0B);  // ochre: waiting for DRAM
    case vta::Activity::StallQueue: return QColor(0x75, 0x75, 0x75);   // grey: command queue full
    case vta::Activity::Busy: break;
    }
    return Qt::gray;
}

QString activityText(vta::Activity a)
{
    switch (a) {
    case vta::Activity::Busy: return QObject::tr("busy");
    case vta::Activity::StallToken: return QObject::tr("stalled on a dependency token");
    case vta::Activity::StallMemory: return QObject::tr("stalled on memory");
    case vta::Activity::StallQueue: return QObject::tr("stalled: command queue full");
    }
    return {};
}

} // namespace

std::vector<widgets::TimelineLane> vtaTraceLanes(const vta::ActivityTrace& trace, const std::vector<vta::Instruction>* insns,
                                                 const std::vector<TraceLayerStart>* layers)
{
    auto layerOf = [&](std::uint64_t cycle) -> QString {
        if (!layers || layers->empty()) return {};
        auto it = std::upper_bound(layers->begin(), layers->end(), cycle,
                                   [](std::uint64_t c, const TraceLayerStart& l) { return c < l.cycle; });
        return it == layers->begin() ? QString() : std::prev(it)->name + QStringLiteral(": ");
    };
    std::vector<widgets::TimelineLane> lanes;
    for (int l = 0; l < vta::kTraceLanes; ++l) {
        widgets::TimelineLane lane;
        lane.name = QString::fromLatin1(vta::laneName(l));
        lane.spans.reserve(trace.lanes[std::size_t(l)].size());
        for (const vta::ActivityInterval& in : trace.lanes[std::size_t(l)]) {
            widgets::TimelineSpan s;
            s.begin = in.begin;
            s.end = in.end;
            s.stall = in.activity != vta::Activity::Busy;
            s.color = s.stall ? stallColor(in.activity) : opcodeColor(in.opcode);
            const QString what = insns && in.insnIndex < insns->size()
                                     ? QString::fromStdString(vta::disassemble((*insns)[in.insnIndex]))
                                     : QString::fromLatin1(vta::opcodeName(in.opcode));
            s.label = layerOf(in.begin) + QObject::tr("#%1 %2 (%3)").arg(in.insnIndex).arg(what, activityText(in.activity));
            lane.spans.push_back(std::move(s));
        }
        lanes.push_back(std::move(lane));
    }
    return lanes;
}

std::vector<widgets::TimelineLegendEntry> vtaTraceLegend()
{
    using vta::Activity;
    using vta::Opcode;
    return {{QObject::tr("LOAD"), opcodeColor(Opcode::Load), false},
            {QObject::tr("GEMM"), opcodeColor(Opcode::Gemm), false},
            {QObject::tr("ALU"), opcodeColor(Opcode::Alu), false},
            {QObject::tr("STORE"), opcodeColor(Opcode::Store), false},
            {QObject::tr("token stall"), stallColor(Activity::StallToken), true},
            {QObject::tr("memory stall"), stallColor(Activity::StallMemory), true},
            {QObject::tr("queue full"), stallColor(Activity::StallQueue), true}};
}

} // namespace nestor::app
