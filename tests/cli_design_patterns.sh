#!/usr/bin/env bash
# The v-collectives in the experiment engine (issue #22): design, compare
# and scenarios take a size pattern per row (--pattern, `pattern =`),
# scaled to each message size or fixed to one; rows are keyed by the
# pattern's content (a resume of another pattern is refused); the report
# has the pattern's bound (the same as `netsched bound` of the whole spec)
# and advice that reproduces the pattern; a bound of 0 reads "n/a".
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1
c=$topo/faraj-c.topo

# ---- a small study: alltoallv on topology (c) at two sizes ----------------
check "design alltoallv, random:0.5,7" 0 "$ns" design -T "c=$c" -c alltoallv -a ring,greedy \
  --pattern random:0.5,7 -m 8KiB,64KiB -o st --progress none
expect "8KiB: the pattern's bound, its link" st/summary.csv \
  '^alltoallv,8192,ideal,c,0\.171106640,tie,,mpich ompi,0\.171116370,1\.000057,greedy,0\.256575352,1\.499506,mpich\(spread\),0\.171136640,1\.000175,ompi\(simple\),0\.171116370,1\.000057,link s1->s2 \(2138833B at 100Mbps\),4,35,38,32,$'
expect "64KiB: the pattern scaled" st/summary.csv \
  '^alltoallv,65536,ideal,c,1\.368856080,.*,link s1->s2 \(17110701B at 100Mbps\),'
check "bound of the 8KiB pattern" 0 "$ns" bound -T "$c" -c alltoallv --pattern random:8192B,0.5,7
expect "the bound command agrees" "$tmp/out" \
  '^alltoallv bound    0\.171107 s = 2138833B through link s1->s2 at 100Mbps$'
expect "report names the pattern" st/report.md \
  '^Size pattern `random:0\.5,7`, scaled to this size; the bound is the pattern.s'
expect "rows carry the pattern's bound" st/design.csv \
  '^c,alltoallv,ideal,greedy,greedy,[a-z-]+,8192,1,1,0\.256575352,0\.171106640,1\.499506,'
check "design.csv without nan" 1 grep -qi nan st/design.csv st/summary.csv

# resumed: the same pattern's rows are kept, another seed's refused
check "resume, same pattern" 0 "$ns" design -T "c=$c" -c alltoallv -a ring,greedy \
  --pattern random:0.5,7 -m 8KiB,64KiB -o st --resume --progress none
expect "rows kept" "$tmp/out" "kept from the previous run"
check "resume, another seed" 2 "$ns" design -T "c=$c" -c alltoallv -a ring,greedy \
  --pattern random:0.5,8 -m 8KiB,64KiB -o st --resume --progress none
expect "another pattern refused" "$tmp/err" \
  "compare.csv:2: row of another configuration .*the topology, model, settings or planning parameters differ"

# ---- a scenario: [scenario] pattern as default, a group's own, advice ----
cat >s.ini <<EOF
[scenario]
msizes = 8KiB,64KiB
output = res
pattern = random:0.5,7
[collective alltoallv]
algorithms = ring
[collective allgatherv]
algorithms = lr,simple
pattern = nas-is:3
[topology c]
file = $c
EOF
check "scenario alltoallv + allgatherv" 0 "$ns" design s.ini --progress none
expect "alltoallv took [scenario]'s pattern" res/summary.csv \
  '^alltoallv,65536,ideal,c,1\.368856080,'
expect "allgatherv's own pattern, its port" res/summary.csv \
  "^allgatherv,65536,ideal,c,0\.162754560,.*,n9's receiving port \(1-port\) \(2034432B at 100Mbps\),"
check "bound of the 64KiB nas-is pattern" 0 "$ns" bound -T "$c" -c allgatherv --pattern nas-is:16384,3
expect "the bound command agrees (allgatherv)" "$tmp/out" \
  "^allgatherv bound    0\.162755 s = 2034432B through n9's receiving port \(1-port\) at 100Mbps$"
expect "advice reproduces the pattern" res/report.md \
  "^  - \`netsched plan -T $c -c allgatherv -a lr --pattern nas-is:16384,3 -o c-allgatherv-lr\.json\` writes the schedule; \`netsched generate\` does not lower allgatherv to an MPI routine yet"

# ---- refusals, before anything runs ----------------------------------------
printf '[scenario]\noutput = o\n[collective alltoall]\npattern = uniform\n[topology a]\nfile = gen:star:4\n' >a2a.ini
check "pattern on alltoall" 2 "$ns" design a2a.ini
expect "pattern on alltoall: file:line" "$tmp/err" \
  "^netsched: a2a.ini:4: pattern: only alltoallv and allgatherv take a size pattern \(not alltoall\)$"
printf '[scenario]\noutput = o\npattern = uniform\n[collective alltoall]\n[topology a]\nfile = gen:star:4\n' >unused.ini
check "[scenario] pattern no collective takes" 2 "$ns" design unused.ini
expect "unused pattern: file:line" "$tmp/err" \
  "^netsched: unused.ini:3: pattern: no alltoallv or allgatherv collective takes a size pattern$"
check "alltoallv without a pattern" 2 "$ns" design -T gen:star:4 -c alltoallv -o np
expect "no pattern said" "$tmp/err" \
  "^netsched: --pattern: alltoallv needs a size pattern: uniform, random:SKEW,SEED or nas-is:SEED"
printf '[scenario]\noutput = o\n[collective allgatherv]\n[topology a]\nfile = gen:star:4\n' >nopat.ini
check "scenario allgatherv without a pattern" 2 "$ns" design nopat.ini
expect "no pattern: the group's line" "$tmp/err" \
  "^netsched: nopat.ini:3: pattern: allgatherv needs a size pattern: "
check "a fixed pattern at two sizes" 2 "$ns" design -T gen:star:4 -c alltoallv \
  --pattern uniform:1KiB -m 8KiB,64KiB -o fx
expect "fixed pattern said" "$tmp/err" \
  "--pattern: 'uniform:1KiB' fixes every size, so it goes with one message size, not 2 \(or scale a generator"
printf 'netsched-pattern 1 alltoallv 4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n' >zero.pat
check "a pattern of other p than a design" 2 "$ns" design -T "c=$c" -c alltoallv --pattern zero.pat \
  -m 1KiB -o wp
expect "design and p named" "$tmp/err" \
  "^netsched: \[topology c\]: zero.pat: the pattern has 4 machines, the topology 32$"
check "a scaled generator out of range" 2 "$ns" design -T gen:star:4 -c alltoallv \
  --pattern random:2,1 -m 1KiB -o rr
expect "user's spec and size named" "$tmp/err" \
  "^netsched: \[topology design1\]: --pattern random:2,1 at 1KiB \(random:1024B,2,1\): SKEW '2' is not a number from 0 to 1$"
check "design --pattern without a v-collective" 2 "$ns" design -T gen:star:4 --pattern uniform -o nv
expect "no v-collective said" "$tmp/err" \
  "^netsched: --pattern: only alltoallv and allgatherv take a size pattern \(-c alltoall\)$"

# ---- a bound of 0: the pattern moves nothing -------------------------------
check "zero pattern" 0 "$ns" design -T z=gen:star:4 -c alltoallv -a ring --pattern zero.pat \
  -m 1KiB -o zero --progress none
expect "recommendation: the bound n/a" zero/report.md \
  "^  - alltoallv: -, the bound n/a; no algorithm named: "
expect "defaults without a ratio" zero/report.md "MPICH default mpich\(spread\): the fastest's time n/a"
expect "bottleneck: nothing" zero/summary.csv "nothing \(the pattern moves no bytes\)"
check "no inf, no nan" 1 grep -Eqi "inf|nan" zero/report.md zero/z-ideal/compare.csv

# ---- compare: a file changed between runs is another pattern --------------
printf 'netsched-pattern 1 allgatherv 4\n1KiB\n2KiB\n0\n4KiB\n' >g.pat
check "compare allgatherv --pattern FILE" 0 "$ns" compare -T gen:star:4 -c allgatherv -a ring,simple \
  --pattern g.pat -m 1KiB -o cmp
expect "compare row: the pattern's bound" cmp/compare.csv ',allgatherv,ideal,ring,ring,.*,1024,'
printf 'netsched-pattern 1 allgatherv 4\n1KiB\n2KiB\n1B\n4KiB\n' >g.pat
check "compare --resume, the file changed" 2 "$ns" compare -T gen:star:4 -c allgatherv -a ring,simple \
  --pattern g.pat -m 1KiB -o cmp --resume
expect "changed file refused" "$tmp/err" "row of another configuration"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
