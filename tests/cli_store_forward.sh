#!/usr/bin/env bash
# Store-and-forward relays (issue #24): at2 and ar declare them in JSON and
# JSON Lines; a declared schedule is verified with one holder per message
# (a relay's copy is gone once forwarded), one without the declaration as
# before; the reader refuses a bad declaration with its path.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1
t="gen:torus:8x8"

check "plan at2 JSON" 0 "$ns" plan -T "$t" -a at2 -o at2.json
expect "declared after execution" at2.json '^  "relays": "store-and-forward",$'
check "plan at2 JSON Lines" 0 "$ns" plan -T "$t" -a at2 -o at2.jsonl
expect "declared in the header line" at2.jsonl '^\{"format":"netsched-schedule-lines",.*"execution":"phased","relays":"store-and-forward",'
check "plan ar on a ring" 0 "$ns" plan -T gen:torus:12 -a ar -o ar.json
expect "ar declares it too" ar.json '^  "relays": "store-and-forward",$'
check "plan faraj" 0 "$ns" plan -T gen:tree:2,3,4 -a faraj -o faraj.json
check "faraj does not" 1 grep -q relays faraj.json

"$ns" verify -T "$t" -a at2 > planned.txt
check "verify the declared file" 0 "$ns" verify -T "$t" at2.json
sed 1d "$tmp/out" > a.txt
sed 1d planned.txt > b.txt
check "as when planned" 0 cmp a.txt b.txt
check "and from JSON Lines" 0 "$ns" verify -T "$t" at2.jsonl
grep -v '"relays"' at2.json > plain.json
check "without the declaration: the default rule, same verdict" 0 "$ns" verify -T "$t" plain.json

# n0's message for n2 relayed by n1 on a ring of three, then forwarded again.
relayed() { # relayed RELAYS_LINE EXTRA_PHASE
  cat <<JSON
{"format": "netsched-schedule", "version": 1, "collective": "alltoall", "algorithm": "hand",
 "machines": ["n0", "n1", "n2"], "msize_bytes": 1024, "execution": "phased",$1
 "phases": [
  [[0,1,[0,1],[0,2]], [1,2,[1,2]], [2,0,[2,0]]],
  [[1,2,[0,2]], [1,0,[1,0]], [2,1,[2,1]]]$2
 ]}
JSON
}
sf=' "relays": "store-and-forward",'
relayed "$sf" "" > good.json
check "a relay forwarding once" 0 "$ns" verify -T gen:torus:3 --port all good.json
relayed "$sf" ", [[1,2,[0,2]]]" > twice.json
check "a relay forwarding twice" 1 "$ns" verify -T gen:torus:3 --port all twice.json
expect "dataflow fails" "$tmp/out" '^  dataflow +FAILED \(1 finding\)$'
expect "the copy is gone" "$tmp/out" 'phase 2: transfer #6 n1->n2 sends message n0->n2, which n1 does not hold \(store and forward: a copy is gone once forwarded\)'
relayed "" ", [[1,2,[0,2]]]" > twice-plain.json
check "undeclared: the relay kept its copy" 1 "$ns" verify -T gen:torus:3 --port all twice-plain.json
expect "dataflow passes" "$tmp/out" '^  dataflow +ok$'
expect "only a second delivery" "$tmp/out" '^  complete +FAILED \(1 finding\)$'
relayed "$sf" ", [[0,2,[0,2]]]" > origin.json
check "the origin sending it again" 1 "$ns" verify -T gen:torus:3 --port all origin.json
expect "the origin gave it up" "$tmp/out" 'transfer #6 n0->n2 sends message n0->n2, which n0 does not hold \(store'

relayed ' "relays": "keep",' "" > bad-value.json
check "unknown relays value" 2 "$ns" verify -T gen:torus:3 bad-value.json
expect "says which" "$tmp/err" 'bad-value.json: \$\.relays: unknown relays "keep" \(expected "store-and-forward"\)'
relayed ' "relays": 1,' "" > bad-type.json
check "relays not a string" 2 "$ns" verify -T gen:torus:3 bad-type.json
expect "says the type" "$tmp/err" 'bad-type.json: \$\.relays: expected "store-and-forward" \(a string\), got an integer'
relayed "" "" | sed 's/^ \]}$/ ], "relays": "store-and-forward"}/' > late.json
check "relays after the phases" 2 "$ns" verify -T gen:torus:3 late.json
expect "must come first" "$tmp/err" 'late.json: \$\.relays: "relays" must come before "phases"'
"$ns" plan -T gen:torus:3 -c allgather -a ring -o ag.json
sed 's/"execution": "phased",/"execution": "phased", "relays": "store-and-forward",/' ag.json > ag-sf.json
check "relays on an allgather" 2 "$ns" verify -T gen:torus:3 ag-sf.json
expect "alltoall only" "$tmp/err" 'ag-sf.json: \$\.relays: only alltoall schedules have "relays" \(this is allgather\)'
echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
