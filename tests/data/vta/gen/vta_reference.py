"""An independent, deliberately plain reference model of the VTA instruction set.

Written from spec.md / FORMAT.md for Nestor's test vectors, separately from the C++ simulator:
Python integers, lists of lanes, one instruction at a time in program order.  It is used only
to generate the JSON vectors in tests/data/vta/own*/ (committed; CI does not need Python).
"""

MEM_UOP, MEM_WGT, MEM_INP, MEM_ACC, MEM_OUT = 0, 1, 2, 3, 4
MEM_NAMES = {0: "UOP", 1: "WGT", 2: "INP", 3: "ACC", 4: "OUT"}
OP_LOAD, OP_STORE, OP_GEMM, OP_FINISH, OP_ALU = 0, 1, 2, 3, 4
ALU_MIN, ALU_MAX, ALU_ADD, ALU_SHR = 0, 1, 2, 3
ALU_NAMES = {0: "MIN", 1: "MAX", 2: "ADD", 3: "SHR"}


def wrap(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


class Config:
    def __init__(self, log_batch=0, log_block=4, log_uop=15, log_inp=15, log_wgt=18, log_acc=17):
        self.log_batch, self.log_block = log_batch, log_block
        self.log_uop, self.log_inp, self.log_wgt, self.log_acc = log_uop, log_inp, log_wgt, log_acc
        self.batch, self.block = 1 << log_batch, 1 << log_block
        # 8-bit inputs and weights, 32-bit accumulators (the only widths the generator uses).
        self.elem_bytes = {MEM_UOP: 4, MEM_INP: self.batch * self.block, MEM_WGT: self.block * self.block,
                           MEM_ACC: self.batch * self.block * 4, MEM_OUT: self.batch * self.block}
        self.lanes = {MEM_INP: self.batch * self.block, MEM_WGT: self.block * self.block,
                      MEM_ACC: self.batch * self.block, MEM_OUT: self.batch * self.block}
        size = {MEM_UOP: 1 << log_uop, MEM_INP: 1 << log_inp, MEM_WGT: 1 << log_wgt, MEM_ACC: 1 << log_acc}
        self.depth = {t: size[t] // self.elem_bytes[t] for t in size}
        self.depth[MEM_OUT] = self.depth[MEM_ACC]

    def log_depth(self, t):
        return self.depth[t].bit_length() - 1

    def json(self):
        return {"LOG_INP_WIDTH": 3, "LOG_WGT_WIDTH": 3, "LOG_ACC_WIDTH": 5, "LOG_OUT_WIDTH": 3,
                "LOG_BATCH": self.log_batch, "LOG_BLOCK": self.log_block, "LOG_BLOCK_IN": self.log_block,
                "LOG_BLOCK_OUT": self.log_block, "LOG_UOP_BUFF_SIZE": self.log_uop,
                "LOG_INP_BUFF_SIZE": self.log_inp, "LOG_WGT_BUFF_SIZE": self.log_wgt,
                "LOG_ACC_BUFF_SIZE": self.log_acc, "LOG_OUT_BUFF_SIZE": self.log_acc + 3 - 5}


# ---------------------------------------------------------------- encoding ----------------------

def _place(widths, start, unit):
    """Field positions: consecutive, but a field never crosses a `unit`-bit word."""
    pos, out = start, []
    for name, w in widths:
        if pos // unit != (pos + w - 1) // unit:
            pos = (pos // unit + 1) * unit
        out.append((name, pos, w))
        pos += w
    assert pos <= 2 * unit if unit == 64 else pos <= unit
    return out


def layouts(cfg):
    head = [("opcode", 3), ("pop_prev", 1), ("pop_next", 1), ("push_prev", 1), ("push_next", 1)]
    mem = head + [("memory_type", 3), ("sram_base", 16), ("dram_base", 32), ("y_size", 16), ("x_size", 16),
                  ("x_stride", 16), ("y_pad_0", 4), ("y_pad_1", 4), ("x_pad_0", 4), ("x_pad_1", 4)]
    u, a, i, w = (cfg.log_depth(t) for t in (MEM_UOP, MEM_ACC, MEM_INP, MEM_WGT))
    loop = head + [("reset", 1), ("uop_bgn", u), ("uop_end", u + 1), ("iter_out", 14), ("iter_in", 14),
                   ("dst_factor_out", a), ("dst_factor_in", a), ("src_factor_out", i), ("src_factor_in", i)]
    gemm = loop + [("wgt_factor_out", w), ("wgt_factor_in", w)]
    alu = loop + [("alu_opcode", 3), ("use_imm", 1), ("imm", 16)]
    uop = [("dst", a), ("src", max(a, i)), ("wgt", w)]
    return {"mem": _place(mem, 0, 64), "gemm": _place(gemm, 0, 64), "alu": _place(alu, 0, 64),
            "finish": _place(head, 0, 64), "uop": _place(uop, 0, 32)}


def check_default_layout():
    """The generic placement must give FORMAT.md section 4's positions for the default config."""
    lay = layouts(Config())
    expect = {"mem": {"memory_type": 7, "sram_base": 10, "dram_base": 26, "y_size": 64, "x_size": 80,
                      "x_stride": 96, "y_pad_0": 112, "y_pad_1": 116, "x_pad_0": 120, "x_pad_1": 124},
              "gemm": {"reset": 7, "uop_bgn": 8, "uop_end": 21, "iter_out": 35, "iter_in": 49,
                       "dst_factor_out": 64, "dst_factor_in": 75, "src_factor_out": 86, "src_factor_in": 97,
                       "wgt_factor_out": 108, "wgt_factor_in": 118},
              "alu": {"alu_opcode": 108, "use_imm": 111, "imm": 112},
              "uop": {"dst": 0, "src": 11, "wgt": 22}}
    for fmt, fields in expect.items():
        got = {n: p for n, p, _ in lay[fmt]}
        for n, p in fields.items():
            assert got[n] == p, (fmt, n, got[n], p)


def _pack(fields, values):
    v = 0
    for name, pos, w in fields:
        x = values.get(name, 0)
        if name == "imm":
            x &= 0xFFFF
        assert 0 <= x < (1 << w), (name, x, w)
        v |= x << pos
    return v


def encode(cfg, insn):
    lay = layouts(cfg)
    fmt = {OP_LOAD: "mem", OP_STORE: "mem", OP_GEMM: "gemm", OP_ALU: "alu", OP_FINISH: "finish"}[insn["opcode"]]
    return _pack(lay[fmt], insn).to_bytes(16, "little").hex()


def encode_uop(cfg, dst, src, wgt=0):
    return _pack(layouts(cfg)["uop"], {"dst": dst, "src": src, "wgt": wgt})


# ---------------------------------------------------------------- routing and tokens ------------

def module_of(insn):
    if insn["opcode"] == OP_STORE:
        return "store"
    if insn["opcode"] == OP_LOAD and insn["memory_type"] in (MEM_INP, MEM_WGT):
        return "load"
    return "compute"


QUEUES = {  # module -> (pop_prev, pop_next, push_prev, push_next)
    "load": (None, "g2l", None, "l2g"),
    "compute": ("l2g", "s2g", "g2l", "g2s"),
    "store": ("g2s", None, "s2g", None),
}


# ---------------------------------------------------------------- the machine -------------------

class Machine:
    def __init__(self, cfg, dram_start, dram_bytes):
        self.cfg = cfg
        self.start = dram_start
        self.dram = bytearray(dram_bytes)
        self.sram = {t: [None] * cfg.depth[t] for t in (MEM_UOP, MEM_INP, MEM_WGT, MEM_ACC)}
        self.tokens = {q: 0 for q in ("l2g", "g2l", "g2s", "s2g")}
        self.pushes = dict(self.tokens)
        self.counters = {"inp_load_nbytes": 0, "wgt_load_nbytes": 0, "acc_load_nbytes": 0, "uop_load_nbytes": 0,
                         "out_store_nbytes": 0, "gemm_counter": 0, "alu_counter": 0}

    def dram_read(self, addr, n):
        off = addr - self.start
        assert 0 <= off and off + n <= len(self.dram), "DRAM read out of range"
        return self.dram[off:off + n]

    def element(self, t, raw):
        if t == MEM_UOP:
            w = int.from_bytes(raw, "little")
            a, i = self.cfg.log_depth(MEM_ACC), self.cfg.log_depth(MEM_INP)
            s = max(a, i)
            return (w & ((1 << a) - 1), (w >> a) & ((1 << s) - 1), w >> (a + s))
        if t == MEM_ACC:
            return [int.from_bytes(raw[4 * k:4 * k + 4], "little", signed=True) for k in range(len(raw) // 4)]
        return [b - 256 if b > 127 else b for b in raw]

    def zero(self, t):
        return (0, 0, 0) if t == MEM_UOP else [0] * self.cfg.lanes[t]

    def run_in_program_order(self, insns):
        """Program order is a valid schedule for the generated programs: asserted per pop."""
        for n, insn in enumerate(insns):
            mod = module_of(insn)
            pp, pn, up, un = QUEUES[mod]
            for flag, q in (("pop_prev", pp), ("pop_next", pn)):
                if insn.get(flag):
                    assert q and self.tokens[q] > 0, f"insn {n}: pops empty {q} in program order"
                    self.tokens[q] -= 1
            self.execute(insn)
            for flag, q in (("push_prev", up), ("push_next", un)):
                if insn.get(flag):
                    assert q
                    self.tokens[q] += 1
                    self.pushes[q] += 1
            if insn["opcode"] == OP_FINISH:
                assert n == len(insns) - 1
        assert all(v == 0 for v in self.tokens.values()), self.tokens

    def execute(self, i):
        op = i["opcode"]
        if op == OP_LOAD:
            self.load(i)
        elif op == OP_STORE:
            self.store(i)
        elif op == OP_GEMM:
            self.gemm(i)
        elif op == OP_ALU:
            self.alu(i)

    def load(self, i):
        t, xs, ys = i["memory_type"], i.get("x_size", 0), i.get("y_size", 0)
        if xs == 0:
            return
        y0, y1, x0, x1 = (i.get(k, 0) for k in ("y_pad_0", "y_pad_1", "x_pad_0", "x_pad_1"))
        eb = self.cfg.elem_bytes[t]
        self.counters[{MEM_INP: "inp", MEM_WGT: "wgt", MEM_ACC: "acc", MEM_UOP: "uop"}[t] + "_load_nbytes"] += xs * ys * eb
        width, rows = x0 + xs + x1, y0 + ys + y1
        base = i.get("sram_base", 0)
        assert base + width * rows <= self.cfg.depth[t]
        for y in range(rows):
            for x in range(width):
                idx = base + y * width + x
                if y0 <= y < y0 + ys and x0 <= x < x0 + xs:
                    e = i["dram_base"] + (y - y0) * i["x_stride"] + (x - x0)
                    self.sram[t][idx] = self.element(t, self.dram_read(e * eb, eb))
                else:
                    self.sram[t][idx] = self.zero(t)

    def store(self, i):
        xs, ys = i.get("x_size", 0), i.get("y_size", 0)
        if xs == 0:
            return
        eb = self.cfg.elem_bytes[MEM_OUT]
        self.counters["out_store_nbytes"] += xs * ys * eb
        for y in range(ys):
            for x in range(xs):
                lanes = self.sram[MEM_ACC][i["sram_base"] + y * xs + x]
                assert lanes is not None, "store of an unwritten acc element"
                off = (i["dram_base"] + y * i["x_stride"] + x) * eb - self.start
                assert 0 <= off and off + eb <= len(self.dram)
                self.dram[off:off + eb] = bytes(v & 0xFF for v in lanes)

    def loop(self, i):
        for a in range(i.get("iter_out", 0)):
            for b in range(i.get("iter_in", 0)):
                for u in range(i.get("uop_bgn", 0), i.get("uop_end", 0)):
                    yield a, b, self.sram[MEM_UOP][u]

    def gemm(self, i):
        cfg = self.cfg
        count = 0
        for a, b, (d0, s0, w0) in self.loop(i):
            count += 1
            d = d0 + a * i.get("dst_factor_out", 0) + b * i.get("dst_factor_in", 0)
            assert d < cfg.depth[MEM_ACC]
            if i.get("reset"):
                self.sram[MEM_ACC][d] = [0] * cfg.lanes[MEM_ACC]
                continue
            s = s0 + a * i.get("src_factor_out", 0) + b * i.get("src_factor_in", 0)
            w = w0 + a * i.get("wgt_factor_out", 0) + b * i.get("wgt_factor_in", 0)
            inp, wgt, acc = self.sram[MEM_INP][s], self.sram[MEM_WGT][w], self.sram[MEM_ACC][d]
            assert inp is not None and wgt is not None and acc is not None, "GEMM reads unwritten SRAM"
            out = []
            for r in range(cfg.batch):
                for o in range(cfg.block):
                    dot = sum(inp[r * cfg.block + k] * wgt[o * cfg.block + k] for k in range(cfg.block))
                    out.append(wrap(acc[r * cfg.block + o] + dot, 32))
            self.sram[MEM_ACC][d] = out
        if not i.get("reset"):
            self.counters["gemm_counter"] += count

    def alu(self, i):
        count = 0
        seen = set()
        for a, b, (d0, s0, _) in self.loop(i):
            count += 1
            d = d0 + a * i.get("dst_factor_out", 0) + b * i.get("dst_factor_in", 0)
            s = s0 + a * i.get("src_factor_out", 0) + b * i.get("src_factor_in", 0)
            assert d not in seen, "ALU writes one destination twice"
            seen.add(d)
            lhs = self.sram[MEM_ACC][d]
            assert lhs is not None
            if i.get("use_imm"):
                assert s == d, "immediate ALU ops keep src == dst (FORMAT.md section 6)"
                rhs = [i["imm"]] * len(lhs)
            else:
                rhs = self.sram[MEM_ACC][s]
                assert rhs is not None
            res = []
            for x, y in zip(lhs, rhs):
                op = i["alu_opcode"]
                if op == ALU_MIN:
                    r = min(x, y)
                elif op == ALU_MAX:
                    r = max(x, y)
                elif op == ALU_ADD:
                    r = x + y
                else:
                    assert -16 <= y <= 31
                    r = x >> y if y >= 0 else x << -y
                res.append(wrap(r, 32))
            self.sram[MEM_ACC][d] = res
        self.counters["alu_counter"] += count


# ---------------------------------------------------------------- disassembly (for `asm`) --------

def _deps(insn):
    mod = module_of(insn)
    names = {"l2g": "LD->CMP", "g2l": "CMP->LD", "g2s": "CMP->ST", "s2g": "ST->CMP"}
    parts = []
    for flag, q, verb in zip(("pop_prev", "pop_next", "push_prev", "push_next"), QUEUES[mod],
                             ("pop", "pop", "push", "push")):
        if insn.get(flag):
            parts.append(f"{verb} {names[q]}")
    return "  [" + ", ".join(parts) + "]" if parts else ""


def asm(insn):
    op = insn["opcode"]
    g = insn.get
    if op in (OP_LOAD, OP_STORE):
        s = (f"{'LOAD' if op == OP_LOAD else 'STORE'} {MEM_NAMES[g('memory_type')]} sram={g('sram_base', 0)} "
             f"dram_elem={g('dram_base', 0)} y={g('y_size', 0)} x={g('x_size', 0)} stride={g('x_stride', 0)} "
             f"pad(y0,y1,x0,x1)=({g('y_pad_0', 0)},{g('y_pad_1', 0)},{g('x_pad_0', 0)},{g('x_pad_1', 0)})")
    elif op == OP_GEMM:
        s = (f"GEMM{' RESET' if g('reset') else ''} uop[{g('uop_bgn', 0)},{g('uop_end', 0)}) "
             f"iter=({g('iter_out', 0)},{g('iter_in', 0)}) dst_f=({g('dst_factor_out', 0)},{g('dst_factor_in', 0)}) "
             f"src_f=({g('src_factor_out', 0)},{g('src_factor_in', 0)}) "
             f"wgt_f=({g('wgt_factor_out', 0)},{g('wgt_factor_in', 0)})")
    elif op == OP_ALU:
        s = (f"ALU {ALU_NAMES[g('alu_opcode')]}{' imm=' + str(g('imm')) if g('use_imm') else ''} "
             f"uop[{g('uop_bgn', 0)},{g('uop_end', 0)}) iter=({g('iter_out', 0)},{g('iter_in', 0)}) "
             f"dst_f=({g('dst_factor_out', 0)},{g('dst_factor_in', 0)}) "
             f"src_f=({g('src_factor_out', 0)},{g('src_factor_in', 0)})")
    else:
        s = "FINISH"
    return s + _deps(insn)
