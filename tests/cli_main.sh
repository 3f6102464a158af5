#!/usr/bin/env bash
# End-to-end tests of the netsched command: exit statuses, messages, and
# the plan -> JSON -> verify pipeline on the bundled topologies.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"

check "help" 0 "$ns" --help
expect "help lists commands" "$tmp/out" "verify +verify a schedule"
check "version" 0 "$ns" --version
expect "version text" "$tmp/out" "^netsched [0-9]+\.[0-9]+\.[0-9]+$"
for cmd in topo plan verify bound; do
  check "$cmd --help" 0 "$ns" "$cmd" --help
done
check "unknown command" 2 "$ns" frobnicate
expect "unknown command message" "$tmp/err" "unknown command 'frobnicate'"

# The example cluster of Faraj & Yuan, Figure 1.
check "topo show fig1" 0 "$ns" topo show "$topo/faraj-fig1.topo"
expect "fig1 load 9" "$tmp/out" "bottleneck load 9 \(3 x 3 machines\)"
expect "fig1 root s1" "$tmp/out" "^s1 \(root"
check "plan fig1" 0 "$ns" plan -T "$topo/faraj-fig1.topo" -a faraj -o "$tmp/f1.json"
check "verify fig1 optimal" 0 "$ns" verify "$tmp/f1.json" -T "$topo/faraj-fig1.topo" --require-optimal --junit "$tmp/f1.xml"
expect "verify says PASS" "$tmp/out" "^verdict +PASS"
expect "junit has no failure" "$tmp/f1.xml" "tests=\"8\" failures=\"0\" skipped=\"1\""
check "plan table" 0 "$ns" plan -T "$topo/faraj-fig1.topo" --table
expect "table row of phase 7 (Table 4)" "$tmp/out" "^phase +7: n1->n5 n4->n1 n5->n3 n3->n4$"

# Topology (c): the ring contends, faraj does not; the JSON and JUnit say so.
check "ring on (c) fails" 1 "$ns" verify -a ring -T "$topo/faraj-c.topo" --json --junit "$tmp/ring.xml"
expect "json passed false" "$tmp/out" "\"passed\" : false"
expect "json names the edge" "$tmp/out" "\"edge\" : \"s[0-3]->s[0-3]\""
expect "junit failure" "$tmp/ring.xml" "<failure message=\"[0-9]+ finding\(s\)\">phase 1: transfers"
check "faraj on (c) passes" 0 "$ns" verify -a faraj -T "$topo/faraj-c.topo" --require-optimal -q
check "faraj on Slurm (b)" 0 "$ns" verify -a faraj -T "$topo/faraj-b.conf" --require-optimal -q
check "faraj on GraphML fig1" 0 "$ns" verify -a faraj -T "$topo/faraj-fig1.graphml" --require-optimal -q
check "faraj on generated tree" 0 "$ns" verify -a faraj -T gen:random:7,60,12,deep --require-optimal -q

# Bounds: (b) has 24 x 8 on each trunk; 192 x 64KiB x 8 bit / 100Mbps.
check "bound (b)" 0 "$ns" bound -T "$topo/faraj-b.topo" --msize 64KiB
expect "bound load" "$tmp/out" "bottleneck load +192 = 24 x 8"
expect "bound time" "$tmp/out" "time bound +1\.006633 s"

# Tam & Wang §3.2-3.3, §4.2 on the 8x2 hierarchy with the measured 103 MB/s
# uplinks: eq. 4 gives W_g = floor(45 / 4.267) = 10 (5 with GBN control
# packets), eq. 7 a best per-machine bandwidth of 12.07 MB/s. A topology
# without switch buffers prints none of it.
check "bound 8x2 hierarchy" 0 "$ns" bound -T gen:hierarchy:8x2:uplink=412Mbps --msize 1200KiB
expect "eq. 4 window" "$tmp/out" "W_g = 10 = floor\(B_L / nu\): B_L = 45 packets"
expect "GBN window" "$tmp/out" "with GBN control W_g = 5"
expect "eq. 7 bandwidth" "$tmp/out" "per-machine bandwidth <= 12\.07 MB/s"
check "bound 8x4 json" 0 "$ns" bound -T gen:hierarchy:8x4:uplink=412Mbps --json
expect "json window 7" "$tmp/out" "\"window\" : 7,"
check "bound without buffers" 0 "$ns" bound -T "$topo/faraj-b.topo"
cp "$tmp/out" "$tmp/bound-b.txt"
check "no Tam-Wang lines without buffers" 1 grep -q "Tam & Wang" "$tmp/bound-b.txt"
check "bound json" 0 "$ns" bound -T "$topo/faraj-a.topo" --msize 1MiB --json
expect "bound json load" "$tmp/out" "\"bottleneck_load\" : 23"
# Issue 17.7: bad input under --json is a JSON error object too, as verify's.
check "bound --json, no such topology" 2 "$ns" bound -T "$tmp/nosuch.topo" --json
expect "JSON error on stdout" "$tmp/out" '"error" : ".*nosuch.topo'
expect "with the exit status" "$tmp/out" '"exit_status" : 2'
expect "message on stderr too" "$tmp/err" "nosuch.topo"
check "bound --json, bad size" 2 "$ns" bound -T "$topo/faraj-a.topo" -m 12parsecs --json
expect "JSON error for the size" "$tmp/out" '"error" : "--msize'
check "bound --json, unknown collective" 2 "$ns" bound -T "$topo/faraj-a.topo" -c scatter --json
expect "JSON error for the collective" "$tmp/out" '"error" : "unknown collective'
check "verify --json, no such topology" 2 "$ns" verify -a faraj -T "$tmp/nosuch.topo" --json
expect "verify's JSON error alike" "$tmp/out" '"exit_status" : 2'

# The bound for the routing in use (issue 17 items 1, 2): a leaf/spine of
# 128 machines under `shortest` sends every message between two leaves
# over spine0, 16 x 112 = 1792 messages on leaf0->spine0 at 400 Mbit/s;
# the cut bound (any routing) is n0's port. Under ecmp (the generator's
# routing) each up-link carries 448 and the port binds.
check "leafspine ecmp" 0 "$ns" topo convert gen:leafspine:8,4,16 -o "$tmp/ls.topo"
sed 's/^routing ecmp$/routing shortest/' "$tmp/ls.topo" >"$tmp/ls-shortest.topo"
check "bound leafspine shortest" 0 "$ns" bound -T "$tmp/ls-shortest.topo"
expect "routed bottleneck" "$tmp/out" "^bottleneck +leaf0->spine0: 1792 messages a link at 0\.4 Gbit/s$"
expect "routed time" "$tmp/out" "^time bound +2\.348810 s for msize 64KiB \(the routing in use\)$"
expect "cut bound named" "$tmp/out" "^any routing +0\.665846 s, sending of n0 \(1-port\): 127 messages a link at 0\.1 Gbit/s$"
expect "routed distribution" "$tmp/out" "^routed load +max 1792, mean 191\.2, p50 127, p90 127, p99 1792 messages a directed link$"
check "bound leafspine shortest json" 0 "$ns" bound -T "$tmp/ls-shortest.topo" --json
expect "json routed load" "$tmp/out" '"bottleneck_load" : 1792,'
expect "json cut" "$tmp/out" '"cut_bottleneck" : "sending of n0 \(1-port\): 127 messages a link at 0.1 Gbit/s"'
check "bound leafspine ecmp" 0 "$ns" bound -T "$tmp/ls.topo"
expect "ecmp: the port binds" "$tmp/out" "^bottleneck +sending of n0 \(1-port\): 127 messages a link at 0\.1 Gbit/s$"
expect "ecmp: 448 a link" "$tmp/out" "^routed load +max 448,"
check "topo show leafspine shortest" 0 "$ns" topo show "$tmp/ls-shortest.topo"
expect "show routed bottleneck" "$tmp/out" "^alltoall +bottleneck leaf0->spine0: 1792 messages"
expect "show cut" "$tmp/out" "^ +over any routing: sending of n0 \(1-port\): 127 messages"
check "verify shift against the routed bound" 1 "$ns" verify -T "$tmp/ls-shortest.topo" -a shift
expect "contention under shortest" "$tmp/out" "^  contention-free  FAILED"
check "plan shift under shortest" 0 "$ns" plan -T "$tmp/ls-shortest.topo" -a shift -o "$tmp/lss.json"
check "simulate against the routed bound" 0 "$ns" simulate "$tmp/lss.json" -T "$tmp/ls-shortest.topo" -M ideal
expect "ratio to the routed bound" "$tmp/out" "^bound +2\.348810 s +ratio 1\.00[0-9]+$"
check "verify shift under ecmp" 0 "$ns" verify -T "$tmp/ls.topo" -a shift
expect "ecmp reaches the bound" "$tmp/out" "against the lower bound 0\.665846 s \(x1\.0000; sending of n0 \(1-port\)"
check "leafspine bad spec" 2 "$ns" topo show gen:leafspine:8,4
expect "leafspine usage" "$tmp/err" "leafspine:8,4: expected LEAVES,SPINES,MACHINES_PER_LEAF\[,OVERSUBSCRIPTION\]"

# Conversions round-trip.
check "convert native" 0 "$ns" topo convert "$topo/faraj-b.conf" -o "$tmp/b.topo"
check "re-read native" 0 "$ns" bound -T "$tmp/b.topo"
expect "same load after convert" "$tmp/out" "bottleneck load +192"
check "convert graphml" 0 "$ns" topo convert "$topo/faraj-c.topo" --to graphml -o "$tmp/c.graphml"
check "re-read graphml" 0 "$ns" bound -T "$tmp/c.graphml"
expect "graphml load" "$tmp/out" "bottleneck load +256"
check "convert dot" 0 "$ns" topo convert "$topo/faraj-fig1.topo" --to dot
expect "dot graph" "$tmp/out" "^graph "

# Bad input: file:line: message on stderr, exit 2.
printf 'machine n[0-3]\nswitch s0\nlink n[0-3] s0 bandwidth=100Mbs\n' >"$tmp/bad.topo"
check "bad unit" 2 "$ns" topo show "$tmp/bad.topo"
expect "bad unit message" "$tmp/err" "^netsched: $tmp/bad.topo:3: .*100Mbs"
printf 'machine n0 n1\nswitch s0 s1\nlink n0 s0\nlink n1 s1\n' >"$tmp/split.topo"
check "disconnected" 2 "$ns" topo show "$tmp/split.topo"
expect "disconnected message" "$tmp/err" "disconnected"
check "missing file" 2 "$ns" topo show "$tmp/nope.topo"
check "pair needs 2^k" 2 "$ns" plan -T "$topo/faraj-a.topo" -a pair
expect "pair message" "$tmp/err" "power-of-two number of machines \(the topology has 24\)"
check "unknown algorithm" 2 "$ns" plan -T "$topo/faraj-a.topo" -a nope
expect "lists algorithms" "$tmp/err" "known: faraj, simple, spread, ring, shift, pair, gpe"
check "bad msize" 2 "$ns" plan -T "$topo/faraj-a.topo" --msize 12parsecs
printf '{"format": "netsched-schedule", "version": 1,\n "collective": "alltoall" \n' >"$tmp/bad.json"
check "bad schedule json" 2 "$ns" verify "$tmp/bad.json" -T "$topo/faraj-a.topo"
expect "bad schedule location" "$tmp/err" "bad.json:[0-9]+"
check "schedule for other machines" 2 "$ns" verify "$tmp/f1.json" -T gen:star:4
expect "unknown machine message" "$tmp/err" "schedule machine 'n4' is not a machine"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
