#!/usr/bin/env bash
# Closing the loop with SMPI and other simulators (issue #20 §3):
#  - `topo convert --to simgrid --schedule` exports the platform with the
#    schedule's own routes (AT2 on an 8x8 torus): SMPI replaying the
#    schedule on it agrees with `simulate -M smpi`; on the topology's
#    plain platform it is ~25 % off;
#  - `simulate --ti-trace DIR` writes a SimGrid time-independent trace that
#    `smpirun -replay` replays to the replay's time within 1 % (ring and
#    faraj with sender-all syncs on topology (b), 64 KiB; AT2 8x8);
#  - `simulate --goal FILE` writes a GOAL schedule: golden on 4 machines,
#    structurally sound on 32 (every send matched by a receive, every
#    dependency on an earlier label, hence acyclic).
# The smpirun parts are skipped without smpirun (libsimgrid-dev).
source "$(dirname "$0")/cli-common.bash"
b="$topo/faraj-b.topo"
have_smpi=0
command -v smpirun >/dev/null && have_smpi=1

# smpirun -replay of DIR's trace on PLATFORM (file in DIR): the simulated time.
replay_time() {
  (cd "$1" && smpirun -platform "$2" -hostfile hostfile -replay trace.txt \
     --cfg=smpi/simulate-computation:no 2>&1) |
    awk '/Simulation time/ { print $NF }'
}
# the relative difference |a - b| / b below LIMIT
within() {
  awk -v a="$1" -v b="$2" -v l="$3" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; exit !(a != "" && d < l) }'
}
completion() { awk -F': ' '/"completion_s"/ { gsub(",", "", $2); print $2 }' "$1"; }

# ---- the schedule's platform ----------------------------------------------
check "plan at2 8x8" 0 "$ns" plan -T gen:torus:8x8 -a at2 -m 64KiB -o "$tmp/at2.json"
check "convert --schedule" 0 "$ns" topo convert gen:torus:8x8 --to simgrid --schedule "$tmp/at2.json" -o "$tmp/at2.xml"
check "convert without --schedule" 0 "$ns" topo convert gen:torus:8x8 --to simgrid -o "$tmp/plain.xml"
check "the schedule's platform differs" 1 cmp -s "$tmp/at2.xml" "$tmp/plain.xml"
check "--schedule needs --to simgrid" 2 "$ns" topo convert gen:torus:8x8 --schedule "$tmp/at2.json"
expect "--schedule needs --to simgrid: says so" "$tmp/err" "--schedule goes with 'convert --to simgrid'"
check "--schedule with show" 2 "$ns" topo show gen:torus:8x8 --schedule "$tmp/at2.json"
check "--schedule of other machines" 2 "$ns" topo convert gen:ring:4 --to simgrid --schedule "$tmp/at2.json" -o "$tmp/ring.xml"
expect "--schedule of other machines: names the schedule" "$tmp/err" "at2.json: "
check "no platform left behind" 1 test -e "$tmp/ring.xml"
check "a pair routed two ways" 0 "$ns" plan -T gen:torus:4x4 -a at2 -o "$tmp/at2-4.json"
check "a pair routed two ways is refused" 2 "$ns" topo convert gen:torus:4x4 --to simgrid --schedule "$tmp/at2-4.json"
expect "a pair routed two ways: says why" "$tmp/err" "SimGrid routes a pair one way"

# ---- the time-independent trace ---------------------------------------------
check "at2 trace" 0 "$ns" simulate "$tmp/at2.json" -T gen:torus:8x8 -M smpi --ti-trace "$tmp/at2" --json
cp "$tmp/out" "$tmp/at2.out"
check "the trace's platform is convert --schedule's" 0 cmp "$tmp/at2.xml" "$tmp/at2/platform.xml"
expect "index names every rank" "$tmp/at2/trace.txt" "^rank-63.txt$"
check "64 ranks" 0 test "$(wc -l <"$tmp/at2/trace.txt")" -eq 64
check "hostfile in rank order" 0 test "$(sed -n 64p "$tmp/at2/hostfile")" = n63
expect "rank files start with init" "$tmp/at2/rank-5.txt" "^5 init$"
expect "rank files end with finalize" "$tmp/at2/rank-5.txt" "^5 finalize$"
expect "combined chunks as isend DST TAG BYTES" "$tmp/at2/rank-0.txt" "^0 isend [0-9]+ [0-9]+ 786432$"
for algo in ring faraj; do
  check "$algo trace" 0 "$ns" simulate -T "$b" -a "$algo" -M smpi -m 64KiB --ti-trace "$tmp/$algo" --json
  cp "$tmp/out" "$tmp/$algo.out"
done
expect "data as isend DST TAG BYTES" "$tmp/ring/rank-0.txt" "^0 isend 1 0 65536$"
expect "faraj replays sender-all syncs" "$tmp/faraj.out" '"sync" : "sender-all"'
expect "faraj's trace waits for syncs" "$tmp/faraj/rank-3.txt" "^3 recv [0-9]+ [0-9]+ 8$"
expect "faraj's trace sends syncs" "$tmp/faraj/rank-3.txt" "^3 isend [0-9]+ [0-9]+ 8$"
check "barriers as dissemination messages" 0 "$ns" simulate -T "$b" -a ring -S barrier-all -M smpi -m 64KiB --ti-trace "$tmp/ringb"
expect "barrier round messages" "$tmp/ringb/rank-0.txt" "^0 isend 16 [0-9]+ 8$"
check "window schedules are not exported" 2 "$ns" simulate -T "$b" -a simple -S window:4 -M smpi -m 64KiB --ti-trace "$tmp/win"
expect "window: says why" "$tmp/err" "cannot express it"
check "window: refused before the replay, no directory made" 1 test -e "$tmp/win"
check "a file where the trace directory goes" 0 touch "$tmp/file"
check "trace into a file is refused" 2 "$ns" simulate -T "$b" -a ring -M smpi -m 64KiB --ti-trace "$tmp/file"
expect "trace into a file: names it" "$tmp/err" "file: cannot write the trace: not a directory"

# ---- the smpirun command simulate prints is this run's: model, eager threshold, --cfg
# (was: none printed; --help and the docs showed one command for every run)
printed() { sed -n "s/^note: smpirun replays the trace with this run's settings: //p" "$1"; }
check "a trace with --cfg" 0 "$ns" simulate -T gen:star:4 -a ring -M smpi -m 8KiB --cfg smpi/bw-factor:0:0.5 --ti-trace "$tmp/it's a trace" --json
cp "$tmp/out" "$tmp/cfg.out"
want="cd '$tmp/it'\''s a trace' && smpirun -platform platform.xml -hostfile hostfile -replay trace.txt --cfg=smpi/simulate-computation:no --cfg=smpi/send-is-detached-thresh:65536 --cfg=network/model:SMPI --cfg=smpi/bw-factor:0:0.5"
check "printed: the settings, --cfg last, the directory quoted" 0 test "$(printed "$tmp/err")" = "$want"
check "a tcp trace, rendezvous" 0 "$ns" simulate -T gen:star:4 -a ring -M tcp -m 8KiB --eager-threshold 0 --ti-trace "$tmp/tcp" --json
cp "$tmp/out" "$tmp/tcp.out"; cp "$tmp/err" "$tmp/tcp.err"
expect "printed: LV08 named (smpirun's default is SMPI), eager 0" "$tmp/tcp.err" "smpirun .* --cfg=smpi/send-is-detached-thresh:0 --cfg=network/model:LV08$"
check "a packet trace" 0 "$ns" simulate -T gen:star:4 -a ring -M packet -m 8KiB --ti-trace "$tmp/packet"
expect "packet: no command, says why" "$tmp/err" "^note: smpirun replays the trace on SimGrid's fluid models only \(-M ideal, tcp or smpi\), not on the packet model$"

if [[ $have_smpi -eq 1 ]]; then
  # the printed command, run by bash, replays to netsched's time (smpirun prints 6 digits)
  ours=$(completion "$tmp/cfg.out")
  smpi=$(bash -c "$want" 2>&1 | awk '/Simulation time/ { print $NF }')
  generic=$(replay_time "$tmp/it's a trace" platform.xml)
  check "the printed command: $smpi s, netsched $ours s (generic command: $generic s)" 0 \
    within "$smpi" "$ours" 0.005
  check "... which the generic command is not" 1 within "$generic" "$ours" 0.1
  ours=$(completion "$tmp/tcp.out")
  smpi=$(bash -c "$(printed "$tmp/tcp.err")" 2>&1 | awk '/Simulation time/ { print $NF }')
  check "tcp: the printed command: $smpi s, netsched $ours s" 0 within "$smpi" "$ours" 0.005
  for algo in ring faraj; do
    ours=$(completion "$tmp/$algo.out")
    smpi=$(replay_time "$tmp/$algo" platform.xml)
    if within "$smpi" "$ours" 0.01; then
      echo "ok - $algo 64KiB: smpirun -replay $smpi s, netsched $ours s"; passed=$((passed + 1))
    else
      echo "not ok - $algo 64KiB: smpirun -replay '$smpi' s, netsched '$ours' s"; failures=$((failures + 1))
    fi
  done
  ours=$(completion "$tmp/at2.out")
  smpi=$(replay_time "$tmp/at2" platform.xml)
  cp "$tmp/plain.xml" "$tmp/at2/plain.xml"
  plain=$(replay_time "$tmp/at2" plain.xml)
  if within "$smpi" "$ours" 0.01 && ! within "$plain" "$ours" 0.10; then
    echo "ok - at2 8x8 64KiB: smpirun -replay $smpi s on the schedule's platform, $plain s on the plain one, netsched $ours s"
    passed=$((passed + 1))
  else
    echo "not ok - at2 8x8 64KiB: smpirun -replay '$smpi' s (schedule's platform), '$plain' s (plain), netsched '$ours' s"
    failures=$((failures + 1))
  fi
else
  echo "ok - # SKIP smpirun -replay comparisons: smpirun not installed (libsimgrid-dev)"
fi

# ---- GOAL ---------------------------------------------------------------------
check "goal on 4 machines" 0 "$ns" simulate -T gen:chain:2,2 -a faraj -S sender-all -m 1KiB --goal "$tmp/small.goal"
check "goal golden" 0 diff -u "$src/tests/data/goal/chain-2x2-faraj-sender-all-1KiB.goal" "$tmp/small.goal"
check "goal on 32 machines" 0 "$ns" simulate -T "$b" -a faraj -S sender-all -m 64KiB --goal "$tmp/b.goal"
# Every send has a receive of the same size and tag at its destination,
# and every dependency names an earlier label of its rank (acyclic).
goal_sound() {
  awk '
    /^num_ranks/ { n = $2 }
    /^rank/ { r = $2 }
    /^l[0-9]+: send/ { sub(/b$/, "", $3); sends[r " " $5 " " $7 " " $3]++; total++ }
    /^l[0-9]+: recv/ { sub(/b$/, "", $3); recvs[$5 " " r " " $7 " " $3]++ }
    / requires / { a = substr($1, 2) + 0; b = substr($3, 2) + 0; if (b >= a) { print "cycle risk: rank " r ": " $0; bad = 1 } }
    END {
      for (k in sends) if (sends[k] != recvs[k]) { print "unmatched send " k; bad = 1 }
      for (k in recvs) if (sends[k] != recvs[k]) { print "unmatched recv " k; bad = 1 }
      if (n != 32 || total == 0) bad = 1
      exit bad
    }' "$1"
}
check "goal on 32 machines is sound" 0 goal_sound "$tmp/b.goal"
check "goal: 32 ranks" 0 test "$(grep -c '^rank ' "$tmp/b.goal")" -eq 32
check "goal refuses hardware barriers" 2 "$ns" simulate -T "$b" -a ring -S barrier-all --hardware-barrier -m 64KiB --goal "$tmp/hw.goal"
expect "goal hardware barriers: says why" "$tmp/err" "GOAL has no barrier hardware"
check "no goal left behind" 1 test -e "$tmp/hw.goal"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
