#!/usr/bin/env bash
# One spelling per option across subcommands (#17.15): -c --collective,
# -a --algorithm, -m --msize, -M --model everywhere (lists where a command
# takes several, repeatable), the plural spellings of earlier versions
# accepted as hidden aliases; --help and the bash completion offer one
# spelling; `plan -o` says what it wrote. Progress lines when stderr is
# not a terminal (#17.13): compare and simulate (design, scenario and sweep
# are in cli_design.sh and cli_sweep.sh).
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1

# -- one spelling in --help, the old ones hidden ---------------------------------------
for cmd in plan verify bound simulate compare design sweep; do
  check "$cmd --help" 0 "$ns" "$cmd" --help
  cp "$tmp/out" help.out
  check "$cmd --help shows no plural spelling" 1 grep -Eq -- "--(collectives|algorithms|msizes|models)\b" help.out
  check "$cmd --help is not empty" 0 test -s help.out
done
for cmd in compare design; do
  "$ns" "$cmd" --help > "$cmd.help"
  expect "$cmd: -c --collective" "$cmd.help" "^  -c, --collective="
  expect "$cmd: -a --algorithm" "$cmd.help" "^  -a, --algorithm="
  expect "$cmd: -m --msize" "$cmd.help" "^  -m, --msize="
  expect "$cmd: -M --model" "$cmd.help" "^  -M, --model="
  expect "$cmd: --resume" "$cmd.help" "^  --resume "
  expect "$cmd: --overwrite" "$cmd.help" "^  --overwrite "
  expect "$cmd: --progress" "$cmd.help" "^  --progress=auto\|bar\|lines\|none"
done
for cmd in plan simulate bound; do
  "$ns" "$cmd" --help > "$cmd.help"
  expect "$cmd: -c --collective" "$cmd.help" "^  -c, --collective="
  expect "$cmd: -m --msize" "$cmd.help" "^  -m, --msize="
done
"$ns" sweep --help > sweep.help
expect "sweep: -m --msize" sweep.help "^  -m, --msize="
expect "sweep: -M --model" sweep.help "^  -M, --model="
expect "sweep: --resume" sweep.help "^  --resume "
check "sweep: --restart hidden" 1 grep -q -- "--restart" sweep.help

# -- the completion offers what --help lists: one spelling -----------------------------
complete_words() { # complete_words WORDS... : what the completion offers for the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _netsched; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$src/completion/netsched.bash" "$@"
}
complete_words "$ns" compare --ms > words
expect "completion: --msize" words "^--msize$"
check "completion: not --msizes" 1 grep -qx -- "--msizes" words
complete_words "$ns" design --mo > words
expect "completion: design --model" words "^--model$"
check "completion: not --models" 1 grep -qx -- "--models" words
complete_words "$ns" compare --progress "" > words
expect "completion: --progress modes" words "^lines$"

# -- the old spellings still work, and mean the same -----------------------------------
check "compare, new spellings" 0 "$ns" compare -T gen:star:4 -c alltoall -a ring -a simple \
  -m 8KiB -m 16KiB -M ideal -o new --progress none
check "compare: repeated lists add up" 0 test "$(wc -l < new/compare.csv)" -eq 5
check "compare, old spellings" 0 "$ns" compare -T gen:star:4 --collective alltoall \
  --algorithms ring,simple --msizes 8KiB,16KiB --models ideal -o old --progress none
check "the same rows" 0 cmp new/compare.csv old/compare.csv
check "compare: -M given twice" 2 "$ns" compare -T gen:star:4 -M ideal --model tcp -o twice
expect "twice named" "$tmp/err" "given twice \('ideal' and 'tcp'\)"
check "design, new spellings" 0 "$ns" design -T a=gen:star:4 -c alltoall -c bcast -m 8KiB \
  -M ideal -M tcp -o dnew --progress none
check "design, old spellings" 0 "$ns" design -T a=gen:star:4 --collectives alltoall,bcast \
  --msizes 8KiB --models ideal,tcp -o dold --progress none
check "design: the same rows" 0 cmp dnew/design.csv dold/design.csv
expect "design: both models" dnew/design.csv "^a,bcast,tcp,"
check "design: --algorithm with two collectives" 2 "$ns" design -T a=gen:star:4 -c alltoall,bcast -a ring
expect "named in the new spelling" "$tmp/err" "^netsched: --algorithm applies to one collective"

# -- plan -o says what it wrote -----------------------------------------------------------
check "plan -o" 0 "$ns" plan -T gen:star:4 -a ring -m 8KiB -o ring.json
expect "plan -o says what it wrote" "$tmp/err" "^plan: wrote ring.json \(json, 3 phases, 12 transfers, [0-9]+ bytes\)$"
cp "$tmp/err" plan.err
check "the byte count is the file's" 0 grep -q "$(stat -c %s ring.json) bytes" plan.err
check "plan -o FILE.jsonl.zst" 0 "$ns" plan -T gen:star:4 -a ring -m 8KiB -o ring.jsonl.zst
expect "compressed named" "$tmp/err" "^plan: wrote ring.jsonl.zst \(jsonl, zstd, 3 phases, 12 transfers, [0-9]+ bytes\)$"
check "plan to stdout" 0 "$ns" plan -T gen:star:4 -a ring -m 8KiB
cp "$tmp/err" plan.err
check "stdout: nothing said" 0 test ! -s plan.err

# -- progress lines when stderr is not a terminal -------------------------------------
# (-j 1: a row's own messages come from the process that simulates it; under
# -j N the workers are silent and the lines count rows)
check "compare progress in a log" 0 "$ns" compare -T gen:star:4 -a ring,simple -m 8KiB,16KiB \
  -o prog --progress-interval 0.000001 -j 1
expect "compare: a line with the count" "$tmp/err" "^compare: [0-4]/4 rows \([0-9]+ %\), [0-9]+s"
expect "compare: the simulation's messages" "$tmp/err" "; (ring|simple) (8|16)KiB: 12/12 messages, [0-9.]+ s simulated$"
expect "compare: done line" "$tmp/err" "^compare: 4/4 rows done in [0-9]+s$"
cp "$tmp/err" compare.err
check "compare: no carriage return in a log" 1 grep -q $'\r' compare.err
check "compare: the log is not empty" 0 test -s compare.err
check "compare: default interval is quiet for short work" 0 "$ns" compare -T gen:star:4 -a ring \
  -m 8KiB -o prog2
cp "$tmp/err" quiet.err
# Short is under the default 10 s, which a loaded machine can reach (an
# 11 s stall printed "compare: 0/1 rows (100 %), 11s, ..."): no line
# before 10 s, and none but the reporter's.
late='([1-9][0-9]+s|[0-9]+m[0-9][0-9]s|[0-9]+h[0-9][0-9]m)'
check "nothing on stderr before 10 s" 0 awk -v late="$late" '
  !($0 ~ ("^compare: [01]/1 rows (\\([0-9]+ %\\), " late "([,;]|$)|done in " late "$)")) { exit 1 }' quiet.err
check "simulate progress in a log" 0 "$ns" simulate -T gen:star:4 -a ring -m 8KiB \
  --progress lines --progress-interval 0.000001
expect "simulate: messages" "$tmp/err" "^simulate: 100 %, [0-9]+s(, about 0s left)?; ring: 12/12 messages, [0-9.]+ s simulated$"
check "bad --progress-interval" 2 "$ns" simulate -T gen:star:4 -a ring --progress-interval -1
expect "interval named" "$tmp/err" "^netsched: --progress-interval -1: expected a number of seconds > 0$"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
