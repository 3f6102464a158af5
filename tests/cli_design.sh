#!/usr/bin/env bash
# The design study from the command line: scenario and design files that
# cannot lie (file:line errors, exit 2), a repeated -T refused, and a small
# end-to-end study whose outputs carry topology, collective and model.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1

# ---- compare and scenario files refuse what they would silently ignore ----
check "compare: -T twice" 2 "$ns" compare -T gen:star:4 -T gen:star:8 -o cmp
expect "names both" "$tmp/err" "gen:star:4.*gen:star:8|given twice|more than once"

printf '[scenario]\nalgorithms = ring\noutput = o\nsegment =\n[topology a]\nfile = gen:star:4\n' > empty.ini
check "empty value" 2 "$ns" scenario run empty.ini
expect "empty value: file:line" "$tmp/err" "empty.ini:4: "

printf '[scenario]\nalgorithms = ring\noutput = o\n[topolgy y]\nfile = gen:star:4\n' > group.ini
check "misspelt group" 2 "$ns" scenario run group.ini
expect "misspelt group: file:line" "$tmp/err" "group.ini:4: unknown group \[topolgy y\]"

printf '[scenario]\nalgorithms = ring\noutput = o\nsegmnet = 8KiB\n[topology a]\nfile = gen:star:4\n' > key.ini
check "misspelt key" 2 "$ns" scenario run key.ini
expect "misspelt key: file:line" "$tmp/err" "key.ini:4: unknown key 'segmnet'"

printf '[scenario]\ncollective = bcast\noutput = o\n[collective alltoall]\n[topology a]\nfile = gen:star:4\n' > both.ini
check "collective key and group" 2 "$ns" scenario run both.ini
expect "both: file:line" "$tmp/err" "both.ini:2: .*exclude each other"

printf '[scenario]\noutput = o\n[collective gather]\n[topology a]\nfile = gen:star:4\n' > coll.ini
check "unknown collective group" 2 "$ns" scenario run coll.ini
expect "unknown collective: file:line" "$tmp/err" "coll.ini:3: unknown collective 'gather'"

printf '[scenario]\noutput = o\n[collective bcast]\n[topology a b]\nfile = gen:star:4\n' > name.ini
check "topology name with a space" 2 "$ns" scenario run name.ini
expect "bad name: file:line" "$tmp/err" "name.ini:4: topology name 'a b'"

printf '[scenario]\noutput = o\n[collective bcast]\n[topology a]\nfile = gen:star:4\nversus = b\n' > versus.ini
check "versus names no design" 2 "$ns" scenario run versus.ini
expect "versus: file:line" "$tmp/err" "versus.ini:4: .*versus 'b'"

printf '[scenario]\noutput = o\nruns = 0\n[collective bcast]\n[topology a]\nfile = gen:star:4\n' > runs.ini
check "runs out of range" 2 "$ns" scenario run runs.ini
expect "runs: file:line" "$tmp/err" "runs.ini:3: runs '0'"

# #18.11: models and msizes errors name their line; wall-limit is finite
printf '[scenario]\noutput = o\nmodels = ideal,nosuch\n[collective bcast]\n[topology a]\nfile = gen:star:4\n' > models.ini
check "unknown model" 2 "$ns" scenario run models.ini
expect "model: file:line" "$tmp/err" "^netsched: models.ini:3: unknown network model 'nosuch'"
printf '[scenario]\noutput = o\n[collective bcast]\n[topology a]\nfile = gen:star:4\nmodels = tcp,bogus\n' > models2.ini
check "unknown model of a design" 2 "$ns" scenario run models2.ini
expect "design model: file:line" "$tmp/err" "^netsched: models2.ini:6: unknown network model 'bogus'"
printf '[scenario]\noutput = o\nmsizes = 8KiB..4KiB\n[collective bcast]\n[topology a]\nfile = gen:star:4\n' > msizes.ini
check "bad msizes" 2 "$ns" scenario run msizes.ini
expect "msizes: file:line" "$tmp/err" "^netsched: msizes.ini:3: msizes"
printf '[scenario]\noutput = o\nwall-limit = 1e400\n[collective bcast]\n[topology a]\nfile = gen:star:4\n' > wall.ini
check "wall-limit 1e400" 2 "$ns" scenario run wall.ini
expect "wall-limit refused" "$tmp/err" "^netsched: wall.ini:3: wall-limit '1e400': expected seconds > 0 and at most 1e9\$"

printf '[scenario]\noutput = o\n[collective bcast]\nalgorithms = linear\nroot = n9\n[topology a]\nfile = gen:star:4\n' > root.ini
check "bcast root not a machine" 2 "$ns" scenario run root.ini
expect "root named" "$tmp/err" "root 'n9' is not a machine of design a"
check "nothing ran" 1 test -e o

printf '[scenario]\noutput = o\nprices = p.ini\n[collective alltoall]\nalgorithms = ring\n[topology a]\nfile = gen:star:4\n' > price.ini
printf '[prices]\ncable = 1Gbps:x\n' > p.ini
check "bad price file" 2 "$ns" scenario run price.ini
expect "price: file:line" "$tmp/err" "p.ini:2: cable: price 'x'"

# ---- a compare.csv of the 17-column format is upgraded on resume ----
check "compare for the upgrade" 0 "$ns" compare -T gen:star:4 -a ring,simple -m 8KiB -o up
awk -F, 'BEGIN{OFS=","} {print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$20}' \
  up/compare.csv > v1.csv && mv v1.csv up/compare.csv
check "old format: no runs column" 1 grep -q completion_min_s up/compare.csv
check "resume upgrades it" 0 "$ns" compare -T gen:star:4 -a ring,simple -m 8KiB -o up --resume
expect "says so" "$tmp/err" "upgraded to the current compare.csv format"
expect "keeps the rows" "$tmp/out" "kept from the previous run"
expect "new columns" up/compare.csv "^config,.*,runs,completion_min_s,completion_max_s,status$"
expect "runs 1, min = max" up/compare.csv ",1,([0-9.]+),\\1,ok$"

# ---- design: command line ----
check "design: file and -T" 2 "$ns" design versus.ini -T gen:star:4
check "design: file and options" 2 "$ns" design versus.ini -m 8KiB
check "design: same name twice" 2 "$ns" design -T a=gen:star:4 -T a=gen:star:8 -o d0
expect "twice" "$tmp/err" "design 'a' is given twice"
check "design: hostile name" 2 "$ns" design -T 'x;rm=gen:star:4' -o d0
expect "hostile name refused" "$tmp/err" "design name 'x;rm'"
check "design: algorithms with several collectives" 2 "$ns" design -T gen:star:4 \
  -c alltoall,bcast -a ring
check "design: unknown algorithm" 2 "$ns" design -T gen:star:4 -a rnig
expect "lists the known ones" "$tmp/err" "unknown alltoall algorithm 'rnig' \(known: faraj"

check "design: two designs, three collectives" 0 "$ns" design \
  -T single=gen:star:8:bandwidth=1Gbps -T chain=gen:chain:2,4:bandwidth=1Gbps \
  -c alltoall,allgather,bcast -m 64KiB -o d1
for f in design.csv summary.csv report.md alltoall-ideal.dat alltoall-ideal.gp \
  bcast-ideal.gp single-ideal-alltoall/compare.csv chain-ideal-bcast/compare.csv; do
  check "wrote $f" 0 test -s "d1/$f"
done
expect "design.csv columns" d1/design.csv "^topology,collective,model,label,algorithm,"
expect "design.csv rows of both designs" d1/design.csv "^chain,allgather,ideal,lr1,"
expect "design.csv rows of both designs" d1/design.csv "^single,bcast,ideal,"
expect "MPI defaults added" d1/design.csv "^single,alltoall,ideal,ompi,ompi\("
expect "summary hardware" d1/summary.csv "^alltoall,65536,ideal,chain,.*,2,9,10,8,$"
expect "fluid names nothing in a tie" d1/report.md "no algorithm named: the ideal model \(fluid\) ties"
expect "report has a recommendation" d1/report.md "^## Recommendation \(at 64KiB\)"
expect "plot y axes from zero, with headroom" d1/alltoall-ideal.gp "set yrange \[0:[0-9.]+\]"
check "no autoscaled top that cuts the tallest bar" 1 grep -q "yrange \[0:\*\]" d1/alltoall-ideal.gp
expect "bars name their algorithm" d1/alltoall-ideal.gp "with labels"
# The report links only files that exist: the plots of every collective,
# no MODEL placeholder.
check "no placeholder link" 1 grep -q "MODEL" d1/report.md
for c in alltoall allgather bcast; do
  expect "links the $c plot" d1/report.md "\[$c-ideal.svg\]\($c-ideal.svg\)"
done
links=$(grep -o '](\([^)]*\))' d1/report.md | sed 's/^](//; s/)$//')
check "the report has links" 0 test -n "$links"
for l in $links; do
  check "link $l exists" 0 test -f "d1/$l"
done
# Issue 17.7: a refused row has no bound (an empty field, not 0); a compare
# whose every row is refused fails, with no plot.
check "design with a refused algorithm" 0 "$ns" design -T six=gen:star:6 -a pair,ring -m 8KiB \
  -o dref
expect "refused row: bound_s and bound_mbps empty" dref/design.csv \
  "^six,alltoall,ideal,pair,pair,none,8192,0,0,,,,,,,,,alltoall/pair needs a power-of-two"
expect "its compare.csv too" dref/six-ideal/compare.csv \
  ",pair,pair,none,8192,0,0,,,,,,,,,,alltoall/pair needs"
check "compare: every row refused" 2 "$ns" compare -T gen:star:6 -a pair -m 8KiB,16KiB -o allref
expect "says so" "$tmp/err" "no row has a result: every algorithm was refused or failed"
check "no plot written" 1 test -e allref/compare.gp
check "the rows are kept" 0 grep -q "needs a power-of-two" allref/compare.csv
check "a directory with results refused" 2 "$ns" design \
  -T single=gen:star:8:bandwidth=1Gbps -T chain=gen:chain:2,4:bandwidth=1Gbps \
  -c alltoall,allgather,bcast -m 64KiB -o d1
expect "names both flags" "$tmp/err" "^netsched: d1 holds results of an earlier run \(design.csv\): add --resume to continue them or --overwrite to start afresh$"
check "resume runs nothing again" 0 "$ns" design \
  -T single=gen:star:8:bandwidth=1Gbps -T chain=gen:chain:2,4:bandwidth=1Gbps \
  --collectives alltoall,allgather -c bcast --msizes 64KiB -o d1 --resume
expect "kept rows" "$tmp/out" "kept from the previous run"
# -o DIR/ prints paths joined once: d1/single-ideal-alltoall/compare.svg
expect "paths printed" "$tmp/out" "wrote d1/single-ideal-alltoall/compare.csv, d1/single-ideal-alltoall/compare.svg"
check "no doubled slash in paths" 1 grep -q "//" "$tmp/out"
check "compare -o DIR/" 0 "$ns" compare -T gen:star:4 -a ring -m 8KiB -o cmp/
expect "compare paths" "$tmp/out" "^wrote cmp/compare.csv, cmp/compare.svg, cmp/compare.png$"
check "resume of another configuration" 2 "$ns" design \
  -T single=gen:star:8:bandwidth=10Gbps -T chain=gen:chain:2,4:bandwidth=1Gbps \
  -c alltoall,allgather,bcast -m 64KiB -o d1 --resume
expect "says why" "$tmp/err" "row of another configuration"

# ---- a design file with a change and prices ----
mkdir -p study
cat > study/prices.ini <<'EOF'
[prices]
currency = EUR
switch = 1000
switch-port = 1Gbps:40, 10Gbps:300
nic-port = 1Gbps:30
cable = 1Gbps:5, 10Gbps:60
EOF
cat > study/design.ini <<'EOF'
[scenario]
description = two leaves, slow or fast uplinks
msizes = 64KiB
output = out
prices = prices.ini
[collective alltoall]
algorithms = faraj,ring,simple
[topology slow]
file = gen:chain:2,4:bandwidth=1Gbps
description = 1 Gbit/s uplink
[topology fast]
file = gen:chain:2,4:bandwidth=1Gbps:uplink=10Gbps
versus = slow
change = 10 Gbit/s uplink
EOF
check "design file" 0 "$ns" design study/design.ini
expect "output relative to the file" study/out/summary.csv "^alltoall,65536,ideal,fast,"
expect "cost column" study/out/summary.csv "^alltoall,65536,ideal,fast,.*,3260.00$"
expect "cost column" study/out/summary.csv "^alltoall,65536,ideal,slow,.*,2685.00$"
expect "what one change buys" study/out/report.md "\*\*fast\*\* vs slow \(10 Gbit/s uplink\): alltoall 64KiB [0-9.]+x faster \(ideal\)"
expect "cost per throughput" study/out/report.md "EUR per Gbit/s of all-to-all throughput"
# A chassis priced by its ports (one 8-port switch: 8 machines; two 5-port
# ones: 4 machines and the link), and a design with its own price file.
cat > study/chassis.ini <<'EOF'
[prices]
switch = 4:100, 8:300, 48:2000
cable = 1Gbps:5
EOF
cat > study/big-chassis.ini <<'EOF'
[prices]
switch = 8:900
EOF
cat > study/ports.ini <<'EOF'
[scenario]
msizes = 64KiB
output = ports-out
prices = chassis.ini
[collective alltoall]
algorithms = ring
[topology one]
file = gen:star:8:bandwidth=1Gbps
[topology two]
file = gen:chain:2,4:bandwidth=1Gbps
[topology dear]
file = gen:star:8:bandwidth=1Gbps
prices = big-chassis.ini
EOF
check "prices by port count" 0 "$ns" design study/ports.ini
expect "8-port chassis" study/ports-out/summary.csv "^alltoall,65536,ideal,one,.*,340.00$"
expect "two 5-port chassis" study/ports-out/summary.csv "^alltoall,65536,ideal,two,.*,645.00$"
expect "the design's own chassis price" study/ports-out/summary.csv "^alltoall,65536,ideal,dear,.*,940.00$"
printf '[scenario]\nmsizes = 64KiB\noutput = o\nprices = small.ini\n[collective alltoall]\nalgorithms = ring\n[topology a]\nfile = gen:star:8\n' > study/small-study.ini
printf '[prices]\nswitch = 4:100\n' > study/small.ini
check "no chassis big enough" 2 "$ns" design study/small-study.ini
expect "names the switch" "$tmp/err" "design a: switch s0 has 8 ports; the largest chassis of the 'switch' prices has 4"
printf '[scenario]\nmsizes = 64KiB\noutput = o\n[collective alltoall]\nalgorithms = ring\n[topology a]\nfile = gen:star:8\nprices = chassis.ini\n' > study/alone.ini
check "design prices without study prices" 2 "$ns" design study/alone.ini
expect "says so" "$tmp/err" "alone.ini:8: prices in \[topology a\] override the study's"
check "scenario: results refused" 2 "$ns" scenario run study/design.ini
expect "scenario names both flags" "$tmp/err" "holds results of an earlier run \(design.csv\): add --resume to continue them or --overwrite to start afresh$"
check "scenario run is the same study" 0 "$ns" scenario run study/design.ini --resume
expect "scenario resumes the design's runs" "$tmp/out" "kept from the previous run"
check "scenario --overwrite starts afresh" 0 "$ns" scenario run study/design.ini --overwrite \
  --progress-interval 0.000001
expect "design progress lines in a log" "$tmp/err" "^design: [0-9]+/10 rows \([0-9]+ %\), [0-9]+s"
expect "design progress done" "$tmp/err" "^design: 10/10 rows done in [0-9]+s$"
cp "$tmp/out" overwrite.out
check "nothing kept" 1 grep -q "kept from the previous run" overwrite.out
check "design --overwrite" 0 "$ns" design study/design.ini --overwrite --progress none
cp "$tmp/out" overwrite.out
check "design --overwrite keeps nothing" 1 grep -q "kept from the previous run" overwrite.out
# design -j: the rows in worker processes (the sweep's pool), written in the
# order of one at a time: the log and every file the same bytes
check "design -j 1" 0 "$ns" design study/design.ini --overwrite -j 1 --progress none
cp "$tmp/out" one-at-a-time.log
cp study/out/design.csv one-at-a-time.csv && cp study/out/summary.csv one-at-a-time-summary.csv
cp study/out/report.md one-at-a-time-report.md
cp study/out/slow-ideal/compare.csv one-at-a-time-run.csv
check "design -j 2" 0 "$ns" design study/design.ini --overwrite -j 2 --progress none
check "-j 2: the log as one at a time" 0 cmp "$tmp/out" one-at-a-time.log
check "-j 2: design.csv as one at a time" 0 cmp study/out/design.csv one-at-a-time.csv
check "-j 2: summary.csv as one at a time" 0 cmp study/out/summary.csv one-at-a-time-summary.csv
check "-j 2: report.md as one at a time" 0 cmp study/out/report.md one-at-a-time-report.md
check "-j 2: a run's compare.csv as one at a time" 0 \
  cmp study/out/slow-ideal/compare.csv one-at-a-time-run.csv
check "the default -j (the cores) keeps nothing either" 0 "$ns" design study/design.ini --overwrite
check "default -j: the log as one at a time" 0 cmp "$tmp/out" one-at-a-time.log
check "bad -j" 2 "$ns" design study/design.ini --resume -j -1
expect "-j named" "$tmp/err" "^netsched: -j -1: expected 1 to 4096 jobs$"
check "--retry-failed resumes" 0 "$ns" design study/design.ini --retry-failed
expect "--retry-failed kept rows" "$tmp/out" "kept from the previous run"

# Scenario, price and calibration files go through the bounded reader.
check "endless scenario" 2 "$ns" design /dev/zero
expect "scenario limit named" "$tmp/err" "^netsched: /dev/zero: configuration larger than the 16 MiB limit$"
check "directory as prices" 2 "$ns" design -T a=gen:star:4 --prices "$tmp" -o p
expect "prices directory named" "$tmp/err" "is a directory, not a configuration file"

# ---- SimGrid options (--cfg, the file's cfg): checked before anything runs, then passed on
printf '[scenario]\noutput = o\ncfg = smpi/bw-factor:0:0.5 nonsense\n[collective alltoall]\n[topology a]\nfile = gen:star:4\n' > cfg.ini
check "cfg without NAME:VALUE in a file" 2 "$ns" scenario run cfg.ini
expect "cfg: file:line names the word" "$tmp/err" "^netsched: .*cfg.ini:3: cfg 'nonsense': expected NAME:VALUE$"
check "... nothing ran" 1 test -e o
check "design --cfg without NAME:VALUE" 2 "$ns" design -T a=gen:star:4 -a ring -m 8KiB --cfg nonsense -o c
expect "design --cfg: says the option" "$tmp/err" "^netsched: --cfg 'nonsense': expected NAME:VALUE$"
check "... nothing ran" 1 test -e c/design.csv
printf '[scenario]\noutput = o\nmodels = smpi\nmsizes = 8KiB\n[collective alltoall]\nalgorithms = ring\n[topology a]\nfile = gen:star:4\n' > plain.ini
check "scenario run --cfg without NAME:VALUE" 2 "$ns" scenario run plain.ini --cfg :1
expect "scenario --cfg: says the option" "$tmp/err" "^netsched: --cfg ':1': expected NAME:VALUE$"
# The replay gets them after netsched's own: a bandwidth factor of 0.5 (SMPI's
# is 1.087 at 8 KiB) more than doubles an 8 KiB ring on a star, from the
# file as from --cfg; --cfg comes after the file's (the last one wins).
ring_time() { awk -F, '$5 == "ring" { print $10 }' "$1"; }
check "design -M smpi" 0 "$ns" design -T a=gen:star:4 -a ring -M smpi -m 8KiB -o cfg1
check "design --cfg smpi/bw-factor:0:0.5" 0 "$ns" design -T a=gen:star:4 -a ring -M smpi -m 8KiB --cfg smpi/bw-factor:0:0.5 -o cfg2
printf '[scenario]\noutput = cfg3\nmodels = smpi\nmsizes = 8KiB\ncfg = smpi/bw-factor:0:0.5\n[collective alltoall]\nalgorithms = ring\n[topology a]\nfile = gen:star:4\n' > half.ini
check "scenario with cfg = smpi/bw-factor:0:0.5" 0 "$ns" scenario run half.ini
t1=$(ring_time cfg1/design.csv) t2=$(ring_time cfg2/design.csv) t3=$(ring_time cfg3/design.csv)
# SMPI's own default factors (SimGrid 3.32): ';' and ':' inside a value
smpi_bw='smpi/bw-factor:65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;257:0.338112;0:0.812084'
check "design FILE --cfg (SMPI's default factors) after the file's 0:0.5" 0 "$ns" design half.ini --cfg "$smpi_bw" --overwrite
t4=$(ring_time cfg3/design.csv)
check "--cfg reaches the replay: $t2 s against $t1 s" 0 awk -v a="$t2" -v b="$t1" 'BEGIN { exit !(b > 0 && a > 1.8 * b) }'
check "the file's cfg is --cfg's: $t3 s" 0 test "$t3" = "$t2"
check "--cfg after the file's wins: $t4 s" 0 test "$t4" = "$t1"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
