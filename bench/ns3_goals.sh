#!/usr/bin/env bash
# ns3_goals.sh — the ns3 model's speed against issue #23's goals, on this
# machine (docs/simulator.md, "Speed" under "The ns3 model").
#
#   bench/ns3_goals.sh [NETSCHED [quick|design]]   (default: build-rel/netsched)
#
# 1. 64 machines on one 1 Gbit/s switch, 1 MiB all-to-all (faraj with
#    sender-all syncs), one run at MTU 1500 and one with jumbo frames
#    (--mtu 9000): goal 60 s each.
# 2. The 64-node design study's packet half under the ns3 model
#    (scenarios/design-64-ns3.ini: five switch trees, 64 KiB, 115 runs),
#    -j the cores: goal 5 minutes.
# Prints, per item, wall and CPU seconds (this process and its children:
# netsched and netsched-ns3), packets queued over all hops and packets per
# wall and per CPU second, and whether the goal is met by wall time. `quick`
# runs 64 KiB instead of 1 MiB in 1 and skips 2; `design` runs 2 alone. Build without sanitizers
# (-DCMAKE_BUILD_TYPE=Release). It is no test: on a shared machine the wall
# times say how loaded it was; the CPU times are the figures to compare.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ns=${1:-build-rel/netsched}
quick=${2:-}
[[ -x /usr/bin/time ]] || { echo "ns3_goals: needs /usr/bin/time (Debian: time)" >&2; exit 2; }
[[ -x $ns ]] || { echo "ns3_goals: $ns: no netsched binary (build a Release tree first)" >&2; exit 2; }
[[ -z $quick || $quick == quick || $quick == design ]] ||
  { echo "usage: ns3_goals.sh [NETSCHED [quick|design]]" >&2; exit 2; }
[[ -x $(dirname "$ns")/netsched-ns3 ]] ||
  { echo "ns3_goals: $(dirname "$ns")/netsched-ns3 missing: netsched was built without ns-3" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# verdict WALL GOAL_SECONDS
verdict() { awk -v w="$1" -v g="$2" 'BEGIN { printf "%s (goal %d s)", w <= g ? "met" : "MISSED", g }'; }

size=1MiB
[[ -n $quick ]] && size=64KiB
echo "ns3 model, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
[[ $quick == design ]] || for mtu in 1500 9000; do
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$ns" simulate -T gen:star:64:bandwidth=1Gbps:latency=1us \
    -a faraj -S sender-all -m "$size" -M ns3 --mtu "$mtu" --progress none > "$tmp/out"
  read -r wall user sys < "$tmp/time"
  completion=$(awk '/^completion/ { print $2 }' "$tmp/out")
  packets=$(awk '/^packets/ { print $2 }' "$tmp/out")
  awk -v w="$wall" -v u="$user" -v s="$sys" -v p="$packets" -v c="$completion" -v m="$mtu" -v z="$size" \
    'BEGIN { printf "64 x %s all-to-all, MTU %4d: wall %7.1f s, CPU %7.1f s, simulated %s s, %d packets, %.0f packets/wall s, %.0f packets/CPU s: ",
             z, m, w, u + s, c, p, p / w, p / (u + s) }'
  verdict "$wall" 60
  echo
done
[[ $quick == quick ]] && exit 0

# The study writes beside its file: a copy writes into $tmp instead.
scenarios=$(cd "$here/../scenarios" && pwd)
sed -e "s#^output .*#output = $tmp/design#" -e "s#^prices .*#prices = $scenarios/prices-example.ini#" \
  "$scenarios/design-64-ns3.ini" > "$tmp/design.ini"
/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$ns" design "$tmp/design.ini" -j "$(nproc)" \
  --progress none > "$tmp/design.log"
read -r wall user sys < "$tmp/time"
rows=$(($(wc -l < "$tmp/design/design.csv") - 1))
failed=$(grep -vc ',ok$' "$tmp/design/design.csv" || true)
# CPU / cores: the wall on as many free cores (the rows keep every worker busy)
awk -v w="$wall" -v u="$user" -v s="$sys" -v r="$rows" -v f="$((failed - 1))" -v n="$(nproc)" \
  'BEGIN { printf "design-64 packet half (5 trees, 64 KiB, ns3): %d rows (%d not ok), wall %7.1f s, CPU %7.1f s (%.1f s on %d free cores): ", r, f, w, u + s, (u + s) / n, n }'
verdict "$wall" 300
echo ", load after $(cut -d' ' -f1-3 /proc/loadavg)"
