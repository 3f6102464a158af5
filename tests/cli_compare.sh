#!/usr/bin/env bash
# compare: -j (rows in worker processes, written in order: the same bytes
# as one at a time), and a stop signal during a -j run (docs/security.md,
# "Children are reaped, files removed").
source "$(dirname "$0")/cli-common.bash"
cd "$tmp" || exit 1

# -- -j: byte for byte the output of one row at a time -------------------------
args=(compare -T gen:chain:2,4:bandwidth=1Gbps -a faraj,ring,pair,simple -m 8KiB,64KiB
      --progress none)
check "compare -j 1" 0 "$ns" "${args[@]}" -o one -j 1
cp "$tmp/out" one.log
check "compare -j 2" 0 "$ns" "${args[@]}" -o two -j 2
sed 's#two/#one/#g' "$tmp/out" > two.log
check "-j 2: the table as -j 1" 0 cmp one.log two.log
for f in compare.csv compare.dat compare.gp; do
  check "-j 2: $f as -j 1" 0 cmp one/$f two/$f
done
check "default -j (the cores)" 0 "$ns" "${args[@]}" -o cores
sed 's#cores/#one/#g' "$tmp/out" > cores.log
check "default -j: the table as -j 1" 0 cmp one.log cores.log
check "default -j: compare.csv as -j 1" 0 cmp one/compare.csv cores/compare.csv
# a resume under -j: kept rows and new ones in the order of one at a time
check "-j 1 resume with one more algorithm" 0 "$ns" "${args[@]}" -a rdb -o one --resume -j 1
cp "$tmp/out" one-resume.log
check "-j 2 resume with one more algorithm" 0 "$ns" "${args[@]}" -a rdb -o two --resume -j 2
sed 's#two/#one/#g' "$tmp/out" > two-resume.log
check "-j 2 resume: the table as -j 1" 0 cmp one-resume.log two-resume.log
check "-j 2 resume: compare.csv as -j 1" 0 cmp one/compare.csv two/compare.csv
expect "kept rows said" one-resume.log "^faraj +8KiB +\(kept from the previous run\)$"
check "bad -j" 2 "$ns" "${args[@]}" -o bad -j -1
expect "-j named" "$tmp/err" "^netsched: -j -1: expected 1 to 4096 jobs$"
check "-j too large" 2 "$ns" "${args[@]}" -o bad -j 5000
check "nothing written for a bad -j" 1 test -e bad

# -- simulate --runs -j: the packet model's runs over the same pool -----------------
sim=(simulate -T gen:tree:2,4 -a simple -m 16KiB -M packet --runs 3 --progress none)
check "simulate --runs 3 -j 1" 0 "$ns" "${sim[@]}" -j 1
grep -v '^wall ' "$tmp/out" > runs-one.txt # run 0's wall time differs by nature
check "simulate --runs 3 -j 2" 0 "$ns" "${sim[@]}" -j 2
grep -v '^wall ' "$tmp/out" > runs-two.txt
check "--runs -j 2: the output of -j 1" 0 cmp runs-one.txt runs-two.txt
expect "three runs said" runs-two.txt "^runs +3 \(FqCoDel salts\)"
check "simulate --runs 3 -j 2 --json" 0 "$ns" "${sim[@]}" -j 2 --json
expect "every run's time" "$tmp/out" '"n" : 3,'
check "simulate -j 0 is the cores, -j -2 is refused" 2 "$ns" "${sim[@]}" -j -2
expect "simulate -j named" "$tmp/err" "^netsched: -j -2: expected 1 to 4096 jobs$"

# -- the ns3 model's options (simulate's table, cli/ns3_options.c) ---------------
if [[ -x "$(dirname "$ns")/netsched-ns3" ]]; then
  n3=(compare -T gen:star:4:bandwidth=1Gbps -a ring,simple -m 8KiB -M ns3 --progress none)
  check "compare -M ns3, Linux's defaults" 0 "$ns" "${n3[@]}" -o linux
  expect "ring under the defaults" linux/compare.csv ",ring,ring,none,8192,1,1,0.000300866,"
  check "compare -M ns3 --init-cwnd 1 --min-rto 1 --no-delayed-ack --mtu 9000" 0 \
    "$ns" "${n3[@]}" --init-cwnd 1 --min-rto 1 --no-delayed-ack --mtu 9000 -o tuned
  expect "ring under them" tuned/compare.csv ",ring,ring,none,8192,1,1,0.000456673,"
  expect "simple under them" tuned/compare.csv ",simple,simple,posted,8192,0,1,0.000415809,"
  check "compare -M ns3 --transport udp-window --window 1" 0 \
    "$ns" "${n3[@]}" --transport udp-window --window 1 --ns3-scheduler calendar -o udp
  expect "simple under udp-window, W = 1" udp/compare.csv ",simple,simple,posted,8192,0,1,0.001161328,"
  check "simulate agrees" 0 "$ns" simulate -T gen:star:4:bandwidth=1Gbps -a simple -m 8KiB -M ns3 \
    --transport udp-window --window 1 --json
  expect "simulate's completion" "$tmp/out" '"completion_s" : 0\.00116132'
  check "resume under other ns3 options" 2 "$ns" "${n3[@]}" --init-cwnd 1 -o linux --resume
  expect "another configuration" "$tmp/err" "row of another configuration"
  check "--mtu 100" 2 "$ns" "${n3[@]}" --mtu 100 -o bad
  expect "--mtu: the range" "$tmp/err" "^netsched compare: --init-cwnd takes 1 to 65535 segments, --min-rto \(0, 60\] seconds and --mtu 576 to 65535 bytes$"
  check "--init-cwnd 0" 2 "$ns" "${n3[@]}" --init-cwnd 0 -o bad
  check "--min-rto 0" 2 "$ns" "${n3[@]}" --min-rto 0 -o bad
  check "--window 0" 2 "$ns" "${n3[@]}" --transport udp-window --window 0 -o bad
  expect "--window: the range" "$tmp/err" "^netsched compare: --window takes 1 to 1048576 items and --retransmit-timeout \(0, 60\] seconds$"
  check "--retransmit-timeout 61" 2 "$ns" "${n3[@]}" --retransmit-timeout 61 -o bad
  check "--transport quic" 2 "$ns" "${n3[@]}" --transport quic -o bad
  expect "--transport: the known ones" "$tmp/err" "^netsched: --transport: unknown transport 'quic' \(tcp-persistent, udp-window\)$"
  check "--ns3-scheduler fifo" 2 "$ns" "${n3[@]}" --ns3-scheduler fifo -o bad
  check "--window abc" 2 "$ns" "${n3[@]}" --window abc -o bad
  check "nothing written for bad ns3 options" 1 test -e bad
else
  echo "ok - # SKIP the ns3 options: netsched was built without ns-3"
fi

# -- SIGTERM during a -j 2 run: no worker, no simulator child, no file left ----
mkdir -p private-tmp
TMPDIR="$tmp/private-tmp" "$ns" compare -T gen:tree:4,8,16 -a simple,ring,pair -m 1MiB -M packet \
  -j 2 -o stopped --progress none >/dev/null 2>&1 &
pid=$!
workers="" children=""
for _ in $(seq 200); do # until both workers run a simulation
  workers=$(pgrep -P "$pid" | tr '\n' ' ')
  children=""
  for w in $workers; do children+="$(pgrep -P "$w" | tr '\n' ' ')"; done
  [[ $(wc -w <<< "$children") -ge 2 ]] && break
  sleep 0.1
done
check "two workers, each with its simulator child" 0 test "$(wc -w <<< "$children")" -ge 2
kill -TERM "$pid"
wait "$pid"
status=$?
check "SIGTERM ends compare -j 2 by the signal" 0 test "$status" -eq 143
left=""
for p in $workers $children; do kill -0 "$p" 2>/dev/null && left+="$p "; done
check "no worker and no simulator child left (${workers}${children})" 0 test -z "$left"
check "no temporary file left" 0 test -z "$(ls -A private-tmp)"
# (the lock file stays, empty: the kernel dropped its lock with the process)
check "only compare.csv in the output directory" 0 \
  test "$(ls -A stopped | grep -vx .netsched.lock)" = compare.csv
check "compare.csv holds its header and whole rows" 0 \
  awk -F, 'NR == 1 && $1 != "config" { exit 1 } NF != 20 { exit 1 }' stopped/compare.csv

# -- the same with SMPI baselines: each worker's smpirun in a private directory --
if command -v smpicc >/dev/null && command -v smpirun >/dev/null &&
   [[ "${NETSCHED_SIMULATOR:-1}" != 0 ]]; then
  mkdir -p private
  TMPDIR="$tmp/private" "$ns" compare -T gen:star:128 -a smpi:ring,smpi:pair -m 1MiB -M smpi \
    -j 2 -o smpi-stopped --progress none >/dev/null 2>&1 &
  pid=$!
  # until both workers run their program under smpirun (a compiler killed
  # mid-way leaves temporary files of its own: sim/child.c kills the group)
  descendants() { local c; for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done; }
  for _ in $(seq 1 600); do
    below=$(descendants "$pid" | tr '\n' ',')
    [[ -n $below && $(ps -o comm= -p "${below%,}" | grep -c smpimain) -ge 2 ]] && break
    sleep 0.1
  done
  started=$(ls -A private | grep -c '^netsched-smpi-')
  sleep 0.5
  kill -TERM "$pid"
  wait "$pid"
  status=$?
  check "two private directories while two smpiruns ran" 0 test "$started" -ge 2
  check "SIGTERM ends compare -j 2 (smpi) by the signal" 0 test "$status" -eq 143
  check "no private directory left after SIGTERM" 0 test -z "$(ls -A private)"
  check "no SMPI process left" 1 pgrep -f "$tmp/private"
else
  echo "ok - # SKIP the SMPI part: smpicc/smpirun not installed"
fi

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
