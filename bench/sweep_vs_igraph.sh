#!/usr/bin/env bash
# sweep_vs_igraph.sh — netsched's path-statistics sweep against python-igraph
# on the same topologies and the same statistics (issue #24).
#
#   bench/sweep_vs_igraph.sh [NETSCHED [TOPOLOGIES [MACHINES]]]
#        (default: build-rel/netsched, 100, 1000)
#
# 1. netsched sweeps TOPOLOGIES GT-ITM Waxman graphs of MACHINES machines
#    (5 per switch, degree 4) with path statistics on one process
#    (`sweep --metrics paths -j 1`): generating each graph, its path-length
#    histogram, its row; the rate is topologies per second of CPU time.
# 2. netsched writes the same topologies (each row's `topology`) as GraphML.
# 3. bench/sweep_igraph.py reads them with python-igraph and computes the
#    same statistics (path_min, path_mean, path_max, path_hist), checks them
#    against netsched's rows (exit 1 if any differs), and reports its rate
#    with the reading of the files and without it.
# Prints both rates and the ratios. Without python3-igraph (the Debian
# package python3-igraph) it says so and prints netsched's rate only.
# CPU times, not wall times: the machine may be shared. It is no test.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ns=${1:-build-rel/netsched}
count=${2:-100}
machines=${3:-1000}
[[ -x /usr/bin/time ]] || { echo "sweep_vs_igraph: needs /usr/bin/time (Debian: time)" >&2; exit 2; }
[[ -x $ns ]] || { echo "sweep_vs_igraph: $ns: no netsched binary (build a Release tree first)" >&2; exit 2; }
[[ $count =~ ^[0-9]+$ && $count -ge 1 && $machines =~ ^[0-9]+$ && $machines -ge 10 ]] ||
  { echo "usage: sweep_vs_igraph.sh [NETSCHED [TOPOLOGIES>=1 [MACHINES>=10]]]" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sweep_vs_igraph.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

# CPU seconds (user + system) of a command, its output to $tmp/run.log.
cpu_seconds() {
  if ! /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" > "$tmp/run.log" 2>&1; then
    cat "$tmp/run.log" >&2
    return 1
  fi
  awk '{ printf "%.3f", $1 + $2 }' "$tmp/time"
}

gen="waxman:machines=$machines:ratio=5:degree=4"
ns_cpu=$(cpu_seconds "$ns" sweep -g "$gen" --seeds "1..$count" --metrics paths -j 1 \
  -o "$tmp/sweep" --progress none)
ns_rate=$(awk -v n="$count" -v s="$ns_cpu" 'BEGIN { printf "%.1f", (s > 0 ? n / s : 0) }')
echo "netsched: $count Waxman topologies of $machines machines, path statistics: ${ns_cpu} s CPU, $ns_rate topologies/s"

python=
for p in "${PYTHON:-}" python3 /usr/bin/python3; do
  if [[ -n $p ]] && "$p" -c 'import igraph' 2> /dev/null; then
    python=$p
    break
  fi
done
if [[ -z $python ]]; then
  echo "python-igraph: not installed (Debian: apt-get install python3-igraph); netsched's rate only"
  exit 0
fi

mkdir "$tmp/graphml"
tail -n +2 "$tmp/sweep/rows.jsonl" | "$python" -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(r["task"], r["topology"])' |
  while read -r task topology; do
    "$ns" topo convert "$topology" --to graphml -o "$tmp/graphml/$task.graphml"
  done
read -r _ with_load stats_only < <("$python" "$here/sweep_igraph.py" "$tmp/sweep/rows.jsonl" \
  "$tmp/graphml")
awk -v ns="$ns_rate" -v a="$with_load" -v b="$stats_only" -v v="$("$python" -c 'import igraph; print(igraph.__version__)')" 'BEGIN {
  printf "python-igraph %s: same histograms; %.1f topologies/s reading the GraphML files, %.1f/s on graphs already read\n", v, a, b
  printf "ratio: netsched %.1fx python-igraph (with reading), %.1fx (statistics only)\n", ns / a, ns / b
}'
