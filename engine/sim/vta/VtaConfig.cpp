#include "sim/vta/VtaConfig.h"

#include "sim/vta/JsonValue.h"

namespace nestor::vta {

const char* memTypeName(MemType t)
{
    switch (t) {
    case MemType::Uop: return "UOP";
    case MemType::Wgt: return "WGT";
    case MemType::Inp: return "INP";
    case MemType::Acc: return "ACC";
    case MemType::Out: return "OUT";
    }
    return "?";
}

int VtaConfig::lanes(MemType t) const
{
    switch (t) {
    case MemType::Uop: return 1;
    case MemType::Inp: return batch() * blockIn();
    case MemType::Wgt: return blockOut() * blockIn();
    case MemType::Acc:
    case MemType::Out: return batch() * blockOut();
    }
    return 1;
}

int VtaConfig::log2ElemBytes(MemType t) const
{
    // Widths are in bits; an element is lanes x width, and a byte is 2^3 bits.
    switch (t) {
    case MemType::Uop: return 2;  // 32-bit micro-op
    case MemType::Inp: return logBatch + logBlockIn + logInpWidth - 3;
    case MemType::Wgt: return logBlockOut + logBlockIn + logWgtWidth - 3;
    case MemType::Acc: return logBatch + logBlockOut + logAccWidth - 3;
    case MemType::Out: return logBatch + logBlockOut + logOutWidth() - 3;
    }
    return 0;
}

int VtaConfig::logDepth(MemType t) const
{
    switch (t) {
    case MemType::Uop: return logUopBuffSize - log2ElemBytes(t);
    case MemType::Inp: return logInpBuffSize - log2ElemBytes(t);
    case MemType::Wgt: return logWgtBuffSize - log2ElemBytes(t);
    case MemType::Acc: return logAccBuffSize - log2ElemBytes(t);
    case MemType::Out: return logOutBuffSize() - log2ElemBytes(t);
    }
    return 0;
}

Diagnostics VtaConfig::validate() const
{
    Diagnostics d;
    auto range = [&](const char* name, int v, int lo, int hi, const char* why) {
        if (v < lo || v > hi)
            d.push_back({std::string("config.") + name,
                         std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                             "]: " + why,
                         {}});
    };
    range("LOG_INP_WIDTH", logInpWidth, 3, 5, "lanes are 8, 16 or 32 bit");
    range("LOG_WGT_WIDTH", logWgtWidth, 3, 5, "lanes are 8, 16 or 32 bit");
    range("LOG_ACC_WIDTH", logAccWidth, 3, 5, "lanes are 8, 16 or 32 bit");
    range("LOG_BATCH", logBatch, 0, 6, "at most 64 rows per element");
    range("LOG_BLOCK_IN", logBlockIn, 0, 8, "at most 256 columns per element");
    range("LOG_BLOCK_OUT", logBlockOut, 0, 8, "at most 256 columns per element");
    range("LOG_UOP_BUFF_SIZE", logUopBuffSize, 2, 30, "a buffer of 4 B to 1 GiB");
    range("LOG_INP_BUFF_SIZE", logInpBuffSize, 0, 30, "a buffer of 1 B to 1 GiB");
    range("LOG_WGT_BUFF_SIZE", logWgtBuffSize, 0, 30, "a buffer of 1 B to 1 GiB");
    range("LOG_ACC_BUFF_SIZE", logAccBuffSize, 0, 30, "a buffer of 1 B to 1 GiB");
    if (!d.empty()) return d;

    struct Buffer {
        MemType type;
        const char* key;
    };
    for (const Buffer b : {Buffer{MemType::Uop, "LOG_UOP_BUFF_SIZE"}, Buffer{MemType::Inp, "LOG_INP_BUFF_SIZE"},
                           Buffer{MemType::Wgt, "LOG_WGT_BUFF_SIZE"}, Buffer{MemType::Acc, "LOG_ACC_BUFF_SIZE"}}) {
        if (logDepth(b.type) < 0)
            d.push_back({std::string("config.") + b.key,
                         std::string("the ") + memTypeName(b.type) + " buffer is smaller than one element (" +
                             std::to_string(elemBytes(b.type)) + " B)",
                         {}});
    }
    if (!d.empty()) return d;
    // Index fields: sram_base is 16 bit, uop fields share 32 bits (spec.md §2.2, §2.6).
    for (const MemType t : {MemType::Uop, MemType::Inp, MemType::Wgt, MemType::Acc}) {
        if (logDepth(t) > 16)
            d.push_back({std::string("config.LOG_") + memTypeName(t) + "_BUFF_SIZE",
                         std::string("the ") + memTypeName(t) + " buffer has 2^" + std::to_string(logDepth(t)) +
                             " elements; the 16-bit sram_base field addresses at most 2^16",
                         {}});
    }
    const int srcBits = logDepth(MemType::Acc) > logDepth(MemType::Inp) ? logDepth(MemType::Acc) : logDepth(MemType::Inp);
    const int uopBits = logDepth(MemType::Acc) + srcBits + logDepth(MemType::Wgt);
    if (uopBits > 32)
        d.push_back({"config", "a micro-op needs " + std::to_string(uopBits) +
                                   " bits (acc + max(acc, inp) + wgt index widths); it has 32", {}});
    return d;
}

std::string VtaConfig::summary() const
{
    return std::to_string(batch()) + "x" + std::to_string(blockIn()) + "x" + std::to_string(blockOut()) + "_i" +
           std::to_string(inpBits()) + "w" + std::to_string(wgtBits()) + "a" + std::to_string(accBits()) + "_" +
           std::to_string(logUopBuffSize) + "_" + std::to_string(logInpBuffSize) + "_" +
           std::to_string(logWgtBuffSize) + "_" + std::to_string(logAccBuffSize);
}

std::string configDifferences(const VtaConfig& got, const VtaConfig& simulated)
{
    const std::pair<const char*, int VtaConfig::*> keys[] = {
        {"LOG_INP_WIDTH", &VtaConfig::logInpWidth},         {"LOG_WGT_WIDTH", &VtaConfig::logWgtWidth},
        {"LOG_ACC_WIDTH", &VtaConfig::logAccWidth},         {"LOG_BATCH", &VtaConfig::logBatch},
        {"LOG_BLOCK_IN", &VtaConfig::logBlockIn},           {"LOG_BLOCK_OUT", &VtaConfig::logBlockOut},
        {"LOG_UOP_BUFF_SIZE", &VtaConfig::logUopBuffSize}, {"LOG_INP_BUFF_SIZE", &VtaConfig::logInpBuffSize},
        {"LOG_WGT_BUFF_SIZE", &VtaConfig::logWgtBuffSize}, {"LOG_ACC_BUFF_SIZE", &VtaConfig::logAccBuffSize}};
    std::string s;
    for (const auto& [name, member] : keys) {
        if (got.*member == simulated.*member) continue;
        if (!s.empty()) s += ", ";
        s += std::string(name) + " " + std::to_string(got.*member) + " (simulated: " + std::to_string(simulated.*member) + ")";
    }
    return s;
}

VtaConfig readVtaConfig(const JsonValue& object, const std::string& field)
{
    VtaConfig c;
    bool haveBlock = false, haveBlockIn = false, haveBlockOut = false;
    int block = 0;
    const JsonValue* outWidth = nullptr;
    const JsonValue* outBuff = nullptr;
    auto small = [&](const JsonValue& v, const std::string& key) {
        const std::int64_t n = v.asInteger(field + "." + key);
        if (n < 0 || n > 64) v.fail(field + "." + key, std::to_string(n) + " is not a log2 parameter in [0, 64]");
        return static_cast<int>(n);
    };
    for (const auto& [key, v] : object.members(field)) {
        if (key == "LOG_INP_WIDTH") c.logInpWidth = small(v, key);
        else if (key == "LOG_WGT_WIDTH") c.logWgtWidth = small(v, key);
        else if (key == "LOG_ACC_WIDTH") c.logAccWidth = small(v, key);
        else if (key == "LOG_BATCH") c.logBatch = small(v, key);
        else if (key == "LOG_BLOCK") { block = small(v, key); haveBlock = true; }
        else if (key == "LOG_BLOCK_IN") { c.logBlockIn = small(v, key); haveBlockIn = true; }
        else if (key == "LOG_BLOCK_OUT") { c.logBlockOut = small(v, key); haveBlockOut = true; }
        else if (key == "LOG_UOP_BUFF_SIZE") c.logUopBuffSize = small(v, key);
        else if (key == "LOG_INP_BUFF_SIZE") c.logInpBuffSize = small(v, key);
        else if (key == "LOG_WGT_BUFF_SIZE") c.logWgtBuffSize = small(v, key);
        else if (key == "LOG_ACC_BUFF_SIZE") c.logAccBuffSize = small(v, key);
        else if (key == "LOG_OUT_WIDTH") { small(v, key); outWidth = &v; }
        else if (key == "LOG_OUT_BUFF_SIZE") { small(v, key); outBuff = &v; }
        else if (key.rfind("LOG_", 0) == 0) v.fail(field + "." + key, "unknown configuration parameter");
    }
    if (haveBlock) {
        if (haveBlockIn && c.logBlockIn != block)
            object.at("LOG_BLOCK_IN", field).fail(field + ".LOG_BLOCK_IN", "differs from LOG_BLOCK " + std::to_string(block));
        if (haveBlockOut && c.logBlockOut != block)
            object.at("LOG_BLOCK_OUT", field).fail(field + ".LOG_BLOCK_OUT", "differs from LOG_BLOCK " + std::to_string(block));
        c.logBlockIn = c.logBlockOut = block;
    }
    const Diagnostics problems = c.validate();
    if (!problems.empty()) {
        Diagnostics located = problems;
        for (auto& p : located) {
            const std::string key = p.field.substr(p.field.find('.') + 1);
            const JsonValue* v = object.find(key);
            p.location = v ? v->location() : object.location();
            p.field = field + p.field.substr(std::string("config").size());
        }
        throw NestorError(located);
    }
    if (outWidth && outWidth->asInteger("") != c.logOutWidth())
        outWidth->fail(field + ".LOG_OUT_WIDTH", "must equal LOG_INP_WIDTH (" + std::to_string(c.logOutWidth()) + ")");
    if (outBuff && outBuff->asInteger("") != c.logOutBuffSize())
        outBuff->fail(field + ".LOG_OUT_BUFF_SIZE", "must equal LOG_ACC_BUFF_SIZE + LOG_OUT_WIDTH - LOG_ACC_WIDTH (" +
                                                        std::to_string(c.logOutBuffSize()) + ")");
    return c;
}

} // namespace nestor::vta
