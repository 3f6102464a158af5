#!/usr/bin/env bash
# "What to configure and how" (docs/mpi-rules.md): the design report and
# compare's output end with, per chosen algorithm, the lines that make an
# MPI job run it — Open MPI's MCA parameters and MPICH's CVAR for a
# library's algorithm; the routine, the libnetsched-mpi configuration line
# and the preload line for netsched's own; every user string a shell word.
source "$(dirname "$0")/cli-common.bash"
cd "$tmp" || exit 1
preload='^  - `mpirun -x LD_PRELOAD=libnetsched-mpi\.so -x NETSCHED_MPI_CONFIG=\$PWD/netsched-mpi\.conf \.\.\.`$'

# netsched's own algorithm, on a topology whose path needs quoting.
cp "$topo/faraj-a.topo" "my topo.topo"
check "compare: faraj" 0 "$ns" compare -T "my topo.topo" -a faraj:sender-all -m 64KiB -o c1
expect "the section" "$tmp/out" "^## What to configure and how$"
expect "faraj is netsched's own" "$tmp/out" \
  "^- alltoall, fastest at 64KiB: \`faraj:sender-all\`, netsched's own \(neither Open MPI 4.1 nor MPICH 4.0 has it on [0-9]+ machines\): generate its routine and preload libnetsched-mpi:$"
expect "its routine, the path quoted" "$tmp/out" \
  "^  - \`netsched generate -T 'my topo.topo' -c alltoall -a faraj -S sender-all -o alltoall-faraj-sender-all.nsr\`$"
expect "the configuration line" "$tmp/out" \
  "^  - in netsched-mpi.conf, beside it: \`schedule alltoall \* alltoall-faraj-sender-all.nsr\`$"
expect "the preload line" "$tmp/out" "$preload"

# A library's algorithm at one size, another's at the other: the MCA
# parameter and the CVAR; the ring has no MPICH algorithm on 8 (a power of
# two: MPICH's pairwise is the XOR exchange there), so its routine too.
check "compare: bruck, ring" 0 "$ns" compare -T gen:star:8 -a bruck,ring -m 64B,64KiB -o c2
expect "bruck at 64 B" "$tmp/out" "^- alltoall, fastest at 64B: \`bruck\`, an algorithm of both libraries:$"
expect "Open MPI's line" "$tmp/out" \
  "^  - Open MPI 4.1 \(its modified_bruck, algorithm 3\): \`mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_alltoall_algorithm 3 \.\.\.\`$"
expect "MPICH's line" "$tmp/out" \
  "^  - MPICH 4.0 \(its brucks\): \`MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=brucks mpirun.mpich \.\.\.\`$"
expect "ring at 64 KiB, Open MPI only" "$tmp/out" \
  "^- alltoall, fastest at 64KiB: \`ring\`, an algorithm of Open MPI 4.1 \(MPICH 4.0 has none: run netsched's routine there\):$"
expect "pairwise" "$tmp/out" "coll_tuned_alltoall_algorithm 2 \.\.\.\`$"
expect "the ring's range" "$tmp/out" "^  - in netsched-mpi.conf, beside it: \`schedule alltoall 65536- alltoall-ring.nsr\`$"
expect "how to keep both" "$tmp/out" "^The fastest changes with the size: .*netsched generate --decision FILE -F ompi-rules\|mpich-csel -o OUT"

# The design report, per design and collective, at the largest size; the
# design's name starts the routine's file. --eager-threshold 0: under
# rendezvous scatter-allgather is fastest alone (eager 16 KiB segments run
# ahead into contention and tie it with mpich's binomial tree).
check "design: bcast" 0 "$ns" design -T single=gen:star:4 -c bcast -a scatter-allgather -m 64KiB \
  --eager-threshold 0 -o d1
expect "report section" d1/report.md "^## What to configure and how$"
expect "printed too" "$tmp/out" "^## What to configure and how$"
expect "design, collective, size" d1/report.md \
  "^- \*\*single\*\*, bcast at 64KiB: \`scatter-allgather\`, an algorithm of both libraries:$"
expect "Open MPI's scatter_allgather_ring" d1/report.md \
  "^  - Open MPI 4.1 \(its scatter_allgather_ring, algorithm 9\): \`mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 9 \.\.\.\`$"
expect "MPICH's scatter_ring_allgather" d1/report.md \
  "^  - MPICH 4.0 \(its scatter_ring_allgather\): \`MPIR_CVAR_BCAST_INTRA_ALGORITHM=scatter_ring_allgather mpirun.mpich \.\.\.\`$"
check "design: allgather on a chain" 0 "$ns" design -T 'chain=gen:chain:2,4:bandwidth=1Gbps' \
  -c allgather -a lr1 -m 64KiB -o d2
expect "lr1 is netsched's own" d2/report.md \
  "^- \*\*chain\*\*, allgather at 64KiB: \`lr1\`, netsched's own \(neither Open MPI 4.1 nor MPICH 4.0 has it on 8 machines\): generate its routine and preload libnetsched-mpi:$"
expect "the design's routine file" d2/report.md \
  "^  - \`netsched generate -T gen:chain:2,4:bandwidth=1Gbps -c allgather -a lr1 -o chain-allgather-lr1.nsr\`$"
expect "its configuration line" d2/report.md \
  "^  - in netsched-mpi.conf, beside it: \`schedule allgather \* chain-allgather-lr1.nsr\`$"
expect "its preload line" d2/report.md "$preload"
check "design: a library's selection fastest" 0 "$ns" design -T small=gen:star:4 -c alltoall \
  -a faraj:sender-all -m 64KiB -o d3
expect "nothing to configure" d3/report.md \
  "^- \*\*small\*\*, alltoall at 64KiB: \`ompi\` is Open MPI 4.1's own selection: nothing to configure — run the library as installed$"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
