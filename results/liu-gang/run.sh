#!/usr/bin/env bash
# Regenerates results/liu-gang/: the model (Table II, Fig. 6) and the
# SimGrid comparisons on all-port rings and tori (ideal model).
# Usage: results/liu-gang/run.sh [NETSCHED]   (default: build/netsched,
# a Release build: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ns=${1:-$here/../../build/netsched}
"$ns" torus -o "$here/model" > /dev/null
for p in 8 16 32 64; do
  "$ns" compare -T gen:ring:$p -a ar,shift,rowcol -m 64KiB..1MiB -M ideal \
    -o "$here/sim/ring-$p" || true
done
for t in 4x4 8x8 8x12 16x16; do
  "$ns" compare -T gen:torus:$t -a at2,shift,rowcol,submesh -m 64KiB..1MiB -M ideal \
    -o "$here/sim/torus-$t" || true
done
python3 "$here/summary.py" "$ns" > "$here/summary.md"
