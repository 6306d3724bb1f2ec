#!/usr/bin/env python3
"""Generate Nestor's example projects (examples/*.yaml) with checked mappings.

Usage:  python3 examples/tools/gen_mappings.py [--out DIR] [--check-only]

Writes, next to this folder's parent (examples/ by default):
  arch/eyeriss-like.arch.yaml      the Eyeriss-like architecture (included by the networks)
  eyeriss-like.yaml                the architecture with one VGG layer and two mappings
  simba-like.yaml                  a Simba-like chiplet with a few ResNet-50 layers
  alexnet.yaml vgg16.yaml mobilenet.yaml resnet50.yaml
  resnet18-thistle.yaml yolo9000-thistle.yaml   (Table II of the Thistle paper, CGO'22)

Usage with ranking (how the committed files were made):
  python3 examples/tools/gen_mappings.py --rank-with build/<dir>/app/cli/nestor-cli

Every mapping is built by a small heuristic mapper (row-stationary-like for the Eyeriss-like
array, weight-stationary vector lanes for the Simba-like chiplet). The mapper proposes a few
dozen candidates per layer; with --rank-with, Nestor's model scores them and the lowest
energy-delay product wins, otherwise the mapper's own rough score decides. Every candidate
is checked here, independently of Nestor, for: factor products (with the residual rule of
imperfect factors) equal to the bounds, spatial factors within each level's X/Y fanout, and tiles
within each level's capacity (sum over kept tensors of the tile words <= size_words;
a tile extent per dimension is bounded by the product of the loop bounds at and below the
level, an upper bound of the true tile under imperfect factors). Only the Python standard
library is used.
"""

import argparse
import math
import os
import sys

# ----------------------------------------------------------------------------------------
# Workloads (Timeloop naming, same projections as Nestor's engine/workload/LayerShapes.cpp)
# ----------------------------------------------------------------------------------------


class Layer:
    """One layer as written in the project file plus its loop-nest form for checking."""

    def __init__(self, name, kind, **p):
        self.name = name
        self.kind = kind  # conv | depthwise | grouped | fc
        self.p = p
        if kind == "fc":
            self.dims = {"N": p.get("batch", 1), "M": p["out_features"], "C": p["in_features"],
                         "P": 1, "Q": 1, "R": 1, "S": 1}
            sh = sw = dh = dw = 1
        else:
            sh, sw = p.get("stride", (1, 1))
            dh, dw = p.get("dilation", (1, 1))
            if kind == "depthwise":
                self.dims = {d: p.get(d, 1) for d in ("N", "C", "P", "Q", "R", "S")}
            else:
                self.dims = {d: p.get(d, 1) for d in ("N", "M", "C", "P", "Q", "R", "S")}
                if kind == "grouped":
                    self.dims["G"] = p["groups"]
        self.stride = (sh, sw)
        self.dilation = (dh, dw)
        window_h = [("R", dh), ("P", sh)]
        window_w = [("S", dw), ("Q", sw)]
        if kind == "depthwise":
            self.tensors = {
                "Weights": [[("C", 1)], [("R", 1)], [("S", 1)]],
                "Inputs": [[("N", 1)], [("C", 1)], window_h, window_w],
                "Outputs": [[("N", 1)], [("C", 1)], [("P", 1)], [("Q", 1)]],
            }
        else:
            self.tensors = {
                "Weights": [[("C", 1)], [("M", 1)], [("R", 1)], [("S", 1)]],
                "Inputs": [[("N", 1)], [("C", 1)], window_h, window_w],
                "Outputs": [[("N", 1)], [("M", 1)], [("P", 1)], [("Q", 1)]],
            }
            if kind == "grouped":
                for t in self.tensors.values():
                    t.append([("G", 1)])

    def macs(self):
        return math.prod(self.dims.values())

    def yaml(self):
        p = self.p
        if self.kind == "fc":
            return ("  - {name: %s, type: fc, batch: %d, out_features: %d, in_features: %d}"
                    % (self.name, p.get("batch", 1), p["out_features"], p["in_features"]))
        keys = ["N", "M", "C", "P", "Q", "R", "S"] if self.kind != "depthwise" else ["N", "C", "P", "Q", "R", "S"]
        parts = ["name: %s" % self.name, "type: %s" % self.kind]
        for k in keys:
            parts.append("%s: %d" % (k, p.get(k, 1)))
        if self.stride != (1, 1):
            parts.append("stride: [%d, %d]" % self.stride)
        if self.dilation != (1, 1):
            parts.append("dilation: [%d, %d]" % self.dilation)
        if self.kind == "grouped":
            parts.append("groups: %d" % p["groups"])
        return "  - {" + ", ".join(parts) + "}"


def conv(name, M, C, P, R, stride=1, N=1, Q=None, S=None):
    return Layer(name, "conv", N=N, M=M, C=C, P=P, Q=P if Q is None else Q, R=R, S=R if S is None else S,
                 stride=(stride, stride))


def dwconv(name, C, P, R=3, stride=1):
    return Layer(name, "depthwise", N=1, C=C, P=P, Q=P, R=R, S=R, stride=(stride, stride))


def gconv(name, groups, M, C, P, R, stride=1):
    # M and C per group
    return Layer(name, "grouped", N=1, M=M, C=C, P=P, Q=P, R=R, S=R, stride=(stride, stride), groups=groups)


def fc(name, out_features, in_features, batch=1):
    return Layer(name, "fc", batch=batch, out_features=out_features, in_features=in_features)


# ----------------------------------------------------------------------------------------
# Architectures
# ----------------------------------------------------------------------------------------


class Level:
    def __init__(self, name, technology, size_words, word_bits, block_size, instances, mesh_x,
                 read_bw=None, write_bw=None, energy=(0, 0, 0, 0), area=0.0, comment=None):
        self.name = name
        self.technology = technology
        self.size_words = size_words  # None = unbounded
        self.word_bits = word_bits
        self.block_size = block_size
        self.instances = instances
        self.mesh_x = mesh_x
        self.read_bw = read_bw
        self.write_bw = write_bw
        self.energy = energy  # read, fill, update, leak (pJ per vector access; leak per cycle)
        self.area = area
        self.comment = comment

    @property
    def mesh_y(self):
        return self.instances // self.mesh_x


class Arch:
    def __init__(self, name, levels, compute, cycle_seconds=1e-9, energy_model="table-scaled", comment=None):
        self.name = name
        self.levels = levels
        self.compute = compute  # dict name, instances, mesh_x, energy, area
        self.cycle_seconds = cycle_seconds
        self.energy_model = energy_model
        self.comment = comment

    def child_mesh(self, i):
        if i + 1 < len(self.levels):
            c = self.levels[i + 1]
            return c.mesh_x, c.mesh_y
        c = self.compute
        return c["mesh_x"], c["instances"] // c["mesh_x"]

    def fanout_x(self, i):
        return self.child_mesh(i)[0] // self.levels[i].mesh_x

    def fanout_y(self, i):
        return self.child_mesh(i)[1] // self.levels[i].mesh_y

    def index(self, name):
        for i, l in enumerate(self.levels):
            if l.name == name:
                return i
        raise KeyError(name)


def fmt_num(x):
    if x is None:
        return "null"
    if isinstance(x, int):
        return str(x)
    r = round(x, 6)
    if r == int(r) and abs(r) < 1e15:
        return str(int(r))
    return repr(r)


def arch_yaml(a):
    out = []
    if a.comment:
        out += ["# " + c for c in a.comment]
    out.append("architecture:")
    out.append("  name: %s" % a.name)
    out.append("  cycle_seconds: %s" % ("%.1e" % a.cycle_seconds).replace("e-0", "e-"))
    out.append("  energy_model: %s" % a.energy_model)
    out.append("  levels:                      # outermost (backing store) first")
    for l in a.levels:
        if l.comment:
            out.append("    # " + l.comment)
        out.append("    - name: %s" % l.name)
        out.append("      technology: %s" % l.technology)
        out.append("      size_words: %s" % fmt_num(l.size_words))
        out.append("      word_bits: %d" % l.word_bits)
        out.append("      block_size: %d" % l.block_size)
        out.append("      cluster_size: 1")
        out.append("      instances: %d" % l.instances)
        out.append("      mesh_x: %d" % l.mesh_x)
        out.append("      read_bw: %s" % fmt_num(l.read_bw))
        out.append("      write_bw: %s" % fmt_num(l.write_bw))
        out.append("      shared_bw: null")
        out.append("      multiple_buffering: 1")
        e = l.energy
        out.append("      energy_pJ: {read: %s, fill: %s, update: %s, leak: %s}"
                   % (fmt_num(e[0]), fmt_num(e[1]), fmt_num(e[2]), fmt_num(e[3])))
        out.append("      area_um2: %s" % fmt_num(l.area))
    c = a.compute
    out.append("  compute:")
    out.append("    name: %s" % c["name"])
    out.append("    instances: %d" % c["instances"])
    out.append("    mesh_x: %d" % c["mesh_x"])
    out.append("    energy_pJ: %s" % fmt_num(c["energy"]))
    out.append("    area_um2: %s" % fmt_num(c["area"]))
    return out


# Thistle (CGO'22) Table III, 45 nm: per-word areas used as area estimates below.
AREA_REG = 19.874
AREA_SRAM_WORD = 6.806
AREA_MAC = 1239.5

# Eyeriss-like, 14 x 12 PEs, 16-bit words. Per-action energies are those of the energy
# reference table of the Timeloop+Accelergy Eyeriss exercise (reference case
# ispass20-tl+acc-eyeriss-int16): there the spads have 16-bit wide rows, so one vector access
# of that table is one 16-bit word here; DRAM and the GLB are 64 bits wide (block 4).
EYERISS = Arch(
    "eyeriss-like",
    [
        Level("DRAM", "DRAM", None, 16, 4, 1, 1, energy=(512.0, 512.0, 512.0, 0.0), area=0.0),
        Level("GLB", "SRAM", 65536, 16, 4, 1, 1, read_bw=8, write_bw=8,
              energy=(32.342452, 26.121552, 26.121552, 0.003351), area=65536 * AREA_SRAM_WORD,
              comment="128 KiB global buffer, 64 bits per access"),
        Level("inter_PE_column_spatial", "dummy", 0, 16, 1, 1, 1,
              comment="spatial-only levels: 14 PE columns (X), then 12 PEs per column (Y)"),
        Level("inter_PE_spatial", "dummy", 0, 16, 1, 14, 14),
        Level("ifmap_spad", "regfile", 12, 16, 1, 168, 14, read_bw=1, write_bw=1,
              energy=(0.310924, 0.271902, 0.271902, 0.000154), area=12 * AREA_REG,
              comment="per-PE scratchpads: 12 input words, 192 weight words, 16 partial sums"),
        Level("weights_spad", "regfile", 192, 16, 1, 168, 14, read_bw=1, write_bw=1,
              energy=(3.005554, 2.861554, 2.861554, 0.002416), area=192 * AREA_REG),
        Level("psum_spad", "regfile", 16, 16, 1, 168, 14, read_bw=2, write_bw=2,
              energy=(0.385026, 0.336188, 0.336188, 0.000204), area=16 * AREA_REG),
    ],
    {"name": "MAC", "instances": 168, "mesh_x": 14, "energy": 0.315, "area": AREA_MAC},
    comment=[
        "Eyeriss-like accelerator: 14 x 12 PEs with per-PE scratchpads, 128 KiB GLB, DRAM; 16-bit words.",
        "Energies (pJ per vector access of block_size words; leak per cycle per instance) are the",
        "Timeloop+Accelergy Eyeriss exercise's energy reference table (45 nm). Areas (um^2 per",
        "instance) are estimates from the per-word areas of Table III of the Thistle paper (CGO'22).",
    ],
)


def sigma_sram(words16):  # Thistle eq. (4), sigma_S read as 17.88 fJ (see engine/arch/EnergyModels.h)
    return 17.88e-3 * math.sqrt(words16)


def sigma_rf(words16):
    return 9.06719e-3 * words16


def simba_level(name, tech, size, word_bits, block, inst, mesh_x, rbw=None, wbw=None, comment=None):
    w16 = size * word_bits / 16.0
    per16 = sigma_rf(w16) if tech == "regfile" else sigma_sram(w16)
    per_word = per16 * word_bits / 16.0
    e = per_word * block
    area = w16 * (AREA_REG if tech == "regfile" else AREA_SRAM_WORD)
    return Level(name, tech, size, word_bits, block, inst, mesh_x, rbw, wbw, (e, e, e, 0.0), area, comment)


# Simba-like chiplet (after Shao et al., MICRO'19): a 64 KiB global buffer feeding a 4 x 4 PE
# array; each PE has an input buffer, a weight buffer, an accumulation buffer (24-bit partial
# sums) and 8 vector MAC lanes of 8 MACs, each MAC with its own weight register. 8-bit words.
SIMBA = Arch(
    "simba-like",
    [
        Level("DRAM", "DRAM", None, 8, 8, 1, 1, energy=(512.0, 512.0, 512.0, 0.0), area=0.0),
        simba_level("GlobalBuffer", "SRAM", 65536, 8, 8, 1, 1, 16, 16,
                    comment="64 KiB global buffer, 8 bytes per access; 4 x 4 PEs below it"),
        simba_level("PEInputBuffer", "SRAM", 8192, 8, 8, 16, 4, 8, 8, comment="per-PE buffers"),
        simba_level("PEWeightBuffer", "SRAM", 32768, 8, 8, 16, 4, 8, 8),
        simba_level("PEAccuBuffer", "SRAM", 1024, 24, 1, 16, 4, 8, 8,
                    comment="1024 24-bit partial sums; 8 lanes (Y) x 8-wide vector MACs (X) below it"),
        simba_level("PEWeightRegs", "regfile", 1, 8, 1, 1024, 32, comment="one weight register per MAC"),
    ],
    {"name": "LMAC", "instances": 1024, "mesh_x": 32, "energy": 0.55, "area": AREA_MAC / 4},
    comment=[
        "Simba-like chiplet: 4 x 4 PEs, each with 8 vector MAC lanes x 8 MACs (1024 MACs), 8-bit words.",
        "Energies follow the 45 nm analytical model of the Thistle paper (CGO'22): DRAM 128 pJ and",
        "SRAM 17.88 fJ x sqrt(capacity in 16-bit words) per 16-bit access, register 9.06719 fJ x",
        "registers, scaled by word_bits/16 per word; the 8-bit MAC is a quarter of the paper's",
        "2.2 pJ int16 MAC (multiplier energy ~ bits^2). Areas from the same table.",
    ],
)

# ----------------------------------------------------------------------------------------
# Mappings and their independent check
# ----------------------------------------------------------------------------------------


class LevelMap:
    def __init__(self, keep):
        self.temporal = []  # (dim, bound, residual), outermost first
        self.sx = []
        self.sy = []
        self.keep = list(keep)  # tensor names kept


class Mapping:
    def __init__(self, name, layer, arch, keeps):
        self.name = name
        self.layer = layer
        self.arch = arch
        self.levels = [LevelMap(keeps[l.name]) for l in arch.levels]
        self.comment = None

    def lv(self, name):
        return self.levels[self.arch.index(name)]

    def yaml(self):
        out = []
        if self.comment:
            out.append("  # " + self.comment)
        out.append("  - name: %s" % self.name)
        out.append("    workload: %s" % self.layer.name)
        out.append("    levels:")
        all_t = list(self.layer.tensors.keys())

        def loops(ls):
            return "[" + ", ".join("[%s, %d]" % (d, b) if b == r else "[%s, %d, %d]" % (d, b, r)
                                   for d, b, r in ls) + "]"

        for l, lm in zip(self.arch.levels, self.levels):
            parts = ["level: %s" % l.name, "temporal: %s" % loops(lm.temporal)]
            if lm.sx:
                parts.append("spatial_x: %s" % loops(lm.sx))
            if lm.sy:
                parts.append("spatial_y: %s" % loops(lm.sy))
            kept = [t for t in all_t if t in lm.keep]
            if len(kept) == len(all_t):
                parts.append("keep: [%s]" % ", ".join(kept))
            else:
                parts.append("bypass: [%s]" % ", ".join(t for t in all_t if t not in lm.keep))
            out.append("      - {" + ", ".join(parts) + "}")
        return out


def covered(loops):
    size, inner = 1, 1
    for _, b, r in reversed(loops):
        size += (r - 1) * inner
        inner *= b
    return size


def nest_loops(m):
    """All loops in nest order: per level temporal, then spatial Y, then spatial X."""
    for i, lm in enumerate(m.levels):
        for l in lm.temporal:
            yield i, "t", l
        for l in lm.sy:
            yield i, "y", l
        for l in lm.sx:
            yield i, "x", l


def tile_words(m, level_index, tensor):
    layer = m.layer
    ext = {}
    for d, bound in layer.dims.items():
        prod = 1
        for i, _, (dd, b, r) in nest_loops(m):
            if dd == d and i >= level_index:
                prod *= b
        ext[d] = min(prod, bound)
    words = 1
    for rank in layer.tensors[tensor]:
        words *= sum(c * (ext[d] - 1) for d, c in rank) + 1
    return words


def check(m):
    errs = []
    a, layer = m.arch, m.layer
    per_dim = {d: [] for d in layer.dims}
    for i, kind, (d, b, r) in nest_loops(m):
        if d not in layer.dims:
            errs.append("unknown dim %s" % d)
            continue
        if not (1 <= r <= b):
            errs.append("%s: bad residual %s" % (a.levels[i].name, (d, b, r)))
        per_dim[d].append((d, b, r))
    for d, bound in layer.dims.items():
        if covered(per_dim[d]) != bound:
            errs.append("dim %s covers %d, bound %d: %s" % (d, covered(per_dim[d]), bound, per_dim[d]))
    for i, (l, lm) in enumerate(zip(a.levels, m.levels)):
        px = math.prod(b for _, b, _ in lm.sx)
        py = math.prod(b for _, b, _ in lm.sy)
        if px > a.fanout_x(i):
            errs.append("%s: spatial X %d > fanout %d" % (l.name, px, a.fanout_x(i)))
        if py > a.fanout_y(i):
            errs.append("%s: spatial Y %d > fanout %d" % (l.name, py, a.fanout_y(i)))
        if l.size_words is not None:
            used = sum(tile_words(m, i, t) for t in lm.keep)
            if used > l.size_words:
                errs.append("%s: tiles %s need %d words > %d"
                            % (l.name, {t: tile_words(m, i, t) for t in lm.keep}, used, l.size_words))
        for t in lm.keep:
            if t not in layer.tensors:
                errs.append("%s keeps unknown tensor %s" % (l.name, t))
    for t in layer.tensors:
        if not any(t in lm.keep for lm in m.levels):
            errs.append("tensor %s bypassed everywhere" % t)
    return errs


def utilization(m):
    """Fraction of MAC-cycles doing useful work: MACs / (MAC instances x temporal steps)."""
    steps = math.prod(b for _, kind, (_, b, _) in nest_loops(m) if kind == "t")
    return m.layer.macs() / (m.arch.compute["instances"] * steps)


# ----------------------------------------------------------------------------------------
# Helpers
# ----------------------------------------------------------------------------------------


def divisors(n, limit=None):
    ds = [d for d in range(1, (n if limit is None else min(n, limit)) + 1) if n % d == 0]
    return ds


def prime_factors(n):
    f, d = [], 2
    while d * d <= n:
        while n % d == 0:
            f.append(d)
            n //= d
        d += 1
    if n > 1:
        f.append(n)
    return f


def fill_level(m, level_name, rem, dims_order, try_order):
    """Move as much of `rem` as fits into `level_name`'s temporal loops (greedy, prime factors,
    round-robin over try_order); loops are written in dims_order (outermost first)."""
    lm = m.lv(level_name)
    chosen = {d: 1 for d in rem}
    pending = {d: sorted(prime_factors(rem[d]), reverse=True) for d in rem}

    def rebuild():
        lm.temporal = [(d, chosen[d], chosen[d]) for d in dims_order if chosen.get(d, 1) > 1]

    progress = True
    while progress:
        progress = False
        for d in try_order:
            if d not in pending or not pending[d]:
                continue
            for k, f in enumerate(pending[d]):
                chosen[d] *= f
                rebuild()
                if check_capacity(m):  # this level and every level whose tile includes it
                    pending[d].pop(k)
                    progress = True
                    break
                chosen[d] //= f
                rebuild()
    rebuild()
    return {d: rem[d] // chosen[d] for d in rem}


def put_rest(m, level_name, rem, dims_order):
    m.lv(level_name).temporal = [(d, rem[d], rem[d]) for d in dims_order if rem.get(d, 1) > 1]


# ----------------------------------------------------------------------------------------
# Eyeriss-like: row-stationary-like mapper
# ----------------------------------------------------------------------------------------

EYERISS_KEEP = {
    "DRAM": ["Weights", "Inputs", "Outputs"],
    "GLB": ["Inputs", "Outputs"],  # weights go from DRAM straight to the PEs (Eyeriss)
    "inter_PE_column_spatial": [],
    "inter_PE_spatial": [],
    "ifmap_spad": ["Inputs"],
    "weights_spad": ["Weights"],
    "psum_spad": ["Outputs"],
}


def side_options(rem, dims, cap, allow_imperfect, forced=None):
    """Spatial factor choices for one mesh side of `cap` PEs.

    rem: dim -> extent still to map; dims: dims allowed on this side, in loop order. Returns
    a list of (effective parallelism, factors) with factors: dim -> (bound, residual, outer),
    where outer is the trip count left for the loops above (ceil(rem / bound)). Perfect
    factors divide rem; at most one imperfect factor per side (bound does not divide rem)."""
    forced = forced or {}
    out = []

    def rec(k, used, eff, fac, imperfect_used):
        if k == len(dims):
            out.append((eff, dict(fac)))
            return
        d = dims[k]
        n = rem.get(d, 1)
        if d in forced:
            b = forced[d]
            fac[d] = (b, b, n // b)
            rec(k + 1, used * b, eff * b, fac, imperfect_used)
            del fac[d]
            return
        for b in range(1, min(n, cap // used) + 1):
            if n % b == 0:
                fac[d] = (b, b, n // b)
                rec(k + 1, used * b, eff * b, fac, imperfect_used)
                del fac[d]
            elif allow_imperfect and not imperfect_used and b >= 2 and 2 * b * used > cap:
                # (an imperfect factor only where it fills more than half of this side)
                outer = -(-n // b)
                fac[d] = (b, n - (outer - 1) * b, outer)
                rec(k + 1, used * b, eff * n / outer, fac, True)
                del fac[d]

    rec(0, 1, 1, {}, False)
    return out


def eyeriss_plans(layer, imperfect, keep_best=12):
    """Candidate PE-level tiles (psum M, weights C x R) and spatial factors (X: 14 PE columns,
    Y: 12 PEs per column; S always down the columns as in row stationary), best first by a
    rough score: busy MACs x an estimate of the GLB bandwidth slowdown (partial sums written
    back per PE pass, less what the spatial reduction over C and S saves)."""
    a = EYERISS
    ifmap = a.levels[a.index("ifmap_spad")].size_words
    wsp = a.levels[a.index("weights_spad")].size_words
    psum = a.levels[a.index("psum_spad")].size_words
    glb = a.levels[a.index("GLB")]
    fx = a.fanout_x(a.index("inter_PE_column_spatial"))
    fy = a.fanout_y(a.index("inter_PE_spatial"))
    D = layer.dims
    has_m = "M" in D
    M = D.get("M", 1)
    C, R, S = D["C"], D["R"], D["S"]
    rext = layer.dilation[0] * (R - 1) + 1
    if S > fy or rext > ifmap:
        raise ValueError("%s: filter too large for this row-stationary mapper" % layer.name)
    out_dims = {"M", "P", "Q", "N", "G"} if has_m else {"C", "P", "Q", "N", "G"}
    plans = []
    xcache = {}
    for m0 in (divisors(M, psum) if has_m else [1]):
        for c0 in divisors(C):
            if c0 * rext > ifmap or m0 * c0 * R > wsp:
                continue
            rem = dict(D)
            rem["R"] = 1
            if has_m:
                rem["M"] = M // m0
            rem["C"] = C // c0
            ydims = [d for d in ("S", "M", "C", "P") if d in D]
            for yeff, y in side_options(rem, ydims, fy, imperfect, forced={"S": S}):
                rem2 = dict(rem)
                for d, (b, r, outer) in y.items():
                    rem2[d] = outer
                xdims = [d for d in ("Q", "P", "M", "C", "N") if d in D]
                key = tuple(sorted(rem2.items()))
                if key not in xcache:
                    xcache[key] = side_options(rem2, xdims, fx, imperfect)
                for xeff, x in xcache[key]:
                    is_imp = any(b != r for b, r, _ in list(x.values()) + list(y.values()))
                    if imperfect != is_imp:
                        continue
                    util = xeff * yeff / (fx * fy)
                    # PEs holding different partial sums write them back after each PE pass
                    # of m0 x c0 x R MACs (and read them again): GLB words per cycle.
                    distinct_out = math.prod(b for d, (b, _, _) in list(x.items()) + list(y.items()) if d in out_dims)
                    traffic = 2.0 * distinct_out * m0 / (m0 * c0 * R)
                    slowdown = min(1.0, glb.read_bw / traffic) if traffic > 0 else 1.0
                    score = (round(util * slowdown, 4), round(util, 4), m0 * c0,
                             x.get("Q", (1,))[0] * x.get("P", (1,))[0], -len(x) - len(y))
                    plans.append((score, dict(m0=m0, c0=c0, x=x, y=y)))
    plans.sort(key=lambda p: p[0], reverse=True)
    return [p for _, p in plans[:keep_best]]


def eyeriss_build(layer, name, plan, pe_stationary):
    """Mapping from a plan. pe_stationary: 'weights' puts P, Q innermost in the GLB loops (a
    PE's weights stay while it sweeps output pixels), 'weights and input rows' the same with P
    innermost (the input window slides along R/P inside the PE), 'psums' puts C innermost (a
    PE's partial sums stay while input-channel chunks stream by)."""
    D = layer.dims
    has_m = "M" in D
    m = Mapping(name, layer, EYERISS, EYERISS_KEEP)
    rem = dict(D)
    rem["R"] = 1
    if has_m and plan["m0"] > 1:
        m.lv("psum_spad").temporal = [("M", plan["m0"], plan["m0"])]
        rem["M"] //= plan["m0"]
    wt = []
    if plan["c0"] > 1:
        wt.append(("C", plan["c0"], plan["c0"]))
        rem["C"] //= plan["c0"]
    if D["R"] > 1:
        wt.append(("R", D["R"], D["R"]))
    m.lv("weights_spad").temporal = wt
    for lvl, side, fac in (("inter_PE_spatial", "sy", plan["y"]), ("inter_PE_column_spatial", "sx", plan["x"])):
        loops = []
        for d, (b, r, outer) in fac.items():
            if b > 1:
                loops.append((d, b, r))
            rem[d] = outer
        setattr(m.lv(lvl), side, loops)
    if pe_stationary == "weights":
        order = [d for d in ("G", "N", "M", "C", "P", "Q") if d in D]
    elif pe_stationary == "weights and input rows":  # P innermost: the R window slides
        order = [d for d in ("G", "N", "M", "C", "Q", "P") if d in D]
    else:
        order = [d for d in ("G", "N", "M", "P", "Q", "C") if d in D]
    rem = fill_level(m, "GLB", rem, order, ["P", "Q", "C", "M", "N", "G"])
    put_rest(m, "DRAM", rem, [d for d in ("G", "N", "M", "P", "Q", "C") if d in D])
    return m


def eyeriss_candidates(layer, imperfect):
    out = []
    for i, plan in enumerate(eyeriss_plans(layer, imperfect)):
        for st in ("weights", "weights and input rows", "psums"):
            m = eyeriss_build(layer, "cand%d_%s" % (i, st), plan, st)
            m.stationary = st
            out.append(m)
    return out


def eyeriss_mappings(layer, ranker):
    """'<layer>-rs': the best perfect-factor candidate; '<layer>-rs-imperfect': the best
    candidate with imperfect spatial factors, kept only if it beats the perfect one."""
    maps = []
    best = ranker.best(checked(eyeriss_candidates(layer, False)))
    best.name = layer.name + "-rs"
    maps.append(best)
    cands = eyeriss_candidates(layer, True)
    if cands:
        imp = ranker.best(checked(cands))
        if ranker.better(imp, best):
            imp.name = layer.name + "-rs-imperfect"
            maps.append(imp)
    for m in maps:
        m.comment = "%s: row-stationary-like%s, %s stay in the PEs across GLB steps; %s" % (
            layer.name, " with imperfect spatial factors" if m.name.endswith("imperfect") else "",
            m.stationary, ranker.describe(m))
    return maps


def eyeriss_reference_mapping(layer):
    """The mapping of Timeloop's Eyeriss exercise (reference case ispass20-tl+acc-eyeriss-int16)
    for VGG conv3_1, with C split 8 x 4 instead of 4 x 8 because this ifmap spad holds 12
    16-bit words (there: 24 8-bit words)."""
    m = Mapping("row-stationary", layer, EYERISS, EYERISS_KEEP)
    m.lv("DRAM").temporal = [("Q", 4, 4), ("C", 4, 4), ("P", 7, 7), ("M", 4, 4)]
    m.lv("GLB").temporal = [("M", 2, 2), ("C", 8, 8), ("P", 8, 8)]
    m.lv("inter_PE_column_spatial").sx = [("Q", 14, 14)]
    m.lv("inter_PE_spatial").sy = [("M", 4, 4), ("S", 3, 3)]
    m.lv("weights_spad").temporal = [("R", 3, 3), ("C", 4, 4)]
    m.lv("psum_spad").temporal = [("M", 8, 8)]
    m.comment = ("the Timeloop Eyeriss exercise's mapping (reference case ispass20-tl+acc-eyeriss-int16), "
                 "C split 8 x 4 for the 12-word ifmap spad")
    return m


# ----------------------------------------------------------------------------------------
# Simba-like: weight-stationary vector lanes
# ----------------------------------------------------------------------------------------

SIMBA_KEEP = {
    "DRAM": ["Weights", "Inputs", "Outputs"],
    "GlobalBuffer": ["Inputs", "Outputs"],
    "PEInputBuffer": ["Inputs"],
    "PEWeightBuffer": ["Weights"],
    "PEAccuBuffer": ["Outputs"],
    "PEWeightRegs": ["Weights"],
}


def simba_spatial_options(layer, keep_best=3):
    a = SIMBA
    D = layer.dims
    M, C = D["M"], D["C"]
    gb = a.index("GlobalBuffer")
    acc = a.index("PEAccuBuffer")
    opts = []
    for cx in divisors(C, a.fanout_x(acc)):
        for my in divisors(M, a.fanout_y(acc)):
            for pmx in divisors(M // my, a.fanout_x(gb)):
                for pcy in divisors(C // cx, a.fanout_y(gb)):
                    opts.append(((cx * my * pmx * pcy, cx * my), (cx, my, pmx, pcy)))
    opts.sort(reverse=True)
    return [o for _, o in opts[:keep_best]]


def simba_candidates(layer):
    out = []
    for i, sp in enumerate(simba_spatial_options(layer)):
        for blk in (16, 64, 256):
            m = simba_mapping(layer, "cand%d_%d" % (i, blk), sp, blk)
            m.stationary = "weights"
            out.append(m)
    return out


def simba_mapping(layer, name, spatial, max_block):
    D = dict(layer.dims)
    cx, my, pmx, pcy = spatial
    m = Mapping(name, layer, SIMBA, SIMBA_KEEP)
    rem = dict(D)
    m.lv("PEAccuBuffer").sx = [("C", cx, cx)] if cx > 1 else []
    m.lv("PEAccuBuffer").sy = [("M", my, my)] if my > 1 else []
    m.lv("GlobalBuffer").sx = [("M", pmx, pmx)] if pmx > 1 else []
    m.lv("GlobalBuffer").sy = [("C", pcy, pcy)] if pcy > 1 else []
    rem["C"] //= cx * pcy
    rem["M"] //= my * pmx
    # Filter window at the accumulation buffer (partial sums accumulate in place).
    acc_loops = []
    for d in ("R", "S"):
        if rem[d] > 1:
            acc_loops.append((d, rem[d], rem[d]))
            rem[d] = 1
    m.lv("PEAccuBuffer").temporal = acc_loops
    # Weight registers: weights stay while a block of output pixels streams by (P, Q loops);
    # the block is bounded by the accumulation and input buffers and by max_block pixels.
    regs = m.lv("PEWeightRegs")
    blk = {"P": 1, "Q": 1}
    grown = True
    while grown:
        grown = False
        for d in ("Q", "P"):
            fs = sorted(prime_factors(rem[d]))
            if not fs:
                continue
            trial = dict(blk)
            trial[d] *= fs[0]
            old = regs.temporal
            regs.temporal = [(x, trial[x], trial[x]) for x in ("P", "Q") if trial[x] > 1]
            if trial["P"] * trial["Q"] <= max_block and check_capacity(m):
                blk = trial
                rem[d] //= fs[0]
                grown = True
            else:
                regs.temporal = old
    # Input-channel chunks at the accumulation buffer.
    rem = fill_accumulate(m, rem)
    rem = fill_level(m, "PEWeightBuffer", rem, ["P", "Q"], ["Q", "P"])
    rem = fill_level(m, "PEInputBuffer", rem, ["M"], ["M"])
    rem = fill_level(m, "GlobalBuffer", rem, ["N", "M", "C", "P", "Q"], ["P", "Q", "C", "M", "N"])
    put_rest(m, "DRAM", rem, ["N", "M", "P", "Q", "C"])
    return m


def check_capacity(m):
    return not [e for e in check_partial(m) if "words" in e]


def check_partial(m):
    errs = []
    for i, (l, lm) in enumerate(zip(m.arch.levels, m.levels)):
        if l.size_words is not None:
            used = sum(tile_words(m, i, t) for t in lm.keep)
            if used > l.size_words:
                errs.append("%s needs %d words" % (l.name, used))
    return errs


def fill_accumulate(m, rem):
    lm = m.lv("PEAccuBuffer")
    base = list(lm.temporal)
    c = 1
    for f in sorted(prime_factors(rem["C"])):
        lm.temporal = [("C", c * f, c * f)] + base
        if check_capacity(m):
            c *= f
        else:
            break
    lm.temporal = ([("C", c, c)] if c > 1 else []) + base
    rem = dict(rem)
    rem["C"] //= c
    return rem


# ----------------------------------------------------------------------------------------
# Networks
# ----------------------------------------------------------------------------------------


def alexnet():
    # Krizhevsky et al. 2012 (as in the Eyeriss and Interstellar papers): 227 x 227 input,
    # conv2/4/5 split in two groups (C and M per group).
    L = [
        conv("conv1", 96, 3, 55, 11, stride=4),
        gconv("conv2", 2, 128, 48, 27, 5),
        conv("conv3", 384, 256, 13, 3),
        gconv("conv4", 2, 192, 192, 13, 3),
        gconv("conv5", 2, 128, 192, 13, 3),
        fc("fc6", 4096, 9216),
        fc("fc7", 4096, 4096),
        fc("fc8", 1000, 4096),
    ]
    return L, [(l.name, 1) for l in L]


def vgg16():
    L = [
        conv("conv1_1", 64, 3, 224, 3), conv("conv1_2", 64, 64, 224, 3),
        conv("conv2_1", 128, 64, 112, 3), conv("conv2_2", 128, 128, 112, 3),
        conv("conv3_1", 256, 128, 56, 3), conv("conv3_2", 256, 256, 56, 3),
        conv("conv4_1", 512, 256, 28, 3), conv("conv4_2", 512, 512, 28, 3),
        conv("conv5_1", 512, 512, 14, 3),
        fc("fc6", 4096, 25088), fc("fc7", 4096, 4096), fc("fc8", 1000, 4096),
    ]
    rep = {"conv3_2": 2, "conv4_2": 2, "conv5_1": 3}  # conv3_2/3_3, conv4_2/4_3, conv5_1..5_3
    return L, [(l.name, rep.get(l.name, 1)) for l in L]


def mobilenet():
    # MobileNet v1 (Howard et al. 2017), width 1.0, 224 x 224: 3x3 conv, 13 depthwise +
    # pointwise pairs, global average pool, fc 1000.
    L = [conv("conv1", 32, 3, 112, 3, stride=2)]
    net = [("conv1", 1)]
    blocks = [  # (C_in, C_out, stride, output size)
        (32, 64, 1, 112), (64, 128, 2, 56), (128, 128, 1, 56), (128, 256, 2, 28), (256, 256, 1, 28),
        (256, 512, 2, 14), (512, 512, 1, 14), (512, 1024, 2, 7), (1024, 1024, 1, 7)]
    reps = [1, 1, 1, 1, 1, 1, 5, 1, 1]
    first = 1
    for (cin, cout, s, p), r in zip(blocks, reps):
        tag = "%d" % first if r == 1 else "%d_%d" % (first, first + r - 1)
        L.append(dwconv("dw%s" % tag, cin, p, 3, s))
        L.append(conv("pw%s" % tag, cout, cin, p, 1))
        net += [("dw%s" % tag, 1), ("pw%s" % tag, 1)] * r  # true layer order
        first += r
    L.append(fc("fc", 1000, 1024))
    net.append(("fc", 1))
    return L, net


def resnet50():
    # He et al. 2016, torchvision layout (v1.5: the stride-2 convolution of a bottleneck is its
    # 3x3), 224 x 224 input. The identical blocks 2..n of a stage share one set of workloads,
    # listed once per block in the network.
    L = [conv("conv1", 64, 3, 112, 7, stride=2)]
    net = [("conv1", 1)]
    stages = [(2, 64, 256, 56, 3, 1), (3, 128, 512, 28, 4, 2), (4, 256, 1024, 14, 6, 2), (5, 512, 2048, 7, 3, 2)]
    cin = 64
    for st, mid, out, p, blocks, s in stages:
        pin = p * s
        a = "res%da" % st
        L += [conv(a + "_1x1a", mid, cin, pin, 1), conv(a + "_3x3", mid, mid, p, 3, stride=s),
              conv(a + "_1x1b", out, mid, p, 1), conv(a + "_proj", out, cin, p, 1, stride=s)]
        net += [(a + "_1x1a", 1), (a + "_3x3", 1), (a + "_1x1b", 1), (a + "_proj", 1)]
        b = "res%db" % st
        L += [conv(b + "_1x1a", mid, out, p, 1), conv(b + "_3x3", mid, mid, p, 3), conv(b + "_1x1b", out, mid, p, 1)]
        net += [(b + "_1x1a", 1), (b + "_3x3", 1), (b + "_1x1b", 1)] * (blocks - 1)  # true layer order
        cin = out
    L.append(fc("fc", 1000, 2048))
    net.append(("fc", 1))
    return L, net


def resnet18_thistle():
    # Table II of the Thistle paper (CGO'22), ResNet-18 columns: K (= M), C, H = W (input),
    # R = S, stride 2 where marked '*'. P = Q = H / stride (the layers' true output sizes).
    rows = [(64, 3, 224, 7, 2), (64, 64, 56, 3, 1), (64, 64, 56, 1, 1), (128, 64, 56, 3, 2), (128, 64, 56, 1, 2),
            (128, 128, 28, 3, 1), (256, 128, 28, 3, 2), (256, 128, 28, 1, 1), (256, 256, 14, 3, 1),
            (512, 256, 14, 3, 2), (512, 256, 14, 1, 2), (512, 512, 7, 3, 1)]
    L = [conv("layer%d" % (i + 1), k, c, h // s, r, stride=s) for i, (k, c, h, r, s) in enumerate(rows)]
    return L, [(l.name, 1) for l in L]


def yolo9000_thistle():
    # Table II of the Thistle paper (CGO'22), Yolo-9000 columns; all strides 1, P = Q = H.
    rows = [(32, 3, 544, 3), (64, 32, 272, 3), (128, 64, 136, 3), (64, 128, 136, 1), (256, 128, 68, 3),
            (128, 256, 68, 1), (512, 256, 34, 3), (256, 512, 34, 1), (1024, 512, 17, 3), (512, 1024, 17, 1),
            (28269, 1024, 17, 1)]
    L = [conv("layer%d" % (i + 1), k, c, h, r) for i, (k, c, h, r) in enumerate(rows)]
    return L, [(l.name, 1) for l in L]


def vgg_conv3_1():
    return conv("conv3_1", 256, 128, 56, 3)


# ----------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------

HEADER = "# Generated by examples/tools/gen_mappings.py -- edit the generator, not this file."
RANKED = False  # set by main() when the mappings are ranked with nestor-cli
HEADER_RANKED = ("# Generated by examples/tools/gen_mappings.py --rank-with nestor-cli -- edit the generator,\n"
                 "# not this file.")


EYERISS_RS_CONSTRAINTS = [
    'constraints:',
    '  # Row-stationary (Eyeriss) constraint set, used by nestor-cli search/sweep: Q and M across the',
    '  # 14 PE columns, filter columns S and channels C down the 12 rows, a filter row (R) and channels',
    '  # in the weights scratchpad, output channels in the psum scratchpad, each scratchpad keeping',
    '  # its own tensor, the GLB holding inputs and outputs.',
    '  - {target: DRAM, type: temporal, factors: "R=1 S=1"}',
    '  - {target: GLB, type: temporal, factors: "R=1 S=1"}',
    '  - {target: GLB, type: bypass, keep: [Inputs, Outputs], bypass: [Weights]}',
    '  - {target: inter_PE_column_spatial, type: spatial, split: "Q M|"}',
    '  - {target: inter_PE_spatial, type: spatial, split: "|S C"}',
    '  - {target: inter_PE_spatial, type: spatial, workload: conv3_1, factors: "S=3"}',
    '  - {target: ifmap_spad, type: temporal, factors: "N=1 M=1 C=1 P=1 Q=1 R=1 S=1"}',
    '  - {target: ifmap_spad, type: bypass, keep: [Inputs], bypass: [Weights, Outputs]}',
    '  - {target: weights_spad, type: temporal, factors: "N=1 M=1 P=1 Q=1 S=1"}',
    '  - {target: weights_spad, type: bypass, keep: [Weights], bypass: [Inputs, Outputs]}',
    '  - {target: psum_spad, type: temporal, factors: "N=1 C=1 P=1 Q=1 R=1 S=1"}',
    '  - {target: psum_spad, type: bypass, keep: [Outputs], bypass: [Inputs, Weights]}',
]


def project(name, description, layers, networks, mappings, arch=None, include=None, job=None, constraints=None):
    out = [HEADER_RANKED if RANKED else HEADER]
    out += ["# " + d for d in description]
    out.append("nestor: 1")
    out.append("name: %s" % name)
    if include:
        out.append("include: [%s]" % ", ".join(include))
    if layers:
        out.append("workloads:")
        out += [l.yaml() for l in layers]
    if networks:
        out.append("networks:")
        for nname, entries in networks:
            items = [n if r == 1 else "{workload: %s, repeat: %d}" % (n, r) for n, r in entries]
            out.append("  - name: %s" % nname)
            out.append("    layers:")
            out += ["      - " + it for it in items]
    if arch is not None:
        out += arch_yaml(arch)
    if mappings:
        out.append("mappings:")
        for m in mappings:
            out += m.yaml()
    if constraints:
        out += constraints
    if job:
        out.append("job:")
        out.append("  workload: %s" % job[0])
        out.append("  mapping: %s" % job[1])
    return "\n".join(out) + "\n"


class Ranker:
    """Picks one of several valid candidate mappings of a layer.

    With a Nestor CLI (--rank-with PATH) every candidate is evaluated by Nestor's model and
    the lowest energy-delay product wins (the candidates' validity is still checked here,
    independently). Without it, the first candidate (best by the mapper's own rough score)
    is taken."""

    def __init__(self, cli):
        self.cli = cli
        self.results = {}
        self.tmp = None

    def _evaluate(self, cands):
        import json
        import subprocess
        import tempfile
        if self.tmp is None:
            self.tmp = tempfile.mkdtemp(prefix="nestor-gen-")
        layer = cands[0].layer
        path = os.path.join(self.tmp, "cands.yaml")
        with open(path, "w") as f:
            f.write(project("candidates", [], [layer], [], cands, arch=cands[0].arch))
        for m in cands:
            r = subprocess.run([self.cli, "eval", path, "--mapping", m.name, "--format", "json"],
                               capture_output=True, text=True)
            try:
                js = json.loads(r.stdout)
            except ValueError:
                js = {"valid": False, "errors": [r.stderr.strip()[:300]]}
            if not js.get("valid"):
                print("warning: %s/%s: Nestor finds it invalid: %s" % (layer.name, m.name, js.get("errors")),
                      file=sys.stderr)
                self.results[id(m)] = None
            else:
                self.results[id(m)] = js["summary"]

    def close(self):
        if self.tmp is not None:
            import shutil
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None

    def best(self, cands):
        if not self.cli:
            return cands[0]
        self._evaluate(cands)
        valid = [m for m in cands if self.results.get(id(m))]
        if not valid:
            raise SystemExit("no candidate of %s is valid for Nestor" % cands[0].layer.name)
        return min(valid, key=lambda m: (self.results[id(m)]["edp_J_s"], self.results[id(m)]["energy_pJ"]))

    def better(self, a, b):
        """a clearly (> 3 %) better than b."""
        if not self.cli:
            return utilization(a) > 1.05 * utilization(b)
        ra, rb = self.results.get(id(a)), self.results.get(id(b))
        return bool(ra and rb and ra["edp_J_s"] < 0.97 * rb["edp_J_s"])

    def describe(self, m):
        text = "%.1f%% of the MACs busy unless bandwidth-bound" % (100 * utilization(m))
        if self.cli:
            text += "; picked by lowest EDP (Nestor model) among the candidates"
        return text


def checked(maps):
    bad = []
    for m in maps:
        for e in check(m):
            bad.append("%s: %s" % (m.name, e))
    if bad:
        raise SystemExit("invalid generated mappings:\n  " + "\n  ".join(bad))
    return maps


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.dirname(here))
    ap.add_argument("--check-only", action="store_true", help="build and check, write nothing")
    ap.add_argument("--rank-with", metavar="NESTOR_CLI",
                    help="rank candidate mappings with this nestor-cli (lowest EDP); default: the mapper's score")
    args = ap.parse_args()
    ranker = Ranker(args.rank_with)
    global RANKED
    RANKED = bool(args.rank_with)
    files = {}

    arch_file = "arch/eyeriss-like.arch.yaml"
    files[arch_file] = "\n".join([HEADER_RANKED if RANKED else HEADER, "# Included by eyeriss-like.yaml and the network examples.", "nestor: 1"]
                                  + arch_yaml(EYERISS)) + "\n"

    l = vgg_conv3_1()
    maps = checked([eyeriss_reference_mapping(l)] + eyeriss_mappings(l, ranker))
    files["eyeriss-like.yaml"] = project(
        "eyeriss-like",
        ["Eyeriss-like accelerator (14 x 12 PEs, per-PE scratchpads, 128 KiB GLB) with VGG-16 conv3_1",
         "(the layer of Timeloop's Eyeriss exercise), two mappings and a row-stationary constraint set."],
        [l], [], maps, include=[arch_file], job=(l.name, "row-stationary"), constraints=EYERISS_RS_CONSTRAINTS)

    simba_layers = [conv("res2a_3x3", 64, 64, 56, 3), conv("res3b_1x1a", 128, 512, 28, 1),
                    conv("res4a_3x3", 256, 256, 14, 3, stride=2), fc("fc1000", 1000, 2048)]
    smaps = []
    for x in simba_layers:
        m = ranker.best(checked(simba_candidates(x)))
        m.name = x.name + "-ws"
        m.comment = "%s: weight-stationary vector lanes (C across each 8-wide vector, M across lanes); %s" % (
            x.name, ranker.describe(m))
        smaps.append(m)
    checked(smaps)
    files["simba-like.yaml"] = project(
        "simba-like",
        ["Simba-like chiplet (4 x 4 PEs x 8 lanes x 8-wide vector MACs) with four ResNet-50 layers."],
        simba_layers, [], smaps, arch=SIMBA, job=(simba_layers[0].name, smaps[0].name))

    nets = [
        ("alexnet", alexnet, "AlexNet (Krizhevsky et al. 2012; grouped conv2/4/5, 227 x 227 input)"),
        ("vgg16", vgg16, "VGG-16 (224 x 224); identical layers use repeat counts"),
        ("mobilenet", mobilenet, "MobileNet v1 (224 x 224, width 1.0): depthwise + pointwise pairs"),
        ("resnet50", resnet50, "ResNet-50 (torchvision v1.5 layout, 224 x 224); the identical blocks of a stage share workloads"),
        ("resnet18-thistle", resnet18_thistle,
         "ResNet-18 conv layers exactly as in Table II of the Thistle paper (CGO'22); P = Q = H / stride.\n"
         "Note: the table marks layer 8 (1x1, 128 -> 256, H 28) without '*', so it has stride 1 here."),
        ("yolo9000-thistle", yolo9000_thistle,
         "Yolo-9000 conv layers exactly as in Table II of the Thistle paper (CGO'22); stride 1, P = Q = H."),
    ]
    for fname, fn, desc in nets:
        layers, net = fn()
        maps = []
        for x in layers:
            maps += eyeriss_mappings(x, ranker)
        checked(maps)
        files[fname + ".yaml"] = project(
            fname, desc.split("\n") + ["Architecture: %s (Eyeriss-like); one row-stationary-like mapping per layer"
                                       % arch_file,
                                       "(plus an imperfect-factor variant where that is clearly better)."],
            layers, [(fname, net)], maps, include=[arch_file], job=(layers[0].name, maps[0].name))

    total = 0
    for path, text in sorted(files.items()):
        n = text.count("  - name: ") if "mappings:" in text else 0
        total += text.count("\n    workload: ")
        if not args.check_only:
            full = os.path.join(args.out, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        print("%-32s %4d mappings" % (path, text.count("\n    workload: ")))
    print("total %d mappings, all checked" % total)
    ranker.close()


if __name__ == "__main__":
    main()
