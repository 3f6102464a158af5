#!/usr/bin/env bash
# netsched's main job on a fresh Debian 12 machine: install what is missing,
# build (Release, in build/), then show the bundled example cluster, plan its
# optimal all-to-all, verify it, print the bound, and simulate it on SimGrid
# against LAM's and MPICH's all-to-alls, compare three candidate 64-node
# fabrics the way `netsched design` does, and finally generate the
# all-to-all as an MPI routine, run it under smpirun and print its measured
# time beside the predicted one (docs/generate.md).
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
echo
echo "== simulate the optimal schedule on SimGrid (fluid model 'ideal': reaches the bound)"
$ns simulate "$out/faraj.json" -T "$topology" --sync sender-all
echo
echo "== compare with LAM (simple) and MPICH under the fluid and packet models -> $out/compare-*/"
$ns compare -T "$topology" -a faraj:sender-all,mpich,simple -m 64KiB,128KiB -M ideal -o "$out/compare-ideal" --overwrite
$ns compare -T "$topology" -a faraj:sender-all,mpich,simple -m 128KiB -M packet -o "$out/compare-packet" --overwrite
echo
echo "== before buying switches: three 64-node designs side by side (fluid model) -> $out/design/"
$ns design -T leaves-1g=gen:tree:4,16:bandwidth=1Gbps \
  -T leaves-10g=gen:tree:4,16:bandwidth=1Gbps:uplink=10Gbps \
  -T torus=gen:torus:8x8:bandwidth=1Gbps -a faraj,shift,ring,pair,at2 -m 1MiB -o "$out/design" --overwrite |
  sed -n '/^## Recommendation/,$p'
echo
echo "== the routine: generate the all-to-all, run it under SimGrid's MPI (smpirun), set beside the prediction"
$ns generate "$out/faraj.json" -T "$topology" -o "$out/faraj.nsr"
$ns generate "$out/faraj.json" -T "$topology" -o "$out/faraj.c" >/dev/null
smpicc -O1 -I. tests/mpi/routine_time.c mpi/runtime/ns_routine.c -o "$out/routine_time" 2>/dev/null
$ns topo convert "$topology" --to simgrid -o "$out/platform.xml" >/dev/null
grep '"machines"' "$out/faraj.json" | grep -o '"[^"]*"' | tail -n +2 | tr -d '"' >"$out/hosts"
measured=$(cd "$out" && smpirun -np "$(wc -l <hosts)" -platform platform.xml -hostfile hosts \
             ./routine_time faraj.nsr 65536 --cfg=smpi/simulate-computation:no \
             --log=root.thres:warning 2>/dev/null |
           awk '/^rank/ { if (s == "" || $4 < s) s = $4; if ($6 > e) e = $6 } END { printf "%.6f", e - s }')
predicted=$($ns simulate "$out/faraj.json" -T "$topology" -M smpi --json |
            awk -F': ' '/"completion_s"/ { gsub(",", "", $2); printf "%.6f", $2 }')
awk -v m="$measured" -v p="$predicted" 'BEGIN {
  printf "routine alltoall/faraj 64KiB: measured %s s under smpirun, predicted %s s by simulate -M smpi (%+.2f %%)\n",
         m, p, 100 * (m - p) / p }'
echo "(the same routine as C over MPI, for mpicc: $out/faraj.c; docs/generate.md)"
echo
echo "Plots: $out/compare-ideal/compare.png, $out/compare-packet/compare.png, $out/design/alltoall-ideal.png"
echo "The whole design study (7 designs, 3 collectives, prices): results/design-64/README.md"
echo "Packet-level (ns-3) results for the paper's three clusters: results/faraj-yuan/README.md"
exit 0
