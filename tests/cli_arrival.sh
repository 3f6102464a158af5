#!/usr/bin/env bash
# Process arrival patterns (--arrival, docs/arrival.md; Faraj's dissertation
# §4.2): on 2 machines a late machine shifts completion by exactly its
# delay, ē is the hand-computed mean; without --arrival simulate and
# compare print what they printed before; bad specs and files are refused
# with exit 2 and the exact message.
source "$(dirname "$0")/cli-common.bash"
two=gen:chain:1,2
# jq value of KEY in $tmp/out, printed with 9 decimals
value() { jq -r "$1" "$tmp/out" | awk '{ printf "%.9f\n", $1 }'; }
same() { # same NAME GOT WANT
  if [[ "$2" == "$3" ]]; then echo "ok - $1"; passed=$((passed + 1))
  else echo "not ok - $1: got '$2', expected '$3'"; failures=$((failures + 1)); fi
}

# ---- 2 machines: n1 arrives 0.5 s late ------------------------------------
# Balanced, one 64 KiB message each way at 100 Mbit/s (5.24288 ms) plus
# 2 x 10 us of latency: 0.005262880 s.
check "balanced 2 machines" 0 "$ns" simulate -T $two -a simple -m 64KiB --json
same "balanced completion" "$(value .completion_s)" 0.005262880
same "no arrival member without --arrival" "$(jq -r 'has("arrival")' "$tmp/out")" false
printf 'n0 0\nn1 0.5   # late\n' >"$tmp/late.txt"
check "n1 late by 0.5 s" 0 "$ns" simulate -T $two -a simple -m 64KiB --json \
  --arrival "file:$tmp/late.txt"
same "completion shifted by the delay" "$(value .completion_s)" 0.505262880
same "arrival of n1" "$(value .arrival.arrival_s.n1)" 0.500000000
# ē = ((0.505262880 - 0) + (0.505262880 - 0.5)) / 2
same "per-node time by hand" "$(value .arrival.per_node_time_s)" 0.255262880
same "span" "$(value .arrival.span_s)" 0.505262880
# T = 64 KiB at 100 Mbit/s; ω/T = 0.5 / T; δ̄/T = 0.25 / T
same "T" "$(value .arrival.unit_s)" 0.005242880
same "omega/T" "$(value .arrival.max_imbalance_factor)" 95.367431641
same "delta/T" "$(value .arrival.avg_imbalance_factor)" 47.683715820
# Unnamed lines in machine order; MPI_Wtime-like values are shifted to 0.
printf '1700000000.25\n1700000000\n' >"$tmp/plain.txt"
check "unnamed file" 0 "$ns" simulate -T $two -a simple -m 64KiB --json \
  --arrival "file:$tmp/plain.txt"
same "n0 late by 0.25 s" "$(value .completion_s)" 0.255262880
same "n0's arrival shifted" "$(value .arrival.arrival_s.n0)" 0.250000000

# ---- text output ----------------------------------------------------------
check "text, random pattern" 0 "$ns" simulate -T "$topo/faraj-c.topo" -a pair -m 64KiB \
  --arrival random:1,4,seed=3
expect "arrival line" "$tmp/out" \
  '^arrival      random:1,4,seed=3: δ̄/T 1\.000000, ω/T 4\.000000 \(T 0\.005242880 s: one 64KiB message on n0.s port\)$'
expect "per-node line" "$tmp/out" \
  '^per-node     ē [0-9.]+ s \(mean of finish − arrival\); first arrival to last finish [0-9.]+ s$'
# --arrival balanced: the run of before plus the two lines (wall time aside).
check "default text" 0 "$ns" simulate -T "$topo/faraj-c.topo" -a pair -m 64KiB
grep -v '^wall' "$tmp/out" >"$tmp/default.txt"
check "balanced text" 0 "$ns" simulate -T "$topo/faraj-c.topo" -a pair -m 64KiB \
  --arrival balanced
expect "balanced: zero imbalance" "$tmp/out" '^arrival      balanced: δ̄/T 0\.000000, ω/T 0\.000000 '
grep -v -e '^wall' -e '^arrival ' -e '^per-node ' "$tmp/out" >"$tmp/balanced.txt"
check "balanced = default but for its lines" 0 cmp "$tmp/default.txt" "$tmp/balanced.txt"

# ---- compare ----------------------------------------------------------------
header='config,topology,collective,model,label,algorithm,sync,msize_bytes,contention_free,valid,completion_s,bound_s,ratio,throughput_mbps,bound_mbps,sync_messages,runs,completion_min_s,completion_max_s,status'
check "compare without --arrival" 0 "$ns" compare -T $two -a simple -m 64KiB -o "$tmp/c0"
same "compare.csv header unchanged" "$(head -1 "$tmp/c0/compare.csv")" "$header"
check "compare with --arrival" 0 "$ns" compare -T $two -a simple -m 64KiB -o "$tmp/c1" \
  --arrival "file:$tmp/late.txt"
same "compare.csv header with arrival" "$(head -1 "$tmp/c1/compare.csv")" \
  "$header,avg_imbalance_factor,max_imbalance_factor,per_node_time_s,span_s"
# the topology's name is quoted (it holds a comma): fields counted from the end
same "compare row's arrival columns" "$(tail -1 "$tmp/c1/compare.csv" | rev | cut -d, -f1-5,14 | rev)" \
  "0.505262880,ok,47.683716,95.367432,0.255262880,0.505262880"
expect "compare table line" "$tmp/out" 'arrival δ̄/T 47\.684, ω/T 95\.367: ē 0\.255263 s'
check "compare resumes with arrival" 0 "$ns" compare -T $two -a simple -m 64KiB -o "$tmp/c1" \
  --arrival "file:$tmp/late.txt" --resume
expect "row kept" "$tmp/out" 'kept from the previous run'
check "a balanced compare.csv is not resumed with arrival" 2 "$ns" compare -T $two -a simple \
  -m 64KiB -o "$tmp/c0" --arrival "file:$tmp/late.txt" --resume
check "compare: pattern impossible on the topology" 2 "$ns" compare -T "$topo/faraj-c.topo" \
  -a simple -m 64KiB -o "$tmp/c2" --arrival random:0.1,4
same "compare message" "$(cat "$tmp/err")" "netsched: --arrival: random:0.1,4,seed=1: on 32 machines with ω/T = 4, δ̄/T is between ω/T/n = 0.125 and 2·⌊n/2⌋·⌈n/2⌉·(ω/T)/n² = 2, not 0.1"

# ---- refused --------------------------------------------------------------
check "unknown pattern" 2 "$ns" simulate -T $two -a simple --arrival uniform
same "unknown pattern message" "$(cat "$tmp/err")" \
  "netsched: --arrival: 'uniform': expected balanced, random:AVG,MAX[,seed=S] or file:PATH"
check "AVG above MAX/2" 2 "$ns" simulate -T $two -a simple --arrival random:3,4
same "AVG above MAX/2 message" "$(cat "$tmp/err")" \
  "netsched: --arrival: 'random:3,4': no arrival pattern has δ̄/T = 3 and ω/T = 4 (δ̄/T is 0 exactly when ω/T is, and at most half of it)"
check "two machines: only AVG = MAX/2" 2 "$ns" simulate -T $two -a simple --arrival random:1,4
same "two machines message" "$(cat "$tmp/err")" \
  "netsched: --arrival: random:1,4,seed=1: on 2 machines with ω/T = 4, δ̄/T is between ω/T/n = 2 and 2·⌊n/2⌋·⌈n/2⌉·(ω/T)/n² = 2, not 1"
printf 'n0 0\nn1 soon\n' >"$tmp/bad.txt"
check "malformed time" 2 "$ns" simulate -T $two -a simple --arrival "file:$tmp/bad.txt"
same "malformed time message" "$(cat "$tmp/err")" "netsched: $tmp/bad.txt:2: 'soon' is not a time in seconds"
printf 'n0 0\nn7 1\n' >"$tmp/other.txt"
check "machine not in the schedule" 2 "$ns" simulate -T $two -a simple --arrival "file:$tmp/other.txt"
same "machine not in the schedule message" "$(cat "$tmp/err")" \
  "netsched: $tmp/other.txt:2: 'n7' is not a machine of the schedule"
printf '0\n0\n0\n' >"$tmp/three.txt"
check "lines for another machine count" 2 "$ns" simulate -T $two -a simple --arrival "file:$tmp/three.txt"
same "machine count message" "$(cat "$tmp/err")" \
  "netsched: --arrival: $tmp/three.txt: 3 arrival times for 2 machines (one line per machine, in the schedule's machine order, or NAME SECONDS lines)"
check "bounded read" 2 "$ns" simulate -T $two -a simple --arrival file:/dev/zero
same "bounded read message" "$(cat "$tmp/err")" "netsched: /dev/zero: arrival larger than the 4 MiB limit"
check "missing file" 2 "$ns" simulate -T $two -a simple --arrival "file:$tmp/none.txt"
expect "missing file message" "$tmp/err" "^netsched: $tmp/none.txt: "

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
