#!/usr/bin/env bash
# The reductions' bounds and schedule files on the command line (issue
# #22, reduce-core): `bound -c reduce|allreduce` in text and JSON with the
# hand-computed figures, its bad input, `topo show`'s lines, and the ring
# all-reduce of docs/schedule-format.md read and verified (a copy turned
# into a combine counts a contribution twice).
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"

# --- allreduce on the 8x8 torus (100 Mbit/s links, 4 ports a machine) ----
# The machines together send each segment 2(P-1) times: some machine sends
# 2*63/64 of 256 KiB = 516096 bytes through 4 ports = 0.01032192 s.
check "bound allreduce 8x8" 0 "$ns" bound -T gen:torus:8x8 -c allreduce -m 256KiB
expect "allreduce fluid bound" "$tmp/out" \
  "^lower bound        0\.010322 s: sending of n0 \(all-port\): 0\.4 Gbit/s in all$"
expect "the model stated" "$tmp/out" "^model              .*one-way gossip: 2\(P-1\)/P of the vector"
# In 16 KiB segments: ceil(2*63*16/64) = 32 segments, 8 a port: 8*16384*8/1e8 s.
check "bound allreduce 8x8 segments" 0 "$ns" bound -T gen:torus:8x8 -c allreduce -m 256KiB -s 16KiB
expect "whole segments bind" "$tmp/out" \
  "^lower bound        0\.010486 s: sending of n0 \(all-port\): 8 messages a link at 0\.1 Gbit/s$"
expect "fluid beside" "$tmp/out" "^fluid bound        0\.010322 s \(the vector divisible\)$"
check "bound allreduce --json" 0 "$ns" bound -T gen:torus:8x8 -c allreduce -m 256KiB -s 16KiB --json
expect "json bound" "$tmp/out" '"lower_bound_s" : 0\.01048576'
expect "json load" "$tmp/out" '"load" : 8,$'
expect "json segments" "$tmp/out" '"segments" : 16,$'

# --- reduce: the root receives 256 KiB through 4 ports -------------------
check "bound reduce --json" 0 "$ns" bound -T gen:torus:8x8 -c reduce -m 256KiB -r n5 --json
expect "json root" "$tmp/out" '"root" : "n5",$'
expect "json reduce bound" "$tmp/out" '"lower_bound_s" : 0\.00524288'
# one port on a tree: the root's link carries the vector, 64 KiB at 100 Mbit/s
check "bound reduce tree" 0 "$ns" bound -T "$topo/faraj-fig3-19.topo" -c reduce -m 64KiB
expect "reduce on a tree" "$tmp/out" "^lower bound        0\.005243 s: "

# --- bad input: exit 2, the option named ----------------------------------
check "unknown root" 2 "$ns" bound -T gen:torus:4 -c reduce -m 1KiB -r zz
expect "root named" "$tmp/err" "--root: no machine 'zz' in the topology"
check "segment above msize" 2 "$ns" bound -T gen:torus:4 -c allreduce -m 1KiB -s 2KiB
expect "segment named" "$tmp/err" "--segment: 2KiB is larger than the vector \(--msize 1KiB\)"
check "unknown root --json" 2 "$ns" bound -T gen:torus:4 -c reduce -m 1KiB -r zz --json
expect "json error object" "$tmp/out" '"error" : "--root: no machine .zz. in the topology"'

# --- topo show ---------------------------------------------------------------
check "topo show reductions" 0 "$ns" topo show gen:torus:8x8
expect "reduce line" "$tmp/out" "^reduce     bound 0\.02097152 s per MiB to n0: "
expect "allreduce line" "$tmp/out" "^allreduce  bound 0\.04128768 s per MiB: sending of n0 \(all-port\)"
check "topo show --json" 0 "$ns" topo show gen:torus:8x8 --json
expect "json allreduce per byte" "$tmp/out" '"allreduce_seconds_per_byte" : 3\.9375e-08,$'

# --- the ring all-reduce of docs/schedule-format.md ----------------------
cat > "$tmp/ar.json" <<'JSON'
{
  "format": "netsched-schedule", "version": 1,
  "collective": "allreduce", "algorithm": "ring",
  "machines": ["n0", "n1", "n2"], "msize_bytes": 334,
  "execution": "phased", "segments": 3, "chunk_bytes": [334,333,333],
  "phases": [
    [["+",0,1,0],["+",1,2,1],["+",2,0,2]],
    [["+",0,1,2],["+",1,2,0],["+",2,0,1]],
    [[0,1,1],[1,2,2],[2,0,0]],
    [[0,1,0],[1,2,1],[2,0,2]]
  ]
}
JSON
check "the documented ring allreduce verifies" 0 "$ns" verify -T gen:torus:3 "$tmp/ar.json"
expect "18 of 18" "$tmp/out" "^delivered  18 of 18 required$"
sed 's/\[\[0,1,0\],/[["+",0,1,0],/' "$tmp/ar.json" > "$tmp/twice.json"
check "a copy turned into a combine fails" 1 "$ns" verify -T gen:torus:3 "$tmp/twice.json"
expect "counted twice" "$tmp/out" "transfer #9 n0->n1 combines segment 0 into n1's partial result, which holds n0's contribution already: it is counted twice"
sed 's/\["+",0,1,0\]/["x",0,1,0]/' "$tmp/ar.json" > "$tmp/bad.json"
check "another marker is bad input" 2 "$ns" verify -T gen:torus:3 "$tmp/bad.json"
expect "path of the marker" "$tmp/err" 'bad\.json: \$\.phases\[0\]\[0\]\[0\]: expected a machine index, the combine marker "\+" or the raw marker "r", got another string'

# The same as JSON Lines with "sync": 0 (the verifier keeps the phases for
# the sync check): the combine markers survive the kept phases.
cat > "$tmp/ar.jsonl" <<'JSONL'
{"format":"netsched-schedule-lines","version":1,"collective":"allreduce","algorithm":"ring","machines":["n0","n1","n2"],"msize_bytes":334,"execution":"phased","segments":3,"chunk_bytes":[334,333,333],"sync":0,"routes":0}
[["+",0,1,0],["+",1,2,1],["+",2,0,2]]
[["+",0,1,2],["+",1,2,0],["+",2,0,1]]
[[0,1,1],[1,2,2],[2,0,0]]
[[0,1,0],[1,2,1],[2,0,2]]
{"end":{"phases":4,"transfers":12}}
JSONL
check "the ring allreduce as JSON Lines verifies" 0 "$ns" verify -T gen:torus:3 "$tmp/ar.jsonl"
expect "18 of 18 from JSON Lines" "$tmp/out" "^delivered  18 of 18 required$"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
