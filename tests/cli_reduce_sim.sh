#!/usr/bin/env bash
# The replay of reductions and size patterns on the command line (issue
# #22, reduce-sim; docs/simulator.md, "Reductions and variable sizes"):
# --reduce-rate on simulate, compare and design (and reduce-rate in a
# scenario file) is checked before anything runs; a rate changes nothing
# for a collective without combining transfers; every message that lists
# the collectives names all seven. The compute cost and the per-transfer
# sizes themselves are checked on hand-made schedules in tests/test_sim.c
# (/sim/reduce-compute-cost, /sim/allreduce-compute-cost,
# /sim/alltoallv-sizes).
source "$(dirname "$0")/cli-common.bash"
if [[ "${NETSCHED_SIMULATOR:-1}" != 1 ]]; then
  echo "1..0 # SKIP needs the simulator"
  exit 77
fi
cd "$tmp" || exit 1
all="alltoall, allgather, bcast, reduce, allreduce, alltoallv, allgatherv"

# --reduce-rate: 0 or a bandwidth with its unit, else exit 2 naming the option
check "--reduce-rate without unit" 2 "$ns" simulate -T gen:star:4 -a ring --reduce-rate 5
expect "… message" "$tmp/err" "^netsched: --reduce-rate '5': missing unit \(units are never guessed: write e.g. 100Mbps\)$"
check "--reduce-rate negative" 2 "$ns" simulate -T gen:star:4 -a ring --reduce-rate -1GBps
expect "… message" "$tmp/err" "^netsched: --reduce-rate '-1GBps': negative value$"
check "--reduce-rate compare" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB --reduce-rate fast -o c0
expect "… message" "$tmp/err" "--reduce-rate 'fast': "
check "… nothing created" 1 test -e c0
check "--reduce-rate design" 2 "$ns" design -T gen:star:4 -a ring -m 8KiB --reduce-rate 1e9 -o d0
expect "… message" "$tmp/err" "--reduce-rate '1e9': missing unit"
check "… nothing created" 1 test -e d0

# No combining transfer: the rate changes nothing (0, the default, 1 MB/s)
completion() {
  "$ns" simulate -T gen:star:4 -a ring -m 16KiB --json "$@" |
    awk -F': ' '/"completion_s"/ { gsub(",", "", $2); print $2 }'
}
default=$(completion)
free=$(completion --reduce-rate 0)
slow=$(completion --reduce-rate 1MBps)
check "alltoall: rate 0 = default" 0 test -n "$default" -a "$default" = "$free"
check "alltoall: rate 1MBps = default" 0 test "$default" = "$slow"

# A rate keys compare.csv: another rate does not resume its rows
check "compare at 1GBps" 0 "$ns" compare -T gen:star:4 -a ring -m 8KiB --reduce-rate 1GBps -o c1
check "… resumed at 2GBps refused" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB --reduce-rate 2GBps \
  -o c1 --resume
expect "… says why" "$tmp/err" "settings or planning parameters differ"
check "… resumed at 1GBps" 0 "$ns" compare -T gen:star:4 -a ring -m 8KiB --reduce-rate 1GBps -o c1 --resume

# A calibration carries the machines' rate (calibrate --reduce-rate, measured
# by scripts/measure-reduce-rate.sh); an explicit --reduce-rate wins over it
cal=$src/scenarios/calibrations/beowulf-gige.csv
check "calibrate --reduce-rate" 0 "$ns" calibrate "$cal" -o cal.ini --reduce-rate 1GBps
expect "… reported" "$tmp/out" "^reduce-rate  8Gbps \(1e\+09 bytes/s\): reductions combine at it$"
expect "… written" cal.ini "^reduce-rate=8Gbps$"
check "calibrate --reduce-rate 0GBps" 2 "$ns" calibrate "$cal" -o cal0.ini --reduce-rate 0GBps
expect "… message" "$tmp/err" "^netsched calibrate: --reduce-rate '0GBps': bandwidth must be positive$"
check "… nothing written" 1 test -e cal0.ini
check "compare under the calibration" 0 "$ns" compare -T gen:star:4 -a ring -m 8KiB --calibration cal.ini -o c3
check "… resumed with its rate given" 0 "$ns" compare -T gen:star:4 -a ring -m 8KiB --calibration cal.ini \
  --reduce-rate 1GBps -o c3 --resume
check "… resumed with another rate refused" 2 "$ns" compare -T gen:star:4 -a ring -m 8KiB \
  --calibration cal.ini --reduce-rate 2GBps -o c3 --resume

# Every list of collectives names all seven
check "compare -c" 2 "$ns" compare -T gen:star:4 -c scatter -o c2
expect "… lists all" "$tmp/err" "unknown collective 'scatter' \($all\)"
check "design --collective" 2 "$ns" design -T gen:star:4 --collective scatter -o d1
expect "… lists all" "$tmp/err" "unknown collective 'scatter' \($all\)"
check "bound -c" 2 "$ns" bound -T gen:star:4 -c scatter
expect "… lists all" "$tmp/err" "unknown collective 'scatter' \($all\)"
check "simulate -c" 2 "$ns" simulate -T gen:star:4 -c scatter -a ring
expect "… lists all" "$tmp/err" "unknown collective 'scatter' \($all\)"
check "--help lists all" 0 "$ns" simulate --help
expect "… in -c" "$tmp/out" "alltoall\|allgather\|bcast\|reduce\|allreduce\|alltoallv\|allgatherv"
cat >bad.ini <<'INI'
[scenario]
output = study
[collective scatter]
algorithms = ring
[topology gen:star:4]
INI
check "scenario [collective scatter]" 2 "$ns" scenario run bad.ini
expect "… file:line, lists all" "$tmp/err" "bad.ini:3: unknown collective 'scatter' in \[collective scatter\] \($all\)"
cat >rate.ini <<'INI'
[scenario]
output = study
msizes = 8KiB
reduce-rate = 0
[collective alltoall]
algorithms = ring
[topology star4]
file = gen:star:4
INI
check "scenario reduce-rate = 0" 0 "$ns" scenario run rate.ini
check "… ran" 0 test -s study/design.csv
sed -i 's/^reduce-rate = 0$/reduce-rate = 0.5/' rate.ini
check "scenario reduce-rate = 0.5" 2 "$ns" scenario run rate.ini
expect "… message" "$tmp/err" "--reduce-rate '0.5': missing unit"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
