#!/usr/bin/env bash
# Faraj & Yuan, Figures 6-8, under the ns3 model's tcp-persistent transport
# (one TCP connection per machine pair, opened before the collective and
# kept, as MPI's TCP transport does): LAM (simple), MPICH (mpich) and the
# generated routine (faraj:sender-all) on topologies (a), (b), (c) at 32,
# 64, 128 and 256 KiB, three seeds each, then summarize-ns3.py's tables and
# plot (README.md, "ns3 model").
#
#   results/faraj-yuan/run-ns3.sh [NETSCHED]   (default build/netsched)
#   JOBS=2 runs two of the nine topology x seed runs at once (default 1).
#   Interrupted: run it again — every run is `compare --resume`, so the rows
#   already in a compare.csv are kept (config digest) and the rest are run.
#
# What a seed varies. The ns3 model itself is deterministic: drop-tail
# queues, no queue discipline, no random variable (docs/simulator.md, "The
# ns3 model"), and `--runs` does not vary it (compare runs it once). So a
# seed here is a start jitter: seed S draws every machine's arrival at the
# all-to-all uniformly in [0, 120 us] (Python's random.Random(S); 120 us is
# one 1500-byte frame at 100 Mbit/s — the skew with which machines leave a
# barrier), written to ns3/arrival/TOPO-seedS.txt and replayed with
# `--arrival file:` (docs/arrival.md). That changes which packets meet in
# a switch queue, which is what decides the drops of a posted exchange.
# Completion times count from the first arrival (time 0), so they include
# at most 120 us of skew.
#
# The transport: tcp-persistent is the ns3 model's default (and only)
# transport; `compare` has no --transport option, and every row's config
# digest records transport=tcp-persistent with the TCP settings (Cubic,
# initial window 10, minimum RTO 0.2 s, delayed ACKs, MTU 1500, 100-packet
# switch queues: docs/simulator.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
ns=$(realpath "${1:-$src/build/netsched}")
jobs=${JOBS:-1}
out=$here/ns3
seeds=(1 2 3)
jitter_us=120
mkdir -p "$out/arrival"
cd "$src" # --arrival file: paths are part of a row's config digest: keep them relative

declare -A machines=([a]=24 [b]=32 [c]=32)
for t in a b c; do
  for s in "${seeds[@]}"; do
    f=results/faraj-yuan/ns3/arrival/$t-seed$s.txt
    [[ -f $f ]] && continue # the pattern of a run in progress never changes
    python3 - "$f" "${machines[$t]}" "$s" "$jitter_us" <<'EOF'
import random, sys
path, n, seed, jitter_us = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
rng = random.Random(seed)
with open(path + ".tmp", "w") as f:
    f.write("# start jitter of seed %d: U[0, %g us] per machine, schedule order (run-ns3.sh)\n"
            % (seed, jitter_us))
    for _ in range(n):
        f.write("%.9f\n" % (rng.uniform(0, jitter_us) * 1e-6))
import os
os.replace(path + ".tmp", path)
EOF
  done
done

# One compare per topology x seed; each writes its own directory. Then the
# 32 KiB rows again with rendezvous sends (--eager-threshold 0), in
# ns3/rendezvous-32KiB/: the README's measurement of what eager sends do to
# the generated routine's sender-based synchronisation.
run_one() {
  local t=$1 s=$2 sizes=$3 eager=$4 dir=$5
  "$ns" compare -T "scenarios/topologies/faraj-$t.topo" -a simple,mpich,faraj:sender-all \
    -m "$sizes" -M ns3 --eager-threshold "$eager" \
    --arrival "file:results/faraj-yuan/ns3/arrival/$t-seed$s.txt" --wall-limit 3600 \
    -o "$dir" --resume --progress none >"$dir.log" 2>"$dir.notes"
  echo "run-ns3.sh: $dir done"
}
export -f run_one
export ns
mkdir -p "$out/rendezvous-32KiB"
{
  for t in a b c; do for s in "${seeds[@]}"; do
    echo "$t $s 32KiB,64KiB,128KiB,256KiB 64KiB $out/$t-seed$s"
  done; done
  for t in a b c; do for s in "${seeds[@]}"; do
    echo "$t $s 32KiB 0 $out/rendezvous-32KiB/$t-seed$s"
  done; done
} | xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' run_one
python3 "$here/summarize-ns3.py" "$here"
