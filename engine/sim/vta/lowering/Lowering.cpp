#include "sim/vta/lowering/Lowering.h"

#include "sim/vta/Dram.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace nestor::vta {

namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::uint32_t u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }

// One output tile: a block of batch, rows, columns and output-channel blocks.
struct TileWork {
    int nb = 0, oh0 = 0, th = 0, ow0 = 0, tw = 0, k0 = 0;  // k0: first channel block
    int region = 0;                                        // ACC half
    int lastStep = 0;
};

// One step of a compute tile: one input-channel tile (conv) or the whole tile (ALU layers).
struct Step {
    int tile = 0;
    int c0 = 0;  // first input channel block
    bool firstOfTile = false;
    bool loadInp = false, loadWgt = false;
    int inpHalf = 0, wgtHalf = 0;
};

class Builder {
public:
    Builder(const LayerSpec& l, const VtaConfig& c, const Tiling& t, const LayerData* data)
        : l_(l), c_(c), t_(t), data_(data), shape_(tileShape(l, c, t))
    {
        nbCount_ = static_cast<int>(ceilDiv(l.n, c.batch()));
        cb_ = static_cast<int>(ceilDiv(l.c, c.blockIn()));
        kb_ = static_cast<int>(ceilDiv(l.outC(), c.blockOut()));
        alu_ = l.kind == LayerKind::MaxPool || l.kind == LayerKind::Add;
        thw_ = std::int64_t(t.th) * t.tw;
        inpHalf_ = c.depth(MemType::Inp) / 2;
        wgtHalf_ = c.depth(MemType::Wgt) / 2;
        accHalf_ = c.depth(MemType::Acc) / 2;
        rs_ = std::int64_t(l.r) * l.s;
    }

    LoweredLayer build()
    {
        planRegions();
        planSteps();
        LoweredLayer out;
        out.spec = l_;
        out.tiling = t_;
        // The two reserved uops (0, 1): the result base of each ACC half, for reset and requantization.
        for (int r = 0; r < 2; ++r) addUopSet({Uop{u32(resultBase(r)), u32(resultBase(r)), 0}});
        emitProgram();
        dram_.resize(static_cast<std::size_t>(end_), 0);
        writeUops();
        if (data_) packData();
        out.insns = std::move(insns_);
        out.dram = std::move(dram_);
        out.outputOffset = outOffset_;
        out.outputBytes = outBytes_;
        return out;
    }

private:
    // --- DRAM regions ---
    std::uint64_t alignment() const
    {
        std::uint64_t a = 4096;
        for (MemType m : {MemType::Inp, MemType::Wgt, MemType::Acc, MemType::Out})
            a = std::max<std::uint64_t>(a, static_cast<std::uint64_t>(c_.elemBytes(m)));
        return a;
    }
    std::uint64_t reserve(std::uint64_t bytes)
    {
        const std::uint64_t at = end_;
        end_ = ceilDiv(static_cast<std::int64_t>(at + bytes), static_cast<std::int64_t>(alignment())) * alignment();
        return at;
    }
    void planRegions()
    {
        // Uop sets are appended later; leave them a generous region at the start: at most 16
        // distinct sets (halves x regions x two column widths) plus the reserved pair.
        uopRegionBytes_ = static_cast<std::uint64_t>((16 * shape_.uopsPerSet + 2)) * c_.elemBytes(MemType::Uop);
        uopOffset_ = reserve(uopRegionBytes_);
        const std::uint64_t spatialIn = std::uint64_t(l_.h) * l_.w;
        if (alu_) {
            const std::uint64_t accBytes = std::uint64_t(nbCount_) * cb_ * spatialIn * c_.elemBytes(MemType::Acc);
            inOffset_[0] = reserve(accBytes);
            if (l_.kind == LayerKind::Add) inOffset_[1] = reserve(accBytes);
        } else {
            inOffset_[0] = reserve(std::uint64_t(nbCount_) * cb_ * spatialIn * c_.elemBytes(MemType::Inp));
            const std::uint64_t wgtElems =
                l_.kind == LayerKind::Depthwise ? std::uint64_t(kb_) * rs_ : std::uint64_t(kb_) * cb_ * rs_;
            wgtOffset_ = reserve(wgtElems * c_.elemBytes(MemType::Wgt));
        }
        outBytes_ = std::uint64_t(nbCount_) * kb_ * l_.outH() * l_.outW() * c_.elemBytes(MemType::Out);
        outOffset_ = reserve(outBytes_);
    }

    // --- SRAM layout ---
    // Conv: result = whole ACC half. MaxPool: input window rows first, result after them.
    // Add: first operand (the result, in place), second operand after it.
    std::int64_t regionBase(int r) const { return r * accHalf_; }
    std::int64_t resultBase(int r) const
    {
        if (l_.kind == LayerKind::MaxPool) return regionBase(r) + std::int64_t(t_.tc) * shape_.ih * shape_.iw;
        return regionBase(r);
    }

    // --- tiles and steps ---
    void planSteps()
    {
        const int oh = l_.outH(), ow = l_.outW();
        const int kTiles = kb_ / t_.tk, cTiles = alu_ || l_.kind == LayerKind::Depthwise ? 1 : cb_ / t_.tc;
        const bool pinnedWeights = !alu_ && kTiles * cTiles == 1;
        const int group = t_.ocThreads ? 2 : 1;
        int inpLoads = 0, wgtLoads = 0;
        for (int nb = 0; nb < nbCount_; ++nb)
            for (int oh0 = 0; oh0 < oh; oh0 += t_.th)
                for (int ow0 = 0; ow0 < ow; ow0 += t_.tw)
                    for (int kt = 0; kt < kTiles; kt += group) {
                        const int members = std::min(group, kTiles - kt);
                        const int firstTile = static_cast<int>(tiles_.size());
                        for (int m = 0; m < members; ++m) {
                            TileWork w;
                            w.nb = nb, w.oh0 = oh0, w.th = std::min(t_.th, oh - oh0);
                            w.ow0 = ow0, w.tw = std::min(t_.tw, ow - ow0), w.k0 = (kt + m) * t_.tk;
                            w.region = static_cast<int>(tiles_.size() % 2);
                            tiles_.push_back(w);
                        }
                        for (int ct = 0; ct < cTiles; ++ct)
                            for (int m = 0; m < members; ++m) {
                                Step s;
                                s.tile = firstTile + m;
                                s.c0 = l_.kind == LayerKind::Depthwise || alu_ ? tiles_[s.tile].k0 : ct * t_.tc;
                                s.firstOfTile = ct == 0;
                                if (!alu_) {
                                    s.loadInp = m == 0;  // the pair's second tile reuses the input chunk
                                    s.loadWgt = !pinnedWeights || steps_.empty();
                                    if (s.loadInp) ++inpLoads;
                                    if (s.loadWgt) ++wgtLoads;
                                    s.inpHalf = (inpLoads - 1) % 2;
                                    s.wgtHalf = (wgtLoads - 1) % 2;
                                }
                                tiles_[s.tile].lastStep = static_cast<int>(steps_.size());
                                steps_.push_back(s);
                            }
                    }
    }

    bool stepLoads(std::size_t s) const { return s < steps_.size() && (steps_[s].loadInp || steps_[s].loadWgt); }

    // --- micro-op sets: the uop buffer holds the two reserved uops, then slots of one set each ---
    int addUopSet(std::vector<Uop> set)
    {
        uopSets_.push_back(std::move(set));
        return static_cast<int>(uopSets_.size()) - 1;
    }
    // Makes sure set `key` is in the uop buffer (LOAD UOP on a miss, round-robin slots); returns
    // its first uop index. Compute runs in order, so evicting a set earlier GEMMs used is safe.
    std::uint32_t ensureUops(const std::tuple<int, int, int, int, int>& key, const std::vector<Uop>& content)
    {
        auto found = setOfKey_.find(key);
        int set = 0;
        if (found == setOfKey_.end()) {
            set = addUopSet(content);
            setOfKey_.emplace(key, set);
        } else {
            set = found->second;
        }
        const std::int64_t setSize = shape_.uopsPerSet;
        const int slots = static_cast<int>((c_.depth(MemType::Uop) - 2) / setSize);
        for (int slot = 0; slot < slots && slot < static_cast<int>(slotSet_.size()); ++slot)
            if (slotSet_[static_cast<std::size_t>(slot)] == set) return u32(2 + slot * setSize);
        int chosen = 0;
        if (static_cast<int>(slotSet_.size()) < slots) {
            chosen = static_cast<int>(slotSet_.size());
            slotSet_.push_back(set);
        } else {
            chosen = nextSlot_;
            nextSlot_ = (nextSlot_ + 1) % slots;
            slotSet_[static_cast<std::size_t>(chosen)] = set;
        }
        Instruction ld;
        ld.opcode = Opcode::Load;
        ld.memType = static_cast<std::uint32_t>(MemType::Uop);
        ld.sramBase = u32(2 + chosen * setSize);
        ld.dramBase = u32(-1);  // patched in writeUops(): set offsets are known once all sets exist
        ld.ySize = 1;
        ld.xSize = u32(content.size());
        ld.xStride = u32(content.size());
        uopLoads_.emplace_back(insns_.size(), set);
        insns_.push_back(ld);
        return u32(2 + chosen * setSize);
    }

    // --- instruction helpers ---
    static Instruction memInsn(Opcode op, MemType m, std::int64_t sram, std::int64_t dram, std::int64_t y,
                               std::int64_t x, std::int64_t stride)
    {
        Instruction i;
        i.opcode = op;
        i.memType = static_cast<std::uint32_t>(m);
        i.sramBase = u32(sram);
        i.dramBase = u32(dram);
        i.ySize = u32(y);
        i.xSize = u32(x);
        i.xStride = u32(stride);
        return i;
    }
    static Instruction loopInsn(Opcode op, std::uint32_t uopBgn, std::int64_t uops, std::int64_t iterOut,
                                std::int64_t iterIn, std::int64_t dstOut, std::int64_t dstIn, std::int64_t srcOut,
                                std::int64_t srcIn)
    {
        Instruction i;
        i.opcode = op;
        i.uopBgn = uopBgn;
        i.uopEnd = uopBgn + u32(uops);
        i.iterOut = u32(iterOut);
        i.iterIn = u32(iterIn);
        i.dstFactorOut = u32(dstOut);
        i.dstFactorIn = u32(dstIn);
        i.srcFactorOut = u32(srcOut);
        i.srcFactorIn = u32(srcIn);
        return i;
    }
    Instruction aluImm(AluOp op, int region, int tk, const TileWork& w, std::int32_t imm) const
    {
        Instruction i = loopInsn(Opcode::Alu, u32(region), 1, tk, std::int64_t(w.th) * w.tw, thw_, 1, thw_, 1);
        i.aluOp = static_cast<std::uint32_t>(op);
        i.useImm = true;
        i.imm = imm;
        return i;
    }

    // Input window of a tile: first row/column (may be negative: padding) and extent.
    struct Window {
        int y0, x0, rows, cols;       // padded window
        int yPad0, yPad1, xPad0, xPad1;
        int ySize() const { return rows - yPad0 - yPad1; }
        int xSize() const { return cols - xPad0 - xPad1; }
    };
    Window window(const TileWork& w) const
    {
        Window win{};
        win.y0 = w.oh0 * l_.stride - l_.pad;
        win.x0 = w.ow0 * l_.stride - l_.pad;
        win.rows = (w.th - 1) * l_.stride + l_.r;
        win.cols = (w.tw - 1) * l_.stride + l_.s;
        win.yPad0 = std::max(0, -win.y0);
        win.xPad0 = std::max(0, -win.x0);
        win.yPad1 = std::max(0, win.y0 + win.rows - l_.h);
        win.xPad1 = std::max(0, win.x0 + win.cols - l_.w);
        return win;
    }
    // A 2-D load of one channel block of the input window with its padding.
    Instruction windowLoad(MemType m, std::int64_t sram, std::int64_t tensorElem0, const TileWork& w, int cbGlobal) const
    {
        const Window win = window(w);
        const std::int64_t plane = std::int64_t(l_.h) * l_.w;
        const std::int64_t dram = tensorElem0 + (std::int64_t(w.nb) * cb_ + cbGlobal) * plane +
                                  std::int64_t(win.y0 + win.yPad0) * l_.w + (win.x0 + win.xPad0);
        Instruction i = memInsn(Opcode::Load, m, sram, dram, win.ySize(), win.xSize(), l_.w);
        i.yPad0 = u32(win.yPad0), i.yPad1 = u32(win.yPad1), i.xPad0 = u32(win.xPad0), i.xPad1 = u32(win.xPad1);
        return i;
    }
    std::int64_t elemIndex(std::uint64_t byteOffset, MemType m) const
    {
        return static_cast<std::int64_t>(byteOffset / static_cast<std::uint64_t>(c_.elemBytes(m)));
    }

    // --- the program ---
    void emitProgram()
    {
        // The reserved uops first (compute module, before anything uses them).
        Instruction ld = memInsn(Opcode::Load, MemType::Uop, 0, elemIndex(uopOffset_, MemType::Uop), 1, 2, 2);
        insns_.push_back(ld);
        const int tileCount = static_cast<int>(tiles_.size());
        for (std::size_t s = 0; s < steps_.size(); ++s) {
            const Step& st = steps_[s];
            const TileWork& w = tiles_[static_cast<std::size_t>(st.tile)];
            if (!alu_) emitLoads(s);
            const std::size_t computeStart = insns_.size();
            if (st.firstOfTile) {
                // Reset the result (not for Add, whose first operand is loaded in place).
                if (l_.kind != LayerKind::Add) {
                    Instruction reset = loopInsn(Opcode::Gemm, u32(w.region), 1, t_.tk, thw_, thw_, 1, 0, 0);
                    reset.reset = true;
                    insns_.push_back(reset);
                }
            }
            if (alu_) emitAluStep(w);
            else emitGemmStep(st, w);
            // Dependency flags on the compute instructions of this step (the first that is not a
            // LOAD UOP/ACC pops; the last pushes).
            setComputeFlags(computeStart, s, st);
            if (static_cast<int>(s) == w.lastStep) emitRequantizeAndStore(st.tile, w, tileCount);
        }
        Instruction finish;
        finish.opcode = Opcode::Finish;
        finish.popNext = true;  // the last store's S2G token: every store precedes FINISH
        insns_.push_back(finish);
    }

    void setComputeFlags(std::size_t from, std::size_t s, const Step& st)
    {
        std::vector<std::size_t> loops;
        for (std::size_t i = from; i < insns_.size(); ++i)
            if (insns_[i].isLoop()) loops.push_back(i);
        if (loops.empty()) return;
        Instruction& first = insns_[loops.front()];
        Instruction& last = insns_[loops.back()];
        if (st.loadInp || st.loadWgt) first.popPrev = true;  // LD->CMP: this step's chunks are in
        // ST->CMP: the ACC half is stored; before anything writes it (a reset, or LOAD ACC).
        if (st.firstOfTile && st.tile >= 2) insns_[from].popNext = true;
        if (stepLoads(s + 2)) last.pushPrev = true;  // CMP->LD: the halves of this step are free
    }

    void emitLoads(std::size_t s)
    {
        const Step& st = steps_[s];
        const TileWork& w = tiles_[static_cast<std::size_t>(st.tile)];
        const std::size_t first = insns_.size();
        if (st.loadInp) {
            const std::int64_t base = st.inpHalf * inpHalf_;
            const std::int64_t plane = std::int64_t(shape_.ih) * shape_.iw;
            for (int cb = 0; cb < t_.tc; ++cb)
                insns_.push_back(windowLoad(MemType::Inp, base + cb * plane, elemIndex(inOffset_[0], MemType::Inp), w,
                                            st.c0 + cb));
        }
        if (st.loadWgt) {
            const std::int64_t base = st.wgtHalf * wgtHalf_;
            const std::int64_t wgt0 = elemIndex(wgtOffset_, MemType::Wgt);
            if (l_.kind == LayerKind::Depthwise)
                insns_.push_back(memInsn(Opcode::Load, MemType::Wgt, base, wgt0 + std::int64_t(w.k0) * rs_, 1,
                                         t_.tk * rs_, t_.tk * rs_));
            else
                insns_.push_back(memInsn(Opcode::Load, MemType::Wgt, base,
                                         wgt0 + (std::int64_t(w.k0) * cb_ + st.c0) * rs_, t_.tk, t_.tc * rs_,
                                         cb_ * rs_));
        }
        if (insns_.size() == first) return;
        if (s >= 2) insns_[first].popNext = true;  // CMP->LD: compute finished step s - 2
        insns_.back().pushNext = true;             // LD->CMP
    }

    void emitGemmStep(const Step& st, const TileWork& w)
    {
        const Window win = window(w);
        const int iwAct = win.cols;
        const std::int64_t plane = std::int64_t(shape_.ih) * shape_.iw;
        const std::int64_t inpBase = st.inpHalf * inpHalf_, wgtBase = st.wgtHalf * wgtHalf_;
        const bool dw = l_.kind == LayerKind::Depthwise;
        const std::int64_t perK = dw ? rs_ : std::int64_t(t_.tc) * rs_;
        std::vector<Uop> set;
        set.reserve(static_cast<std::size_t>(t_.tk * perK));
        for (int kb = 0; kb < t_.tk; ++kb)
            for (int cb = 0; cb < (dw ? 1 : t_.tc); ++cb)
                for (int r = 0; r < l_.r; ++r)
                    for (int s = 0; s < l_.s; ++s) {
                        const int srcBlock = dw ? kb : cb;
                        Uop u;
                        u.dst = u32(regionBase(w.region) + kb * thw_);
                        u.src = u32(inpBase + srcBlock * plane + std::int64_t(r) * iwAct + s);
                        u.wgt = u32(wgtBase + ((std::int64_t(kb) * (dw ? 1 : t_.tc) + cb) * l_.r + r) * l_.s + s);
                        set.push_back(u);
                    }
        const std::uint32_t bgn = ensureUops({st.inpHalf, st.wgtHalf, w.region, iwAct, 0}, set);
        for (int kb = 0; kb < t_.tk; ++kb)
            insns_.push_back(loopInsn(Opcode::Gemm, bgn + u32(kb * perK), perK, w.th, w.tw, w.tw, 1,
                                      std::int64_t(l_.stride) * iwAct, l_.stride));
        // The weight factors are 0: each uop names its weight element.
    }

    void emitAluStep(const TileWork& w)
    {
        const Window win = window(w);
        const std::int64_t base = regionBase(w.region);
        if (l_.kind == LayerKind::Add) {
            const std::int64_t second = base + std::int64_t(t_.tk) * thw_;
            const std::int64_t plane = std::int64_t(l_.h) * l_.w;
            for (int op = 0; op < 2; ++op)
                for (int cb = 0; cb < t_.tk; ++cb) {
                    const std::int64_t dram = elemIndex(inOffset_[op], MemType::Acc) +
                                              (std::int64_t(w.nb) * cb_ + w.k0 + cb) * plane +
                                              std::int64_t(w.oh0) * l_.w + w.ow0;
                    insns_.push_back(memInsn(Opcode::Load, MemType::Acc, (op ? second : base) + cb * thw_, dram, w.th,
                                             w.tw, l_.w));
                }
            const std::uint32_t bgn = ensureUops({0, 0, w.region, 0, 1}, {Uop{u32(base), u32(second), 0}});
            Instruction add = loopInsn(Opcode::Alu, bgn, 1, t_.tk, std::int64_t(w.th) * w.tw, thw_, 1, thw_, 1);
            add.aluOp = static_cast<std::uint32_t>(AluOp::Add);
            insns_.push_back(add);
            return;
        }
        // MaxPool: the padded input window of each channel block, then ADD of window position
        // (0, 0) onto the reset result and MAX of every other position.
        const std::int64_t plane = std::int64_t(shape_.ih) * shape_.iw;
        for (int cb = 0; cb < t_.tk; ++cb)
            insns_.push_back(windowLoad(MemType::Acc, base + cb * plane, elemIndex(inOffset_[0], MemType::Acc), w,
                                        w.k0 + cb));
        std::vector<Uop> set;
        for (int pass = 0; pass < 2; ++pass)
            for (int cb = 0; cb < t_.tk; ++cb)
                for (int r = 0; r < l_.r; ++r)
                    for (int s = 0; s < l_.s; ++s) {
                        if ((r == 0 && s == 0) != (pass == 0)) continue;
                        set.push_back(Uop{u32(resultBase(w.region) + cb * thw_),
                                          u32(base + cb * plane + std::int64_t(r) * win.cols + s), 0});
                    }
        const std::uint32_t bgn = ensureUops({0, 0, w.region, win.cols, 2}, set);
        const std::int64_t srcOut = std::int64_t(l_.stride) * win.cols;
        Instruction first = loopInsn(Opcode::Alu, bgn, t_.tk, w.th, w.tw, w.tw, 1, srcOut, l_.stride);
        first.aluOp = static_cast<std::uint32_t>(AluOp::Add);
        insns_.push_back(first);
        if (rs_ > 1) {
            Instruction rest = loopInsn(Opcode::Alu, bgn + u32(t_.tk), t_.tk * (rs_ - 1), w.th, w.tw, w.tw, 1, srcOut,
                                        l_.stride);
            rest.aluOp = static_cast<std::uint32_t>(AluOp::Max);
            insns_.push_back(rest);
        }
    }

    void emitRequantizeAndStore(int tile, const TileWork& w, int tileCount)
    {
        if (l_.kind != LayerKind::MaxPool) {
            insns_.push_back(aluImm(AluOp::Shr, w.region, t_.tk, w, l_.shift));
            insns_.push_back(aluImm(AluOp::Max, w.region, t_.tk, w, l_.relu ? 0 : -128));
            insns_.push_back(aluImm(AluOp::Min, w.region, t_.tk, w, 127));
        }
        // The last compute instruction of the tile hands the ACC half to the store module.
        for (std::size_t i = insns_.size(); i-- > 0;)
            if (insns_[i].isLoop()) {
                insns_[i].pushNext = true;
                break;
            }
        const std::size_t first = insns_.size();
        const std::int64_t out0 = elemIndex(outOffset_, MemType::Out);
        for (int kb = 0; kb < t_.tk; ++kb) {
            const std::int64_t dram = out0 + (std::int64_t(w.nb) * kb_ + w.k0 + kb) * l_.outH() * l_.outW() +
                                      std::int64_t(w.oh0) * l_.outW() + w.ow0;
            insns_.push_back(memInsn(Opcode::Store, MemType::Out, resultBase(w.region) + kb * thw_, dram, w.th, w.tw,
                                     l_.outW()));
        }
        insns_[first].popPrev = true;  // CMP->ST
        if (tile + 2 < tileCount || tile == tileCount - 1) insns_.back().pushPrev = true;  // ST->CMP
    }

    // --- DRAM image ---
    void writeUops()
    {
        const IsaLayout layout(c_);
        std::vector<std::uint64_t> setElem(uopSets_.size());
        std::uint64_t at = elemIndex(uopOffset_, MemType::Uop);
        const std::uint64_t limit = at + uopRegionBytes_ / static_cast<std::uint64_t>(c_.elemBytes(MemType::Uop));
        for (std::size_t i = 0; i < uopSets_.size(); ++i) {
            setElem[i] = at;
            if (at + uopSets_[i].size() > limit)
                throw NestorError(l_.name, "internal: more micro-op sets than the DRAM region planned for them");
            for (const Uop& u : uopSets_[i]) {
                const std::uint32_t word = layout.encodeUop(u);
                std::uint8_t* p = dram_.data() + at * 4;
                for (int b = 0; b < 4; ++b) p[b] = static_cast<std::uint8_t>(word >> (8 * b));
                ++at;
            }
        }
        for (const auto& [insn, set] : uopLoads_) insns_[insn].dramBase = u32(static_cast<std::int64_t>(setElem[static_cast<std::size_t>(set)]));
    }

    void packData()
    {
        const int batch = c_.batch(), bi = c_.blockIn(), bo = c_.blockOut();
        if (data_->inputs.size() != l_.inputs.size())
            throw NestorError(l_.name + ".inputs", "the lowering got " + std::to_string(data_->inputs.size()) +
                                                       " input tensors for " + std::to_string(l_.inputs.size()) + " inputs");
        for (std::size_t op = 0; op < data_->inputs.size(); ++op) {
            const reference::Tensor8& t = *data_->inputs[op];
            if (t.n != l_.n || t.c != l_.c || t.h != l_.h || t.w != l_.w)
                throw NestorError(l_.name + ".inputs", "input tensor " + std::to_string(op) + " is " + std::to_string(t.n) +
                                                           "x" + std::to_string(t.c) + "x" + std::to_string(t.h) + "x" +
                                                           std::to_string(t.w) + ", the layer expects " +
                                                           std::to_string(l_.n) + "x" + std::to_string(l_.c) + "x" +
                                                           std::to_string(l_.h) + "x" + std::to_string(l_.w));
            const MemType m = alu_ ? MemType::Acc : MemType::Inp;
            const int laneBytes = alu_ ? 4 : 1;
            const std::uint64_t elemBytes = static_cast<std::uint64_t>(c_.elemBytes(m));
            const int lanesPerBatch = alu_ ? bo : bi;
            for (int n = 0; n < l_.n; ++n)
                for (int ch = 0; ch < l_.c; ++ch)
                    for (int y = 0; y < l_.h; ++y)
                        for (int x = 0; x < l_.w; ++x) {
                            const std::uint64_t elem =
                                ((std::uint64_t(n / batch) * cb_ + ch / lanesPerBatch) * l_.h + y) * l_.w + x;
                            const std::uint64_t lane = std::uint64_t(n % batch) * lanesPerBatch + ch % lanesPerBatch;
                            std::uint8_t* p = dram_.data() + inOffset_[op] + elem * elemBytes + lane * laneBytes;
                            const auto v = static_cast<std::uint32_t>(std::int32_t{t.at(n, ch, y, x)});
                            for (int b = 0; b < laneBytes; ++b) p[b] = static_cast<std::uint8_t>(v >> (8 * b));
                        }
        }
        if (alu_) return;
        if (!data_->weights || data_->weights->size() != l_.weightCount())
            throw NestorError(l_.name + ".weights", "expected " + std::to_string(l_.weightCount()) + " int8 weights");
        const std::vector<std::int8_t>& wt = *data_->weights;
        const std::uint64_t elemBytes = static_cast<std::uint64_t>(c_.elemBytes(MemType::Wgt));
        if (l_.kind == LayerKind::Depthwise) {
            for (int ch = 0; ch < l_.c; ++ch)
                for (int r = 0; r < l_.r; ++r)
                    for (int s = 0; s < l_.s; ++s) {
                        const std::uint64_t elem = (std::uint64_t(ch / bo) * l_.r + r) * l_.s + s;
                        const std::uint64_t lane = std::uint64_t(ch % bo) * bi + ch % bo;  // the diagonal
                        dram_[wgtOffset_ + elem * elemBytes + lane] =
                            static_cast<std::uint8_t>(wt[(std::size_t(ch) * l_.r + r) * l_.s + s]);
                    }
            return;
        }
        for (int k = 0; k < l_.k; ++k)
            for (int ch = 0; ch < l_.c; ++ch)
                for (int r = 0; r < l_.r; ++r)
                    for (int s = 0; s < l_.s; ++s) {
                        const std::uint64_t elem = ((std::uint64_t(k / bo) * cb_ + ch / bi) * l_.r + r) * l_.s + s;
                        const std::uint64_t lane = std::uint64_t(k % bo) * bi + ch % bi;
                        dram_[wgtOffset_ + elem * elemBytes + lane] =
                            static_cast<std::uint8_t>(wt[((std::size_t(k) * l_.c + ch) * l_.r + r) * l_.s + s]);
                    }
    }

    const LayerSpec& l_;
    const VtaConfig& c_;
    const Tiling& t_;
    const LayerData* data_;
    TileShape shape_;
    int nbCount_ = 1, cb_ = 1, kb_ = 1;
    bool alu_ = false;
    std::int64_t thw_ = 1, inpHalf_ = 0, wgtHalf_ = 0, accHalf_ = 0, rs_ = 1;
    std::uint64_t end_ = 0, uopOffset_ = 0, uopRegionBytes_ = 0, wgtOffset_ = 0, outOffset_ = 0, outBytes_ = 0;
    std::uint64_t inOffset_[2] = {0, 0};
    std::vector<TileWork> tiles_;
    std::vector<Step> steps_;
    std::vector<Instruction> insns_;
    std::vector<std::uint8_t> dram_;
    std::vector<std::vector<Uop>> uopSets_;
    std::map<std::tuple<int, int, int, int, int>, int> setOfKey_;
    std::vector<int> slotSet_;
    int nextSlot_ = 0;
    std::vector<std::pair<std::size_t, int>> uopLoads_;
};

} // namespace

LoweredLayer lowerLayer(const LayerSpec& layer, const VtaConfig& config, const Tiling& t, const LayerData* data)
{
    const Diagnostics problems = layer.validate();
    if (!problems.empty()) throw NestorError(problems);
    // A tiling from elsewhere than searchTiling must still fit, or indices would leave the buffers.
    const int cb = static_cast<int>(ceilDiv(layer.c, config.blockIn()));
    const int kb = static_cast<int>(ceilDiv(layer.outC(), config.blockOut()));
    const bool sameBlocks = layer.kind != LayerKind::Conv && layer.kind != LayerKind::Dense;
    auto bad = [&](const std::string& why) { throw NestorError(layer.name + ".tiling", t.describe() + ": " + why); };
    if (t.th < 1 || t.tw < 1 || t.tk < 1 || t.tc < 1) bad("tile sizes must be positive");
    if (kb % t.tk != 0) bad("tk must divide the " + std::to_string(kb) + " output-channel blocks");
    if (sameBlocks ? t.tc != t.tk : cb % t.tc != 0)
        bad(sameBlocks ? "tc must equal tk for this layer kind" : "tc must divide the " + std::to_string(cb) + " input-channel blocks");
    if (sameBlocks && config.blockIn() != config.blockOut()) bad("this layer kind needs BLOCK_IN = BLOCK_OUT");
    const TileShape s = tileShape(layer, config, t);
    if (s.inpElems > config.depth(MemType::Inp) / 2 || s.wgtElems > config.depth(MemType::Wgt) / 2 ||
        s.accElems > config.depth(MemType::Acc) / 2 || 2 * s.uopsPerSet + 2 > config.depth(MemType::Uop))
        bad("a context does not fit half of the INP/WGT/ACC buffers or two micro-op sets the uop buffer");
    return Builder(layer, config, t, data).build();
}

reference::Tensor8 unpackOutput(const LoweredLayer& lowered, const VtaConfig& config, const Dram& dram)
{
    const LayerSpec& l = lowered.spec;
    const int batch = config.batch(), bo = config.blockOut();
    const int kb = static_cast<int>(ceilDiv(l.outC(), bo));
    const int oh = l.outH(), ow = l.outW();
    reference::Tensor8 out(l.n, l.outC(), oh, ow);
    const std::uint8_t* base = dram.read(lowered.outputOffset, lowered.outputBytes, l.name + " output");
    const std::uint64_t elemBytes = static_cast<std::uint64_t>(config.elemBytes(MemType::Out));
    for (int n = 0; n < l.n; ++n)
        for (int k = 0; k < l.outC(); ++k)
            for (int y = 0; y < oh; ++y)
                for (int x = 0; x < ow; ++x) {
                    const std::uint64_t elem = ((std::uint64_t(n / batch) * kb + k / bo) * oh + y) * ow + x;
                    const std::uint64_t lane = std::uint64_t(n % batch) * bo + k % bo;
                    out.at(n, k, y, x) = static_cast<std::int8_t>(base[elem * elemBytes + lane]);
                }
    return out;
}

} // namespace nestor::vta
