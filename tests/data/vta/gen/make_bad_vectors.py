#!/usr/bin/env python3
"""Writes the malformed and failing VTA vectors of tests/data/vta/bad/ and their MANIFEST.txt
(file, expected nestor-cli exit status, a regular expression the report must match).  Each is a
small valid vector with one defect, so a test proves the defect alone is reported.

    python3 tests/data/vta/gen/make_bad_vectors.py     # after make_vectors.py
"""
import json
import os

from make_vectors import ALU, FINISH, GEMM, LOAD, STORE, Vector
from vta_reference import ALU_SHR, MEM_ACC, MEM_INP, MEM_UOP, MEM_WGT, asm, encode, module_of

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(os.path.dirname(HERE), "bad")


def program_vector(name, description, insns_of):
    """A vector whose program `insns_of(base_elems)` builds; expected = what a correct run gives
    when the program is fine (the defective ones never get that far)."""
    v = Vector(name, description, 301)
    u = v.uops("uops", [(0, 0, 0)])
    acc = v.acc("acc_in", 2, -300, 300)
    inp = v.inp("inp_in", 1)
    out = v.out("out", 2)
    v.insns = insns_of(u, acc, inp, out)
    return v


def raw_doc(v):
    """The JSON document without running the reference model (the programs are invalid)."""
    end = (v.next_addr + 4095) // 4096 * 4096
    regions = []
    for r in v.regions:
        eb = v.cfg.elem_bytes[r["t"]]
        regions.append(dict(name=r["name"], mem_type={0: "UOP", 1: "WGT", 2: "INP", 3: "ACC", 4: "OUT"}[r["t"]],
                            mem_id=r["t"], elem_bytes=eb, byte_addr=r["addr"], base_elem=r["addr"] // eb,
                            n_elems=len(r["data"]) // eb, nbytes=len(r["data"]), hex=r["data"].hex()))
    counts = {"load": 0, "compute": 0, "store": 0}
    for i in v.insns:
        counts[module_of(i)] += 1
    outs = [dict(name=r["name"], byte_addr=r["addr"], nbytes=len(r["data"]), hex=r["data"].hex())
            for r in v.regions if r["t"] == 4]
    zero = {k: 0 for k in ("inp_load_nbytes", "wgt_load_nbytes", "acc_load_nbytes", "uop_load_nbytes",
                           "out_store_nbytes", "gemm_counter", "alu_counter")}
    return {"format": "vta-fsim-vector", "version": 1, "name": v.name, "category": "nestor-bad",
            "description": v.description, "generator": {"seed": v.seed, "params": {}}, "flags": [],
            "config": v.cfg.json(), "dram": {"start": 0x1000, "end": end, "regions": regions},
            "program": {"insn_count": len(v.insns), "insns": [encode(v.cfg, i) for i in v.insns],
                        "asm": [asm(i) for i in v.insns], "module_insn_counts": counts,
                        "fsim_insn_byte_addr": end},
            "expected": {"dram": outs, "counters": zero, "token_pushes": {"l2g": 0, "g2l": 0, "g2s": 0, "s2g": 0}}}


def good(u, acc, inp, out):
    return [LOAD(MEM_UOP, 0, u, 1, 1), LOAD(MEM_ACC, 0, acc, 1, 2),
            ALU(ALU_SHR, (0, 1), (1, 2), dst=(0, 1), src=(0, 1), imm=0, push_next=1),
            STORE(0, out, 1, 2, pop_prev=1, push_prev=1), FINISH(pop_next=1)]


def write(name, text, exit_code, pattern, manifest):
    with open(os.path.join(BAD, name), "w") as f:
        f.write(text)
    manifest.append(f"{name} {exit_code} {pattern}")


def dump(doc):
    return json.dumps(doc, indent=1) + "\n"


def main():
    os.makedirs(BAD, exist_ok=True)
    manifest = []
    # Run-time failures (exit 1): the report names the module and instruction.
    v = program_vector("deadlock_cycle", "Load waits for CMP->LD before its first push; compute waits for "
                       "LD->CMP: a cycle.", lambda u, a, i, o: [
                           LOAD(MEM_INP, 0, i, 1, 1, pop_next=1, push_next=1), LOAD(MEM_UOP, 0, u, 1, 1),
                           GEMM((0, 1), (1, 1), reset=1, pop_prev=1, push_prev=1), FINISH()])
    write("deadlock_cycle.json", dump(raw_doc(v)), 1,
          r"deadlock.*compute waits at instruction 2 .*LD->CMP.*load waits at instruction 0 .*CMP->LD", manifest)
    v = program_vector("deadlock_empty_queue", "FINISH pops ST->CMP but the only STORE pushes nothing: the "
                       "queue stays empty forever.", lambda u, a, i, o: good(u, a, i, o)[:3] + [
                           STORE(0, o, 1, 2, pop_prev=1), FINISH(pop_next=1)])
    write("deadlock_empty_queue.json", dump(raw_doc(v)), 1,
          r"deadlock.*compute waits at instruction 4 \[FINISH.*ST->CMP.*store has executed all its 1 instruction", manifest)
    v = program_vector("no_finish", "The program ends without FINISH.", lambda u, a, i, o: good(u, a, i, o)[:4])
    write("no_finish.json", dump(raw_doc(v)), 3, r"no_finish\.json:[0-9]+:[0-9]+: program\.insns: the program has no FINISH instruction", manifest)
    v = program_vector("after_finish", "The STORE is not ordered before FINISH by any token, so it would "
                       "run after FINISH (fsim spins forever).", lambda u, a, i, o: good(u, a, i, o)[:2] + [
                           ALU(ALU_SHR, (0, 1), (1, 2), dst=(0, 1), src=(0, 1), imm=0, push_next=1),
                           STORE(0, o, 1, 2, pop_prev=1), FINISH()])
    write("after_finish.json", dump(raw_doc(v)), 1,
          r"instruction after FINISH: store module, instruction 3 \[STORE", manifest)
    v = program_vector("compute_after_finish", "An ALU instruction follows FINISH.",
                       lambda u, a, i, o: good(u, a, i, o) + [ALU(ALU_SHR, (0, 1), (1, 1), imm=0)])
    write("compute_after_finish.json", dump(raw_doc(v)), 3, r"compute_after_finish\.json:[0-9]+:[0-9]+: program\.insns\[5\]: compute instruction after the FINISH at instruction 4",
          manifest)
    v = program_vector("acc_index_out_of_range", "An ALU dst factor walks past the 2048-entry ACC buffer.",
                       lambda u, a, i, o: good(u, a, i, o)[:2] + [
                           ALU(ALU_SHR, (0, 1), (3, 1), dst=(2047, 0), src=(2047, 0), imm=0, push_next=1)]
                       + good(u, a, i, o)[3:])
    write("acc_index_out_of_range.json", dump(raw_doc(v)), 1,
          r"out of range: compute module, instruction 2 \[ALU SHR.*dst index 4094 is past the ACC buffer \(depth 2048\)",
          manifest)
    v = program_vector("load_past_buffer", "A padded LOAD ACC footprint ends past the ACC buffer.",
                       lambda u, a, i, o: [LOAD(MEM_UOP, 0, u, 1, 1),
                                           LOAD(MEM_ACC, 2040, a, 1, 2, pads=(1, 1, 1, 1))] + good(u, a, i, o)[2:])
    write("load_past_buffer.json", dump(raw_doc(v)), 1,
          r"instruction 1 \[LOAD ACC.*writes elements \[2040, 2052\).*depth 2048", manifest)
    v = program_vector("dram_out_of_range", "A LOAD reads past the end of DRAM.",
                       lambda u, a, i, o: [LOAD(MEM_UOP, 0, u, 1, 1), LOAD(MEM_ACC, 0, 1 << 20, 1, 2)]
                       + good(u, a, i, o)[2:])
    write("dram_out_of_range.json", dump(raw_doc(v)), 1, r"instruction 1 \[LOAD ACC.*outside DRAM", manifest)

    # Malformed files (exit 3): located at file:line:column.
    base = raw_doc(program_vector("base", "A valid program.", good))
    text = dump(base)
    write("bad_json_trailing_comma.json", text.replace('"version": 1,', '"version": 1,,', 1), 3,
          r"bad_json_trailing_comma\.json:3:15: expected a string key", manifest)
    write("bad_json_truncated.json", text[: len(text) // 2], 3, r"bad_json_truncated\.json:[0-9]+:[0-9]+: ", manifest)
    doc = json.loads(text)
    doc["config"]["LOG_BLOCK"] = doc["config"]["LOG_BLOCK_IN"] = doc["config"]["LOG_BLOCK_OUT"] = 5
    write("config_mismatch.json", dump(doc), 3,
          r"config_mismatch\.json:[0-9]+:[0-9]+: config: .*differs from the simulated one.*LOG_BLOCK_IN 5 \(simulated: 4\)",
          manifest)
    doc = json.loads(text)
    h = doc["dram"]["regions"][1]["hex"]
    doc["dram"]["regions"][1]["hex"] = h[:10] + "zz" + h[12:]
    write("bad_hex.json", dump(doc), 3, r"bad_hex\.json:[0-9]+:[0-9]+: dram\.regions\[1\]\.hex: not a hex digit: 'z' at offset 10",
          manifest)
    doc = json.loads(text)
    doc["program"]["insns"][2] = doc["program"]["insns"][2][:31] + "x"
    write("bad_insn_hex.json", dump(doc), 3, r"bad_insn_hex\.json:[0-9]+:[0-9]+: program\.insns\[2\]: not a hex digit: 'x' at offset 31", manifest)
    doc = json.loads(text)
    doc["dram"]["regions"][2]["byte_addr"] = doc["dram"]["regions"][1]["byte_addr"]
    doc["dram"]["regions"][2]["base_elem"] = doc["dram"]["regions"][1]["byte_addr"] // 16
    write("overlapping_regions.json", dump(doc), 3, r"overlapping_regions\.json:[0-9]+:[0-9]+: dram\.regions\[2\]: region 'inp_in' overlaps region 'acc_in'",
          manifest)
    doc = json.loads(text)
    doc["program"]["insns"][1] = "07" + doc["program"]["insns"][1][2:]
    write("bad_opcode.json", dump(doc), 3, r"bad_opcode\.json:[0-9]+:[0-9]+: program\.insns\[1\]\.opcode: unknown opcode 7", manifest)
    doc = json.loads(text)
    doc["program"]["insn_count"] = 4
    write("insn_count_mismatch.json", dump(doc), 3, r"insn_count_mismatch\.json:[0-9]+:[0-9]+: program\.insn_count: says 4 but insns lists 5", manifest)

    with open(os.path.join(BAD, "MANIFEST.txt"), "w") as f:
        f.write("# file exit-status regex (generated by tests/data/vta/gen/make_bad_vectors.py)\n")
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
