#!/usr/bin/env bash
# Schedule files as streams: plan writes JSON or JSON Lines (by name or
# --schedule-format); verify reads either, plain, gzip or zstd, from files
# or standard input, recognised by content, and says the same as when it
# plans in memory. Sync edges after the phases (read twice), bad and
# endless input.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1
t="gen:tree:2,3,4"

check "plan JSON" 0 "$ns" plan -T "$t" -a faraj -o s.json
check "plan JSON Lines by name" 0 "$ns" plan -T "$t" -a faraj -o s.jsonl
expect "JSON Lines header" s.jsonl '^\{"format":"netsched-schedule-lines","version":1,'
expect "JSON Lines direct transfers" s.jsonl '^\[\[[0-9]+,[0-9]+\],'
expect "JSON Lines end line" s.jsonl '^\{"end":\{"phases":[0-9]+,"transfers":[0-9]+\}\}$'
check "plan JSON Lines on stdout" 0 "$ns" plan -T "$t" -a faraj --schedule-format jsonl
cp "$tmp/out" stdout.jsonl
check "same bytes as -o" 0 cmp stdout.jsonl s.jsonl
check "bad --schedule-format" 2 "$ns" plan -T "$t" -a faraj --schedule-format yaml

"$ns" verify -T "$t" -a faraj > planned.txt
check "verify JSON" 0 "$ns" verify -T "$t" s.json
sed 1d "$tmp/out" > a.txt
sed 1d planned.txt > b.txt
check "a file verifies as the planned schedule" 0 cmp a.txt b.txt
check "verify JSON Lines" 0 "$ns" verify -T "$t" s.jsonl
sed 1d "$tmp/out" > c.txt
check "either format, the same report" 0 cmp a.txt c.txt

gzip -k s.json
cp s.json.gz packed.data
check "gzip, recognised by content" 0 "$ns" verify -T "$t" packed.data
if command -v zstd >/dev/null; then
  zstd -q s.jsonl -o s.jsonl.zst
  check "zstd" 0 "$ns" verify -T "$t" s.jsonl.zst -q
  check "zstd on standard input" 0 sh -c "'$ns' verify -T '$t' - -q < s.jsonl.zst"
fi
check "JSON Lines on standard input" 0 sh -c "'$ns' verify -T '$t' - -q < s.jsonl"
head -c 1000 s.json.gz > cut.json.gz
check "truncated gzip" 2 "$ns" verify -T "$t" cut.json.gz
expect "says truncated" "$tmp/err" 'cut.json.gz: truncated gzip data'
head -n 5 s.jsonl > cut.jsonl
check "truncated JSON Lines" 2 "$ns" verify -T "$t" cut.jsonl
expect "names the missing end line" "$tmp/err" 'cut.jsonl:6:1: unexpected end of input: the end line is missing'

# Damaged schedules: the findings name the right transfers when streamed.
sed '0,/^    \[\[\([0-9]*\),\([0-9]*\),\[\([0-9]*\),\([0-9]*\)\]\]/s//    [[\1,\2,[\3,\4]],[\1,\2,[\3,\4]]/' \
  s.json > dup.json
check "a duplicated transfer fails" 1 "$ns" verify -T "$t" dup.json
expect "named by index and machines" "$tmp/out" 'transfer #1 n[0-9]+->n[0-9]+ delivers message n[0-9]+->n[0-9]+ to n[0-9]+ a second time'

# Sync edges after the phases (where JSON has them): the file is read a
# second time, keeping its phases; standard input keeps them at once.
sed 's/"sync_scheme": "sender-all"/"sync_scheme": "none",\n  "sync": [[0,30],[1,31]]/' s.json > sync.json
check "verify sync edges from a file" 0 "$ns" verify -T "$t" sync.json
expect "the sync check ran" "$tmp/out" '^  sync +ok'
check "and from standard input" 0 sh -c "'$ns' verify -T '$t' - < sync.json"
expect "the sync check ran on stdin" "$tmp/out" '^  sync +ok'
sed 's/"sync": \[\[0,30\],\[1,31\]\]/"sync": [[30,0]]/' sync.json > cycle.json
check "a wait cycle" 1 "$ns" verify -T "$t" cycle.json
expect "is found" "$tmp/out" 'wait in a cycle'

# Endless or binary input fails at once, with a position.
check "/dev/zero" 2 timeout 10 "$ns" verify -T "$t" /dev/zero
expect "says where" "$tmp/err" '/dev/zero:1:1: expected a value, found byte 0x00'
check "a directory" 2 "$ns" verify -T "$t" .
expect "cannot read" "$tmp/err" 'cannot read: Is a directory'

# Planning streams into the file, the table and the verifier: the same
# schedule as planned whole, and a full disk stops the planner at once.
check "plan a 4096-machine schedule to a full disk" 2 timeout 20 "$ns" plan -T gen:tree:8,16,32 -o /dev/full
expect "says why" "$tmp/err" 'cannot write schedule: No space left on device'
check "plan --table" 0 "$ns" plan -T "$t" -a ring --table
expect "one line a phase" "$tmp/out" '^phase   22: n0->n23 n1->n0 '
check "verify -a as the planner goes" 1 "$ns" verify -T "$t" -a ring
expect "finds the ring's contention" "$tmp/out" 'contention-free +FAILED'
check "verify -a with own routes (kept whole)" 0 "$ns" verify -T gen:torus:8x8 -a at2 --require-optimal
expect "optimal" "$tmp/out" '^  optimal +ok'

# Files named *.gz or *.zst are written compressed, and read back.
check "plan -o s.jsonl.gz" 0 "$ns" plan -T "$t" -o s.jsonl.gz
check "gzip reads it" 0 sh -c "gzip -dc s.jsonl.gz | cmp - s.jsonl"
check "plan -o s.json.zst" 0 "$ns" plan -T "$t" -o s.json.zst
check "it starts with zstd's magic" 0 sh -c "head -c 4 s.json.zst | od -An -tx1 | grep -q '28 b5 2f fd'"
check "and verifies" 0 "$ns" verify -T "$t" s.json.zst s.jsonl.gz

# gzip files of several members (RFC 1952 §2.2) are read whole, as zcat
# reads them; bytes after a member that are not gzip are refused.
half=$(( $(wc -c < s.json) / 2 ))
{ head -c "$half" s.json | gzip; tail -c +"$((half + 1))" s.json | gzip; } > members.json.gz
check "zcat reads both members" 0 sh -c "gzip -dc members.json.gz | cmp - s.json"
check "so does verify" 0 "$ns" verify -T "$t" members.json.gz -q
{ cat s.json.gz; echo 'not gzip'; } > garbage.json.gz
check "bytes after the member" 2 "$ns" verify -T "$t" garbage.json.gz
expect "are corrupt gzip data" "$tmp/err" '^netsched: garbage.json.gz: corrupt gzip data'

# Bombs: a few kilobytes that expand to more than the schedule's collective
# can need (24 machines: 24 x 23 x 23 = 12,696 moves; 64 MiB + 64 bytes a
# move and a machine of text) are refused as soon as they pass it.
if command -v zstd >/dev/null; then
  m=$(printf '"n%d",' $(seq 0 23))
  head1='{"format":"netsched-schedule-lines","version":1,"collective":"alltoall","algorithm":"x","machines":['"${m%,}"'],"msize_bytes":1024,"execution":"phased"'
  row="[$(printf '[0,1],%.0s' $(seq 9999))[0,1]]" # 60 KB: an argument is at most 128 KiB
  # 0.25 GiB, 45 M transfers and one sync edge (which makes verify keep the phases)
  { echo "$head1"',"sync":1,"routes":0}'; yes "$row" | head -n 4500
    echo '{"sync":[[0,1]]}'; echo '{"end":{"phases":4500,"transfers":45000000}}'; } | zstd -q -o bomb.jsonl.zst
  check "the bomb is small" 0 test "$(wc -c < bomb.jsonl.zst)" -lt 100000
  check "a transfer bomb with a sync edge" 2 "$ns" verify -T "$t" bomb.jsonl.zst
  expect "is refused past what the collective can need" "$tmp/err" \
    '^netsched: bomb.jsonl.zst: more than 12696 transfers: a schedule of alltoall on 24 machines holds no more unless it delivers something twice$'
  check "simulate refuses it too" 2 "$ns" simulate -T "$t" bomb.jsonl.zst
  expect "at the same bound" "$tmp/err" '^netsched: bomb.jsonl.zst: more than 12696 transfers'
  check "with --max-input" 2 "$ns" verify -T "$t" bomb.jsonl.zst --max-input 16MiB
  expect "at the size given" "$tmp/err" \
    '^netsched: bomb.jsonl.zst: the schedule is larger than the input limit of 16777216 bytes \(16.0 MiB, decompressed\)$'
  check "--max-input takes a size" 2 "$ns" verify -T "$t" s.json --max-input 12
  expect "with its unit" "$tmp/err" "--max-input '12'"
  check "a header naming more machines than the topology cannot raise it" 2 \
    "$ns" verify -T gen:tree:2,2 bomb.jsonl.zst
  expect "counted on the topology's 4" "$tmp/err" 'more than 36 transfers: a schedule of alltoall on 4 machines'
  # 45 M sync edges announced: refused at the header line
  { echo "$head1"',"sync":45000000,"routes":0}'; echo '[[0,1]]'; } > edges.jsonl
  check "a sync edge bomb" 2 "$ns" verify -T "$t" edges.jsonl
  expect "is refused at its header" "$tmp/err" \
    '^netsched: edges.jsonl: \$.sync: 45000000 sync edges, more than 12696: a schedule of alltoall'
  # 100 MiB of white space before a good schedule
  { head -c 100M /dev/zero | tr '\0' ' '; cat s.json; } | zstd -q -o spaces.json.zst
  check "a white-space bomb" 2 "$ns" verify -T "$t" spaces.json.zst
  expect "stops at 64 MiB and what the schedule can need" "$tmp/err" \
    '^netsched: spaces.json.zst: the schedule is larger than the input limit of 67922944 bytes \(64.8 MiB, decompressed\)$'
  check "the same schedule with the limit raised" 0 "$ns" verify -T "$t" spaces.json.zst --max-input 128MiB -q
fi
{ head -c 100M /dev/zero | tr '\0' ' '; cat s.json; } | gzip -1 > spaces.json.gz
check "a white-space bomb in gzip" 2 "$ns" verify -T "$t" spaces.json.gz
expect "stops at the limit too" "$tmp/err" 'spaces.json.gz: the schedule is larger than the input limit of 67922944 bytes'
# sync edges of a JSON document, counted as they come
{ sed '$d' s.json | sed '$d'; printf '  "sync": ['; printf '[0,1],%.0s' $(seq 12696); echo '[0,1]]'; echo '}'; } > many-edges.json
check "more sync edges than a schedule can need" 2 "$ns" verify -T "$t" many-edges.json
expect "refused" "$tmp/err" 'many-edges.json: more than 12696 sync edges'

# a file of more than 4 MiB is read ahead on a thread of its own: the same
# report, the same messages for a bad line in its middle and a cut last line
big=gen:tree:8,8,12
check "plan a 5.9 MB file" 0 "$ns" plan -T "$big" -a faraj -o big.jsonl
"$ns" verify -T "$big" -a faraj > big-planned.txt
check "verify it" 0 "$ns" verify -T "$big" big.jsonl
sed 1d "$tmp/out" > big-a.txt
sed 1d big-planned.txt > big-b.txt
check "read ahead, the planned schedule's report" 0 cmp big-a.txt big-b.txt
sed '20000s/^\[\[[0-9]*,/[[9999,/' big.jsonl > big-mid.jsonl
check "a bad machine in its middle" 2 "$ns" verify -T "$big" big-mid.jsonl -q
expect "its line" "$tmp/err" '^netsched: big-mid.jsonl:20000: \$\.phases\[19998\]\[0\]\[0\]: machine index 9999 out of range \(768 machines\)$'
head -n 64513 big.jsonl | head -c -30 > big-cut.jsonl
check "its last phase line cut" 2 "$ns" verify -T "$big" big-cut.jsonl -q
expect "where it ends" "$tmp/err" "^netsched: big-cut.jsonl:64513:51: unexpected end of input \('\[' at line 64513, column 1 is not closed\)$"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
