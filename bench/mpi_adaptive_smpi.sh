#!/usr/bin/env bash
# libnetsched-mpi's adaptive mode under SMPI (docs/adaptive.md, "Shown
# under SMPI"): the application loop tests/mpi/adaptive_loop.c, 16 ranks
# on gen:chain:4,4 (four switches of four machines, netsched's platform),
# 1 KiB per block, ITERATIONS calls, balanced (-w 0) and imbalanced (each
# rank computes up to 20 ms, the same pattern every iteration): the MPI
# library's own all-to-all, each candidate table fixed, and the adaptive
# mode over them (STAR-MPI's groups, 3 measured calls per candidate).
#
#   bench/mpi_adaptive_smpi.sh [BUILD_DIR [ITERATIONS]]   (default build, 200)
#
# Prints the loop's simulated time per configuration and the adaptive
# mode's choice line (margin, measuring cost). Deterministic; not part of
# the test suite (tests/cli_mpi_adaptive.sh checks the choices).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
iterations=${2:-200}
ns=$build/netsched
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
smpicc -O2 -I"$src" "$src"/mpi/lib/*.c "$src/mpi/runtime/ns_routine.c" \
  "$src/tests/mpi/adaptive_loop.c" -o adaptive_loop 2>smpicc.err
"$ns" topo convert gen:chain:4,4 --to simgrid -o chain.xml >/dev/null
printf 'n%d\n' {0..15} >chain.hosts
for a in bruck 2dmesh simple faraj; do "$ns" generate -T gen:chain:4,4 -a "$a" -o "a16-$a.nsr" >/dev/null; done
cat >adaptive.conf <<'CONF'
candidate alltoall log-phases a16-bruck.nsr
candidate alltoall log-phases a16-2dmesh.nsr
candidate alltoall posted native
candidate alltoall posted a16-simple.nsr
candidate alltoall contention-free a16-faraj.nsr
measure alltoall 3
CONF
loop() { # loop IMBALANCE: prints the loop's line
  env "${vars[@]}" smpirun -np 16 -platform chain.xml -hostfile chain.hosts \
    --cfg=smpi/simulate-computation:no --log=root.thres:warning \
    ./adaptive_loop -n "$iterations" -s 1024 -w "$1" 2>err | sed 's/^adaptive_loop: //'
}
for w in 0 0.02; do
  echo "== imbalance $w s"
  vars=(-u NETSCHED_MPI_CONFIG); echo "native:   $(loop "$w")"
  for a in bruck 2dmesh simple faraj; do
    vars=(NETSCHED_MPI_SCHEDULES="alltoall:*:a16-$a.nsr"); echo "$a: $(loop "$w")"
  done
  vars=(NETSCHED_MPI_CONFIG=adaptive.conf NETSCHED_MPI_VERBOSE=1); echo "adaptive: $(loop "$w")"
  sed -n 's/.*bytes per block: chooses/  chooses/p' err
done
