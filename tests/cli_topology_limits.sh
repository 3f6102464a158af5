#!/usr/bin/env bash
# End-to-end tests of the topology readers' input limits and input checks
# (docs/topology-format.md, "Limits"): endless streams (/dev/zero, a pipe)
# fail fast with a message under a memory limit, a file over 256 MiB is
# refused by its size, FIFOs and pipes are read, directories refused;
# GraphML duplicate ids and external entities are refused; byte-order marks
# and invisible characters are named or escaped in messages.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"

bad="$src/tests/data/bad"
limit_msg="topology larger than the 256 MiB limit"

# Runs a command under a memory cap and a time limit. ulimit -v for a plain
# build; AddressSanitizer reserves terabytes of address space, so an ASan
# build is capped by its own RSS watchdog instead.
if grep -q __asan_init "$ns" 2>/dev/null; then
  limited() {
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=1536" timeout 120 "$@"
  }
else
  limited() { (ulimit -v 1048576 && exec timeout 120 "$@"); }
fi

# Endless character device and pipe: the limit, not an allocation failure.
for f in native slurm graphml; do
  check "/dev/zero as $f" 2 limited "$ns" topo convert -f "$f" /dev/zero -o "$tmp/x"
  expect "/dev/zero as $f: limit" "$tmp/err" "^netsched: /dev/zero: $limit_msg\$"
done
check "endless pipe" 2 limited "$ns" topo convert -f native <(yes '# comment') -o "$tmp/x"
expect "endless pipe: limit" "$tmp/err" ": $limit_msg\$"

# A regular file one byte over the limit is refused by its size (sparse, so
# the test costs no disk); one of exactly 256 MiB is read, then refused for
# what it holds.
truncate -s $((256 * 1024 * 1024 + 1)) "$tmp/big.topo"
check "256 MiB + 1 byte" 2 limited "$ns" topo convert "$tmp/big.topo" -o "$tmp/x"
expect "256 MiB + 1 byte: limit" "$tmp/err" "^netsched: $tmp/big.topo: $limit_msg\$"
truncate -s $((256 * 1024 * 1024)) "$tmp/big.topo"
check "256 MiB exactly" 2 limited "$ns" topo convert "$tmp/big.topo" -o "$tmp/x"
expect "256 MiB exactly: read" "$tmp/err" "^netsched: $tmp/big.topo:1: NUL byte in the line\$"
rm -f "$tmp/big.topo"

# Streams that end are read whole; a directory is refused.
check "pipe" 0 "$ns" topo convert -f native <(cat "$topo/faraj-fig1.topo") -o "$tmp/p.topo"
expect "pipe: 6 machines" "$tmp/p.topo" "^machine n\[0-5\]"
mkfifo "$tmp/fifo.graphml"
timeout 60 bash -c 'cat "$1" >"$2"' _ "$topo/faraj-fig1.graphml" "$tmp/fifo.graphml" &
check "FIFO" 0 timeout 60 "$ns" topo convert "$tmp/fifo.graphml" -o "$tmp/f.topo"
wait
expect "FIFO: 6 machines" "$tmp/f.topo" "^machine n\[0-5\]"
mkdir "$tmp/dir.topo"
check "directory" 2 "$ns" topo convert "$tmp/dir.topo"
expect "directory named" "$tmp/err" "^netsched: $tmp/dir.topo: is a directory, not a topology file\$"

# GraphML: duplicate node ids name both lines; entities stay refused.
check "duplicate id" 2 "$ns" topo convert "$bad/duplicate-id.graphml"
expect "duplicate id: both lines" "$tmp/err" \
  "duplicate-id.graphml:12: duplicate node id 'n3' \(first declared at line 7\)\$"
check "machine redeclared as a switch" 2 "$ns" topo convert "$bad/duplicate-id-kind.graphml"
expect "redeclared: both lines" "$tmp/err" \
  "duplicate-id-kind.graphml:9: duplicate node id 'n1' \(first declared at line 7\)\$"
check "XXE" 2 "$ns" topo convert "$bad/xxe.graphml"
expect "XXE refused" "$tmp/err" "xxe.graphml:2: a DOCTYPE with an internal subset"
if grep -q "root:" "$tmp/err" "$tmp/out"; then
  echo "not ok - XXE: /etc/passwd leaked"; failures=$((failures + 1))
else
  echo "ok - XXE: nothing leaked"; passed=$((passed + 1))
fi
check "entity expansion" 2 timeout 60 "$ns" topo convert "$bad/entity-expansion.graphml"
expect "entity expansion refused" "$tmp/err" "a DOCTYPE with an internal subset"

# Byte-order marks: fine at the start of a file, named elsewhere.
printf '\xef\xbb\xbf' | cat - "$topo/faraj-fig1.topo" >"$tmp/bom.topo"
check "BOM at the start" 0 "$ns" topo convert "$tmp/bom.topo" -o "$tmp/x"
printf 'SwitchName=s0 Nodes=n[0-1]\n\xef\xbb\xbfSwitchName=s1 Nodes=n[2-3]\n' >"$tmp/bom.conf"
printf 'SwitchName=root Switches=s[0-1]\n' >>"$tmp/bom.conf"
check "BOM inside" 2 "$ns" topo convert "$tmp/bom.conf"
expect "BOM named" "$tmp/err" "bom.conf:2: a byte-order mark \(U\+FEFF\) inside 'SwitchName=s1'"
# Invisible characters are escaped in messages, never raw.
check "zero-width space" 2 "$ns" topo convert "$bad/invisible-keyword.topo"
expect "escaped" "$tmp/err" "unknown keyword 'machine\\\\u200b'"
if LC_ALL=C grep -q $'\xe2\x80\x8b' "$tmp/err"; then
  echo "not ok - zero-width space printed raw"; failures=$((failures + 1))
else
  echo "ok - no raw zero-width space"; passed=$((passed + 1))
fi

# A right-to-left override in a machine name is refused where it is read
# (#18.11): findings would print it raw and turn the line around.
printf 'machine a b\xe2\x80\xaec\nswitch s\nlink a,b\xe2\x80\xaec s\n' >"$tmp/rtl.topo"
check "RTL override in a name" 2 "$ns" topo show "$tmp/rtl.topo"
expect "RTL named with its line" "$tmp/err" \
  "^netsched: $tmp/rtl.topo:1: node name 'b\\\\u202ec' holds an invisible, control or bidi character \(U\+202E\)"
if LC_ALL=C grep -q $'\xe2\x80\xae' "$tmp/err"; then
  echo "not ok - RTL override printed raw"; failures=$((failures + 1))
else
  echo "ok - no raw RTL override"; passed=$((passed + 1))
fi
# A schedule's machine name is escaped when no topology holds it.
"$ns" plan -a simple -T gen:star:2 -o "$tmp/s2.json" 2>/dev/null
sed 's/"n1"/"n\\u202e1"/' "$tmp/s2.json" >"$tmp/rtl.json"
check "RTL in a schedule's machine" 2 "$ns" verify "$tmp/rtl.json" -T gen:star:2
expect "schedule name escaped" "$tmp/err" "rtl.json: schedule machine 'n\\\\u202e1' is not a machine of topology gen:star:2"
if LC_ALL=C grep -q $'\xe2\x80\xae' "$tmp/err"; then
  echo "not ok - RTL override printed raw (schedule)"; failures=$((failures + 1))
else
  echo "ok - no raw RTL override (schedule)"; passed=$((passed + 1))
fi

# Generator specifications (#18.3, #18.11): an empty shape crashed every
# command; spaces, repeated options and out-of-range sizes are refused.
for cmd in "bound -c alltoall" "plan -a faraj" "verify -a faraj" "simulate -a faraj"; do
  # shellcheck disable=SC2086
  check "gen: ($cmd)" 2 "$ns" $cmd -T "gen:"
  expect "gen: ($cmd): no shape" "$tmp/err" "no shape given"
done
check "gen: empty" 2 "$ns" topo show "gen:"
expect "gen: empty: named" "$tmp/err" "^netsched: gen:: no shape given \(expected gen:SHAPE:ARGS, e.g. gen:star:8\)\$"
check "gen::" 2 "$ns" topo show "gen::"
check "gen:hypercube:16" 2 "$ns" topo show "gen:hypercube:16"
expect "hypercube range" "$tmp/err" "^netsched: gen:hypercube:16: a hypercube has 1 to 8 dimensions \(grid dimensions are limited to 8\), not 16\$"
check "gen:star: 4" 2 "$ns" topo show "gen:star: 4"
expect "space refused" "$tmp/err" "^netsched: gen:star: 4: character 6 is a space"
check "option twice" 2 "$ns" topo show "gen:star:4:bandwidth=1Gbps:bandwidth=2Gbps"
expect "option twice named" "$tmp/err" "option 'bandwidth' is given twice\$"
check "machines=1e23" 2 "$ns" topo show "gen:waxman:1,20:machines=1e23"
expect "machines=1e23 refused" "$tmp/err" "^netsched: waxman: more than 1000000 machines\$"
# A few bytes asking for a complete graph of 20,000 switches (2*10^8 links)
# are refused before drawing (18.8); with alpha, once the links are drawn.
check "dense waxman" 2 "$ns" topo show "gen:waxman:1,20000,19999"
expect "dense waxman refused" "$tmp/err" "^netsched: waxman: 20000 switches of mean degree 19999 make about 199990000 links, more than 1000000: lower the degree or the switch count\$"
check "dense waxman by alpha" 2 "$ns" topo show "gen:waxman:1,2000:alpha=1:beta=100"
expect "dense waxman by alpha refused" "$tmp/err" "links drawn at alpha 1, more than 1000000"
# Found by fuzz_gen: a product of two huge factors overflowed (UBSan) before
# the node count was checked.
check "hierarchy factors overflow" 2 "$ns" topo show "gen:hierarchy:999999999999990x09999999999"
expect "hierarchy overflow refused" "$tmp/err" "expected AxB, A >= 1 machines on each of B >= 1 FE switches"
check "bandwidth 1e-300bps" 2 "$ns" topo show "gen:star:4:bandwidth=1e-300bps"
expect "lower bandwidth limit" "$tmp/err" "bandwidth is below the 1bps limit\$"
check "preset options still override" 0 "$ns" topo show "gen:quadrics:16:bandwidth=1Gbps"

# Work above a documented limit is refused up front (#18.6): all-to-all and
# all-gather on more than 65,536 machines, under the memory cap, at once.
printf 'SwitchName=s0 Nodes=n[0-999998]\n' >"$tmp/star999999.conf"
printf 'SwitchName=s0 Nodes=n[0-65536]\n' >"$tmp/star65537.conf"
printf 'SwitchName=s0 Nodes=n[0-69999]\n' >"$tmp/star70000.conf"
pairwise="above the limit of 65536 machines \(a schedule holds fewer than 2\^32 - 1 transfers\)\$"
check "verify -a on 999,999 machines" 2 limited "$ns" verify -a faraj -T "$tmp/star999999.conf"
expect "verify -a: refused with the limit" "$tmp/err" \
  "^netsched: alltoall on 999999 machines needs at least 999997000002 transfers and 999998000001 bytes of verifier state: $pairwise"
check "plan on 65,537 machines" 2 limited "$ns" plan -a faraj -T "$tmp/star65537.conf" -o "$tmp/p.json"
expect "plan: refused with the limit" "$tmp/err" "alltoall on 65537 machines needs at least 4295032832 transfers"
check "allgather on 70,000 machines" 2 limited "$ns" plan -c allgather -a ring -T "$tmp/star70000.conf" -o "$tmp/p.json"
expect "allgather: refused with the limit" "$tmp/err" "allgather on 70000 machines needs at least 4899930000 transfers"
check "compare on 70,000 machines" 2 limited "$ns" compare -T "$tmp/star70000.conf" -m 8KiB -o "$tmp/cmp"
expect "compare on 70,000: refused as a whole" "$tmp/err" "^netsched: simulating .*star70000.conf: 70000 machines, above the limit of 16384 machines"
check "compare on 70,000 wrote nothing" 1 test -e "$tmp/cmp/compare.csv"
# Simulations: one SimGrid actor per machine, at most 16,384 (a broadcast
# on 999,999 machines once reached 2.8 GB in 120 s).
simlimit="above the limit of 16384 machines \(SimGrid runs one actor per machine"
check "simulate bcast on 999,999 machines" 2 limited "$ns" simulate -c bcast -a binomial -T "$tmp/star999999.conf"
expect "simulate: refused with the limit" "$tmp/err" \
  "^netsched: simulating $tmp/star999999.conf: 999999 machines, $simlimit"
check "compare bcast on 16,385 machines" 2 limited "$ns" compare -c bcast -a binomial -T gen:star:16385 -m 8KiB -o "$tmp/cmp2"
expect "compare bcast: refused up front" "$tmp/err" "^netsched: simulating gen:star:16385: 16385 machines, $simlimit"
check "compare bcast wrote nothing" 1 test -e "$tmp/cmp2/compare.csv"
# #18.9: a 100,000-switch chain (four machines) ran 48 s, then the replay
# died of SIGSEGV: SimGrid's solver recursed along the route.
check "simulate on a 100,000-switch chain" 2 limited "$ns" simulate -a ring -T gen:random:1,4,100000,chain
expect "chain: refused with the limit" "$tmp/err" \
  "^netsched: simulating gen:random:1,4,100000,chain: routes of up to 181896 links, above the limit of 4096 links"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
