#!/usr/bin/env bash
# netsched's main job on a fresh Debian 12 machine: install what is missing,
# build (Release, in build/), then show the bundled example cluster, plan its
# optimal all-to-all, verify it and print the bound.
#   scripts/main.sh [TOPOLOGY]   (default: Faraj & Yuan's topology (c))
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build -j"$(nproc)" >/dev/null

topology="${1:-scenarios/topologies/faraj-c.topo}"
out="build/main"
mkdir -p "$out"
ns=build/netsched

echo "== the cluster ($topology)"
$ns topo show "$topology"
echo
echo "== bounds for 64KiB messages"
$ns bound -T "$topology" --msize 64KiB
echo
echo "== plan: alltoall/faraj -> $out/faraj.json"
$ns plan -T "$topology" -a faraj --msize 64KiB -o "$out/faraj.json"
echo
echo "== verify the optimal schedule (JUnit report: $out/verify-faraj.xml)"
$ns verify "$out/faraj.json" -T "$topology" --require-optimal --junit "$out/verify-faraj.xml"
echo
echo "== for comparison, the topology-unaware ring (contention expected)"
$ns plan -T "$topology" -a ring --msize 64KiB -o "$out/ring.json"
set +e
$ns verify "$out/ring.json" -T "$topology" --max-findings 3
status=$?
set -e
[[ $status -eq 1 ]] && echo "(ring fails verification, as the papers predict: exit status 1)"
exit 0
