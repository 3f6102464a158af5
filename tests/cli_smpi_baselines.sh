#!/usr/bin/env bash
# SMPI's own collectives as baselines (issue #20 §3): `compare` and
# `design` run smpi:ALGO / smpi:coll-selector=NAME under smpirun beside
# netsched's algorithms. smpi:pair and netsched's pair agree within 1 % on
# topology (b) at 64 KiB; names are checked before anything runs; the
# private directory is gone after a run and after SIGTERM (while smpirun
# runs or while smpicc compiles: nothing is left in TMPDIR), and no SMPI
# process outlives it. Skipped (77) without smpicc/smpirun.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
require_smpi
cd "$tmp" || exit 1
b="$topo/faraj-b.topo"
mkdir private
export TMPDIR="$tmp/private" # where the baselines' private directories go

# ---- names and models are checked before anything runs -------------------------
check "unknown SMPI algorithm" 2 "$ns" compare -T "$b" -a smpi:nosuch,pair -m 64KiB -M smpi -o bad
expect "unknown: names it and the known ones" "$tmp/err" "unknown SMPI baseline 'smpi:nosuch' for alltoall .*pair_light_barrier"
check "nothing ran" 1 test -e bad/compare.csv
check "unknown selector" 2 "$ns" compare -T "$b" -a smpi:coll-selector=lam -m 64KiB -M smpi -o bad
expect "unknown selector: names the known ones" "$tmp/err" "coll-selector=NAME with NAME one of ompi, mpich"
check "an algorithm of another collective" 2 "$ns" compare -T "$b" -c bcast -a smpi:pair -m 64KiB -M smpi -o bad
check "bad characters" 2 "$ns" compare -T "$b" -a 'smpi:pair;ls' -m 64KiB -M smpi -o bad
expect "bad characters: says the spelling" "$tmp/err" "an SMPI baseline is smpi:ALGO or smpi:coll-selector=NAME"
check "listed twice" 2 "$ns" compare -T "$b" -a smpi:pair,smpi:pair -m 64KiB -M smpi -o bad
check "another model" 2 "$ns" compare -T "$b" -a smpi:pair -m 64KiB -M ideal -o bad
expect "another model: says which" "$tmp/err" "smpi:pair is measured by smpirun under SMPI's network model: use --model smpi, not ideal"

# ---- smpi:pair beside pair ----------------------------------------------------------
check "compare smpi:pair,pair" 0 "$ns" compare -T "$b" -a smpi:pair,pair,smpi:coll-selector=mpich -m 64KiB -M smpi -o cmp
expect "table labels the SMPI row" "$tmp/out" "^smpi:pair +64KiB .*measured by SMPI \(smpirun\)"
expect "csv: the SMPI row" cmp/compare.csv ",smpi:pair,smpi:pair,smpirun,65536,0,0,[0-9.]+,"
expect "csv: the selector row" cmp/compare.csv ",smpi:coll-selector=mpich,smpi:coll-selector=mpich,smpirun,65536,"
smpi=$(awk -F, '$5 == "smpi:pair" { print $11 }' cmp/compare.csv)
ours=$(awk -F, '$5 == "pair" { print $11 }' cmp/compare.csv)
if awk -v a="$smpi" -v b="$ours" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; exit !(a != "" && d < 0.01) }'; then
  echo "ok - smpi:pair $smpi s, pair $ours s"; passed=$((passed + 1))
else
  echo "not ok - smpi:pair '$smpi' s, pair '$ours' s: not within 1 %"; failures=$((failures + 1))
fi
check "no private directory left" 0 test -z "$(ls -A private)"

# ---- design: an SMPI baseline beside the study's algorithms --------------------------
printf '[scenario]\noutput = dsg\nmodels = smpi\nmsizes = 64KiB\nalgorithms = smpi:pair,pair\n[topology b]\nfile = %s\n' "$b" > d.ini
check "design with smpi:pair" 0 "$ns" scenario run d.ini
expect "design.csv: the SMPI row" dsg/design.csv "^b,alltoall,smpi,smpi:pair,smpi:pair,smpirun,65536,0,0,[0-9.]+,"
printf '[scenario]\noutput = dsg2\nmodels = smpi\nmsizes = 64KiB\nalgorithms = smpi:nosuch\n[topology b]\nfile = %s\n' "$b" > bad.ini
check "design: unknown baseline" 2 "$ns" scenario run bad.ini
expect "design: unknown baseline named" "$tmp/err" "unknown SMPI baseline 'smpi:nosuch'"
check "no private directory left by design" 0 test -z "$(ls -A private)"
# design's and scenario's --cfg (and the file's cfg) reach smpirun after
# netsched's own --cfg=smpi/alltoall:pair: smpi:pair is then SMPI's bruck,
# to the nanosecond
baseline_time() { awk -F, -v a="$2" '$4 == a { print $10 }' "$1"; }
check "design smpi:pair,smpi:bruck" 0 "$ns" design -T s=gen:star:4 -a smpi:pair,smpi:bruck -M smpi -m 8KiB -o dcfg1
check "design smpi:pair --cfg smpi/alltoall:bruck" 0 "$ns" design -T s=gen:star:4 -a smpi:pair -M smpi -m 8KiB --cfg smpi/alltoall:bruck -o dcfg2
printf '[scenario]\noutput = dcfg3\nmodels = smpi\nmsizes = 8KiB\nalgorithms = smpi:pair\ncfg = smpi/alltoall:bruck\n[topology s]\nfile = gen:star:4\n' > cfg.ini
check "scenario smpi:pair, cfg = smpi/alltoall:bruck" 0 "$ns" scenario run cfg.ini
pair=$(baseline_time dcfg1/design.csv smpi:pair) bruck=$(baseline_time dcfg1/design.csv smpi:bruck)
check "SMPI's pair ($pair s) and bruck ($bruck s) differ on the star" 1 test "$pair" = "$bruck"
check "design --cfg: smpi:pair runs bruck" 0 test "$(baseline_time dcfg2/design.csv smpi:pair)" = "$bruck"
check "scenario cfg: smpi:pair runs bruck" 0 test "$(baseline_time dcfg3/design.csv smpi:pair)" = "$bruck"
check "scenario smpi:pair, --cfg smpi/alltoall:pair after the file's bruck" 0 "$ns" scenario run cfg.ini --cfg smpi/alltoall:pair --overwrite
check "scenario --cfg after the file's: pair again" 0 test "$(baseline_time dcfg3/design.csv smpi:pair)" = "$pair"

# ---- SIGTERM while smpirun runs: no directory, no process left ----------------------
# (SIGTERM: a background job of a script ignores SIGINT)
"$ns" compare -T gen:star:128 -a smpi:ring -m 1MiB -M smpi -o sig >sig.out 2>sig.err &
pid=$!
for _ in $(seq 1 600); do
  [[ -n "$(ls -A private)" ]] && break
  sleep 0.1
done
started=$(ls -A private)
sleep 0.5
kill -TERM "$pid"
wait "$pid"
status=$?
check "a private directory existed while smpirun ran" 0 test -n "$started"
check "ended by SIGTERM (143)" 0 test "$status" -eq 143
check "no private directory left after SIGTERM" 0 test -z "$(ls -A private)"
check "no SMPI process left" 1 pgrep -f "$tmp/private"
check "no lock file left after SIGTERM" 1 test -e sig/.netsched.lock

# ---- SIGTERM while smpicc compiles: the compiler's temporary files (TMPDIR) go too --
# Every child runs with TMPDIR a private directory of netsched's, removed however
# the child ends; the group gets SIGTERM first (gcc removes its files), SIGKILL
# only after a grace. Stopped as soon as the compiler has a file there.
"$ns" compare -T gen:star:128 -a smpi:ring -m 1MiB -M smpi -o sig2 >sig2.out 2>sig2.err &
pid=$!
compiling=""
for _ in $(seq 1 3000); do
  compiling=$(find private -name 'cc*' -print -quit)
  [[ -n "$compiling" ]] && break
  sleep 0.01
done
kill -TERM "$pid"
wait "$pid"
status=$?
check "the compiler had a temporary file in TMPDIR" 0 test -n "$compiling"
check "compile ended by SIGTERM (143)" 0 test "$status" -eq 143
check "nothing left in TMPDIR after a stopped compile" 0 test -z "$(ls -A private)"
check "no compiler left" 1 pgrep -f "$tmp/private"
check "no lock file left after a stopped compile" 1 test -e sig2/.netsched.lock

# Without SMPI's tools in PATH the baseline's row says where they come from
# (the child reports exec's ENOENT to the parent, which adds the hint).
check "smpi:pair without smpicc in PATH: no row has a result" 2 \
  env PATH=/nonexistent "$ns" compare -T gen:star:4 -a smpi:pair -m 8KiB -M smpi -o nosmpicc
expect "the row says smpicc is missing and where it comes from" nosmpicc/compare.csv \
  ",cannot run smpicc: No such file or directory \(SMPI runs need smpicc and smpirun: Debian's libsimgrid-dev\)$"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
