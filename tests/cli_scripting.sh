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

# An informative check that says "no" is skipped in JUnit, never passed.
check "ring not optimal (informative)" 1 "$ns" verify ring.json -T "$c" --junit ring.xml
expect "text says no" "$tmp/out" "optimal +no"
expect "JUnit skips it with the reason" ring.xml '<skipped message="informative: not optimal'

# simulate -m other than the planned size runs, but says so.
check "simulate at another size" 0 "$ns" simulate faraj.json -T "$c" -m 16KiB
expect "warns about the size" "$tmp/err" "warning: simulating 16KiB chunks, but faraj.json was planned with 8KiB"
check "simulate at the planned size" 0 "$ns" simulate faraj.json -T "$c" -m 8KiB
check "no warning then" 1 grep -q warning "$tmp/err"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
