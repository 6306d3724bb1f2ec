#!/usr/bin/env python3
"""Regenerates the Ruby-paper figures of docs/search.md from nestor-cli's own outputs.

  scripts/ruby-paper-figures.py run    OUTDIR [--cli PATH] [--only alexnet|networks]
  scripts/ruby-paper-figures.py report OUTDIR            # tables: median and min-max over seeds
  scripts/ruby-paper-figures.py plot   OUTDIR SVGFILE    # best-so-far EDP vs evaluations (Fig. 7 analogue)

`run` calls `nestor-cli search` once per (input, mapspace, algorithm, seed), always with
--threads 1 and --victory 0 (so the budget, not the victory rule, ends every search), keeps each
--json output in OUTDIR and logs every command with the machine's load (`uptime`) in
OUTDIR/commands.log. The equal-wall-time runs give PFM the evaluations it does in the time
Ruby-S took with the same seed. `report` and `plot` only read OUTDIR. For regeneration only
(python3, no third-party modules); the figure itself is committed under docs/figures/.
"""
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALEXNET = os.path.join(ROOT, "docs/figures/alexnet-conv2-rs.yaml")
ALEXNET_SEEDS = [1, 2, 3, 4, 5, 6, 7]
NETWORK_SEEDS = [1, 2, 3, 4, 5]
# AlexNet conv2: Ruby-S gets RUBY_BUDGET evaluations; PFM gets PFM_BUDGET so that its curve also
# covers the evaluations it does in Ruby-S's wall time (checked by `report`).
RUBY_BUDGET = 30000
PFM_BUDGET = 600000
ALGORITHMS = ["random", "annealing"]
DELAY_BUDGET = 10000
# Whole networks, as the docs' table: random sampling, 3000 evaluations per layer.
NETWORKS = [
    ("deepbench", os.path.join(ROOT, "examples/deepbench-gemms.yaml"), "deepbench-train", "the project's GEMM constraints"),
    ("resnet50", os.path.join(ROOT, "examples/resnet50.yaml"), "resnet50", "no constraints (the file has none)"),
]
NETWORK_BUDGET = 3000
CURVE_BUDGETS = [100, 300, 1000, 3000, 10000, 30000]


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run_cli(cli, outdir, name, args):
    path = os.path.join(outdir, name + ".json")
    if os.path.exists(path):  # resume an interrupted `run`: every run is deterministic but its time
        with open(path) as f:
            return json.load(f)
    cmd = [cli, "search"] + args + ["--threads", "1", "--victory", "0", "-q", "--json", path]
    with open(os.path.join(outdir, "commands.log"), "a") as log:
        log.write("# before: %s\n%s\n" % (uptime(), " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)))
        proc = subprocess.run(cmd, capture_output=True, text=True)
        log.write(proc.stdout + proc.stderr + "# after: %s\n\n" % uptime())
    if proc.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr))
    with open(path) as f:
        return json.load(f)


def run(outdir, cli, only):
    os.makedirs(outdir, exist_ok=True)
    if only in (None, "alexnet"):
        for alg in ALGORITHMS:
            for seed in ALEXNET_SEEDS:
                for kind, budget in (("ruby-s", RUBY_BUDGET), ("pfm", PFM_BUDGET)):
                    run_cli(cli, outdir, "alexnet-%s-%s-%d" % (kind, alg, seed),
                            [ALEXNET, "--mapspace", kind, "--algorithm", alg, "--seed", str(seed), "--budget", str(budget)])
        # the most utilization each mapspace reaches: rank by delay (then energy), not EDP
        for kind in ("pfm", "ruby-s"):
            for seed in ALEXNET_SEEDS:
                run_cli(cli, outdir, "alexnet-%s-delay-%d" % (kind, seed),
                        [ALEXNET, "--mapspace", kind, "--algorithm", "annealing", "--metric", "delay,energy",
                         "--seed", str(seed), "--budget", str(DELAY_BUDGET)])
    if only in (None, "networks"):
        for tag, project, network, _ in NETWORKS:
            for seed in NETWORK_SEEDS:
                common = [project, "--network", network, "--algorithm", "random", "--seed", str(seed)]
                rs = run_cli(cli, outdir, "%s-ruby-s-%d" % (tag, seed), common + ["--mapspace", "ruby-s", "--budget", str(NETWORK_BUDGET)])
                pfm = run_cli(cli, outdir, "%s-pfm-%d" % (tag, seed), common + ["--mapspace", "pfm", "--budget", str(NETWORK_BUDGET)])
                # Equal wall time: the evaluations PFM does in Ruby-S's time, split over the layers
                # searched (a repeated workload is searched once). PFM's rate comes from the
                # longest equal-time PFM run in OUTDIR: a 3000-per-layer run is too short to measure
                # it (it ran 2x faster per evaluation than a 300k-per-layer one). The first seed has
                # only that short run to go by: delete its eqtime JSON and `run` again once the
                # others exist (done for docs/search.md). `report` prints both times.
                searched = sum(1 for l in pfm["layers"] if l["evaluated"] > 0)
                rate = pfm_rate(outdir, tag) or pfm["total"]["evaluated"] / pfm["total"]["seconds"]
                budget = int(rs["total"]["seconds"] * rate / searched)
                run_cli(cli, outdir, "%s-pfm-eqtime-%d" % (tag, seed), common + ["--mapspace", "pfm", "--budget", str(budget)])


def pfm_rate(outdir, tag):
    """Evaluations per second of the longest equal-time PFM network run in outdir, if any."""
    best = None
    for name in sorted(os.listdir(outdir)):
        if name.startswith(tag + "-pfm-eqtime-") and name.endswith(".json"):
            total = load(outdir, name[:-5])["total"]
            if best is None or total["seconds"] > best["seconds"]:
                best = total
    return best["evaluated"] / best["seconds"] if best else None


def load(outdir, name):
    with open(os.path.join(outdir, name + ".json")) as f:
        return json.load(f)


def best_at(curve, n):
    """Best value found within the first n evaluations (the curve lists improvements)."""
    best = None
    for point in curve:
        if point["evaluated"] > n:
            break
        best = point["value"]
    return best


def spread(values, fmt="%.4g"):
    return (fmt + " (" + fmt + " - " + fmt + ")") % (statistics.median(values), min(values), max(values))


def report(outdir):
    for alg in ALGORITHMS:
        if not os.path.exists(os.path.join(outdir, "alexnet-pfm-%s-1.json" % alg)):
            continue
        print("AlexNet conv2, row-stationary constraints, %s, seeds %s: best EDP (J*s) median (min - max)" % (alg, ALEXNET_SEEDS))
        runs = {k: [load(outdir, "alexnet-%s-%s-%d" % (k, alg, s))["search"] for s in ALEXNET_SEEDS] for k in ("pfm", "ruby-s")}
        for n in CURVE_BUDGETS:
            p = [best_at(r["curve"], n) for r in runs["pfm"]]
            r = [best_at(x["curve"], n) for x in runs["ruby-s"]]
            gain = [1 - b / a for a, b in zip(p, r)]
            print("  %6d evaluations: PFM %s  Ruby-S %s  Ruby-S lower by %s, with %d of %d seeds" %
                  (n, spread(p), spread(r), spread([100 * g for g in gain], "%.1f%%"), sum(b < a for a, b in zip(p, r)), len(p)))
        rs_s = [r["seconds"] for r in runs["ruby-s"]]
        pfm_rates = [r["evaluated"] / r["seconds"] for r in runs["pfm"]]
        eq = [int(rate * t) for rate, t in zip(pfm_rates, rs_s)]
        covered = all(n <= r["evaluated"] for n, r in zip(eq, runs["pfm"]))
        p = [best_at(r["curve"], n) for r, n in zip(runs["pfm"], eq)]
        r = [x["curve"][-1]["value"] for x in runs["ruby-s"]]
        print("  equal time: Ruby-S %d evaluations take %s s; PFM does %s evaluations then%s" %
              (RUBY_BUDGET, spread(rs_s, "%.1f"), spread(eq, "%d"), "" if covered else " (NOT covered by the PFM runs)"))
        print("    PFM %s  Ruby-S %s  Ruby-S lower by %s, with %d of %d seeds" %
              (spread(p), spread(r), spread([100 * (1 - b / a) for a, b in zip(p, r)], "%.1f%%"), sum(b < a for a, b in zip(p, r)), len(p)))
        # Time to PFM's best: per seed, the evaluations each search needed to first reach the EDP
        # PFM ends its whole budget with, at that search's average rate (the curve has no clock).
        t_pfm, t_rs, faster = [], [], 0
        for pr, rr in zip(runs["pfm"], runs["ruby-s"]):
            target = pr["curve"][-1]["value"]
            n_pfm = next(q["evaluated"] for q in pr["curve"] if q["value"] <= target)
            n_rs = next((q["evaluated"] for q in rr["curve"] if q["value"] <= target), None)
            t_pfm.append(n_pfm * pr["seconds"] / pr["evaluated"])
            if n_rs is not None:
                t_rs.append(n_rs * rr["seconds"] / rr["evaluated"])
                faster += t_rs[-1] < t_pfm[-1]
        print("  time to PFM's best EDP: PFM %s s; Ruby-S %s s (reached with %d of %d seeds), Ruby-S sooner with %d" %
              (spread(t_pfm, "%.3f"), spread(t_rs, "%.3f") if t_rs else "-", len(t_rs), len(ALEXNET_SEEDS), faster))
        for k in ("pfm", "ruby-s"):
            util = [100 * load(outdir, "alexnet-%s-%s-%d" % (k, alg, s))["best"]["summary"]["utilization"] for s in ALEXNET_SEEDS]
            rate = [r["evaluated"] / r["seconds"] for r in runs[k]]
            print("    %s: best utilization %s, evaluations/s %s" % (k, spread(util, "%.1f%%"), spread(rate, "%.0f")))
    for kind in ("pfm", "ruby-s"):
        if not os.path.exists(os.path.join(outdir, "alexnet-%s-delay-1.json" % kind)):
            continue
        util = [100 * load(outdir, "alexnet-%s-delay-%d" % (kind, s))["best"]["summary"]["utilization"] for s in ALEXNET_SEEDS]
        print("AlexNet conv2 %s, annealing --metric delay,energy, %d evaluations: utilization %s" % (kind, DELAY_BUDGET, spread(util, "%.1f%%")))
    for tag, _, network, constraints in NETWORKS:
        if not os.path.exists(os.path.join(outdir, "%s-pfm-1.json" % tag)):
            continue
        print("%s (%s), random, %d evaluations per layer, seeds %s" % (network, constraints, NETWORK_BUDGET, NETWORK_SEEDS))
        rows = {}
        for kind in ("pfm", "ruby-s", "pfm-eqtime"):
            totals = [load(outdir, "%s-%s-%d" % (tag, kind, s))["total"] for s in NETWORK_SEEDS]
            rows[kind] = totals
            print("  %-10s EDP %s  energy %s  cycles %s  time %s s  evaluated %s" %
                  (kind, spread([t["edp_J_s"] for t in totals]), spread([t["energy_pJ"] for t in totals], "%.3g"),
                   spread([t["cycles"] for t in totals], "%d"), spread([t["seconds"] for t in totals], "%.1f"),
                   spread([t["evaluated"] for t in totals], "%d")))
        for ref in ("pfm", "pfm-eqtime"):
            ratio = [b["edp_J_s"] / a["edp_J_s"] for a, b in zip(rows[ref], rows["ruby-s"])]
            print("  Ruby-S EDP / %s EDP %s (per seed: %s)" % (ref, spread(ratio, "%.2f"), ", ".join("%.2f" % r for r in ratio)))
        t = [b["seconds"] / a["seconds"] for a, b in zip(rows["ruby-s"], rows["pfm-eqtime"])]
        print("  equal-time PFM run's time / Ruby-S's time %s" % spread(t, "%.2f"))


def plot(outdir, svgfile):
    """One panel per algorithm: median line and min-max band of best-so-far EDP, log-log axes."""
    import math
    width, height, left, top, pw, ph, gap = 1000, 450, 80, 50, 400, 300, 90
    lo_x, hi_x = 1.0, math.log10(PFM_BUDGET)
    colors = {"pfm": "#1f77b4", "ruby-s": "#d62728"}
    grid = [10 ** k for k in range(1, 6)]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>']
    data = {}
    for alg in ALGORITHMS:
        for kind in ("pfm", "ruby-s"):
            runs = [load(outdir, "alexnet-%s-%s-%d" % (kind, alg, s))["search"] for s in ALEXNET_SEEDS]
            curves = [r["curve"] for r in runs]
            end = min(r["evaluated"] for r in runs)
            xs = sorted({p["evaluated"] for c in curves for p in c if p["evaluated"] <= end} | {end})
            xs = [x for x in xs if x >= 10]
            rows = []
            for x in xs:
                vals = [best_at(c, x) for c in curves]
                if all(v is not None for v in vals):
                    rows.append((x, statistics.median(vals), min(vals), max(vals)))
            data[(alg, kind)] = rows
            if kind == "ruby-s":  # PFM's evaluations in the time Ruby-S took, seed by seed
                pfm_runs = [load(outdir, "alexnet-pfm-%s-%d" % (alg, s))["search"] for s in ALEXNET_SEEDS]
                data[(alg, "eqtime")] = statistics.median(p["evaluated"] / p["seconds"] * r["seconds"] for p, r in zip(pfm_runs, runs))
    # the first few dozen evaluations span decades; the y range shows the band from 300 on
    # (earlier values are clipped to the top edge)
    curves = [rows for key, rows in data.items() if key[1] != "eqtime"]
    all_vals = [v for rows in curves for r in rows for v in r[1:]]
    late_vals = [v for rows in curves for r in rows if r[0] >= 300 for v in r[1:]]
    lo_y, hi_y = math.log10(min(all_vals)) - 0.01, math.log10(max(late_vals)) + 0.01
    span = 10 ** hi_y - 10 ** lo_y
    step = min(m * 10 ** k for k in range(-15, 5) for m in (1, 2, 2.5, 5) if span / (m * 10 ** k) <= 8)
    y_ticks = [step * j for j in range(math.ceil(10 ** lo_y / step), math.floor(10 ** hi_y / step) + 1)]
    for i, alg in enumerate(ALGORITHMS):
        x0 = left + i * (pw + gap)
        X = lambda v: x0 + (math.log10(v) - lo_x) / (hi_x - lo_x) * pw
        Y = lambda v: top + max(0.0, (hi_y - math.log10(v)) / (hi_y - lo_y)) * ph
        out.append('<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s</text>' % (x0 + pw / 2, top - 12, "Random sampling" if alg == "random" else "Annealing"))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' % (x0, top, pw, ph))
        for g in grid:
            if 10 ** lo_x <= g <= 10 ** hi_x:
                out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (X(g), top, X(g), top + ph))
                out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (X(g), top + ph + 16, "{:,}".format(g)))
        for v in y_ticks:
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (x0, Y(v), x0 + pw, Y(v)))
            out.append('<text x="%d" y="%.1f" text-anchor="end">%.3g</text>' % (x0 - 4, Y(v) + 4, v))
        out.append('<text x="%d" y="%d" text-anchor="middle">evaluated mappings (1 thread, --victory 0)</text>' % (x0 + pw / 2, top + ph + 36))
        if i == 0:
            out.append('<text x="18" y="%d" text-anchor="middle" transform="rotate(-90 18 %d)">best EDP so far (J*s)</text>' % (top + ph / 2, top + ph / 2))
        for kind in ("pfm", "ruby-s"):
            rows = data[(alg, kind)]
            # best-so-far curves are step functions: draw the band and the median as steps
            def steps(idx):
                pts = []
                for j, r in enumerate(rows):
                    if j:
                        pts.append((X(r[0]), Y(rows[j - 1][idx])))
                    pts.append((X(r[0]), Y(r[idx])))
                return pts
            upper, lower = steps(3), steps(2)
            band = " ".join("%.1f,%.1f" % p for p in upper + lower[::-1])
            out.append('<polygon points="%s" fill="%s" fill-opacity="0.18" stroke="none"/>' % (band, colors[kind]))
            out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>' % (" ".join("%.1f,%.1f" % p for p in steps(1)), colors[kind]))
        eq = data[(alg, "eqtime")]
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#555" stroke-dasharray="4,3"/>' % (X(eq), top, X(eq), top + ph))
        out.append('<text x="%.1f" y="%d" text-anchor="end" font-size="11">PFM evaluations in the time</text>' % (X(eq) - 3, top + 62))
        out.append('<text x="%.1f" y="%d" text-anchor="end" font-size="11">Ruby-S took for %s (median)</text>' % (X(eq) - 3, top + 76, "{:,}".format(RUBY_BUDGET)))
        for j, kind in enumerate(("pfm", "ruby-s")):
            ly = top + 16 + 18 * j
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>' % (x0 + pw - 80, ly, x0 + pw - 55, ly, colors[kind]))
            out.append('<text x="%d" y="%d">%s</text>' % (x0 + pw - 50, ly + 4, "PFM" if kind == "pfm" else "Ruby-S"))
    out.append('<text x="%d" y="%d" text-anchor="middle" font-size="11">AlexNet conv2, docs/figures/alexnet-conv2-rs.yaml (Eyeriss-like 14x12, row-stationary constraints); line: median, band: min-max over seeds %s</text>'
               % (width / 2, height - 26, ",".join(map(str, ALEXNET_SEEDS))))
    out.append('<text x="%d" y="%d" text-anchor="middle" font-size="11">nestor-cli search --mapspace pfm|ruby-s --algorithm random|annealing --seed S --budget %d (PFM) / %d (Ruby-S) --victory 0 --threads 1; scripts/ruby-paper-figures.py</text>'
               % (width / 2, height - 10, PFM_BUDGET, RUBY_BUDGET))
    out.append("</svg>")
    with open(svgfile, "w") as f:
        f.write("\n".join(out) + "\n")


def main(argv):
    # OUTDIR (and SVGFILE) must be paths: "run --help" would otherwise fill a directory "--help".
    if len(argv) < 3 or argv[1] not in ("run", "report", "plot") or argv[2].startswith("-") or \
            (argv[1] == "plot" and (len(argv) < 4 or argv[3].startswith("-"))):
        sys.exit(__doc__)
    if argv[1] == "run":
        cli = argv[argv.index("--cli") + 1] if "--cli" in argv else os.path.join(ROOT, "build/default/app/cli/nestor-cli")
        only = argv[argv.index("--only") + 1] if "--only" in argv else None
        run(argv[2], cli, only)
    elif argv[1] == "report":
        report(argv[2])
    else:
        plot(argv[2], argv[3])


if __name__ == "__main__":
    main(sys.argv)
