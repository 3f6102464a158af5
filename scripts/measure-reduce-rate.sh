#!/usr/bin/env bash
# Measures this machine's reduction rate (MPI_Reduce_local, MPI_SUM over
# MPI_DOUBLE) for the replay's --reduce-rate: builds scripts/reduce_rate.c
# with mpicc in a private temporary directory (removed at exit), runs it
# as one process, prints its table and the --reduce-rate option to give
# (docs/simulator.md, "Reductions and variable sizes").
#   scripts/measure-reduce-rate.sh [MPICC]   (default mpicc)
set -euo pipefail
cc=${1:-mpicc}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$cc" -O2 "$here/reduce_rate.c" -o "$dir/reduce_rate"
"$dir/reduce_rate"
