#!/usr/bin/env bash
# netsched plan/verify -c reduce (issue #22): the root and segment options
# reach the reduce planners, the schedules verify, bad parameters exit 2
# with the planner's message.
source "$(dirname "$0")/cli-common.bash"
fig1="$topo/faraj-fig1.topo"

# MPICH's binomial tree to the root n3 (rank r = machine − 3 mod 6):
# round 0 ranks 1, 3, 5 send, round 1 rank 2, round 2 rank 4.
check "plan reduce binomial --root n3" 0 "$ns" plan -T "$fig1" -c reduce -a binomial --root n3 --table
printf 'phase    0: n4->n3 n0->n5\nphase    1: n5->n3 n2->n1\nphase    2: n1->n3\n' >"$tmp/want"
check "binomial phases by hand" 0 diff "$tmp/want" "$tmp/out"

# The contention-free pipelined binary tree: 8 segments of 8 KiB, root n5.
check "verify reduce pipeline-binary" 0 "$ns" verify -T "$fig1" -c reduce -a pipeline-binary \
  --root n5 -m 64KiB -s 8KiB
expect "pipeline-binary contention-free" "$tmp/out" "contention-free +ok"
expect "pipeline-binary passes" "$tmp/out" "^verdict +PASS"
# The linear tree pipelined: X + P - 2 = 8 + 4 phases, each segment to the root once per machine.
check "verify reduce linear segmented" 0 "$ns" verify -T "$fig1" -c reduce -a linear -m 64KiB -s 8KiB
expect "linear phases" "$tmp/out" "^execution +phased: 12 phases, 40 transfers"

# Errors: exit 2, the planner's message.
check "unknown root" 2 "$ns" plan -T "$fig1" -c reduce -a flat --root n9
expect "unknown root named" "$tmp/err" "--root 'n9' is not a machine of"
check "rabenseifner below p' bytes" 2 "$ns" plan -T "$fig1" -c reduce -a rabenseifner -m 3B
expect "rabenseifner message" "$tmp/err" \
  "^netsched: reduce/rabenseifner: 3 bytes do not split into 4 blocks of at least 1 byte"
check "pipeline needs a tree" 2 "$ns" plan -T gen:torus:4x4 -c reduce -a pipeline-linear
expect "pipeline tree message" "$tmp/err" "reduce/pipeline-linear needs a switch tree"
check "plan --list names the reduce planners" 0 "$ns" plan --list
for a in linear flat binomial rabenseifner bintree pipeline-linear pipeline-binary mpich ompi; do
  expect "listed reduce/$a" "$tmp/out" "^reduce/$a "
done

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
