#!/usr/bin/env python3
"""Faraj & Yuan, Figures 6-8: the paper's orderings against netsched's under
the fluid model (ideal), SimGrid's packet model (packet) and the ns3 model's
tcp-persistent transport (ns3, run-ns3.sh), cell by cell.

    results/faraj-yuan/summarize-ns3.py [results/faraj-yuan]

Reads TOPO-ideal/compare.csv and TOPO-packet/compare.csv (the scenario,
README.md) and ns3/TOPO-seedS/compare.csv (run-ns3.sh: one directory per
seed). Writes ns3/summary.csv (per topology x algorithm x size: the seeds'
fastest, median and slowest), ns3/orderings.md (the tables) and, with
gnuplot, ns3/completion.gp/.svg/.png (completion time against message size
per topology: the ns3 median with the seeds' range as error bars, beside
the paper's measurements).
"""
import csv
import glob
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "results_table", os.path.join(HERE, "..", "..", "scripts", "results-table.py"))
rt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rt)  # the paper's times, the row reader, the run-aware ordering

SIZES = (32, 64, 128, 256)  # KiB: the sizes of the ns3 runs
ALGOS = ("LAM", "MPICH", "faraj")
FLUID_TIE = 0.01  # a fluid model cannot separate times within 1 % (docs/scenarios.md)


def ns3_rows(out, topo, sub="ns3"):
    """{(label, KiB): row} of OUT/SUB/TOPO-seed*/compare.csv with the seeds
    aggregated: completion_s the median, completion_min_s /
    completion_max_s the fastest and slowest seed."""
    seeds = {}
    for path in sorted(glob.glob(os.path.join(out, sub, "%s-seed*" % topo, "compare.csv"))):
        seed = int(re.search(r"seed(\d+)", path).group(1))
        for key, r in rt.load(path).items():
            seeds.setdefault(key, {})[seed] = r
    rows = {}
    for key, by_seed in seeds.items():
        ok = [r for r in by_seed.values() if r["status"] == "ok"]
        t = sorted(float(r["completion_s"]) for r in ok)
        first = next(iter(by_seed.values()))
        if len(ok) < len(by_seed) or not t:  # a failed seed fails the cell, never hides
            bad = next(r for r in by_seed.values() if r["status"] != "ok")
            rows[key] = dict(first, status=bad["status"], seeds=str(len(by_seed)))
            continue
        med = statistics.median(t)
        rows[key] = dict(first, completion_s="%.9f" % med, completion_min_s="%.9f" % t[0],
                         completion_max_s="%.9f" % t[-1], seeds=str(len(t)),
                         ratio="%.6f" % (med / float(first["bound_s"])), status="ok")
    return rows


def fluid_ordering(rows):
    """Fastest first; '≈' where two times are within FLUID_TIE."""
    ok = sorted(((float(r["completion_s"]), rt.NAMES[l]) for l, r in rows
                 if r is not None and r["status"] == "ok"))
    if not ok:
        return "–"
    text = ok[0][1]
    for (t0, _), (t1, n1) in zip(ok, ok[1:]):
        text += (" ≈ " if t1 <= t0 * (1 + FLUID_TIE) else " < ") + n1
    return text


def paper_order(topo, kib):
    return [n for _, n in sorted(zip(rt.PAPER[topo][kib], ALGOS))]


def pairs_held(topo, kib, rows):
    """The paper's three pairwise orders at this cell: how many the model
    shows in every seed ('<'), and how many the other way round in every
    seed (reversed); the rest overlap."""
    by = {rt.NAMES[l]: r for l, r in rows if r is not None and r["status"] == "ok"}
    order = paper_order(topo, kib)
    held = reversed_ = 0
    for i in range(3):
        for j in range(i + 1, 3):
            fast, slow = by.get(order[i]), by.get(order[j])
            if fast is None or slow is None:
                continue
            if float(fast["completion_max_s"]) < float(slow["completion_min_s"]):
                held += 1
            elif float(slow["completion_max_s"]) < float(fast["completion_min_s"]):
                reversed_ += 1
    return held, reversed_


def verdict(held, reversed_):
    if held == 3:
        return "yes"
    if reversed_ == 0:
        return "overlap (%d of 3 pairs held)" % held
    return "no (%d held, %d reversed)" % (held, reversed_)


def ms(r):
    if r is None:
        return "–"
    if r["status"] != "ok":
        return r["status"]
    return "%.0f (%.2f) %.0f–%.0f" % (float(r["completion_s"]) * 1e3, float(r["ratio"]),
                                      float(r["completion_min_s"]) * 1e3,
                                      float(r["completion_max_s"]) * 1e3)


def write_plot(out, csv_path):
    base = os.path.join(out, "ns3", "completion")
    with open(os.path.join(out, "ns3", "paper.dat"), "w") as f:
        f.write("# Faraj & Yuan Figures 6-8: topology,KiB,LAM,MPICH,ours (ms)\n")
        for topo in ("a", "b", "c"):
            for kib in SIZES:
                f.write("%s,%d,%s\n" % (topo, kib, ",".join(str(x) for x in rt.PAPER[topo][kib])))
    plots = []
    for topo in ("a", "b", "c"):
        parts = []
        for i, (label, name) in enumerate(zip(rt.LABELS, ALGOS)):
            # summary.csv: 4 msize_bytes, 6 min, 7 median, 8 max
            parts.append("'%s' using (strcol(1) eq '%s' && strcol(2) eq '%s' ? $4/1024 : 1/0)"
                         ":($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc %d pt %d "
                         "title '%s ns3'" % (os.path.basename(csv_path), topo, label, i + 1,
                                             i + 1, name))
            parts.append("'paper.dat' using (strcol(1) eq '%s' ? $2 : 1/0):%d with linespoints "
                         "dt 2 lc %d pt %d title '%s paper'" % (topo, i + 3, i + 1, i + 5, name))
        plots.append("set title 'topology (%s)'\nplot %s" % (topo, ", \\\n     ".join(parts)))
    with open(base + ".gp", "w") as f:
        f.write("# summarize-ns3.py: Faraj & Yuan Figures 6-8, ns3 tcp-persistent (median, "
                "error bars: fastest and slowest seed) against the paper\n"
                "set datafile separator ','\nset logscale xy 2\n"
                "set xlabel 'message size (KiB)'\nset ylabel 'completion time (ms)'\n"
                "set xrange [28:300]\nset xtics (32, 64, 128, 256)\nset key top left font ',8'\nset grid\n"
                "set multiplot layout 1,3 title 'Faraj & Yuan Figures 6-8: ns3 tcp-persistent, "
                "3 seeds of start jitter, against the paper' noenhanced\n")
        f.write("\n".join(plots) + "\nunset multiplot\n")
    if shutil.which("gnuplot") is None:
        return
    for term, ext in (("svg size 1500,520 dynamic font ',10'", "svg"),
                      ("pngcairo size 1500,520 font ',9'", "png")):
        subprocess.run(["gnuplot", "-e", "set terminal " + term,
                        "-e", "set output 'completion.%s'" % ext, "completion.gp"],
                       cwd=os.path.join(out, "ns3"), check=True)


def main(out):
    md = []
    summary = [("topology", "label", "algorithm", "msize_bytes", "seeds", "completion_min_s",
                "completion_median_s", "completion_max_s", "bound_s", "ratio", "status")]
    total_held = total_rev = cells_yes = cells = 0
    for topo in ("a", "b", "c"):
        ideal = rt.load(os.path.join(out, "%s-ideal" % topo, "compare.csv"))
        packet = rt.load(os.path.join(out, "%s-packet" % topo, "compare.csv"))
        ns3 = ns3_rows(out, topo)
        for label in rt.LABELS:  # an algorithm's sizes together: the plot's lines
            for kib in SIZES:
                r = ns3.get((label, kib))
                if r is None:
                    continue
                summary.append((topo, label, r["algorithm"], r["msize_bytes"], r["seeds"],
                                r.get("completion_min_s", ""), r["completion_s"],
                                r.get("completion_max_s", ""), r["bound_s"], r["ratio"],
                                r["status"]))
        md.append("### Topology (%s)\n" % topo)
        md.append("ns3 tcp-persistent, times in ms: median of the seeds (ratio to the bound) "
                  "fastest–slowest seed; paper = measured.\n")
        md.append("| msize | bound | paper LAM | paper MPICH | paper ours | ns3 LAM | ns3 MPICH | "
                  "ns3 faraj |")
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for kib in SIZES:
            any_row = next((r for r in (ns3.get((l, kib)) for l in rt.LABELS)
                            if r is not None and r["status"] == "ok"), None)
            bound = "%.0f" % (float(any_row["bound_s"]) * 1e3) if any_row else "–"
            md.append("| %d KiB | %s | %s | %s |" % (
                kib, bound, " | ".join(str(x) for x in rt.PAPER[topo][kib]),
                " | ".join(ms(ns3.get((l, kib))) for l in rt.LABELS)))
        md.append("\nFastest first. ideal: '≈' within 1 %; packet (SimGrid's ns-3 binding, a "
                  "connection per message, 3 flow-hash salts) and ns3 (3 seeds of start "
                  "jitter): '<' where the order holds in every run, '≈' where the runs "
                  "overlap. 'reproduced': the paper's three pairwise orders under ns3.\n")
        md.append("| msize | paper | ideal | packet | ns3 | reproduced (ns3) |")
        md.append("| --- | --- | --- | --- | --- | --- |")
        for kib in SIZES:
            cell = [(l, ns3.get((l, kib))) for l in rt.LABELS]
            held, rev = pairs_held(topo, kib, cell)
            total_held += held
            total_rev += rev
            cells += 1
            cells_yes += held == 3
            md.append("| %d KiB | %s | %s | %s | %s | %s |" % (
                kib, " < ".join(paper_order(topo, kib)),
                fluid_ordering([(l, ideal.get((l, kib))) for l in rt.LABELS]),
                rt.ordering([(l, packet.get((l, kib))) for l in rt.LABELS]),
                rt.ordering(cell), verdict(held, rev)))
        mp = sorted({r["algorithm"] for r in ns3.values() if r["label"] == "mpich"})
        md.append("\nMPICH's choices: %s.\n" % ", ".join(mp))
    md.append("### 32 KiB with rendezvous sends\n")
    md.append("The 32 KiB rows again with `--eager-threshold 0` (ns3/rendezvous-32KiB/): "
              "every send waits for its receive, so the routine's sender-based syncs keep its "
              "phases apart. Times in ms as above.\n")
    md.append("| topology | paper | ns3 LAM | ns3 MPICH | ns3 faraj | ns3 | reproduced |")
    md.append("| --- | --- | --- | --- | --- | --- | --- |")
    for topo in ("a", "b", "c"):
        rdv = ns3_rows(out, topo, os.path.join("ns3", "rendezvous-32KiB"))
        cell = [(l, rdv.get((l, 32))) for l in rt.LABELS]
        if all(r is None for _, r in cell):
            continue
        held, rev = pairs_held(topo, 32, cell)
        md.append("| (%s) | %s | %s | %s | %s |" % (
            topo, " < ".join(paper_order(topo, 32)), " | ".join(ms(r) for _, r in cell),
            rt.ordering(cell), verdict(held, rev)))
    md.append("")
    head = ("ns3 tcp-persistent against the paper: %d of %d cells reproduced (all three pairs "
            "in every seed); %d of %d pairwise orders held in every seed, %d reversed in "
            "every seed, the rest overlap.\n" % (cells_yes, cells, total_held, 3 * cells,
                                                 total_rev))
    os.makedirs(os.path.join(out, "ns3"), exist_ok=True)
    with open(os.path.join(out, "ns3", "orderings.md"), "w") as f:
        f.write("<!-- written by summarize-ns3.py -->\n" + head + "\n" + "\n".join(md))
    csv_path = os.path.join(out, "ns3", "summary.csv")
    with open(csv_path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(summary)
    write_plot(out, csv_path)
    print(head, end="")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else HERE)
