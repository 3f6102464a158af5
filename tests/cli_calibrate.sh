#!/usr/bin/env bash
# End-to-end tests of netsched calibrate and of --calibration: Faraj's
# Tables 4.6 and 4.7 fitted and checked by simulation on the presets, exit
# statuses (0 pass, 1 a size off, 2 bad input), file:line messages, and the
# calibrated SMPI model in simulate and compare.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cal="$src/scenarios/calibrations"

check "calibrate --help" 0 "$ns" calibrate --help
expect "help names the table format" "$tmp/out" "SIZE,TIME per line"
check "help lists calibrate" 0 "$ns" --help
expect "command listed" "$tmp/out" "calibrate +fit a point-to-point timing table"

# Table 4.6 on the Quadrics preset: every size reproduced by simulation.
check "lemieux on quadrics" 0 "$ns" calibrate "$cal/lemieux.csv" -T gen:quadrics:16 --pair n0,n1 \
  -o "$tmp/lemieux.ini"
expect "lemieux verdict" "$tmp/out" "^verdict +PASS: every size within 5 %"
expect "lemieux route" "$tmp/out" \
  "n0 -> n1 on gen:quadrics:16: 2 links, latency 8.11 us, bandwidth 1.805Gbps"
expect "lemieux 256KiB row" "$tmp/out" "^ +256KiB +1138.000us +1138.000us +1138.000us +[-+]0.00 %"
expect "lemieux linear fit is not enough" "$tmp/out" "off by up to 38.9 %"
expect "lemieux file" "$tmp/lemieux.ini" "^bw-factor=0:[0-9.]+;4:"
# The bundled calibration is exactly this fit.
for key in lat-factor bw-factor route-latency route-bandwidth; do
  if [[ "$(grep "^$key=" "$tmp/lemieux.ini")" == "$(grep "^$key=" "$cal/lemieux.ini")" ]]; then
    echo "ok - bundled lemieux $key"; passed=$((passed + 1))
  else
    echo "not ok - bundled lemieux $key differs from a fresh fit"; failures=$((failures + 1))
  fi
done

# Table 4.7 on the Gigabit Ethernet preset.
check "beowulf on gige" 0 "$ns" calibrate "$cal/beowulf-gige.csv" -T gen:gige:16 \
  -o "$tmp/gige.ini"
expect "gige verdict" "$tmp/out" "^verdict +PASS"
expect "gige 4B row" "$tmp/out" "^ +4B +56.000us +56.000us +56.000us +[-+]0.00 %"
expect "gige default pair" "$tmp/out" "n0 -> n1 on gen:gige:16: 2 links"

# Without -T: two machines on one switch with the linear fit's links.
check "default topology" 0 "$ns" calibrate "$cal/beowulf-gige.csv"
expect "default star" "$tmp/out" "on gen:star:2:bandwidth=652.6Mbps:latency=31.71us"
# -o -: the calibration on stdout, the report on stderr.
check "calibration to stdout" 0 "$ns" calibrate "$cal/lemieux.csv" -o -
expect "stdout is the key file" "$tmp/out" "^\[calibration\]"
expect "report on stderr" "$tmp/err" "^verdict +PASS"
# A size off by more than the tolerance: exit 1 (the fit is exact to
# about 1e-12, so an absurd tolerance makes some size fail).
check "tolerance fails" 1 "$ns" calibrate "$cal/lemieux.csv" -T gen:quadrics:16 \
  --tolerance 1e-20
expect "fail verdict" "$tmp/out" "^verdict +FAIL: [0-9]+[KM]?i?B is off by"

# Bad input: file:line: what is wrong, exit 2, nothing written.
printf '# sizes and one-way times\nsize,time\n4B,0.008ms\n256B,0.008\n' >"$tmp/bad.csv"
check "time without unit" 2 "$ns" calibrate "$tmp/bad.csv" -o "$tmp/bad.ini"
expect "bad time message" "$tmp/err" \
  "^netsched: $tmp/bad.csv:4: time '0.008': missing unit \(units are never guessed: write e.g. 10us\)$"
[[ ! -e "$tmp/bad.ini" ]] && { echo "ok - nothing written"; passed=$((passed + 1)); } ||
  { echo "not ok - bad.ini written"; failures=$((failures + 1)); }
printf '4KiB,29us\n1KiB,20.7us\n' >"$tmp/order.csv"
check "sizes must increase" 2 "$ns" calibrate "$tmp/order.csv"
expect "order message" "$tmp/err" \
  "^netsched: $tmp/order.csv:2: size 1KiB is not larger than 4KiB on line 1 \(sizes must increase\)$"
printf '4B,8us,9us\n' >"$tmp/three.csv"
check "three fields" 2 "$ns" calibrate "$tmp/three.csv"
expect "fields message" "$tmp/err" "^netsched: $tmp/three.csv:1: expected two fields SIZE,TIME"
printf '4B,8us\n' >"$tmp/one.csv"
check "one row" 2 "$ns" calibrate "$tmp/one.csv"
expect "one row message" "$tmp/err" "^netsched: $tmp/one.csv: a table needs at least two rows"
check "missing table" 2 "$ns" calibrate "$tmp/nope.csv"
check "no table" 2 "$ns" calibrate
check "bad pair" 2 "$ns" calibrate "$cal/lemieux.csv" -T gen:quadrics:16 --pair n0,n99
expect "bad pair message" "$tmp/err" "'n99' is not a machine of"
check "same machine" 2 "$ns" calibrate "$cal/lemieux.csv" --pair n1,n1
check "bad preset" 2 "$ns" calibrate "$cal/lemieux.csv" -T gen:quadrics:1
expect "bad preset message" "$tmp/err" "gen:quadrics:1: expected quadrics:N with 2 <= N"

# The calibrated model in simulate: by file and by bundled name.
check "simulate by name" 0 "$ns" simulate -T gen:quadrics:16 -a ring -m 4KiB --calibration lemieux
expect "simulate model" "$tmp/out" "^model +smpi"
check "simulate by file" 0 "$ns" simulate -T gen:gige:8 -a ring -m 4KiB \
  --calibration "$tmp/gige.ini" --json
expect "json model" "$tmp/out" "\"model\" : \"smpi\""
check "calibration vs packet" 2 "$ns" simulate -T gen:gige:8 -a ring --calibration lemieux -M packet
expect "model conflict" "$tmp/err" "--calibration simulates with the smpi model, not packet"
check "unknown calibration" 2 "$ns" simulate -T gen:gige:8 -a ring --calibration nope
expect "lists bundled" "$tmp/err" "bundled: (.*, )?beowulf-gige, (.*, )?lemieux"
printf '[calibration]\nlat-factor=0:1\nbw-factor=0:1;16:x\n' >"$tmp/broken.ini"
check "broken calibration" 2 "$ns" simulate -T gen:gige:8 -a ring --calibration "$tmp/broken.ini"
expect "broken message" "$tmp/err" "^netsched: $tmp/broken.ini:3: bw-factor '0:1;16:x': "
# and in compare, where the settings key the CSV rows.
check "compare calibrated" 0 "$ns" compare -T gen:gige:8 -a ring -m 1KiB,4KiB \
  --calibration beowulf-gige -o "$tmp/cmp"
expect "compare csv model" "$tmp/cmp/compare.csv" ",smpi,"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
