#!/usr/bin/env bash
# Faraj's dissertation §4.2.4 (Figures 4.21-4.22) by simulation: MPI_Alltoall
# algorithms at 64 KiB on one 32-machine switch (100 Mbit/s, the
# dissertation's 32-process micro-benchmark) under a balanced arrival
# pattern and random ones with ω/T in {1, 2, 4, 8, 16} and δ̄/T = ω/T / 4
# (the mean absolute deviation of arrivals drawn uniformly over ω),
# SEEDS patterns each. Reports ē, the average per-node time (§4.2.1).
#
#   results/arrival/run.sh [MODEL [SEEDS [JOBS]]]   (default: packet 4 2)
#
# Writes runs-MODEL/<pattern>/compare.* (one `netsched compare` per
# pattern, resumable: a rerun keeps the rows it has), arrival-MODEL.csv
# (every row), arrival-MODEL.dat and, with gnuplot, arrival-MODEL.svg/.png.
# NETSCHED names the binary (default: build-release/netsched).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ns=${NETSCHED:-$here/../../build-release/netsched}
model=${1:-packet}
seeds=${2:-4}
jobs=${3:-2}
case "$model" in ideal|tcp|smpi|packet) ;; *) echo "unknown model '$model'" >&2; exit 2 ;; esac
topo=gen:chain:1,32
algos=simple,spread,ring,pair,pair-light-barrier,pair-mpi-barrier
factors=(1 2 4 8 16)
runs=$here/runs-$model
mkdir -p "$runs"

# pattern directory + spec, one per line; seed 1 of every factor first, so
# that an interrupted run already spans the whole range
{
  echo "balanced balanced"
  for s in $(seq 1 "$seeds"); do
    for w in "${factors[@]}"; do
      echo "w$w-s$s random:$(awk -v w="$w" 'BEGIN { print w / 4 }'),$w,seed=$s"
    done
  done
} > "$runs/patterns.txt"

run_one() { # DIR SPEC
  local dir=$runs/$1 resume=
  [ -f "$dir/compare.csv" ] && resume=--resume
  "$ns" compare -T "$topo" -a "$algos" -m 64KiB -M "$model" --arrival "$2" -o "$dir" \
    --progress none $resume > "$dir.log" 2>&1 || { echo "failed: $1 (see $dir.log)" >&2; return 1; }
  echo "done: $1"
}
export -f run_one
export ns topo algos model runs
# NO_RUN=1: only gather the rows already there (e.g. of an interrupted run)
[ -n "${NO_RUN:-}" ] || xargs -P "$jobs" -L 1 bash -c 'run_one "$0" "$1"' < "$runs/patterns.txt"

# Every row, then the mean, fastest and slowest ē over the seeds.
python3 - "$runs" "$model" "$here" "$algos" <<'EOF'
import csv, os, statistics, sys
runs, model, here, algos = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
rows = []
for line in open(os.path.join(runs, "patterns.txt")):
    name, spec = line.split()
    w = 0 if name == "balanced" else int(name[1:].split("-")[0])
    seed = 0 if name == "balanced" else int(name.split("-s")[1])
    path = os.path.join(runs, name, "compare.csv")
    got = list(csv.DictReader(open(path, newline=""))) if os.path.exists(path) else []
    got = [r for r in got if r["label"] in algos]  # rows of other lists are kept in the file
    if len(got) < len(algos):
        print(f"{name}: {len(got)} of {len(algos)} rows: left out", file=sys.stderr)
        continue
    for r in got:
        if r["status"] != "ok":
            sys.exit(f"{name}: {r['label']}: {r['status']}")
        rows.append(dict(model=model, pattern=spec, omega_T_target=w, seed=seed,
                         label=r["label"], algorithm=r["algorithm"],
                         completion_s=r["completion_s"],
                         avg_imbalance_factor=r["avg_imbalance_factor"],
                         max_imbalance_factor=r["max_imbalance_factor"],
                         per_node_time_s=r["per_node_time_s"], span_s=r["span_s"]))
with open(os.path.join(here, f"arrival-{model}.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
labels = list(dict.fromkeys(r["label"] for r in rows))
ws = sorted({r["omega_T_target"] for r in rows})
mean = {}
with open(os.path.join(here, f"arrival-{model}.dat"), "w") as f:
    f.write(f"# netsched arrival study ({model} model): omega/T, mean e (ms) over the "
            "seeds, fastest, slowest, mean e / best mean e at that omega/T, "
            "mean e / the algorithm's balanced e\n")
    for lab in labels:
        for x in ws:
            e = [float(r["per_node_time_s"]) * 1e3 for r in rows
                 if r["label"] == lab and r["omega_T_target"] == x]
            mean[lab, x] = (statistics.mean(e), min(e), max(e))
    for i, lab in enumerate(labels):
        f.write(("\n\n" if i else "") + f"# {lab}\n")
        for x in ws:
            best = min(mean[l, x][0] for l in labels)
            m, lo, hi = mean[lab, x]
            f.write(f"{x} {m:.4f} {lo:.4f} {hi:.4f} {m / best:.4f} {m / mean[lab, 0][0]:.4f}\n")
with open(os.path.join(here, f"arrival-{model}.gp"), "w") as f:
    f.write(f"""# netsched arrival study: data in arrival-{model}.dat (one block per algorithm)
set key outside right noenhanced
set grid
set xlabel 'worst-case imbalance factor ω/T (δ̄/T = ω/T / 4)' noenhanced
set xtics (0, 1, 2, 4, 8, 16)
set multiplot layout 1,2 title 'MPI_Alltoall, 64 KiB, 32 machines on one 100 Mbit/s switch ({model} model): average per-node time ē' noenhanced
set ylabel 'ē (ms, log scale; bars: fastest, slowest pattern)' noenhanced
set logscale y
set key off
plot """ + ", \\\n     ".join(
        f"'arrival-{model}.dat' index {i} using 1:2:3:4 with yerrorlines pt {1 + i} dt {1 + i % 5} "
        f"title '{lab}'" for i, lab in enumerate(labels)) + f"""
set ylabel 'slowdown: ē / own balanced ē' noenhanced
unset logscale y
set key outside right
plot """ + ", \\\n     ".join(
        f"'arrival-{model}.dat' index {i} using 1:6 with linespoints pt {1 + i} dt {1 + i % 5} "
        f"title '{lab}'" for i, lab in enumerate(labels)) + "\nunset multiplot\n")
print(f"wrote arrival-{model}.csv, arrival-{model}.dat, arrival-{model}.gp")
EOF
command -v gnuplot > /dev/null || exit 0
cd "$here"
for term in "svg size 1200,500:svg" "pngcairo size 1200,500:png"; do
  gnuplot -e "set terminal ${term%%:*}; set output 'arrival-$model.${term##*:}'" "arrival-$model.gp"
done
echo "wrote arrival-$model.svg, arrival-$model.png"
