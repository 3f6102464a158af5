#!/usr/bin/env bash
# Reruns results/allreduce-fig4.10: Faraj's dissertation Figure 4.10,
# MPI_Allreduce on topology (c), TUNED (the best of the repository at each
# size) against MPICH-LAM (MPICH's selection: rdb below 2048 B, MPICH's
# Rabenseifner above; Table 4.2), by `netsched compare` under the smpi
# model (results/stage-mpi/README.md says why that model), then
# summary.py's table and verdict (README.md).
#   results/allreduce-fig4.10/run.sh [NETSCHED]   (default build/netsched;
#   RESUME=1 continues an interrupted run)
set -euo pipefail
ns=${1:-build/netsched}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
mode=--overwrite
[[ ${RESUME:-0} == 1 ]] && mode=--resume
# The repository: every allreduce planner but the MPI libraries' selectors
# (plan --list prints "collective/algorithm ..." one a line).
repo=$("$ns" plan --list | awk '$1 ~ /^allreduce\// { sub("allreduce/", "", $1); print $1 }' |
  { grep -Ev '^(mpich|ompi|ompi-legacy)$' || true; } | paste -sd, -)
if [[ -z "$repo" ]]; then
  echo "run.sh: $ns plans no allreduce algorithm (the allreduce planners are not in this build)" >&2
  exit 2
fi
# Figure 4.10's sizes: 4 B to 128 KiB, and the crossing at 489 B.
sizes=4B,16B,64B,256B,488B,512B,1KiB,2KiB,4KiB,8KiB,16KiB,32KiB,64KiB,128KiB
"$ns" compare -T "$src/scenarios/topologies/faraj-c.topo" -c allreduce -a "mpich,$repo" \
  -m "$sizes" -M smpi -o "$here/c" "$mode" --progress none >"$here/c.log" 2>"$here/c.notes"
python3 "$here/summary.py" "$here/c/compare.csv" >"$here/summary.md"
