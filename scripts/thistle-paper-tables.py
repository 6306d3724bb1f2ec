#!/usr/bin/env python3
"""Regenerates the Thistle reproduction tables of docs/solvers.md from nestor-cli's own outputs.

  scripts/thistle-paper-tables.py run    OUTDIR [--cli PATH] [--climb N]
  scripts/thistle-paper-tables.py report OUTDIR

`run` calls, for ResNet-18 and Yolo-9000 (examples/thistle/) and both objectives,
`nestor-cli optimize` (fixed Eyeriss) and `nestor-cli codesign --single-arch` (the Eyeriss area,
2363756 um^2), and for every ResNet-18 layer the PFM annealing search of the solver's mapspace
(100,000 evaluations, --victory 0, seed 1) and the solver with and without the climb (--climb 0:
the paper's rounding alone). It keeps each --json output in OUTDIR and logs every command with
its wall time and the machine's load in OUTDIR/commands.log. `report` only reads OUTDIR and
prints the markdown tables. The solver is deterministic (no seed); the search uses seed 1.
python3 only, no third-party modules.
"""
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THISTLE = os.path.join(ROOT, "examples/thistle")
NETWORKS = [("resnet18", "ResNet-18"), ("yolo9000", "Yolo-9000")]
AREA = "2363756"
SEARCH_BUDGET = "100000"


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def call(outdir, args):
    start = time.monotonic()
    before = load()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    seconds = time.monotonic() - start
    with open(os.path.join(outdir, "commands.log"), "a") as log:
        log.write(f"{seconds:.1f} s, load {before} -> {load()}: {' '.join(args)}\n")


def run(outdir, cli, climb):
    os.makedirs(outdir, exist_ok=True)
    extra = [] if climb is None else ["--climb", str(climb)]
    for net, _ in NETWORKS:
        project = os.path.join(THISTLE, f"{net}.yaml")
        for objective in ["energy", "delay"]:
            call(outdir, [cli, "optimize", project, "--network", net, "--objective", objective, "--quiet", *extra,
                          "--json", os.path.join(outdir, f"fixed-{net}-{objective}.json")])
            call(outdir, [cli, "codesign", project, "--network", net, "--area-um2", AREA, "--single-arch",
                          "--objective", objective, "--quiet", *extra,
                          "--json", os.path.join(outdir, f"codesign-{net}-{objective}.json")])
    mapspace = os.path.join(THISTLE, "resnet18-thistle-mapspace.yaml")
    for i in range(1, 13):
        layer = f"layer{i}"
        call(outdir, [cli, "search", mapspace, "--layer", layer, "--mapspace", "pfm", "--metric", "energy",
                      "--budget", SEARCH_BUDGET, "--victory", "0", "--seed", "1", "--quiet",
                      "--json", os.path.join(outdir, f"search-{layer}.json")])
        call(outdir, [cli, "optimize", os.path.join(THISTLE, "resnet18.yaml"), "--layer", layer, "--climb", "0", "--quiet",
                      "--json", os.path.join(outdir, f"rounding-{layer}.json")])


def layers(path, key="layers"):
    with open(path) as f:
        return {l["layer"]: l for l in json.load(f).get(key, [])}


def report(outdir):
    for net, title in NETWORKS:
        rows = {}
        for objective in ["energy", "delay"]:
            fixed = layers(os.path.join(outdir, f"fixed-{net}-{objective}.json"))
            cod_path = os.path.join(outdir, f"codesign-{net}-{objective}.json")
            own = layers(cod_path)
            shared = layers(cod_path, "single_architecture")
            with open(cod_path) as f:
                source = json.load(f).get("single_architecture_from", "?")
            for name in fixed:
                rows.setdefault(name, {})[objective] = (fixed[name], own.get(name), shared.get(name))
            rows["_from_" + objective] = source
        print(f"{title} (single architecture: the design of {rows.pop('_from_energy')}; "
              f"delay single architecture: {rows.pop('_from_delay')}):\n")
        print("| layer | fixed Eyeriss pJ/MAC | layer-wise co-design pJ/MAC (R / S words / PEs) | single arch pJ/MAC "
              "| Eyeriss IPC (delay) | co-design IPC (delay; PEs) | single arch IPC (delay) |")
        print("|---|---|---|---|---|---|---|")
        energy = {"fixed": [], "own": [], "shared": []}
        for name, r in rows.items():
            f, o, s = r["energy"]
            fd, od, sd = r["delay"]
            ipc = lambda l: l["macs"] / l["cycles"]
            a = o["architecture"]
            print(f"| {name} | {f['pJ_per_mac']:.2f} | {o['pJ_per_mac']:.2f} ({a['registers_per_pe']} / {a['sram_words']} / {a['pes']}) "
                  f"| {s['pJ_per_mac']:.2f} | {ipc(fd):.1f} | {ipc(od):.1f} ({od['architecture']['pes']}) | {ipc(sd):.1f} |")
            energy["fixed"].append(f["pJ_per_mac"])
            energy["own"].append(o["pJ_per_mac"])
            energy["shared"].append(s["pJ_per_mac"])
        for k, v in energy.items():
            print(f"\n{k}: {min(v):.2f}-{max(v):.2f} pJ/MAC, median {statistics.median(v):.2f}", end="")
        print("\n")
    print("| layer | search, solver's mapspace (100k, seed 1) | solver, the paper's rounding (`--climb 0`) | solver (default) |")
    print("|---|---|---|---|")
    solver = layers(os.path.join(outdir, "fixed-resnet18-energy.json"))
    for i in range(1, 13):
        layer = f"layer{i}"
        with open(os.path.join(outdir, f"search-{layer}.json")) as f:
            search = json.load(f)["best"]["summary"]["pJ_per_mac"]
        rounding = layers(os.path.join(outdir, f"rounding-{layer}.json"))[layer]["pJ_per_mac"]
        print(f"| {layer} | {search:.3f} | {rounding:.3f} | {solver[layer]['pJ_per_mac']:.3f} |")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("run", "report"):
        sys.exit(__doc__)
    outdir = sys.argv[2]
    if sys.argv[1] == "run":
        cli = os.path.join(ROOT, "build/default/app/cli/nestor-cli")
        climb = None
        args = sys.argv[3:]
        while args:
            opt = args.pop(0)
            if opt == "--cli" and args:
                cli = args.pop(0)
            elif opt == "--climb" and args:
                climb = int(args.pop(0))
            else:
                sys.exit(__doc__)
        run(outdir, cli, climb)
    report(outdir)


if __name__ == "__main__":
    main()
