#!/usr/bin/env bash
# Each derived fact of a (topology, schedule) computed once (issue #19):
# one verification, one bound and one route table per row of design and
# compare, and one of each for simulate --timeline (the check, the sync
# set, the busiest links and the timeline share the route table). The
# counts (sched/ir/counts_internal.h) are printed on stderr at exit only when
# NETSCHED_COUNTS is set. Before: design 8/8/8 for 4 rows, simulate
# --timeline 1 verification and 8 route tables. The counters are the
# process's own: rows and runs computed by -j's worker processes are not
# counted in the parent, so the rows here run in one process (-j 1).
source "$(dirname "$0")/cli-common.bash"

check "design: 4 rows" 0 env NETSCHED_COUNTS=1 "$ns" design -T a=gen:star:4 -a mpich,ompi \
  -m 8KiB,16KiB -o "$tmp/design" --progress none -j 1
expect "design: 4 rows" "$tmp/out" "^ompi +16KiB "
check "design: one verification, bound and route table per row" 0 \
  grep -qx "counts: verify 4 bound 4 route-tables 4" "$tmp/err"

# faraj:sender-all is pair-wise: the simulator's sync set uses the row's table
check "compare: 2 rows, one pair-wise" 0 env NETSCHED_COUNTS=1 "$ns" compare -T gen:star:4 \
  -a faraj:sender-all,ring -m 8KiB -o "$tmp/compare" --progress none -j 1
check "compare: one of each per row" 0 \
  grep -qx "counts: verify 2 bound 2 route-tables 2" "$tmp/err"

check "plan" 0 "$ns" plan -T gen:star:4 -a faraj -m 64KiB -o "$tmp/s.json"
check "simulate --timeline" 0 env NETSCHED_COUNTS=1 "$ns" simulate -T gen:star:4 "$tmp/s.json" \
  --timeline "$tmp/timeline.csv" --progress none
expect "simulate --timeline: busiest links" "$tmp/out" "^  n0->s0 +192KiB +99.6 %$"
check "simulate --timeline: one route table for check, sync, links and timeline" 0 \
  grep -qx "counts: verify 1 bound 1 route-tables 1" "$tmp/err"
check "simulate --json: one route table" 0 env NETSCHED_COUNTS=1 "$ns" simulate -T gen:star:4 \
  "$tmp/s.json" --json --progress none
check "simulate --json: counts" 0 grep -qx "counts: verify 1 bound 1 route-tables 1" "$tmp/err"

# packet runs differ in the flow-hash salt only: run 0's route table and bound serve them all
check "simulate --runs 3 -M packet" 0 env NETSCHED_COUNTS=1 "$ns" simulate -T gen:star:4 \
  "$tmp/s.json" --runs 3 -M packet --progress none -j 1
expect "simulate --runs 3: the median" "$tmp/out" "^runs +3 \(FqCoDel salts\)"
check "simulate --runs 3: one route table and one bound for the three runs" 0 \
  grep -qx "counts: verify 3 bound 1 route-tables 1" "$tmp/err"

check "no counts unless asked" 0 env -u NETSCHED_COUNTS "$ns" simulate -T gen:star:4 \
  "$tmp/s.json" --progress none
check "no counts unless asked: stderr empty" 0 test ! -s "$tmp/err"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
