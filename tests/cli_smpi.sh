#!/usr/bin/env bash
# Cross-check against SMPI: SimGrid's own MPI_Alltoall implementations
# (smpirun --cfg=smpi/alltoall:ring|pair) on the exported platform of
# topology (b) must take the same simulated time as netsched's replay of
# its ring / pair schedules under the smpi model (issue #3: within 1 %).
source "$(dirname "$0")/cli-common.bash"
require_smpi
topo="$src/scenarios/topologies/faraj-b.topo"
smpicc -O1 "$src/tests/mpi/alltoall_time.c" -o "$tmp/a2a" || { echo "not ok - smpicc"; exit 1; }
"$ns" topo convert "$topo" --to simgrid -o "$tmp/b.xml" || { echo "not ok - export"; exit 1; }
for i in $(seq 0 31); do echo "n$i"; done >"$tmp/hosts"

failures=0 passed=0
for case in "ring 65536" "ring 262144" "pair 262144"; do
  set -- $case
  algo=$1 msize=$2
  smpi=$(cd "$tmp" && smpirun -np 32 -platform b.xml -hostfile hosts ./a2a "$msize" \
           --cfg=smpi/alltoall:"$algo" --cfg=smpi/simulate-computation:no \
           --log=root.thres:warning 2>/dev/null | awk '/^rank/ { if ($6 > m) m = $6 } END { print m }')
  ours=$("$ns" simulate -T "$topo" -a "$algo" -M smpi -m "${msize}B" --json |
           awk -F': ' '/"completion_s"/ { gsub(",", "", $2); print $2 }')
  close_to "$algo ${msize}B: smpirun against netsched" "$smpi" "$ours" 0.01
done
echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
