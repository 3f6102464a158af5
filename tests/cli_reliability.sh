#!/usr/bin/env bash
# Regressions of the adversarial review (security and reliability): hostile
# names never reach a shell or a gnuplot command, unknown names are bad
# input, resumes never mix configurations, interrupted runs leave nothing
# behind, outputs are written whole or not at all, sizes are bounded, CSV
# fields are quoted.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1

# -- 1. gnuplot command execution through labels and file names -----------
check "gnuplot system() label refused" 2 "$ns" compare -T gen:star:4 -m 8KiB \
  -a 'ring,x" . system("touch PWNED1") . "' -o out1
expect "unknown algorithm named" "$tmp/err" "unknown alltoall algorithm"
check "backtick label refused" 2 "$ns" compare -T gen:star:4 -m 8KiB -a 'ring,x`touch PWNED2`' -o out2
cp "$topo/faraj-fig1.topo" "fig1\`touch PWNED3\`'\"x.topo"
check "backtick file name runs safely" 0 "$ns" compare -T fig1*.topo -a ring -m 8KiB -o out3
expect "file name only inside a single-quoted literal" out3/compare.gp \
  "^set title 'alltoall on fig1\`touch PWNED3\`''\"x.topo \(ideal model\)' noenhanced$"
printf '[scenario]\nalgorithms = ring,x`touch PWNED4`\nmsizes = 8KiB\noutput = sc\n[topology t]\nfile = gen:star:4\n' > evil.ini
check "scenario with a hostile label" 2 "$ns" scenario run evil.ini
if ls PWNED* >/dev/null 2>&1; then
  echo "not ok - a hostile name ran a command"; failures=$((failures + 1))
else
  echo "ok - no hostile name ran a command"; passed=$((passed + 1))
fi
check "no row for a refused run" 1 test -e out1/compare.csv

# -- 10. unknown names are bad input everywhere -------------------------------
check "compare -a nosuch" 2 "$ns" compare -T gen:star:4 -a nosuch -m 8KiB -o out10
expect "lists the known algorithms" "$tmp/err" "known: faraj, simple"
check "compare: unknown scheme" 2 "$ns" compare -T gen:star:4 -a ring:nosuch -m 8KiB -o out10
check "compare: -T twice" 2 "$ns" compare -T gen:star:4 -T gen:star:8 -a ring -m 8KiB -o out10
expect "-T twice named" "$tmp/err" "given twice"

# -- 5. resume keyed on the configuration; a cut row is dropped ----------------
check "compare (a)" 0 "$ns" compare -T gen:star:4 -a ring,simple -m 8KiB,16KiB -o res
rows=$(wc -l < res/compare.csv)
check "resume, same configuration" 0 "$ns" compare -T gen:star:4 -a ring,simple -m 8KiB,16KiB -o res --resume
expect "rows kept" "$tmp/out" "kept from the previous run"
check "resume, another topology" 2 "$ns" compare -T gen:star:5 -a ring,simple -m 8KiB,16KiB -o res --resume
expect "configuration named" "$tmp/err" "row of another configuration"
check "resume, another model" 2 "$ns" compare -T gen:star:4 -M tcp -a ring,simple -m 8KiB,16KiB -o res --resume
head -c -7 res/compare.csv > cut.csv && mv cut.csv res/compare.csv   # a row cut short
check "resume after a cut row" 0 "$ns" compare -T gen:star:4 -a ring,simple -m 8KiB,16KiB -o res --resume
expect "cut row reported" "$tmp/err" "cut short"
check "cut row redone, none duplicated" 0 test "$(wc -l < res/compare.csv)" -eq "$rows"

# -- 5b. a directory holding results: refused unless --resume or --overwrite ---
check "compare into results refused" 2 "$ns" compare -T gen:star:4 -a ring,simple -m 8KiB,16KiB -o res
expect "refusal names both flags" "$tmp/err" "^netsched: res holds results of an earlier run \(compare.csv\): add --resume to continue them or --overwrite to start afresh$"
check "results untouched" 0 test "$(wc -l < res/compare.csv)" -eq "$rows"
check "--resume and --overwrite" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o res --resume --overwrite
expect "give one" "$tmp/err" "^netsched: --resume and --overwrite: give one"
check "--overwrite starts afresh" 0 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o res --overwrite
check "only the new row" 0 test "$(wc -l < res/compare.csv)" -eq 2
cp "$tmp/out" overwrite.out
check "nothing kept" 1 grep -q "kept from the previous run" overwrite.out
mkdir -p mine && echo notes > mine/notes.txt
check "a directory without results is used" 0 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o mine

# -- 4. an interrupted simulation leaves no process and no file ----------------
mkdir -p private-tmp
TMPDIR="$tmp/private-tmp" "$ns" simulate -T gen:tree:4,8,16 -a simple -m 1MiB -M packet \
  >/dev/null 2>&1 &
pid=$!
child=""
for _ in $(seq 100); do
  child=$(pgrep -P "$pid" 2>/dev/null | head -1)
  [[ -n "$child" ]] && break
  sleep 0.1
done
sleep 0.5
# The replay runs in a process group of its own (sim/child.h), stopped as one.
group=$(ps -o pgid= -p "${child:-0}" 2>/dev/null | tr -d ' ')
check "netsched-replay runs in a process group of its own" 0 test "${group:-none}" = "$child"
kill -TERM "$pid"
wait "$pid"
status=$?
check "SIGTERM ends simulate by the signal" 0 test "$status" -eq 143
check "no process left in the replay's group" 1 pgrep -g "${group:-0}"
sleep 0.2
if [[ -n "$child" ]] && kill -0 "$child" 2>/dev/null; then
  echo "not ok - netsched-replay $child survived its parent"; failures=$((failures + 1))
else
  echo "ok - the replay child is gone (was ${child:-not yet started})"; passed=$((passed + 1))
fi
check "no temporary file left" 0 test -z "$(ls -A private-tmp)"

# -- 9. sizes: bounded, and a failed output leaves no file ---------------------
check "plan: absurd message size" 2 "$ns" plan -T gen:star:4 -m 16777215TiB -o big.json
expect "limit named" "$tmp/err" "1TiB limit"
check "plan: 2^63-1 bytes" 2 "$ns" plan -T gen:star:4 -m 9223372036854775807B -o big.json
check "no file from refused plans" 1 test -e big.json
( trap '' XFSZ; ulimit -f 8; "$ns" plan -T gen:star:64 -a ring -o partial.json ) 2>"$tmp/err"
check "plan -o that cannot be written fails" 0 test $? -eq 2
check "no partial output" 0 test -z "$(ls partial.json* 2>/dev/null)"

# -- 11. ns-3 attributes: a misspelt name or a malformed value is bad input --
check "misspelt --ns3 attribute" 2 "$ns" simulate -T gen:star:4 -a ring -M packet \
  --ns3 ns3::TcpSocket::InitialCwnnd=100
expect "suggests the right name" "$tmp/err" "did you mean 'ns3::TcpSocket::InitialCwnd'"
check "malformed --ns3 value" 2 "$ns" simulate -T gen:star:4 -a ring -M packet \
  --ns3 ns3::TcpSocket::InitialCwnd=abc
check "--ns3 injection" 2 "$ns" simulate -T gen:star:4 -a ring -M packet \
  --ns3 'ns3::TcpSocket::InitialCwnd=10;ns3::TcpSocket::DelAckCount=1'

# -- outputs to a device or pipe are written in place, never replaced ----------
mkfifo out.fifo
( cat out.fifo > fifo.copy ) &
reader=$!
check "plan -o FIFO" 0 "$ns" plan -T gen:star:4 -a ring -o out.fifo
wait "$reader"
check "the FIFO is still a FIFO" 0 test -p out.fifo
expect "what went through it" fifo.copy '"format": "netsched-schedule"'

# -- 16. --trace into a directory: a clear message, no SimGrid backtrace -------
mkdir -p tracedir
check "simulate --trace DIR" 2 "$ns" simulate -T gen:star:4 -a ring --trace tracedir
expect "says it is a directory" "$tmp/err" "is a directory"
check "no backtrace" 0 test "$(wc -l < "$tmp/err")" -le 2

# -- 18.11 the trace is copied with checked writes; SimGrid never writes it --
check "simulate --trace /dev/full" 2 "$ns" simulate -T gen:tree:2,3,4 -a ring --trace /dev/full
expect "a write error" "$tmp/err" '^netsched: /dev/full: cannot write the trace: No space left on device$'
check "and only that" 0 test "$(wc -l < "$tmp/err")" -eq 1
check "simulate --trace FILE" 0 "$ns" simulate -T gen:tree:2,3,4 -a ring --trace ring.trace
expect "a Paje trace with the switches" ring.trace '^6 0.000000 [0-9]+ [0-9]+ [0-9]+ "s0"$'
# -- 18.11 wall-time limits a deadline can hold -----------------------------------
check "--wall-limit inf" 2 "$ns" simulate -T gen:star:4 -a ring --wall-limit inf
expect "is refused" "$tmp/err" 'wall-limit must be a number of seconds from 0 \(none\) to 1e9, not inf'
check "--wall-limit 9.3e12" 2 "$ns" simulate -T gen:star:4 -a ring --wall-limit 9.3e12
check "--wall-limit 1e9" 0 "$ns" simulate -T gen:star:4 -a ring --wall-limit 1e9
# -- 18.11 a schedule whose sync edges fail their scheme is not replayed --------
"$ns" plan -T gen:tree:2,3,4 -a faraj -o sync-ok.json
sed 's/"sync_scheme": "sender-all"/"sync_scheme": "sender-all",\n  "sync": [[0,30]]/' sync-ok.json > sync-bad.json
check "verify: the sync check fails" 1 "$ns" verify -T gen:tree:2,3,4 sync-bad.json
check "simulate refuses it" 1 "$ns" simulate -T gen:tree:2,3,4 sync-bad.json
expect "saying why" "$tmp/err" 'does not verify, so its replay would mean nothing: sync: transfers #0 n12->n8 and #5 n13->n9 contend in different phases'
check "unless asked" 0 "$ns" simulate -T gen:tree:2,3,4 sync-bad.json --allow-invalid
expect "and marked" "$tmp/out" '^INVALID +the schedule does not verify \(sync:'
check "another scheme computes its own edges" 0 "$ns" simulate -T gen:tree:2,3,4 sync-bad.json --sync receiver-all

# -- 14. CSV fields are quoted (RFC 4180) ---------------------------------------
cat > comma.topo <<'EOF'
switch s0
machine "a,b" "c\"d" e
link "a,b" s0
link "c\"d" s0
link e s0
EOF
check "simulate with odd machine names" 0 "$ns" simulate -T comma.topo -a ring -m 8KiB --csv t.csv --timeline l.csv
check "transfer CSV parses into 7 columns" 0 python3 -c '
import csv, sys
rows = list(csv.reader(open("t.csv")))
assert all(len(r) == 7 for r in rows), rows
assert {r[2] for r in rows[1:]} == {"a,b", "c\"d", "e"}, rows'
check "timeline CSV header parses" 0 python3 -c '
import csv
h = next(csv.reader(open("l.csv")))
assert any("a,b" in c for c in h), h'

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
