#!/usr/bin/env bash
# End-to-end tests of the all-gather planners through the netsched command:
# topo show's Theorem 3 / LR1-LR3 lines, plan and verify on the bundled
# Figure 3.19 and Figure 3.22 (6) topologies, lr2's refusal; the MPI
# selectors by name (Open MPI 4.1.4 and its algorithms).
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"

fig=$topo/faraj-fig3-19.topo
check "topo show fig3.19" 0 "$ns" topo show "$fig"
expect "2-hop ring possible" "$tmp/out" "^2-hop ring yes \(Theorem 3 holds"
expect "LR1 4, LR2 2, LR3 2" "$tmp/out" "^allgather  ring max path LR1 4, LR2 2, LR3 2 switches$"
check "topo show fig1" 0 "$ns" topo show "$topo/faraj-fig1.topo"
expect "Theorem 3 fails at s1" "$tmp/out" \
  "^2-hop ring no \(Theorem 3 fails: switch s1 has 1 directly attached machine but 2 directly attached switches\)$"
expect "LR2 not applicable" "$tmp/out" "^allgather  ring max path LR1 3, LR2 -, LR3 3 switches$"

for a in lr1 lr2 lr3; do
  check "plan $a" 0 "$ns" plan -T "$fig" -c allgather -a "$a" -m 64KiB -o "$tmp/$a.json"
  check "verify $a" 0 "$ns" verify "$tmp/$a.json" -T "$fig"
  expect "$a passes" "$tmp/out" "^verdict +PASS"
done
check "plan lr2 on fig1 refused" 2 "$ns" plan -T "$topo/faraj-fig1.topo" -c allgather -a lr2
expect "lr2 names s1" "$tmp/err" "switch s1 has 1 directly attached machine but 2 directly attached switches"
check "gather-bcast by name" 0 "$ns" plan -T "$fig" -c allgather -a gather-bcast -o "$tmp/gb.json"
check "gather-bcast data flow" 1 "$ns" verify "$tmp/gb.json" -T "$fig" --json
expect "gather-bcast complete" "$tmp/out" "\"delivered\" : 56"

inter=$topo/faraj-fig3-22-interleaved.topo
check "ring contends on (6)" 1 "$ns" verify -c allgather -a ring -T "$inter"
expect "ring contention named" "$tmp/out" "contention-free +FAILED"
check "lr1 passes on (6)" 0 "$ns" verify -c allgather -a lr1 -T "$inter" -q
check "plan --list" 0 "$ns" plan --list
expect "list has gather-bcast" "$tmp/out" "^allgather/gather-bcast "
for a in alltoall/ompi alltoall/ompi-legacy alltoall/basic-linear allgather/ompi-legacy \
         bcast/ompi-legacy bcast/knomial bcast/bmtree bcast/bintree; do
  expect "list has $a" "$tmp/out" "^$a "
done
fc=$topo/faraj-c.topo
check "plan -a ompi" 0 "$ns" plan -T "$fc" -a ompi -m 64KiB
expect "ompi: Open MPI 4.1.4's basic linear on 32" "$tmp/out" '"algorithm": "ompi\(basic-linear\)"'
check "plan -a ompi-legacy" 0 "$ns" plan -T "$fc" -a ompi-legacy -m 64KiB
expect "ompi-legacy: 3.x's ring" "$tmp/out" '"algorithm": "ompi-legacy\(ring\)"'
check "plan bcast -a ompi" 0 "$ns" plan -T "$fc" -c bcast -a ompi -m 1MiB -s 8KiB
expect "ompi bcast: knomial, unsegmented" "$tmp/out" '"algorithm": "ompi\(knomial\)"'
check "verify basic-linear by name" 1 "$ns" verify -T "$topo/faraj-a.topo" -a basic-linear
expect "basic-linear: posted, complete" "$tmp/out" "^delivered  552 of 552 required$"
expect "basic-linear: contends (posted)" "$tmp/out" "contention-free  FAILED"
check "knomial radix 1 refused" 2 "$ns" plan -T "$fc" -c bcast -a knomial --arity 1 -m 1KiB
expect "knomial radix named" "$tmp/err" "^netsched: bcast/knomial: the radix \(arity\) must be at least 2 \(got 1\)$"

# Bounds of the other collectives (issue #4): Figure 3.19's rings, and the
# broadcast estimates of Table 3.7.
check "bound allgather" 0 "$ns" bound -T "$topo/faraj-fig3-19.topo" -c allgather -m 64KiB
expect "allgather LR paths" "$tmp/out" "^LR1 \(DFS ring\) +max path 4 switches"
expect "allgather LR3 path" "$tmp/out" "^LR3 \(optimal ring\) +max path 2 switches"
check "bound bcast" 0 "$ns" bound -T "$topo/faraj-c.topo" -c bcast -m 1MiB -s 64KiB
expect "bcast lower bound" "$tmp/out" "^lower bound +0\.083936 s"
expect "bcast binary-cf estimate" "$tmp/out" "^binary-cf .*\(H 6, D 2, X 16\)"
check "bound unknown collective" 2 "$ns" bound -T "$topo/faraj-c.topo" -c scatter

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
