#!/usr/bin/env bash
# libnetsched-mpi's per-call overhead against PMPI_Alltoall on 16 ranks
# of one machine (Open MPI, shared memory), at 8 B and 1 MiB per block:
# the fall-through path (a table configured for other sizes: the guards'
# cost) and the taken path (the faraj table of a 16-machine switch; the
# time is then the routine's, not only the library's).
#
#   bench/mpi_lib_overhead.sh [BUILD_DIR]       (default build)
#
# Builds the library without sanitizers (mpicc -O2 -shared) and the
# bench program; uses BUILD_DIR/netsched to generate the table. Prints
# the medians (bench/mpi/lib_overhead.c). Not part of the test suite.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
ns=$build/netsched
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpicc -O2 -shared -fPIC -fvisibility=hidden -I"$src" "$src"/mpi/lib/*.c \
  "$src/mpi/runtime/ns_routine.c" -o "$tmp/libnetsched-mpi.so" -lpthread
mpicc -O2 "$src/bench/mpi/lib_overhead.c" -o "$tmp/lib_overhead"
ASAN_OPTIONS=detect_leaks=0 "$ns" generate -T gen:chain:1,16 -a faraj -o "$tmp/a16.nsr"
sizes="8:400 1048576:30"
run() {
  timeout 1200 mpirun --allow-run-as-root --oversubscribe -np 16 -x LD_PRELOAD="$tmp/libnetsched-mpi.so" \
    -x NETSCHED_MPI_SCHEDULES="$1" "$tmp/lib_overhead" $sizes
}
echo "fall-through (table for 16-32 B only):"
run "alltoall:16-32:$tmp/a16.nsr"
echo "taken (faraj table for every size):"
run "alltoall:*:$tmp/a16.nsr"
echo "no configuration (the library inert):"
run ""
