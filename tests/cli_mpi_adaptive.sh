#!/usr/bin/env bash
# libnetsched-mpi's adaptive mode (docs/adaptive.md; STAR-MPI, Faraj's
# dissertation §4.3.1.2-4.3.1.3). Under real Open MPI: an application loop
# (tests/mpi/adaptive_loop.c) gets correct results while the candidates
# are measured and after the choice, and lib_check's buffers are byte for
# byte PMPI's while candidates take turns (one measured call each), on
# sub-communicators, with derived datatypes and MPI_IN_PLACE; every bad
# configuration is one message, a fall-through and a correct result; a
# ninth size at one call site falls through; the loop under MPICH.
# Under SMPI (deterministic): on a 4x4 chain of switches at 1 KiB per
# block, a balanced loop chooses bruck, an imbalanced one (ranks computing
# up to 20 ms, ω ≫ one message time) the MPI library's own, and in one run
# a call site after the imbalanced computation and one right after it
# (balanced arrival) choose differently. Every run under `timeout`.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
source "$(dirname "${BASH_SOURCE[0]}")/mpi-lib-common.bash"
loop_src="$src/tests/mpi/adaptive_loop.c"
mpicc -O1 -Wall -Wextra -Werror "$loop_src" -o "$tmp/adaptive_loop" ||
  { echo "not ok - mpicc adaptive_loop"; exit 1; }
mpicc -O1 -Wall -Wextra -Werror "$src/tests/mpi/lib_check.c" -o "$tmp/lib_check" ||
  { echo "not ok - mpicc lib_check"; exit 1; }
cd "$tmp" || exit 1
# site N (adaptive_loop+0x...), B bytes per block: the start of a log line
site() { echo "MPI_$1 on MPI_COMM_WORLD \\($2 ranks\\), site $3 \\([^)]*\\), $4 bytes per block"; }

# ---- Open MPI: results right while measuring and after ----
gen a4-faraj.nsr -T gen:chain:2,2 -a faraj
gen a4-simple.nsr -T gen:chain:2,2 -a simple
gen a4-bruck.nsr -T gen:chain:2,2 -a bruck
four="alltoall:sync:a4-faraj.nsr,alltoall:posted:native,alltoall:posted:a4-simple.nsr,alltoall:log:a4-bruck.nsr"
check "Open MPI: adaptive loop on 4 ranks, two sites" 0 run 4 NETSCHED_MPI_CANDIDATES="$four" \
  NETSCHED_MPI_MEASURE=2 NETSCHED_MPI_VERBOSE=1 -- ./adaptive_loop -n 20 -s 4096 -w 0.001 -b
expect "Open MPI: every call right" "$tmp/out" "^adaptive_loop: 40 calls, 0 wrong,"
for n in 1 2; do
  expect "Open MPI: site $n measured each group's representative" "$tmp/err" \
    "^netsched-mpi: $(site Alltoall 4 $n 4096): measured a4-bruck\\.nsr \\(group log\\): mean [0-9.]+ us over 2 calls"
  expect "Open MPI: site $n chose" "$tmp/err" \
    "^netsched-mpi: $(site Alltoall 4 $n 4096): chooses (native|a4-[a-z]+\\.nsr) \\(group [a-z]+\\) after (6|8) measured calls; the runner-up .* takes [0-9.]+ % longer; measuring cost [0-9.]+ us over the choice and [12] MPI_Allreduce taking [0-9.]+ us$"
done
check "Open MPI: the site is the caller's (object+offset)" 0 \
  test "$(grep -c "site [12] (adaptive_loop+0x[0-9a-f]*)" "$tmp/err")" -ge 8
check "Open MPI: silent without NETSCHED_MPI_VERBOSE" 0 run 4 NETSCHED_MPI_CANDIDATES="$four" \
  -- ./adaptive_loop -n 12 -s 100
expect "Open MPI: silent run right" "$tmp/out" "^adaptive_loop: 12 calls, 0 wrong,"
check "Open MPI: silent" 0 test ! -s "$tmp/err"

# lib_check: the library's buffers against PMPI's while candidates take
# turns (measure 1: each of a context's first calls runs another
# candidate); the tables for 6 machines are left out on 3-rank splits.
gen a6-faraj.nsr -T gen:chain:2,3 -a faraj
gen a6-bruck.nsr -T gen:chain:2,3 -a bruck
gen g6-ring.nsr -T gen:chain:2,3 -c allgather -a ring
gen g6-rdb.nsr -T gen:chain:2,3 -c allgather -a rdb
six="alltoall:sync:a6-faraj.nsr,alltoall:posted:native,alltoall:log:a6-bruck.nsr"
six+=",allgather:ring:g6-ring.nsr,allgather:posted:native,allgather:log:g6-rdb.nsr"
check "Open MPI: lib_check while measuring" 0 run 6 NETSCHED_MPI_CANDIDATES="$six" NETSCHED_MPI_MEASURE=1 \
  NETSCHED_MPI_VERBOSE=1 -- ./lib_check -s 8,100,4096 -k alltoall,allgather -t byte,vector -p \
  -c world,dup,low,inter -i 3
same "Open MPI: lib_check while measuring"
expect "lib_check: alltoall chose on the world" "$tmp/err" \
  "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\), site 1 \\([^)]*\\), 8 bytes per block: chooses"
expect "lib_check: allgather chose on the world" "$tmp/err" \
  "MPI_Allgather on MPI_COMM_WORLD \\(6 ranks\\), site 1 \\([^)]*\\), 4096 bytes per block: chooses"
expect "lib_check: misfit tables left out on a split" "$tmp/err" \
  "MPI_Alltoall on world ranks 0-2 \\(3 ranks\\): falls through to the MPI library: 8 bytes per block: no alltoall candidate table fits: a6-faraj\\.nsr is for 6 machines, the communicator has 3 ranks"
expect "lib_check: inter-communicator falls through" "$tmp/err" \
  "MPI_Alltoall on an inter-communicator \\(3 ranks\\): falls through to the MPI library: 8 bytes per block: an inter-communicator"

# Candidates for 6 and for 3 machines: each communicator runs the one that
# fits, unmeasured; the misfit on the world is said without verbose.
gen a3-faraj.nsr -T gen:chain:1,3 -a faraj
check "Open MPI: one candidate fits each communicator" 0 run 6 \
  NETSCHED_MPI_CANDIDATES="alltoall:six:a6-faraj.nsr,alltoall:three:a3-faraj.nsr" NETSCHED_MPI_VERBOSE=1 \
  -- ./lib_check -s 64 -k alltoall -c world,low -i 2
same "Open MPI: one candidate fits"
expect "one fits: the world runs the 6-machine table" "$tmp/err" \
  "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\), site 1 \\([^)]*\\), 64 bytes per block: runs a6-faraj\\.nsr \\(group six\\), the only candidate that fits$"
expect "one fits: the split runs the 3-machine table" "$tmp/err" \
  "MPI_Alltoall on world ranks 0-2 \\(3 ranks\\), site 1 \\([^)]*\\), 64 bytes per block: runs a3-faraj\\.nsr \\(group three\\), the only candidate that fits$"
expect "one fits: the misfit on the world said" "$tmp/err" \
  "^netsched-mpi: NETSCHED_MPI_CANDIDATES: item 2: does not fit MPI_COMM_WORLD: a3-faraj\\.nsr is for 3 machines, the communicator has 6 ranks \\(left out of MPI_Alltoall's candidates there\\)$"
no_line "one fits: nothing measured" "$tmp/err" ": (measured|chooses) "

# A call site tunes its first 8 sizes (STAR-MPI's X); a ninth uses the
# MPI library's own, said once.
check "Open MPI: nine sizes at one site" 0 run 6 NETSCHED_MPI_CANDIDATES="$six" NETSCHED_MPI_MEASURE=1 \
  NETSCHED_MPI_VERBOSE=1 -- ./lib_check -s 1,2,3,4,5,6,7,8,9 -k alltoall -c world -i 4
same "Open MPI: nine sizes"
expect "nine sizes: the ninth falls through" "$tmp/err" \
  "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\): falls through to the MPI library: 9 bytes per block: the adaptive mode tunes 8 sizes per call site and 64 contexts per communicator, used up$"
no_line "nine sizes: the ninth not measured" "$tmp/err" " 9 bytes per block: (measured|chooses)"
# (check replaces $tmp/err: the count last)
check "nine sizes: eight chosen" 0 test "$(grep -c "MPI_Alltoall on MPI_COMM_WORLD (6 ranks), site 1 ([^)]*), [1-8] bytes per block: chooses" "$tmp/err")" -eq 8

# ---- MPICH: the library built by mpicc.mpich, preloaded under mpirun.mpich ----
if command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null; then
  if mpicc.mpich -O1 -shared -fPIC -fvisibility=hidden -I"$src" "$src"/mpi/lib/*.c \
       "$src/mpi/runtime/ns_routine.c" -o libnetsched-mpi-mpich.so -lpthread 2>mpich.err &&
     mpicc.mpich -O1 "$loop_src" -o adaptive_loop_mpich 2>>mpich.err; then
    check "MPICH: adaptive loop on 4 ranks" 0 env ASAN_OPTIONS= NETSCHED_MPI_CANDIDATES="$four" \
      NETSCHED_MPI_MEASURE=2 NETSCHED_MPI_VERBOSE=1 LD_PRELOAD="$tmp/libnetsched-mpi-mpich.so" \
      timeout 300 mpirun.mpich -np 4 ./adaptive_loop_mpich -n 12 -s 4096
    expect "MPICH: every call right" "$tmp/out" "^adaptive_loop: 12 calls, 0 wrong,"
    expect "MPICH: chose" "$tmp/err" "^netsched-mpi: $(site Alltoall 4 1 4096): chooses"
  else
    echo "not ok - mpicc.mpich"; sed 's/^/#   /' mpich.err | head -5; failures=$((failures + 1))
  fi
else
  echo "ok - MPICH # SKIP mpicc.mpich not installed"
fi

# ---- bad configurations: one message, the MPI library's own, right results ----
gen a2.nsr -T gen:chain:1,2 -a faraj
gen b2.nsr -T gen:chain:1,2 -c bcast -a binomial
bad() { # bad NAME EXPECTED_LINE [NAME=VALUE...]: 2 ranks, the loop, one message
  local name=$1 line=$2
  shift 2
  check "bad: $name" 0 run 2 "$@" NETSCHED_MPI_VERBOSE=1 -- ./adaptive_loop -n 6 -s 64
  expect "bad: $name: right results" "$tmp/out" "^adaptive_loop: 6 calls, 0 wrong,"
  expect "bad: $name: said" "$tmp/err" "^netsched-mpi: $line$"
  expect "bad: $name: falls through" "$tmp/err" \
    "MPI_Alltoall on MPI_COMM_WORLD \\(2 ranks\\): falls through to the MPI library: 64 bytes per block: a configuration error concerns MPI_Alltoall \\(said above\\)"
  no_line "bad: $name: nothing measured" "$tmp/err" ": (measured|chooses) "
}
printf 'candidate alltoall g a2.nsr\ncandidate alltoall g bogus\n' >unknown.conf
bad "unknown candidate" \
  "unknown\\.conf:2: unknown candidate 'bogus' \\(native or a routine table file; write \\./bogus for a file name without a dot\\) \\(MPI_Alltoall uses the MPI library's own\\)" \
  NETSCHED_MPI_CONFIG=unknown.conf
printf 'candidate alltoall g a2.nsr\ncandidate alltoall h native\nmeasure alltoall 0\n' >zero.conf
bad "zero measurements" \
  "zero\\.conf:3: measure count '0' is not a whole number from 1 to 100 \\(invocations measured per candidate\\) \\(MPI_Alltoall uses the MPI library's own\\)" \
  NETSCHED_MPI_CONFIG=zero.conf
bad "NETSCHED_MPI_MEASURE=0" \
  "NETSCHED_MPI_MEASURE: '0' is not a whole number from 1 to 100 \\(invocations measured per candidate\\) \\(MPI_Alltoall uses the MPI library's own\\)" \
  NETSCHED_MPI_CANDIDATES=alltoall:g:a2.nsr,alltoall:h:native NETSCHED_MPI_MEASURE=0
bad "a missing table" \
  "NETSCHED_MPI_CANDIDATES: item 2: nosuch\\.nsr: No such file or directory \\(MPI_Alltoall uses the MPI library's own\\)" \
  NETSCHED_MPI_CANDIDATES=alltoall:g:native,alltoall:h:nosuch.nsr
bad "native alone" \
  "NETSCHED_MPI_CANDIDATES: item 1: alltoall's candidates name no routine table \\(native alone leaves nothing to choose\\) \\(MPI_Alltoall uses the MPI library's own\\)" \
  NETSCHED_MPI_CANDIDATES=alltoall:g:native
bad "schedule and candidates" \
  "NETSCHED_MPI_SCHEDULES: item 1: alltoall has schedule tables and adaptive candidates \\(NETSCHED_MPI_CANDIDATES: item 1\\): configure one or the other \\(MPI_Alltoall uses the MPI library's own\\)" \
  NETSCHED_MPI_CANDIDATES=alltoall:g:a2.nsr,alltoall:h:native NETSCHED_MPI_SCHEDULES=alltoall:*:a2.nsr
check "bad: bcast candidates" 0 run 2 NETSCHED_MPI_CANDIDATES=bcast:g:b2.nsr -- ./adaptive_loop -n 2 -s 64
expect "bad: bcast candidates: said" "$tmp/err" \
  "^netsched-mpi: NETSCHED_MPI_CANDIDATES: item 1: the adaptive mode serves alltoall and allgather, not bcast \\(MPI_Bcast uses the MPI library's own\\)$"
check "bad: malformed item" 0 run 2 NETSCHED_MPI_CANDIDATES=alltoall:native -- ./adaptive_loop -n 2 -s 64
expect "bad: malformed item: said" "$tmp/err" \
  "^netsched-mpi: NETSCHED_MPI_CANDIDATES: item 1: 'alltoall\\.\\.\\.' is not COLLECTIVE:GROUP:native\\|FILE \\(MPI_Alltoall uses the MPI library's own\\)$"
check "bad: each said once" 0 test "$(wc -l <"$tmp/err")" -eq 1
# Ranks that measure a different number of times would reduce at
# different calls (a hang): the configuration hash covers it.
check "ranks with different measure counts" 0 env -u NETSCHED_MPI_CANDIDATES timeout 300 \
  mpirun --allow-run-as-root --oversubscribe \
  -np 1 env LD_PRELOAD="$preload" NETSCHED_MPI_CANDIDATES="alltoall:g:a2.nsr,alltoall:h:native" NETSCHED_MPI_MEASURE=2 \
    ./adaptive_loop -n 8 -s 64 : \
  -np 1 env LD_PRELOAD="$preload" NETSCHED_MPI_CANDIDATES="alltoall:g:a2.nsr,alltoall:h:native" NETSCHED_MPI_MEASURE=3 \
    ./adaptive_loop -n 8 -s 64
expect "different measure counts: right results" "$tmp/out" "^adaptive_loop: 8 calls, 0 wrong,"
expect "different measure counts: said without VERBOSE" "$tmp/err" \
  "falls through to the MPI library: 64 bytes per block: world ranks 0 and 1 read different configurations"

# ---- SMPI: the choice under balanced and imbalanced arrival ----
if command -v smpicc >/dev/null && command -v smpirun >/dev/null; then
  if smpicc -O1 -I"$src" "$src"/mpi/lib/*.c "$src/mpi/runtime/ns_routine.c" "$loop_src" \
       -o adaptive_loop_smpi 2>smpicc.err; then
    t=gen:chain:4,4
    "$ns" topo convert "$t" --to simgrid -o chain.xml >/dev/null
    printf 'n%d\n' {0..15} >chain.hosts
    # Rendezvous tables (MPI_Issend at every size, as before issue #23): with
    # eager sends bruck's phases absorb the imbalance as well as the posted
    # exchange does (site 1 of the two-site loop: 21.09 against 21.17 ms),
    # a tie that would decide the choice below instead of the groups.
    for a in bruck 2dmesh simple faraj; do gen "a16-$a.nsr" -T "$t" -a "$a" --eager-threshold 0; done
    # STAR-MPI's groups (§4.3.1.3): fewer messages, posted at once, contention-free
    cat >adaptive.conf <<'EOF'
candidate alltoall log-phases a16-bruck.nsr
candidate alltoall log-phases a16-2dmesh.nsr
candidate alltoall posted native
candidate alltoall posted a16-simple.nsr
candidate alltoall contention-free a16-faraj.nsr
measure alltoall 3
EOF
    smpi() { # smpi ARGS...: the loop on 16 simulated hosts, verbose
      check "SMPI: adaptive_loop $*" 0 env NETSCHED_MPI_CONFIG=adaptive.conf NETSCHED_MPI_VERBOSE=1 \
        timeout 300 smpirun -np 16 -platform chain.xml -hostfile chain.hosts \
        --cfg=smpi/simulate-computation:no --log=root.thres:warning ./adaptive_loop_smpi "$@"
    }
    smpi -n 16 -s 1024
    expect "SMPI balanced: right results" "$tmp/out" "^adaptive_loop: 16 calls, 0 wrong,"
    expect "SMPI balanced: bruck's group wins, 2dmesh measured, bruck chosen" "$tmp/err" \
      "^netsched-mpi: $(site Alltoall 16 1 1024): chooses a16-bruck\\.nsr \\(group log-phases\\) after 12 measured calls; the runner-up native \\(group posted\\)"
    expect "SMPI balanced: 2dmesh measured" "$tmp/err" "measured a16-2dmesh\\.nsr \\(group log-phases\\)"
    smpi -n 16 -s 1024 -w 0.02
    expect "SMPI imbalanced: right results" "$tmp/out" "^adaptive_loop: 16 calls, 0 wrong,"
    expect "SMPI imbalanced: the posted group wins" "$tmp/err" \
      "^netsched-mpi: $(site Alltoall 16 1 1024): chooses (native|a16-simple\\.nsr) \\(group posted\\) after 12 measured calls"
    no_line "SMPI imbalanced: the losing groups' other members not measured" "$tmp/err" "measured a16-2dmesh"
    smpi -n 16 -s 1024 -w 0.02 -b
    expect "SMPI two sites: right results" "$tmp/out" "^adaptive_loop: 32 calls, 0 wrong,"
    expect "SMPI two sites: after the imbalanced computation, the posted group" "$tmp/err" \
      "^netsched-mpi: $(site Alltoall 16 1 1024): chooses (native|a16-simple\\.nsr) \\(group posted\\)"
    expect "SMPI two sites: right after it (balanced), bruck" "$tmp/err" \
      "^netsched-mpi: $(site Alltoall 16 2 1024): chooses a16-bruck\\.nsr \\(group log-phases\\)"
  else
    echo "not ok - smpicc"; sed 's/^/#   /' smpicc.err | head -5; failures=$((failures + 1))
  fi
else
  echo "ok - SMPI # SKIP smpicc/smpirun not installed"
fi

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
