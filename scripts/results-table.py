#!/usr/bin/env python3
"""Markdown tables of a scenario's results next to the paper's measurements.

    scripts/results-table.py results/faraj-yuan

Reads OUTPUT/<topology>-<model>/compare.csv (written by `netsched scenario
run`) and prints, per topology, the completion time in ms and the ratio to
the bound of LAM (simple), MPICH (mpich) and the generated routine
(faraj:sender-all) for every model, beside Faraj & Yuan's measured times
(Figures 6-8).
"""
import csv
import os
import sys

# Faraj & Yuan, §6, Figures 6-8 (a), completion times in ms: LAM, MPICH, Ours.
PAPER = {
    "a": {8: (29.7, 30.7, 56.5), 16: (61.4, 58.1, 71.4), 32: (128.2, 117.6, 86.0),
          64: (468.8, 309.7, 217.7), 128: (633.7, 410.0, 398.0), 256: (1157, 721, 715)},
    "b": {8: (199, 155, 212), 16: (403, 308, 341), 32: (848, 613, 632),
          64: (1827, 1374, 1428), 128: (3338, 2989, 2595), 256: (6550, 5405, 4836)},
    "c": {8: (242, 238, 271), 16: (495, 476, 443), 32: (1034, 958, 868),
          64: (2127, 2061, 1700), 128: (4080, 4379, 3372), 256: (8375, 8210, 6396)},
}
LABELS = ("simple", "mpich", "faraj:sender-all")
MODELS = ("ideal", "tcp", "packet")


def load(path):
    rows = {}
    if not os.path.exists(path):
        return rows
    for r in csv.DictReader(open(path)):
        key = (r["label"], int(r["msize_bytes"]) // 1024)
        rows[key] = r
    return rows


def cell(r):
    if r is None:
        return "–"
    if r["status"] != "ok":
        return "crash" if "signal" in r["status"] else "n/a"
    text = "%.0f (%.2f)" % (float(r["completion_s"]) * 1e3, float(r["ratio"]))
    if int(r.get("runs") or 1) > 1:  # median of the runs, then their range
        text += " %.0f–%.0f" % (float(r["completion_min_s"]) * 1e3, float(r["completion_max_s"]) * 1e3)
    return text


NAMES = {"simple": "LAM", "mpich": "MPICH", "faraj:sender-all": "faraj"}


def ordering(rows):
    """The three algorithms fastest first (by median); '<' where the slower
    one's fastest run is slower than the faster one's slowest run (the
    order holds across runs), '≈' where their runs overlap."""
    ok = [(l, r) for l, r in rows if r is not None and r["status"] == "ok"]
    ok.sort(key=lambda lr: float(lr[1]["completion_s"]))
    if not ok:
        return "–"
    text = NAMES[ok[0][0]]
    for (l0, r0), (l1, r1) in zip(ok, ok[1:]):
        apart = float(r1["completion_min_s"] or r1["completion_s"]) > \
            float(r0["completion_max_s"] or r0["completion_s"])
        text += (" < " if apart else " ≈ ") + NAMES[l1]
    return text


def main(out):
    for topo in ("a", "b", "c"):
        data = {m: load(os.path.join(out, "%s-%s" % (topo, m), "compare.csv")) for m in MODELS}
        print("\n### Topology (%s)\n" % topo)
        print("Times in ms, ratio to the bound in parentheses; paper = measured on the real cluster.\n")
        head = "| msize | bound | paper LAM | paper MPICH | paper ours |"
        sep = "| --- | --- | --- | --- | --- |"
        for m in MODELS:
            head += " %s LAM | %s MPICH | %s faraj |" % (m, m, m)
            sep += " --- | --- | --- |"
        print(head)
        print(sep)
        for kib in sorted(PAPER[topo]):
            any_row = next((data[m].get((l, kib)) for m in MODELS for l in LABELS
                            if data[m].get((l, kib)) and data[m][(l, kib)]["status"] == "ok"), None)
            bound = "%.0f" % (float(any_row["bound_s"]) * 1e3) if any_row else "–"
            line = "| %d KiB | %s | %s |" % (kib, bound, " | ".join(str(x) for x in PAPER[topo][kib]))
            for m in MODELS:
                line += " " + " | ".join(cell(data[m].get((l, kib))) for l in LABELS) + " |"
            print(line)
        print("\nPacket model, fastest first ('<': the order holds in every run, '≈': the runs overlap):\n")
        print("| msize | paper | packet |")
        print("| --- | --- | --- |")
        for kib in sorted(PAPER[topo]):
            paper = sorted(zip(PAPER[topo][kib], ("LAM", "MPICH", "faraj")))
            print("| %d KiB | %s | %s |" % (kib, " < ".join(n for _, n in paper),
                                           ordering([(l, data["packet"].get((l, kib))) for l in LABELS])))
        mp = sorted({r["algorithm"] for r in data["ideal"].values() if r["label"] == "mpich"})
        print("\nMPICH's choices: %s." % ", ".join(mp))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results/faraj-yuan")
