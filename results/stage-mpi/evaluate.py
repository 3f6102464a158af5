#!/usr/bin/env python3
"""results/stage-mpi: the tuned routine against LAM, MPICH and MPICH-LAM on
one topology (Faraj's dissertation §4.1.2), all measured by the same replay
as `netsched tune` (the smpi model).

  evaluate.py NETSCHED TOPOLOGY DIR --overwrite|--resume

DIR holds the tune run (decision.csv, decision.json, measurements.csv).
Measures, with `netsched compare` (the same measurement as tune's):
  - the baselines LAM (`simple`) and MPICH (`mpich`: bruck <= 256 B,
    spread <= 32 KiB, then pair, or ring when p is not a power of two) at the
    tuning's fixed sizes and at sizes between them;
  - the tuned routine at the sizes between them: the decision's row for
    each size, with its parameter (ring/pair-n-barrier's barriers=N as its
    barrier-partial-none:BS scheme).
Writes DIR/evaluation.csv: msize, lam_s, mpich_s, mpich_lam_s, tuned_s,
tuned_algorithm, on_grid. MPICH-LAM (MPICH's algorithms on LAM's
point-to-point) is MPICH's time: the replay has one point-to-point model."""
import csv, json, os, subprocess, sys

FIXED = [1, 64, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144]
BETWEEN = [8, 256, 768, 1536, 3072, 6144, 12288, 24576, 49152, 98304, 196608, 393216]


def sizes_arg(sizes):
    return ",".join(f"{m}B" for m in sizes)


def compare(ns, topo, algos, sizes, out, mode):
    subprocess.run([ns, "compare", "-T", topo, "-a", algos, "-m", sizes_arg(sizes), "-M", "smpi",
                    "-o", out, mode, "--progress", "none"], check=True, stdout=subprocess.DEVNULL)
    times = {}
    with open(os.path.join(out, "compare.csv")) as f:
        for r in csv.DictReader(f):
            if r["status"] == "ok":
                times[(r["label"], int(r["msize_bytes"]))] = float(r["completion_s"])
    return times


def n_barrier_scheme(params, p):
    n = int(params.split("=")[1])
    for bs in range(1, p):
        if (p - 1 + bs - 1) // bs - 1 == n:
            return f"barrier-partial-none:{bs}"
    raise ValueError(params)


def main():
    ns, topo, d, mode = sys.argv[1:5]
    p = json.load(open(os.path.join(d, "decision.json")))["machines"]
    rows = list(csv.DictReader(open(os.path.join(d, "decision.csv"))))

    def row_of(m):
        for r in rows:
            if int(r["from_bytes"]) <= m and (r["to_bytes"] == "" or m <= int(r["to_bytes"])):
                return r

    def label(r):
        if r["params"].startswith("barriers="):
            return f"{r['algorithm']}:{n_barrier_scheme(r['params'], p)}"
        return r["algorithm"]

    # tune's own measurements at the fixed sizes
    measured = {}
    for r in csv.DictReader(open(os.path.join(d, "measurements.csv"))):
        if r["status"] == "ok":
            measured[(r["algorithm"], r["params"], int(r["msize_bytes"]))] = float(r["time_s"])
    base = compare(ns, topo, "simple,mpich", FIXED + BETWEEN, os.path.join(d, "baselines"), mode)
    tuned = {}
    by_label = {}
    for m in BETWEEN:
        by_label.setdefault(label(row_of(m)), []).append(m)
    for k, (lab, ms) in enumerate(sorted(by_label.items())):
        t = compare(ns, topo, lab, ms, os.path.join(d, f"tuned-{k}"), mode)
        for m in ms:
            tuned[m] = t.get((lab, m))
    with open(os.path.join(d, "evaluation.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["msize_bytes", "lam_s", "mpich_s", "mpich_lam_s", "tuned_s", "tuned_algorithm",
                    "on_grid"])
        for m in sorted(FIXED + BETWEEN):
            r = row_of(m)
            name = r["algorithm"] + (f"({r['params']})" if r["params"] else "")
            t = measured.get((r["algorithm"], r["params"], m)) if m in FIXED else tuned.get(m)
            lam, mpich = base.get(("simple", m)), base.get(("mpich", m))
            w.writerow([m, lam, mpich, mpich, t, name, int(m in FIXED)])


main()
