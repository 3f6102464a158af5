#!/usr/bin/env bash
# Scripting and CI: verify takes several schedules and standard input;
# --json and --junit report bad input (exit 2) too; JUnit and text agree on
# informative checks; planned files record the algorithm's own sync scheme.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1
c="$topo/faraj-c.topo"

check "plan faraj" 0 "$ns" plan -T "$c" -a faraj -m 8KiB -o faraj.json
expect "faraj records its sync scheme" faraj.json '"sync_scheme": "sender-all"'
check "plan ring" 0 "$ns" plan -T "$c" -a ring -m 8KiB -o ring.json
echo '{"format": "netsched-schedule", "version": 1,' > broken.json

check "verify several: worst status" 1 "$ns" verify faraj.json ring.json -T "$c" -q
check "verify from standard input" 0 sh -c "'$ns' verify - -T '$c' -q < faraj.json"
check "bad input among several: exit 2" 2 "$ns" verify faraj.json broken.json ring.json -T "$c" \
  --json --junit report.xml
expect "JSON array names the bad file" "$tmp/out" '"schedule" : "broken.json"'
expect "JSON says why" "$tmp/out" '"error" : "broken.json:'
expect "JSON keeps the good reports" "$tmp/out" '"algorithm" : "faraj"'
expect "JUnit has an error suite" report.xml '<error message="broken.json:'
check "JUnit has three suites" 0 test "$(grep -c '<testsuite ' report.xml)" -eq 3
check "bad topology still reports" 2 "$ns" verify faraj.json -T nosuch.topo --junit t.xml --json
expect "JUnit for a bad topology" t.xml '<error message="nosuch.topo: cannot'
expect "JSON for a bad topology" "$tmp/out" '"exit_status" : 2'

# An informative check that says "no" is skipped in JUnit, never passed
# (gpe on 5 machines of one switch: valid, 5 rounds where 4 suffice).
check "gpe not optimal (informative)" 0 "$ns" verify -a gpe -T gen:hierarchy:5x1 --junit gpe.xml
expect "text says no" "$tmp/out" "optimal +no — 5 phases, bound 4"
expect "JUnit skips it with the reason" gpe.xml '<skipped message="informative: not optimal'
# Issue 17.7: no optimality verdict beside a failed check (ring contends on (c)).
check "ring contends" 1 "$ns" verify ring.json -T "$c" --junit ring.xml
expect "optimal not checked on an invalid schedule" "$tmp/out" \
  "optimal +not checked \(the schedule fails a check above\)$"
check "no 'optimal ok' beside a failure" 1 grep -q "optimal +ok" "$tmp/out"
expect "JUnit says why optimal is skipped" ring.xml '<skipped message="not checked'

# Issue 17.7: reports name the schedule file; two files, two suite names.
check "two schedules in one JUnit" 1 "$ns" verify faraj.json ring.json -T "$c" --junit two.xml
expect "text names the file" "$tmp/out" "^schedule   faraj.json: alltoall/faraj on "
expect "suite named by faraj.json" two.xml '<testsuite name="faraj.json: alltoall/faraj on '
expect "suite named by ring.json" two.xml '<testsuite name="ring.json: alltoall/ring on '
check "JSON names the file" 0 "$ns" verify faraj.json -T "$c" --json
expect "JSON schedule member" "$tmp/out" '"schedule" : "faraj.json"'
# Broadcast: optimality is not defined (its bound T(msize) is never reached);
# --require-optimal reports the ratio and does not fail.
check "bcast --require-optimal passes" 0 "$ns" verify -a binomial -c bcast -T "$c" --require-optimal
expect "says not defined" "$tmp/out" "optimal +not defined for broadcast — transmission 0.0262144 s against the lower bound 0.00524288 s \\(x5.0000"
check "allgather --require-optimal still checked" 1 "$ns" verify -a neighbor -c allgather \
  -T "$c" --require-optimal
check "allgather lr1 optimal" 0 "$ns" verify -a lr1 -c allgather -T "$c" --require-optimal

# Issue 17.5: a stale schedule fails. (c) without n31, and (c) grown to 33.
sed 's/n\[0-31\]/n[0-30]/; s/n\[24-31\] s3/n[24-30] s3/' "$c" > c31.topo
sed 's/n\[0-31\]/n[0-32]/; s/n\[24-31\] s3/n[24-32] s3/' "$c" > c33.topo
check "plan without n31" 0 "$ns" plan -T c31.topo -a faraj -o stale.json
check "a schedule missing n31 fails" 1 "$ns" verify stale.json -T "$c"
expect "names n31" "$tmp/out" "\\[coverage\\] machine n31 of the topology is not in the schedule"
expect "says what it covers" "$tmp/out" "^machines   31 of the topology's 32 machines"
expect "verdict FAIL" "$tmp/out" "^verdict    FAIL"
check "a grown topology fails, even --require-optimal" 1 "$ns" verify faraj.json -T c33.topo \
  --require-optimal
expect "names n32" "$tmp/out" "machine n32 of the topology is not in the schedule"
check "--subset allows it" 0 "$ns" verify stale.json -T "$c" --subset
expect "subset stated" "$tmp/out" "^machines   subset of 31 of 32, as asked"
check "--machines names it" 0 "$ns" verify stale.json -T "$c" --machines 'n[0-30]'
expect "listed stated" "$tmp/out" "^machines   the 31 machines asked for, of 32 in the topology"
check "--machines with one too many" 1 "$ns" verify stale.json -T "$c" --machines 'n[0-31]' --json
expect "JSON coverage finding" "$tmp/out" '"message" : "machine n31, asked for, is not in the schedule"'
expect "JSON names the machine" "$tmp/out" '"machine" : "n31"'
check "--machines with an unknown name" 2 "$ns" verify stale.json -T "$c" --machines 'n[0-30],x9' \
  --junit bad.xml
expect "says which" "$tmp/err" "--machines: 'x9' is not a machine of"
expect "JUnit reports it" bad.xml '<error message="--machines: [^ ]*x9[^ ]* is not a machine of'
check "--machines and --subset" 2 "$ns" verify stale.json -T "$c" --machines n0 --subset
check "verify -a covers all" 0 "$ns" verify -a faraj -T "$c" -q

# Issue 17.6: the posted shuffles verify step by step under window:W.
for h in 8x2 16x1 8x3 6x4 8x4; do
  for a in shuffle shuffle-ca; do
    check "$a on $h verifies" 0 "$ns" verify -a $a -T gen:hierarchy:$h -q
  done
done
check "plan shuffle-ca 8x2" 0 "$ns" plan -a shuffle-ca -T gen:hierarchy:8x2 -o sca.json
check "its file verifies (window after the phases)" 0 "$ns" verify sca.json -T gen:hierarchy:8x2
expect "says steps were checked" "$tmp/out" "^steps      under window:10, contention and ports checked step by step: 15 steps"
check "from standard input too" 0 sh -c "'$ns' verify - -T gen:hierarchy:8x2 -q < sca.json"
check "as JSON Lines" 0 "$ns" plan -a shuffle-ca -T gen:hierarchy:8x2 -o sca.jsonl
check "JSON Lines verifies" 0 "$ns" verify sca.jsonl -T gen:hierarchy:8x2 -q
# Mutated: n1 sends its first two transfers in swapped order — still
# complete, and one phase as before, but step 0 now has two senders into n2.
sed 's/\[1,9,\[1,9\]\],\[1,2,\[1,2\]\]/[1,2,[1,2]],[1,9,[1,9]]/' sca.json > swapped.json
check "two senders into one machine in a step fail" 1 "$ns" verify swapped.json -T gen:hierarchy:8x2
expect "contention named by its step" "$tmp/out" \
  "phase 0 step 0: transfers #15 n1->n2 and #135 n9->n2 share edge s1->n2"
sed 's/\[1,9,\[1,9\]\],//' sca.json > missing.json
check "a missing transfer fails" 1 "$ns" verify missing.json -T gen:hierarchy:8x2
expect "names the message" "$tmp/out" "message n1->n9 never reaches n9"
expect "ports named by its step" "$tmp/out" "phase 0 step 0: n2 receives twice"

# simulate -m other than the planned size runs, but says so.
check "simulate at another size" 0 "$ns" simulate faraj.json -T "$c" -m 16KiB
expect "warns about the size" "$tmp/err" "warning: simulating 16KiB chunks, but faraj.json was planned with 8KiB"
check "simulate at the planned size" 0 "$ns" simulate faraj.json -T "$c" -m 8KiB
check "no warning then" 1 grep -q warning "$tmp/err"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
