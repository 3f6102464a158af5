#!/usr/bin/env bash
# Resume keys are digests of the topology's model (platforms/io/topology_digest.h,
# docs/sweeps.md "Resume keys"): the same network resumes whatever file,
# path or spelling it comes from; another network is refused; and the
# result files of netsched 0.x in results/, keyed by the native writer's
# text, still resume — no row run again, no byte changed.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1

# ---- a new run: keyed by the model ----
cp "$topo/faraj-fig1.topo" fig1.topo
check "compare" 0 "$ns" compare -T fig1.topo -a ring,pair -m 8KiB,16KiB -o cmp
cp cmp/compare.csv first.csv
# The same network through the writer, under another name and path.
mkdir -p elsewhere
check "topo convert" 0 "$ns" topo convert fig1.topo -o elsewhere/written.topo
check "written differs from the file" 1 cmp -s fig1.topo elsewhere/written.topo
cp elsewhere/written.topo elsewhere/fig1.topo
check "resume from the writer's text elsewhere" 0 "$ns" compare -T ./elsewhere/fig1.topo -a ring,pair -m 8KiB,16KiB -o cmp --resume
expect "every row kept" "$tmp/out" "pair +16KiB +\(kept from the previous run\)"
check "no row run again" 1 grep -Eq '^(ring|pair) +[0-9]+KiB +[0-9]' "$tmp/out"
check "compare.csv unchanged" 0 cmp first.csv cmp/compare.csv
# Another network (one link 1 Gbit/s) is another configuration.
mkdir -p faster
sed 's/^link s0 s1$/link s0 s1 bandwidth=1Gbps/' fig1.topo > faster/fig1.topo
check "the change is real" 1 cmp -s fig1.topo faster/fig1.topo
check "another network refused" 2 "$ns" compare -T faster/fig1.topo -a ring,pair -m 8KiB,16KiB -o cmp --resume
expect "says why" "$tmp/err" "compare.csv:2: row of another configuration"

# ---- the eager default (issue #23): rows of the rendezvous default of before ----
# A row made with --eager-threshold 0 (the default before 64 KiB) is another
# configuration under the default: refused, never resumed as a new one; under
# --eager-threshold 0 it is kept.
check "compare, rendezvous" 0 "$ns" compare -T fig1.topo -a ring -m 8KiB -o rdv --eager-threshold 0
check "rendezvous rows refused under the eager default" 2 \
  "$ns" compare -T fig1.topo -a ring -m 8KiB -o rdv --resume
expect "refusal says why" "$tmp/err" "compare.csv:2: row of another configuration"
check "rendezvous rows kept under --eager-threshold 0" 0 \
  "$ns" compare -T fig1.topo -a ring -m 8KiB -o rdv --resume --eager-threshold 0
expect "rendezvous row kept" "$tmp/out" "ring +8KiB +\(kept from the previous run\)"

# ---- results/ of netsched 0.x: resumed under their old keys ----
# The studies' own layout (scenarios/NAME.ini, output = ../results/NAME):
# the 0.x key held the topology file's path as the scenario spells it.
for study in faraj-yuan tam-wang; do
  rm -rf repo && mkdir -p repo/scenarios repo/results
  cp -r "$src/scenarios/topologies" "$src/scenarios/$study.ini" repo/scenarios/
  # made before eager sends were the default: under their rendezvous
  sed -i 's/^\[scenario\]$/&\neager-threshold = 0/' repo/scenarios/"$study".ini
  cp -r "$src/results/$study" repo/results/
  rows=$(cat repo/results/"$study"/*/compare.csv | grep -vc '^config,')
  check "$study: resume" 0 bash -c "cd repo && '$ns' scenario run scenarios/$study.ini --resume"
  kept=$(grep -c '(kept from the previous run)' "$tmp/out")
  check "$study: all $rows rows kept" 0 test "$kept" -eq "$rows"
  check "$study: no file changed" 0 diff -r "$src/results/$study" repo/results/"$study"
done

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
