#!/usr/bin/env bash
# Cross-check against SMPI (issue #22): SimGrid's own MPI_Allreduce
# implementations of the algorithms netsched plans — smpi/allreduce:lr
# (Patarasuk & Yuan's ring, netsched's ring), rab_rdb (MPICH's
# Rabenseifner, netsched's rabenseifner), rdb, and STAR-MPI's rab1 and
# rab2 with the matching all-gather and all-to-all — on the exported
# platform of topology (b), 32 machines, take the time `netsched simulate
# -M smpi` predicts for netsched's schedule, within 1 % at >= 64 KiB. The
# replay sends eagerly below 64 KiB as SMPI does (smpi/send-is-detached-
# thresh; --eager-threshold 64KiB): the ring's blocks of n/p are below it,
# and with rendezvous sends the replay is 6 % faster than SMPI at 64 KiB.
# simulate-computation:no: the reduction costs no time on either side.
source "$(dirname "$0")/cli-common.bash"
require_smpi
topo="$src/scenarios/topologies/faraj-b.topo"
smpicc -O1 "$src/tests/mpi/allreduce_time.c" -o "$tmp/ar" || { echo "not ok - smpicc"; exit 1; }
"$ns" topo convert "$topo" --to simgrid -o "$tmp/b.xml" || { echo "not ok - export"; exit 1; }
for i in $(seq 0 31); do echo "n$i"; done >"$tmp/hosts"

failures=0 passed=0
# SMPI-NAME NETSCHED-ALGORITHM BYTES [SMPI'S ALL-GATHER [ALL-TO-ALL]]: rab1
# and rab2 call SMPI's own all-gather (and all-to-all); SMPI's logical-ring
# all-gather is NTSLR (its `ring` sends each block straight to rank + i).
for case in "lr ring 65536" "lr ring 262144" "lr ring 2097152" "rab_rdb rabenseifner 65536" \
            "rab_rdb rabenseifner 262144" "rdb rdb 65536" "rab1 rab1-ring 262144 NTSLR" \
            "rab1 rab1-rdb 262144 rdb" "rab1 rab1-bruck 262144 bruck" \
            "rab2 rab2-ring-ring 262144 NTSLR ring"; do
  set -- $case
  extra=()
  [[ -n ${4:-} ]] && extra+=(--cfg=smpi/allgather:"$4")
  [[ -n ${5:-} ]] && extra+=(--cfg=smpi/alltoall:"$5")
  smpi=$(cd "$tmp" && smpirun -np 32 -platform b.xml -hostfile hosts ./ar "$3" \
           --cfg=smpi/allreduce:"$1" "${extra[@]}" --cfg=smpi/simulate-computation:no \
           --log=root.thres:warning 2>/dev/null |
           awk '/^rank/ { if ($6 - $4 > m) m = $6 - $4 } END { print m }')
  ours=$("$ns" simulate -T "$topo" -c allreduce -a "$2" -M smpi -m "${3}B" \
           --eager-threshold 64KiB --json |
           awk -F': ' '/"completion_s"/ { gsub(",", "", $2); print $2 }')
  close_to "smpi/allreduce:$1 ${4:-} ${5:-} against allreduce/$2 at ${3} B" "$smpi" "$ours" 0.01
done
echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
