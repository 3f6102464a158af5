#!/usr/bin/env bash
# Reruns results/stage-mpi: netsched tune on Faraj-Yuan's topologies (a),
# (b), (c) under the smpi model (README.md says why), the LAM and MPICH
# baselines at the same sizes and between them, and the summary.
#   results/stage-mpi/run.sh [NETSCHED]   (default build/netsched; add
#   RESUME=1 to continue an interrupted run)
set -euo pipefail
ns=${1:-build/netsched}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
mode=--overwrite
[[ ${RESUME:-0} == 1 ]] && mode=--resume
# The dissertation's all-to-all repository (§4.1.1.1) and the topology-specific
# routine: the ring and pair families with their barrier variants, simple,
# spreading simple, Bruck, recursive doubling, 2D/3D mesh, and faraj.
candidates=simple,spread,ring,ring-light-barrier,ring-mpi-barrier,ring-n-barrier,pair,pair-light-barrier,pair-mpi-barrier,pair-n-barrier,bruck,rdb,2dmesh,3dmesh,faraj
sizes=1B,64B,512B,1KiB,2KiB,4KiB,8KiB,16KiB,32KiB,64KiB,128KiB,256KiB
for x in a b c; do
  "$ns" tune -T "$src/scenarios/topologies/faraj-$x.topo" -c alltoall -a "$candidates" \
    --sizes "$sizes" -M smpi -o "$here/$x" "$mode" >"$here/$x.log" 2>"$here/$x.notes" &
done
wait
for x in a b c; do
  python3 "$here/evaluate.py" "$ns" "$src/scenarios/topologies/faraj-$x.topo" "$here/$x" "$mode"
done
python3 "$here/summary.py" "$here" >"$here/summary.md"
