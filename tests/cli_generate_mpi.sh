#!/usr/bin/env bash
# Generated routines compute the collective (issue #20 §1, §2): for every
# registered algorithm of alltoall, allgather and bcast whose planner
# applies on a small topology, on 2 to 16 machines (odd and not powers of
# two where the planner takes them), the routine table run by the runtime
# under real MPI leaves receive buffers byte-identical to MPI_Alltoall /
# MPI_Allgather / MPI_Bcast's (tests/mpi/routine_check.c: patterned data,
# four block sizes, repeated calls, a reversed rank-to-machine mapping),
# and every synchronisation scheme, Tam and Wang's window included, on 8
# machines.
# Tables are generated once; one mpirun per size runs them all. Then the
# C form: three generated files (an indirect alltoall, an allgather, a
# bcast) compile with mpicc -Wall -Wextra -Werror (and smpicc, and
# MPICH's mpicc when installed), link into one program and agree with MPI.
source "$(dirname "$0")/cli-common.bash"
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
  echo "1..0 # SKIP mpicc/mpirun not installed (libopenmpi-dev)"
  exit 77
fi
mpirun=(mpirun)
if mpirun --version 2>/dev/null | grep -q "Open MPI"; then
  mpirun+=(--allow-run-as-root --oversubscribe)
  export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
fi
cc=(mpicc -std=c17 -Wall -Wextra -Werror -O1 -I"$src")
"${cc[@]}" "$src/tests/mpi/routine_check.c" "$src/mpi/runtime/ns_routine.c" \
  -o "$tmp/routine_check" 2>"$tmp/cc.log" || { echo "not ok - mpicc"; cat "$tmp/cc.log"; exit 1; }

mkdir -p "$tmp/tables"
# generate does not lower the collectives of issue #22 yet (it refuses them)
"$ns" plan --list | awk 'NR > 1 && /^[a-z]/ { print $1 }' |
  grep -Ev '^(reduce|allreduce|alltoallv|allgatherv)/' >"$tmp/algorithms"
sizes="2 3 5 8 9 12 16"
# The first topology of these on which the planner applies.
topologies() {
  echo "gen:star:$1 gen:ring:$1"
  [[ $1 == 16 ]] && echo "gen:torus:4x4"
  [[ $1 == 12 ]] && echo "gen:torus:4x3"
  [[ $1 == 8 ]] && echo "gen:torus:2x2x2"
}
: >"$tmp/covered"
for n in $sizes; do
  while read -r ca; do
    c=${ca%%/*} a=${ca#*/}
    for t in $(topologies "$n"); do
      if "$ns" generate -T "$t" -c "$c" -a "$a" -m 4KiB -o "$tmp/tables/$n-$c-$a.nsr" \
           >/dev/null 2>"$tmp/why"; then
        echo "$ca" >>"$tmp/covered"
        break
      fi
    done
  done <"$tmp/algorithms"
done
# Every pair-wise and barrier sync scheme on faraj over a two-switch tree, where
# the dummy scheme has idle machines to pair; barriers as hardware too.
for scheme in none dummy sender-all sender-partial:2 receiver-all receiver-partial:2 barrier-all \
              barrier-partial-none:2 barrier-partial-sender:2 barrier-partial-receiver:2 light; do
  "$ns" generate -T gen:tree:2,4 -a faraj -S "$scheme" -o "$tmp/tables/8-sync-${scheme/:/_}.nsr" >/dev/null
done
"$ns" generate -T gen:tree:2,4 -a faraj -S barrier-all --hardware-barrier \
  -o "$tmp/tables/8-sync-hardware-barrier.nsr" >/dev/null
"$ns" generate -T gen:tree:2,4 -a bruck -S receiver-all -o "$tmp/tables/8-sync-bruck-receiver.nsr" >/dev/null
"$ns" generate -T gen:tree:2,4 -c allgather -a ring -S dummy -o "$tmp/tables/8-sync-ring-dummy.nsr" >/dev/null
# Tam and Wang's window on posted schedules: items of 1500 B (blocks of
# 4099 B are three), W = 1 (one item in flight), 4, and on an allgather.
"$ns" generate -T gen:star:8 -a simple -S window:4 -o "$tmp/tables/8-window-simple.nsr" >/dev/null
"$ns" generate -T gen:star:8 -a spread -S window:1 -o "$tmp/tables/8-window-spread.nsr" >/dev/null
"$ns" generate -T gen:star:8 -c allgather -a simple -S window:3 -o "$tmp/tables/8-window-allgather.nsr" >/dev/null
for n in $sizes; do
  tables=("$tmp/tables/$n"-*.nsr)
  timeout 600 "${mpirun[@]}" -np "$n" "$tmp/routine_check" "${tables[@]}" >"$tmp/run.$n" 2>"$tmp/err.$n"
  status=$?
  good=$(grep -c '^ok' "$tmp/run.$n")
  if [[ $status -eq 0 && $good -eq ${#tables[@]} ]]; then
    echo "ok - $n ranks: ${#tables[@]} routines byte-identical to MPI's"
    passed=$((passed + 1))
  else
    echo "not ok - $n ranks: $good of ${#tables[@]} routines agree (exit $status)"
    grep -v '^ok' "$tmp/run.$n" | head -5 | sed 's/^/#   /'
    head -5 "$tmp/err.$n" | sed 's/^/#   /'
    failures=$((failures + 1))
  fi
done
# Every registered algorithm is run at least once.
missing=$(sort -u "$tmp/covered" | comm -13 - <(sort "$tmp/algorithms"))
if [[ -z "$missing" ]]; then
  echo "ok - every registered algorithm generated and run ($(wc -l <"$tmp/algorithms"))"
  passed=$((passed + 1))
else
  echo "not ok - never generated on "$sizes" machines: $(echo $missing)"
  failures=$((failures + 1))
fi

# ---- the C form ---------------------------------------------------------
"$ns" generate -T gen:star:6 -a bruck --name t -o "$tmp/a2a.c" >/dev/null &&
  "$ns" generate -T gen:star:6 -c allgather -a ring --name t -o "$tmp/ag.c" >/dev/null &&
  "$ns" generate -T gen:star:6 -c bcast -a binomial -r n2 --name t -o "$tmp/bc.c" >/dev/null
check "C form: generate three routines" 0 test -s "$tmp/bc.c"
expect "C form: the header names the digest and the command" "$tmp/a2a.c" \
  "schedule digest +[0-9a-f]{64}.*|made by +netsched generate -T gen:star:6 -a bruck --name t -o "
cat >"$tmp/driver.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int netsched_t_alltoall(const void *, void *, size_t, MPI_Comm);
int netsched_t_allgather(const void *, void *, size_t, MPI_Comm);
int netsched_t_bcast(void *, size_t, MPI_Comm);
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  enum { B = 1000 };
  unsigned char *s = malloc(size * B), *a = malloc(size * B), *b = malloc(size * B);
  for (int i = 0; i < size * B; i++)
    s[i] = (unsigned char)(rank * 37 + i * 11 + 3);
  MPI_Alltoall(s, B, MPI_BYTE, a, B, MPI_BYTE, MPI_COMM_WORLD);
  bad |= netsched_t_alltoall(s, b, B, MPI_COMM_WORLD) != MPI_SUCCESS || memcmp(a, b, size * B);
  MPI_Allgather(s, B, MPI_BYTE, a, B, MPI_BYTE, MPI_COMM_WORLD);
  bad |= 2 * (netsched_t_allgather(s, b, B, MPI_COMM_WORLD) != MPI_SUCCESS || memcmp(a, b, size * B));
  memcpy(a, s, B);
  memcpy(b, s, B);
  MPI_Bcast(a, B, MPI_BYTE, 2, MPI_COMM_WORLD);
  bad |= 4 * (netsched_t_bcast(b, B, MPI_COMM_WORLD) != MPI_SUCCESS || memcmp(a, b, B));
  if (bad)
    printf("rank %d: mismatch %d\n", rank, bad);
  MPI_Finalize();
  return bad;
}
C
for cc in mpicc.openmpi mpicc.mpich smpicc; do
  command -v "$cc" >/dev/null || { echo "ok - C form with $cc # SKIP not installed"; continue; }
  check "C form compiles with $cc -Wall -Wextra -Werror" 0 \
    bash -c 'cd "$1" && "$2" -std=c17 -Wall -Wextra -Werror -O1 -c a2a.c ag.c bc.c' _ "$tmp" "$cc"
done
check "C form: three routines link into one program" 0 \
  mpicc -O1 -o "$tmp/driver" "$tmp/driver.c" "$tmp/a2a.c" "$tmp/ag.c" "$tmp/bc.c"
check "C form: routines agree with MPI on 6 ranks" 0 timeout 120 "${mpirun[@]}" -np 6 "$tmp/driver"
if command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null; then
  check "C form under MPICH: compiles and links" 0 \
    mpicc.mpich -O1 -o "$tmp/driver.mpich" "$tmp/driver.c" "$tmp/a2a.c" "$tmp/ag.c" "$tmp/bc.c"
  check "C form under MPICH: routines agree with MPI on 6 ranks" 0 \
    timeout 120 mpirun.mpich -np 6 "$tmp/driver.mpich"
fi
echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
