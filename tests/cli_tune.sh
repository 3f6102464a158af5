#!/usr/bin/env bash
# netsched tune (issue #21, STAGE-MPI; Faraj's dissertation §4.1): on 8
# machines under two switches, four candidates (one with a parameter:
# ring-n-barrier's barrier count) at three sizes under the smpi model.
#  - the decision at every fixed size is the argmin of measurements.csv
#    over (algorithm, params), as decision.csv and decision.json say;
#  - every switch point c was found by the binary search: it lies between
#    the adjacent fixed sizes whose best differ, the new choice is faster at
#    c and the old one no slower at c - 1 (both measured there);
#  - a resumed run measures nothing again and writes the same decision;
#  - bad options and a resume of another configuration exit 2 with messages;
#  - tuned_alltoall.c compiles with mpicc -Wall -Wextra -Werror and gives
#    MPI_Alltoall's result under Open MPI on 8 ranks at sizes on both sides
#    of every switch point; netsched-mpi.conf names the same ranges.
source "$(dirname "$0")/cli-common.bash"
if [[ ${NETSCHED_SIMULATOR:-1} == 0 ]]; then
  echo "1..0 # SKIP tune needs the simulator"
  exit 77
fi
out="$tmp/tune"
args=(tune -T gen:tree:2,4 -a simple,bruck,pair,ring-n-barrier --sizes 64B,1KiB,16KiB -M smpi)
check "tune runs" 0 "$ns" "${args[@]}" -o "$out"
expect "progress on stderr" "$tmp/err" "^tune: simple 64B \(size\)$"
for f in measurements.csv decision.json decision.csv tune.gp tune.dat netsched-mpi.conf \
         tuned_alltoall.c README; do
  check "tune writes $f" 0 test -s "$out/$f"
done
expect "the parameter's linear search: every barrier count of 8 machines" "$out/measurements.csv" \
  ",ring-n-barrier,barriers=6,64,.*ring-n-barrier,barriers=3,64,|ring-n-barrier,barriers=2,64,"
check "decision.json is a decision file of 8 machines" 0 \
  grep -Eq '"format" *: *"netsched-decision".*|"machines" *: *8' "$out/decision.json"

# The decision (algorithm(params) per row) and the argmin of the measurements.
row_at() { # the decision.csv row covering size $1
  awk -F, -v m="$1" 'NR > 1 && $1 <= m && ($2 == "" || m <= $2) { print $3 "(" $4 ")" }' \
    "$out/decision.csv"
}
time_of() { # time of algorithm $1 params $2 at size $3 in measurements.csv
  awk -F, -v a="$1" -v p="$2" -v m="$3" '$3 == a && $4 == p && $5 == m && $8 == "ok" { print $6 }' \
    "$out/measurements.csv"
}
argmin=$(awk -F, 'NR > 1 && $7 == "size" && $8 == "ok" {
    if (!($5 in best) || $6 + 0 < best[$5]) { best[$5] = $6 + 0; who[$5] = $3 "(" $4 ")" } }
  END { for (m in who) print m, who[m] }' "$out/measurements.csv" | sort -n)
bad=0
while read -r m who; do
  [[ $(row_at "$m") == "$who" ]] || { echo "#   at $m: decision $(row_at "$m"), argmin $who"; bad=1; }
done <<<"$argmin"
check "the decision is the argmin of measurements.csv at every fixed size" 0 test $bad -eq 0
rows=$(($(wc -l <"$out/decision.csv") - 1))
check "the fixed sizes' bests differ somewhere: at least one switch point" 0 test "$rows" -ge 2

# Switch points: between fixed sizes whose best differ, and the best changes there.
sizes=(64 1024 16384)
bad=0
probe_sizes="1"
for ((i = 2; i <= rows; i++)); do
  prev=$(sed -n "${i}p" "$out/decision.csv") cur=$(sed -n "$((i + 1))p" "$out/decision.csv")
  c=$(cut -d, -f1 <<<"$cur")
  IFS=, read -r _ _ a ap _ <<<"$prev"
  IFS=, read -r _ _ b bp _ <<<"$cur"
  lo=0 hi=0
  for s in "${sizes[@]}"; do
    ((s < c)) && lo=$s
    ((s >= c && hi == 0)) && hi=$s
  done
  [[ $(row_at "$lo") != $(row_at "$hi") && $lo -lt $c && $c -le $hi ]] ||
    { echo "#   switch $c not between fixed sizes with different bests ($lo, $hi)"; bad=1; }
  tb=$(time_of "$b" "$bp" "$c") ta=$(time_of "$a" "$ap" "$c")
  ta1=$(time_of "$a" "$ap" $((c - 1))) tb1=$(time_of "$b" "$bp" $((c - 1)))
  awk -v ta="$ta" -v tb="$tb" -v ta1="$ta1" -v tb1="$tb1" \
    'BEGIN { exit !(ta != "" && tb != "" && ta1 != "" && tb1 != "" && tb + 0 < ta + 0 && ta1 + 0 <= tb1 + 0) }' ||
    { echo "#   switch $c: $a $ap / $b $bp at c: $ta / $tb, at c-1: $ta1 / $tb1"; bad=1; }
  grep -q "^schedule alltoall $c-" "$out/netsched-mpi.conf" ||
    { echo "#   netsched-mpi.conf has no range from $c"; bad=1; }
  probe_sizes+=" $((c - 1)) $c"
done
check "every switch point: found by binary search, the best changes there" 0 test $bad -eq 0
expect "the binary search's probes are in measurements.csv" "$out/measurements.csv" ",search,ok$"

# Resume: nothing measured again, the same decision.
n_rows=$(wc -l <"$out/measurements.csv")
cp "$out/decision.json" "$tmp/decision.first"
check "a second run into the directory needs --resume or --overwrite" 2 "$ns" "${args[@]}" -o "$out"
expect "it says so" "$tmp/err" "holds results of an earlier run .*--resume"
check "tune --resume" 0 "$ns" "${args[@]}" -o "$out" --resume
expect "the resumed run measures nothing" "$tmp/out" "^0 measurements, $((n_rows - 1)) kept from measurements.csv"
check "the resumed run adds no row" 0 test "$(wc -l <"$out/measurements.csv")" -eq "$n_rows"
check "the resumed run writes the same decision" 0 cmp "$out/decision.json" "$tmp/decision.first"
check "a resume of another model is refused" 2 "$ns" "${args[@]}" -o "$out" --resume -M ideal
expect "it names the row and the configurations" "$tmp/err" \
  "measurements.csv:2: row of another configuration"

# Bad options.
check "--sizes must increase" 2 "$ns" tune -T gen:star:4 --sizes 1KiB,64B -o "$tmp/b1"
expect "--sizes says why" "$tmp/err" "^netsched: --sizes: the sizes must increase \(64 B comes after 1024 B\)$"
check "--sizes needs units" 2 "$ns" tune -T gen:star:4 --sizes 64 -o "$tmp/b2"
expect "--sizes names the bad size" "$tmp/err" "^netsched: --sizes '64': missing unit"
check "an unknown candidate" 2 "$ns" tune -T gen:star:4 -a simple,nosuch -o "$tmp/b3"
expect "names it" "$tmp/err" "^netsched: -a: unknown alltoall algorithm 'nosuch' \(known: "
check "a candidate listed twice" 2 "$ns" tune -T gen:star:4 -a ring,ring -o "$tmp/b4"
expect "says so" "$tmp/err" "^netsched: -a: algorithm 'ring' is listed twice$"
check "a sync scheme is not a candidate" 2 "$ns" tune -T gen:star:4 -a ring:barrier-all -o "$tmp/b12"
expect "says so" "$tmp/err" "^netsched: -a: 'ring:barrier-all': tune takes algorithm names"
check "an unknown collective" 2 "$ns" tune -T gen:star:4 -c scatter -o "$tmp/b5"
expect "names it" "$tmp/err" "unknown collective 'scatter' \(alltoall, allgather, bcast, reduce, allreduce, alltoallv, allgatherv\)"
check "an unknown --measure" 2 "$ns" tune -T gen:star:4 --measure mpptest -o "$tmp/b6"
expect "names it" "$tmp/err" "--measure takes replay or smpirun, not 'mpptest'"
check "no topology" 2 "$ns" tune -o "$tmp/b7"
check "a bad --root" 2 "$ns" tune -T gen:star:4 -c bcast -r nosuch -o "$tmp/b8"
expect "names it" "$tmp/err" "--root 'nosuch' is not a machine of gen:star:4"
check "bad options create no directory" 1 test -e "$tmp/b1"

# Candidates that refuse the topology are left out with a note: pair (and
# pair-n-barrier, all of whose barrier counts refuse) on 6 machines.
check "refusing candidates: tune still runs" 0 \
  "$ns" tune -T gen:star:6 -a ring,pair,pair-n-barrier --sizes 1KiB -o "$tmp/skip"
expect "pair is skipped with the planner's reason" "$tmp/err" \
  "^tune: pair skipped: alltoall/pair needs a power-of-two number of machines \(the topology has 6\)"
expect "pair-n-barrier too" "$tmp/err" "^tune: pair-n-barrier skipped: alltoall/pair needs a power-of-two"
check "the decision is ring alone, without a runner-up" 0 \
  grep -qx "0,,ring,,1024,[0-9.e-]*,,,," "$tmp/skip/decision.csv"

# Timing mechanisms (Figure 4.3): two invocations of ring on 4 machines at
# 1 KiB; times per invocation. A barrier before each adds time; a
# computation of 0.5 s before each adds 0.5 s per invocation (N x SECONDS
# in all); decision.json names the mechanism.
timed() { # timed MECHANISM: the measured time
  rm -rf "$tmp/timed"
  "$ns" tune -T gen:star:4 -a ring --sizes 1KiB -M smpi --iterations 2 --timing "$1" \
    -o "$tmp/timed" >/dev/null 2>&1 && awk -F, 'NR == 2 { print $6 }' "$tmp/timed/measurements.csv"
}
t0=$(timed mpptest) tb=$(timed mpptest+barrier) tc=$(timed mpptest+computation=0.5)
check "mpptest+barrier takes longer than mpptest ($tb > $t0)" 0 \
  awk -v a="$t0" -v b="$tb" 'BEGIN { exit !(a > 0 && b > a) }'
check "mpptest+computation=0.5 adds 0.5 s per invocation ($tc - $t0)" 0 \
  awk -v a="$t0" -v c="$tc" 'BEGIN { d = c - a - 0.5; exit !(a > 0 && d < 1e-6 && d > -1e-6) }'
expect "decision.json names the timing" "$tmp/timed/decision.json" '"timing" *: *"mpptest\+computation=0.5"'
check "a bad --timing" 2 "$ns" tune -T gen:star:4 --timing mpptest+sleep -o "$tmp/b9"
expect "names it" "$tmp/err" "--timing takes mpptest, mpptest\+barrier or mpptest\+computation\[=SECONDS\] \(0 < SECONDS <= 1000\), not 'mpptest\+sleep'"
check "a computation of 0 s" 2 "$ns" tune -T gen:star:4 --timing mpptest+computation=0 -o "$tmp/b10"
check "--iterations 0" 2 "$ns" tune -T gen:star:4 --iterations 0 -o "$tmp/b11"
expect "says the range" "$tmp/err" "--iterations takes 1 to 1000, not 0"

# The tuned routine under real MPI, on both sides of every switch point.
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
  echo "ok - tuned routine under MPI # SKIP mpicc/mpirun not installed"
else
  mpirun=(mpirun)
  if mpirun --version 2>/dev/null | grep -q "Open MPI"; then
    mpirun+=(--allow-run-as-root --oversubscribe)
    export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
  fi
  cat >"$tmp/driver.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int netsched_tuned_alltoall(const void *, void *, size_t, MPI_Comm);
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int k = 1; k < argc; k++) {
    size_t n = strtoul(argv[k], NULL, 10);
    unsigned char *s = malloc(size * n), *a = malloc(size * n), *b = malloc(size * n);
    for (size_t i = 0; i < size * n; i++)
      s[i] = (unsigned char)(rank * 37 + i * 11 + 3);
    MPI_Alltoall(s, (int)n, MPI_BYTE, a, (int)n, MPI_BYTE, MPI_COMM_WORLD);
    memset(b, 0xee, size * n);
    if (netsched_tuned_alltoall(s, b, n, MPI_COMM_WORLD) != MPI_SUCCESS || memcmp(a, b, size * n)) {
      printf("rank %d: mismatch at %zu bytes\n", rank, n);
      bad = 1;
    }
    free(s); free(a); free(b);
  }
  MPI_Finalize();
  return bad;
}
C
  check "tuned_alltoall.c compiles with mpicc -Wall -Wextra -Werror" 0 \
    mpicc -std=c17 -Wall -Wextra -Werror -O1 -c "$out/tuned_alltoall.c" -o "$tmp/tuned.o"
  check "the driver links" 0 mpicc -O1 -o "$tmp/driver" "$tmp/driver.c" "$tmp/tuned.o"
  check "netsched_tuned_alltoall = MPI_Alltoall on 8 ranks at $probe_sizes 20000 B" 0 \
    timeout 300 "${mpirun[@]}" -np 8 "$tmp/driver" $probe_sizes 20000
fi
# A simulation that does not complete is no measurement: the tuning stops
# with its error, writes no row for it, and a resume measures it.
stop="$tmp/tune-stop"
check "a simulation stopped by --wall-limit stops the tuning" 2 \
  "$ns" tune -T gen:tree:2,4 -a simple,bruck --sizes 64KiB -M smpi --wall-limit 0.001 -o "$stop"
expect "says which measurement and why" "$tmp/err" \
  "^netsched: tune: simple at 64KiB: simulation stopped after the wall-time limit"
check "no row for it" 0 test "$(wc -l <"$stop/measurements.csv")" -eq 1
check "the resume measures it" 0 "$ns" tune -T gen:tree:2,4 -a simple,bruck --sizes 64KiB -M smpi \
  --resume -o "$stop"
check "both measured then" 0 test "$(grep -c ',ok$' "$stop/measurements.csv")" -eq 2

# --reduce-rate as simulate takes it (the shared simulation options): ring
# allreduce of 64KiB on 4 machines makes 3 combining receives of 16KiB on
# its critical path, 16384/100e6 s = 163.84 us each at 100MBps, so the
# measurement grows by 491.52 us over the free combining of --reduce-rate 0.
# Tuning a reduction succeeds (exit 0) and says why it writes no routine
# table: routines are generated for alltoall, allgather and bcast.
check "tune allreduce --reduce-rate 0" 0 "$ns" tune -T gen:star:4 -c allreduce -a ring --sizes 64KiB \
  -o "$tmp/rr0" --reduce-rate 0
expect "tune allreduce: no routine, said" "$tmp/err" \
  "^warning: tune: no MPI routines written: they are generated for alltoall, allgather and bcast; decision.json holds the allreduce decision$"
expect "tune allreduce: names only the files written" "$tmp/out" \
  "^1 measurements, 0 kept from measurements.csv; wrote $tmp/rr0/decision.json, decision.csv$"
check "tune allreduce: decision written" 0 test -s "$tmp/rr0/decision.json"
check "tune allreduce: no routine table" 0 test -z "$(find "$tmp/rr0" -name "*.nsr")"
check "tune allreduce: no tuned_allreduce.c" 1 test -e "$tmp/rr0/tuned_allreduce.c"
# --for a library: tuning among its allreduce algorithms, but no rules file
# (the writers hold alltoall, allgather and bcast; one once came out empty)
check "tune allreduce --for ompi" 0 "$ns" tune -T gen:star:4 -c allreduce --for ompi --sizes 64KiB \
  -o "$tmp/rr3" --reduce-rate 0
expect "tune allreduce --for ompi: why no rules" "$tmp/err" \
  "^warning: tune: no ompi-rules.conf written: netsched writes Open MPI 4.1's selection files for alltoall, allgather and bcast; decision.csv names the allreduce algorithm per size \(docs/mpi-rules.md\)$"
check "tune allreduce --for ompi: no rules file" 1 test -e "$tmp/rr3/ompi-rules.conf"
expect "tune allreduce --for ompi: Open MPI's candidates measured" "$tmp/rr3/measurements.csv" \
  ",allreduce,rabenseifner,,65536,"
# The v-collectives take a size pattern, a generator scaled to every size
# measured (the binary search's too). Without one, or with a fixed one, the
# tuning is refused before it measures (it once measured every candidate,
# then said "no candidate applies").
check "tune alltoallv without a pattern" 2 "$ns" tune -T gen:star:4 -c alltoallv --sizes 1KiB -o "$tmp/av0"
expect "tune alltoallv without a pattern: says so" "$tmp/err" "alltoallv.*pattern"
check "tune alltoallv: nothing measured" 1 test -e "$tmp/av0/measurements.csv"
check "tune alltoallv with a fixed pattern" 2 "$ns" tune -T gen:star:4 -c alltoallv \
  --pattern uniform:1KiB --sizes 1KiB,4KiB -o "$tmp/av1"
expect "tune alltoallv with a fixed pattern: why" "$tmp/err" \
  "^netsched: --pattern uniform:1KiB: tune measures between its sizes too: give a generator without its size"
check "tune --pattern for alltoall" 2 "$ns" tune -T gen:star:4 -c alltoall --pattern uniform \
  --sizes 1KiB -o "$tmp/av2"
# alltoallv is in the maps now: Open MPI's basic_linear (simple) and pairwise (ring)
check "tune alltoallv --for ompi" 0 "$ns" tune -T gen:star:4 -c alltoallv --for ompi --pattern uniform \
  --sizes 1KiB,64KiB -o "$tmp/av"
expect "tune alltoallv --for ompi: simple measured" "$tmp/av/measurements.csv" ",alltoallv,simple,,1024,[0-9]"
expect "tune alltoallv --for ompi: ring measured" "$tmp/av/measurements.csv" ",alltoallv,ring,,65536,[0-9]"
check "tune alltoallv --for ompi: only Open MPI's" 1 grep -q ",spread," "$tmp/av/measurements.csv"
# A uniform pattern is alltoall's exchange: the same times as alltoall/ring
check "tune alltoall ring 64KiB" 0 "$ns" tune -T gen:star:4 -c alltoall -a ring --sizes 64KiB -o "$tmp/a2a"
check "alltoallv ring under uniform = alltoall ring" 0 test \
  "$(grep ',ring,,65536,' "$tmp/av/measurements.csv" | cut -d, -f6)" = \
  "$(grep ',ring,,65536,' "$tmp/a2a/measurements.csv" | cut -d, -f6)"
check "tune allreduce --reduce-rate 100MBps" 0 "$ns" tune -T gen:star:4 -c allreduce -a ring \
  --sizes 64KiB -o "$tmp/rr1" --reduce-rate 100MBps
expect "tune --reduce-rate 0" "$tmp/rr0/measurements.csv" "^[0-9a-f]{16},allreduce,ring,,65536,0\.00798432,size,ok$"
expect "tune --reduce-rate 100MBps" "$tmp/rr1/measurements.csv" "^[0-9a-f]{16},allreduce,ring,,65536,0\.00847584,size,ok$"
check "tune --reduce-rate bad" 2 "$ns" tune -T gen:star:4 -c allreduce --reduce-rate fast -o "$tmp/rr2"
expect "tune --reduce-rate bad said" "$tmp/err" \
  "^netsched: --reduce-rate 'fast': not a number \(expected a decimal number followed by a unit\)$"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
