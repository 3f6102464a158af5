#!/usr/bin/env python3
"""results/stage-mpi: the summary table and figures from each topology's
evaluation.csv (evaluate.py). Speed-up as in the dissertation §4.1.2
(366.2 ms against 200.1 ms is "an 83 % speedup"): best baseline / tuned - 1."""
import csv, os, subprocess, sys

here = sys.argv[1]
names = {"a": "(a) 24 machines, one switch", "b": "(b) 32 machines, 4 switches (star)",
         "c": "(c) 32 machines, 4 switches (chain)"}


def size(m):
    return f"{m // 1024} KiB" if m >= 1024 and m % 1024 == 0 else f"{m} B"


for x in "abc":
    path = os.path.join(here, x, "evaluation.csv")
    if not os.path.exists(path):
        continue
    rows = list(csv.DictReader(open(path)))
    print(f"\n### Topology {names[x]}\n")
    print("| size | LAM (ms) | MPICH = MPICH-LAM (ms) | TUNED (ms) | TUNED's algorithm | TUNED vs best |")
    print("| ---: | ---: | ---: | ---: | --- | ---: |")
    slower, best_gain, n40 = [], (0, 0), 0
    dat = []
    for r in rows:
        m = int(r["msize_bytes"])
        lam, mpich, t = (float(r[k]) if r[k] not in ("", "None") else None
                         for k in ("lam_s", "mpich_s", "tuned_s"))
        if t is None or lam is None or mpich is None:
            print(f"| {size(m)} | {lam} | {mpich} | {t} | {r['tuned_algorithm']} | n/a |")
            continue
        best = min(lam, mpich)
        gain = (best / t - 1) * 100
        if gain < -0.5:
            slower.append((m, gain))
        if gain >= 40:
            n40 += 1
        if gain > best_gain[1]:
            best_gain = (m, gain)
        mark = "" if r["on_grid"] == "1" else " *"
        print(f"| {size(m)}{mark} | {lam * 1e3:.3f} | {mpich * 1e3:.3f} | {t * 1e3:.3f} | "
              f"{r['tuned_algorithm']} | {gain:+.1f} % |")
        dat.append((m, lam, mpich, t))
    print(f"\nSizes where TUNED is slower than the best baseline by more than 0.5 %: "
          f"{', '.join(f'{size(m)} ({g:+.1f} %)' for m, g in slower) or 'none'}. "
          f"Sizes where it is at least 40 % faster: {n40} of {len(dat)}; the largest gain "
          f"{best_gain[1]:.1f} % at {size(best_gain[0])}.")
    with open(os.path.join(here, x, "stage-mpi.dat"), "w") as f:
        f.write("# msize lam_s mpich_s tuned_s\n")
        for d in dat:
            f.write("%d %.9g %.9g %.9g\n" % d)
    gp = f"""set title 'MPI_Alltoall on topology {names[x]} (replay, smpi model)' noenhanced
set xlabel 'message size (bytes per destination)'
set ylabel 'time (s)'
set logscale xy
set key top left
set grid
set terminal pngcairo size 900,520
set output 'stage-mpi.png'
plot 'stage-mpi.dat' using 1:2 with linespoints title 'LAM (simple)', \\
     'stage-mpi.dat' using 1:3 with linespoints title 'MPICH = MPICH-LAM', \\
     'stage-mpi.dat' using 1:4 with linespoints lw 2 title 'TUNED'
set terminal svg size 900,520
set output 'stage-mpi.svg'
replot
"""
    open(os.path.join(here, x, "stage-mpi.gp"), "w").write(gp)
    subprocess.run(["gnuplot", "stage-mpi.gp"], cwd=os.path.join(here, x), check=True)
