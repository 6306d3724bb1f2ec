#!/usr/bin/env python3
"""Writes Nestor's own VTA program vectors (tests/data/vta/own*/ and bad/) in the format of
tests/data/vta/FORMAT.md, with `expected` computed by the independent reference model in
vta_reference.py (not by the C++ simulator).  Deterministic: fixed seeds.

    python3 tests/data/vta/gen/make_vectors.py     # from the repository root
"""
import json
import os
import random

from vta_reference import (ALU_ADD, ALU_MAX, ALU_MIN, ALU_SHR, MEM_ACC, MEM_INP, MEM_NAMES, MEM_OUT, MEM_UOP,
                           MEM_WGT, OP_ALU, OP_FINISH, OP_GEMM, OP_LOAD, OP_STORE, Config, Machine, asm,
                           check_default_layout, encode, encode_uop, module_of)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
DRAM_START = 0x1000


def LOAD(t, sram, dram, y, x, stride=None, pads=(0, 0, 0, 0), **deps):
    return dict(opcode=OP_LOAD, memory_type=t, sram_base=sram, dram_base=dram, y_size=y, x_size=x,
                x_stride=x if stride is None else stride, y_pad_0=pads[0], y_pad_1=pads[1], x_pad_0=pads[2],
                x_pad_1=pads[3], **deps)


def STORE(sram, dram, y, x, stride=None, **deps):
    return dict(opcode=OP_STORE, memory_type=MEM_OUT, sram_base=sram, dram_base=dram, y_size=y, x_size=x,
                x_stride=x if stride is None else stride, **deps)


def GEMM(uops, iters, dst=(0, 0), src=(0, 0), wgt=(0, 0), reset=0, **deps):
    return dict(opcode=OP_GEMM, reset=reset, uop_bgn=uops[0], uop_end=uops[1], iter_out=iters[0],
                iter_in=iters[1], dst_factor_out=dst[0], dst_factor_in=dst[1], src_factor_out=src[0],
                src_factor_in=src[1], wgt_factor_out=wgt[0], wgt_factor_in=wgt[1], **deps)


def ALU(op, uops, iters, dst=(0, 0), src=(0, 0), imm=None, **deps):
    return dict(opcode=OP_ALU, alu_opcode=op, use_imm=0 if imm is None else 1, imm=0 if imm is None else imm,
                uop_bgn=uops[0], uop_end=uops[1], iter_out=iters[0], iter_in=iters[1], dst_factor_out=dst[0],
                dst_factor_in=dst[1], src_factor_out=src[0], src_factor_in=src[1], **deps)


def FINISH(**deps):
    return dict(opcode=OP_FINISH, **deps)


class Vector:
    def __init__(self, name, description, seed, cfg=None):
        self.cfg = cfg or Config()
        self.name, self.description, self.seed = name, description, seed
        self.rng = random.Random(seed)
        self.regions = []
        self.next_addr = DRAM_START
        self.insns = []

    def region(self, name, t, data):
        eb = self.cfg.elem_bytes[t]
        assert len(data) % eb == 0
        addr = (self.next_addr + 255) // 256 * 256
        self.next_addr = addr + len(data)
        self.regions.append(dict(name=name, t=t, addr=addr, data=bytes(data)))
        return addr // eb  # base_elem

    def ints(self, n, lo, hi, width):
        out = bytearray()
        for _ in range(n):
            out += self.rng.randint(lo, hi).to_bytes(width, "little", signed=True)
        return out

    def inp(self, name, n, lo=-128, hi=127):
        return self.region(name, MEM_INP, self.ints(n * self.cfg.lanes[MEM_INP], lo, hi, 1))

    def wgt(self, name, n, lo=-128, hi=127):
        return self.region(name, MEM_WGT, self.ints(n * self.cfg.lanes[MEM_WGT], lo, hi, 1))

    def acc(self, name, n, lo=-(1 << 31), hi=(1 << 31) - 1, values=None):
        if values is not None:
            return self.region(name, MEM_ACC, b"".join(v.to_bytes(4, "little", signed=True) for v in values))
        return self.region(name, MEM_ACC, self.ints(n * self.cfg.lanes[MEM_ACC], lo, hi, 4))

    def out(self, name, n):
        return self.region(name, MEM_OUT, bytes(self.rng.randrange(256) for _ in range(n * self.cfg.elem_bytes[MEM_OUT])))

    def uops(self, name, triples):
        return self.region(name, MEM_UOP, b"".join(encode_uop(self.cfg, *t).to_bytes(4, "little") for t in triples))

    def write(self, folder, flags=()):
        end = (self.next_addr + 4095) // 4096 * 4096
        dram = bytearray(end - DRAM_START)
        for r in self.regions:
            dram[r["addr"] - DRAM_START:r["addr"] - DRAM_START + len(r["data"])] = r["data"]
        m = Machine(self.cfg, DRAM_START, dram)
        m.run_in_program_order(self.insns)
        regions = []
        for r in self.regions:
            eb = self.cfg.elem_bytes[r["t"]]
            entry = dict(name=r["name"], mem_type=MEM_NAMES[r["t"]], mem_id=r["t"], elem_bytes=eb,
                         byte_addr=r["addr"], base_elem=r["addr"] // eb, n_elems=len(r["data"]) // eb,
                         nbytes=len(r["data"]), hex=r["data"].hex())
            if r["t"] == MEM_UOP:
                entry["uops"] = ["%08x" % int.from_bytes(r["data"][k:k + 4], "little")
                                 for k in range(0, len(r["data"]), 4)]
            regions.append(entry)
        for r in self.regions:  # inputs must be untouched
            if r["t"] != MEM_OUT:
                off = r["addr"] - DRAM_START
                assert bytes(m.dram[off:off + len(r["data"])]) == r["data"]
        expected_dram = [dict(name=r["name"], byte_addr=r["addr"], nbytes=len(r["data"]),
                              hex=bytes(m.dram[r["addr"] - DRAM_START:r["addr"] - DRAM_START + len(r["data"])]).hex())
                         for r in self.regions if r["t"] == MEM_OUT]
        counts = {"load": 0, "compute": 0, "store": 0}
        for i in self.insns:
            counts[module_of(i)] += 1
        doc = {
            "format": "vta-fsim-vector", "version": 1, "name": self.name, "category": "nestor",
            "description": self.description,
            "generator": {"seed": self.seed, "params": {"source": "tests/data/vta/gen/make_vectors.py"}},
            "flags": list(flags), "config": self.cfg.json(),
            "dram": {"start": DRAM_START, "end": end, "regions": regions},
            "program": {"insn_count": len(self.insns), "insns": [encode(self.cfg, i) for i in self.insns],
                        "asm": [asm(i) for i in self.insns], "module_insn_counts": counts,
                        "fsim_insn_byte_addr": end},
            "expected": {"dram": expected_dram, "counters": m.counters, "token_pushes": m.pushes},
        }
        path = os.path.join(folder if os.path.isabs(folder) else os.path.join(DATA, folder), self.name + ".json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        return doc


def identity_uops(n, start=0):
    return [(start + k, start + k, 0) for k in range(n)]


# ---------------------------------------------------------------- the programs -----------------

def pad_all_sides():
    v = Vector("own_pad_all_sides_acc", "LOAD ACC fills 4x6 elements with data, then a padded LOAD ACC "
               "(pads y0=1 y1=1 x0=2 x1=1, 2x3 data, DRAM stride 5) overwrites the same area: zeros must replace "
               "the old data. ALU SHR imm 0 over the area, STORE with DRAM stride 8 (gaps keep the pattern).", 101)
    u = v.uops("uops", [(0, 0, 0)])
    fill = v.acc("acc_fill", 24, -1000, 1000)
    data = v.acc("acc_data", 10, -300, 300)
    out = v.out("out", 8 * 4)
    v.insns = [
        LOAD(MEM_UOP, 0, u, 1, 1),
        LOAD(MEM_ACC, 0, fill, 1, 24),
        LOAD(MEM_ACC, 0, data, 2, 3, stride=5, pads=(1, 1, 2, 1)),
        ALU(ALU_SHR, (0, 1), (4, 6), dst=(6, 1), src=(6, 1), imm=0, push_next=1),
        STORE(0, out, 4, 6, stride=8, pop_prev=1, push_prev=1),
        FINISH(pop_next=1),
    ]
    v.write("own")


def pad_inp_gemm():
    v = Vector("own_pad_inp_gemm", "LOAD INP with all four pads (2,1,1,2) around 2x3 data with DRAM stride 4; "
               "LOAD WGT 2 rows of 2 with stride 3 (gaps); GEMM reset then GEMM over every padded INP element "
               "with uop loops (iter 5x6, dst factors (6,1), src factors (6,1), wgt factor in (0,0)) and two "
               "uops with different weights.", 102)
    u = v.uops("uops", [(0, 0, 0), (0, 0, 1), (0, 0, 3)])
    inp = v.inp("inp", 8)
    wgt = v.wgt("wgt", 6)
    out = v.out("out", 30)
    v.insns = [
        LOAD(MEM_INP, 0, inp, 2, 3, stride=4, pads=(2, 1, 1, 2)),
        LOAD(MEM_WGT, 0, wgt, 2, 2, stride=3, push_next=1),
        LOAD(MEM_UOP, 0, u, 1, 3),
        GEMM((0, 1), (5, 6), dst=(6, 1), reset=1),
        GEMM((1, 3), (5, 6), dst=(6, 1), src=(6, 1), pop_prev=1, push_next=1),
        STORE(0, out, 5, 6, pop_prev=1, push_prev=1),
        FINISH(pop_next=1),
    ]
    v.write("own")


def alu_ops():
    v = Vector("own_alu_every_op", "Each ALU op with and without an immediate on its own 2x4 ACC area: MIN imm -7, "
               "MAX imm 5, ADD imm 30000 (full-range int32 data: wraps), SHR imm 3, SHR imm -5 (left shift, "
               "wraps), SHR imm -16 and 15; vector MIN, MAX, ADD (wraps), SHR by acc amounts in [0,15].", 103)
    n = 8
    a = v.acc("acc_a", n)
    b = v.acc("acc_b", n)
    amounts = v.acc("acc_shift", n, 0, 15)
    cases = [(ALU_MIN, -7), (ALU_MAX, 5), (ALU_ADD, 30000), (ALU_SHR, 3), (ALU_SHR, -5), (ALU_SHR, -16),
             (ALU_SHR, 15), (ALU_MIN, None), (ALU_MAX, None), (ALU_ADD, None), (ALU_SHR, None)]
    out = v.out("out", n * len(cases))
    uops, body = [], []
    for c, (op, imm) in enumerate(cases):
        base = n * c
        first = len(uops)
        body.append(LOAD(MEM_ACC, base, a, 2, 4))
        if imm is not None:  # one uop over both loops, src == dst
            uops.append((base, base, 0))
            body.append(ALU(op, (first, first + 1), (2, 4), dst=(4, 1), src=(4, 1), imm=imm))
        else:  # one uop per element, sources in a separate area
            src = 168 if op == ALU_SHR else 160
            uops += [(base + k, src + k, 0) for k in range(n)]
            body.append(ALU(op, (first, first + n), (1, 1)))
    body[-1]["push_next"] = 1
    u = v.uops("uops", uops)
    v.insns = ([LOAD(MEM_UOP, 0, u, 1, len(uops)), LOAD(MEM_ACC, 160, b, 1, n), LOAD(MEM_ACC, 168, amounts, 1, n)]
               + body + [STORE(0, out, 1, n * len(cases), pop_prev=1, push_prev=1), FINISH(pop_next=1)])
    v.write("own")


def gemm_loops_wrap():
    v = Vector("own_gemm_loops_wrap", "LOAD ACC near +-2^31, GEMM without reset accumulating extreme int8 "
               "products (wraps mod 2^32) with uop loops iter (2,3), dst factors (3,1), src factors (1,2), "
               "wgt factors (2,1); 2 uops; a second GEMM with iter_out 1 adds into the same elements.", 104)
    u = v.uops("uops", [(0, 0, 0), (0, 5, 1), (6, 1, 0)])
    acc = v.acc("acc_bias", 6, values=[v.rng.choice([(1 << 31) - 1 - v.rng.randrange(50000),
                                                     -(1 << 31) + v.rng.randrange(50000)])
                                       for _ in range(6 * 16)])
    inp = v.inp("inp", 12, -128, 127)
    wgt = v.wgt("wgt", 8, -128, 127)
    out = v.out("out", 7)
    v.insns = [
        LOAD(MEM_UOP, 0, u, 1, 3),
        LOAD(MEM_ACC, 0, acc, 1, 6),
        LOAD(MEM_ACC, 6, acc, 1, 1),
        LOAD(MEM_INP, 0, inp, 1, 12),
        LOAD(MEM_WGT, 0, wgt, 1, 8, push_next=1),
        GEMM((0, 2), (2, 3), dst=(3, 1), src=(1, 2), wgt=(2, 1), pop_prev=1),
        GEMM((2, 3), (1, 4), dst=(0, 0), src=(0, 2), wgt=(0, 1), push_next=1),
        STORE(0, out, 1, 7, pop_prev=1, push_prev=1),
        FINISH(pop_next=1),
    ]
    v.write("own")


def tokens_all_queues():
    v = Vector("own_tokens_double_buffer", "All four token queues: two rounds of LOAD INP/WGT (push LD->CMP), GEMM "
               "(pop LD->CMP, push CMP->LD so the load module may overwrite the buffers, push CMP->ST), STORE "
               "(pop CMP->ST, push ST->CMP) and the next round's GEMM reset waiting for ST->CMP; x_size=0 no-ops "
               "carry tokens on every module (LOAD INP x=0, LOAD UOP x=0 with pads, STORE x=0); Synchronize-style "
               "end: store and load push, a compute no-op pops both, then FINISH.", 105)
    u = v.uops("uops", [(0, 0, 0), (0, 0, 0), (1, 1, 1)])
    inp = v.inp("inp", 4)
    wgt = v.wgt("wgt", 4)
    out = v.out("out", 6)
    v.insns = [
        LOAD(MEM_UOP, 0, u, 1, 3),
        GEMM((0, 1), (1, 2), dst=(0, 1), reset=1),
        # round 1
        LOAD(MEM_INP, 0, inp, 1, 2),
        LOAD(MEM_WGT, 0, wgt, 1, 2, push_next=1),
        GEMM((1, 3), (1, 1), pop_prev=1, push_prev=1, push_next=1),
        STORE(0, out, 1, 2, pop_prev=1, push_prev=1),
        # round 2: the load module waits until compute released the buffers
        LOAD(MEM_INP, 0, inp + 2, 1, 2, pop_next=1),
        LOAD(MEM_WGT, 0, wgt + 2, 1, 2, push_next=1),
        GEMM((0, 1), (1, 2), dst=(0, 1), reset=1, pop_next=1),
        GEMM((1, 3), (1, 1), pop_prev=1, push_prev=1, push_next=1),
        STORE(0, out + 2, 1, 2, stride=2, pop_prev=1, push_prev=1),
        # no-ops carrying tokens (x_size = 0; padding and y_size must not write anything)
        LOAD(MEM_INP, 0, 0, 3, 0, pads=(1, 1, 1, 1), pop_next=1, push_next=1),
        LOAD(MEM_UOP, 0, 0, 2, 0, pads=(1, 0, 0, 1), pop_prev=1, pop_next=1, push_next=1),
        STORE(0, out + 4, 2, 0, pop_prev=1, push_prev=1),
        LOAD(MEM_UOP, 0, 0, 0, 0, pop_next=1, push_prev=1),
        LOAD(MEM_INP, 0, 0, 0, 0, pop_next=1, push_next=1),
        GEMM((1, 3), (1, 1), pop_prev=1, push_next=1),
        STORE(0, out + 4, 1, 2, pop_prev=1, push_prev=1),
        LOAD(MEM_UOP, 0, 0, 1, 0, pop_next=1),
        FINISH(),
    ]
    v.write("own")


def xsize_zero():
    v = Vector("own_xsize0_noops", "x_size=0 LOAD ACC/INP/UOP and STORE with nonzero y_size, pads and bases "
               "change nothing and count 0 bytes; data loaded before them survives.", 106)
    u = v.uops("uops", [(0, 0, 0)])
    acc = v.acc("acc", 4, -100000, 100000)
    out = v.out("out", 6)
    v.insns = [
        LOAD(MEM_UOP, 0, u, 1, 1),
        LOAD(MEM_ACC, 0, acc, 1, 4),
        LOAD(MEM_ACC, 0, acc, 5, 0, stride=7, pads=(2, 3, 4, 5)),
        LOAD(MEM_UOP, 0, u, 4, 0, pads=(1, 1, 1, 1)),
        LOAD(MEM_INP, 0, 0, 9, 0, pads=(3, 3, 3, 3), push_next=1),
        ALU(ALU_ADD, (0, 1), (1, 4), dst=(0, 1), src=(0, 1), imm=-77, pop_prev=1, push_next=1),
        STORE(0, 0, 5, 0, stride=3, pop_prev=1),
        STORE(0, out, 2, 2, stride=3, push_prev=1),
        FINISH(pop_next=1),
    ]
    v.write("own")


def random_rounds(seed, rounds, folder="own"):
    v = Vector(f"own_random_rounds_{seed}", f"{rounds} random rounds, each: LOAD INP and WGT with random "
               "shapes, strides and pads, LOAD ACC bias, GEMM over the round's tiles with random uop loops, a "
               "random ALU op (immediate in place, or vector with a separate source area), STORE with a random "
               "stride. Tokens: LD->CMP per round, CMP->LD before the next round's loads, CMP->ST / ST->CMP "
               "around each store.", seed)
    rng = v.rng
    uops, prog = [], []
    plan = []
    for r in range(rounds):
        ys, xs = rng.randint(1, 3), rng.randint(1, 4)
        pads = tuple(rng.randint(0, 2) for _ in range(4))
        stride = xs + rng.randint(0, 3)
        width, height = pads[2] + xs + pads[3], pads[0] + ys + pads[1]
        n_inp = width * height
        inp = v.inp(f"inp{r}", (ys - 1) * stride + xs)
        n_w = rng.randint(1, 3)
        wgt = v.wgt(f"wgt{r}", n_w)
        n_acc = rng.randint(1, 4)
        bias = v.acc(f"bias{r}", n_acc * 2, -(1 << 20), 1 << 20)
        out_stride = n_acc + rng.randint(0, 2)
        out = v.out(f"out{r}", out_stride * 2)
        plan.append((ys, xs, pads, stride, n_inp, inp, n_w, wgt, n_acc, bias, out_stride, out))
    for r, (ys, xs, pads, stride, n_inp, inp, n_w, wgt, n_acc, bias, out_stride, out) in enumerate(plan):
        last = r == rounds - 1
        first = r == 0
        # acc rows: 2 rows of n_acc at 0..2*n_acc; vector-ALU sources at 64..
        g0 = len(uops)
        k_uops = rng.randint(1, 3)
        for _ in range(k_uops):
            uops.append((rng.randrange(n_acc), rng.randrange(n_inp), rng.randrange(n_w)))
        iter_out, iter_in = 2, rng.randint(1, 3)
        src_f = (rng.randint(0, 2), rng.randint(0, 1))
        w_f = (0, rng.randint(0, 1))
        # keep every index in range
        max_src = max(s for _, s, _ in uops[g0:]) + (iter_out - 1) * src_f[0] + (iter_in - 1) * src_f[1]
        if max_src >= n_inp:
            src_f = (0, 0)
        max_w = max(w for _, _, w in uops[g0:]) + (iter_in - 1) * w_f[1]
        if max_w >= n_w:
            w_f = (0, 0)
        max_d = max(d for d, _, _ in uops[g0:])
        dst_f = (n_acc, 0) if max_d < n_acc else (0, 0)
        a0 = len(uops)
        op = rng.choice([ALU_MIN, ALU_MAX, ALU_ADD, ALU_SHR])
        use_imm = rng.random() < 0.5
        if use_imm:
            imm = rng.randint(-16, 15) if op == ALU_SHR else rng.randint(-32768, 32767)
            uops.append((0, 0, 0))
        else:
            imm = None
            uops += [(k, 64 + k, 0) for k in range(n_acc)]
        prog += [
            LOAD(MEM_INP, 0, inp, ys, xs, stride=stride, pads=pads, pop_next=0 if first else 1),
            LOAD(MEM_WGT, 0, wgt, 1, n_w, push_next=1),
            # the previous round's STORE must have read acc before it is overwritten
            LOAD(MEM_ACC, 0, bias, 2, n_acc, pop_next=0 if first else 1),
        ]
        if imm is None:
            lo, hi = (0, 15) if op == ALU_SHR else (-(1 << 31), (1 << 31) - 1)
            vals = [rng.randint(lo, hi) for _ in range(n_acc * 2 * v.cfg.lanes[MEM_ACC])]
            src = v.acc(f"alu_src{r}", 0, values=vals)
            prog.append(LOAD(MEM_ACC, 64, src, 2, n_acc))
        prog.append(GEMM((g0, a0), (iter_out, iter_in), dst=dst_f, src=src_f, wgt=w_f, pop_prev=1,
                         push_prev=0 if last else 1))
        if imm is None:
            prog.append(ALU(op, (a0, a0 + n_acc), (2, 1), dst=(n_acc, 0), src=(n_acc, 0), push_next=1))
        else:
            prog.append(ALU(op, (a0, a0 + 1), (2, n_acc), dst=(n_acc, 1), src=(n_acc, 1), imm=imm, push_next=1))
        prog.append(STORE(0, out, 2, n_acc, stride=out_stride, pop_prev=1, push_prev=1))
    u = v.uops("uops", uops)
    v.insns = [LOAD(MEM_UOP, 0, u, 1, len(uops))] + prog + [FINISH(pop_next=1)]
    v.write(folder)


def non_default_config():
    cfg = Config(log_batch=1, log_block=3, log_uop=12, log_inp=12, log_wgt=14, log_acc=13)
    v = Vector("own_cfg_batch2_block8", "Configuration BATCH 2, BLOCK 8 (INP 16 B, WGT 64 B, ACC 64 B, depths uop "
               "1024, inp 256, wgt 256, acc 128: the GEMM dst_factor_out field ends exactly at bit 63). Padded "
               "LOAD INP, GEMM reset + GEMM with loops, ALU MAX imm, vector ADD, STORE with stride.", 107, cfg)
    u = v.uops("uops", [(0, 0, 0), (0, 0, 0), (0, 2, 1), (0, 100, 0), (1, 101, 0)])
    inp = v.inp("inp", 6)
    wgt = v.wgt("wgt", 2)
    addend = v.acc("acc_addend", 2, -50, 50)
    out = v.out("out", 8)
    v.insns = [
        LOAD(MEM_UOP, 0, u, 1, 5),
        LOAD(MEM_INP, 0, inp, 2, 3, pads=(1, 0, 1, 1)),
        LOAD(MEM_WGT, 0, wgt, 1, 2, push_next=1),
        LOAD(MEM_ACC, 100, addend, 1, 2),
        GEMM((0, 1), (2, 2), dst=(2, 1), reset=1),
        GEMM((1, 3), (2, 2), dst=(2, 1), src=(5, 1), wgt=(0, 0), pop_prev=1),
        ALU(ALU_MAX, (0, 1), (2, 2), dst=(2, 1), src=(2, 1), imm=-20),
        ALU(ALU_ADD, (3, 5), (2, 1), dst=(2, 0), src=(0, 0), push_next=1),
        STORE(0, out, 2, 2, stride=4, pop_prev=1, push_prev=1),
        FINISH(pop_next=1),
    ]
    v.write("own_config")


if __name__ == "__main__":
    import sys
    if len(sys.argv) == 4 and sys.argv[1] == "--random":
        # A larger cross-check outside the repository: make_vectors.py --random N /abs/dir
        for seed in range(1000, 1000 + int(sys.argv[2])):
            random_rounds(seed, 1 + seed % 6, sys.argv[3])
        sys.exit(0)
    check_default_layout()
    pad_all_sides()
    pad_inp_gemm()
    alu_ops()
    gemm_loops_wrap()
    tokens_all_queues()
    xsize_zero()
    for seed in (201, 202, 203):
        random_rounds(seed, 4)
    non_default_config()
