#!/usr/bin/env bash
# libnetsched-mpi under real Open MPI (docs/mpi-library.md): the receive
# buffers of MPI_Alltoall, MPI_Allgather and MPI_Bcast served by the
# library — preloaded and linked — are byte for byte PMPI's
# (tests/mpi/lib_check.c compares them in the same program), on 2 to 16
# ranks, with tables of several algorithms over size ranges, sub-
# communicators, derived datatypes and MPI_IN_PLACE, every algorithm of
# the three collectives whose planner applies; every guard says its
# reason under NETSCHED_MPI_VERBOSE=1; bad configurations are one clear
# message, a correct result and no hang (every run under `timeout`). Then
# the same driver under SMPI (smpicc + smpirun) and under MPICH when
# installed. Skipped (77) without mpicc/mpirun; fails when they are there
# but NETSCHED_MPI_LIB (tests/CMakeLists.txt sets it) names no library.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
source "$(dirname "${BASH_SOURCE[0]}")/mpi-lib-common.bash"
driver="$src/tests/mpi/lib_check.c"
mpicc -O1 -Wall -Wextra -Werror "$driver" -o "$tmp/lib_check" || { echo "not ok - mpicc"; exit 1; }
mpicc -O1 "${sanitize_flags[@]}" "$driver" -o "$tmp/lib_check_linked" \
  -L"$(dirname "$lib")" -Wl,-rpath,"$(dirname "$lib")" -lnetsched-mpi ||
  { echo "not ok - mpicc -lnetsched-mpi"; exit 1; }

cd "$tmp" || exit 1

# ---- correctness: N = 2..16, several algorithms per collective over size ranges ----
# A table per algorithm and size range; sizes 8 B to 64 KiB per block hit
# every range and the fall-through above the last alltoall range.
for np in 2 3 4 5 7 8 12 13 16; do
  t="gen:chain:1,$np"
  (( np % 2 == 0 && np > 2 )) && t="gen:chain:2,$((np / 2))"
  gen "a-bruck-$np.nsr" -T "$t" -a bruck
  gen "a-faraj-$np.nsr" -T "$t" -a faraj
  gen "g-rdb-$np.nsr" -T "$t" -c allgather -a rdb
  gen "g-ring-$np.nsr" -T "$t" -c allgather -a ring
  gen "b-binomial-$np.nsr" -T "$t" -c bcast -a binomial
  gen "b-sa-$np.nsr" -T "$t" -c bcast -a scatter-allgather
  cat >"lib-$np.conf" <<EOF
# tables for $np machines ($t)
schedule alltoall 1-256 a-bruck-$np.nsr
schedule alltoall 257-8K a-faraj-$np.nsr
schedule allgather 1-1K g-rdb-$np.nsr
schedule allgather 1025- g-ring-$np.nsr
schedule bcast 1-4K b-binomial-$np.nsr
schedule bcast 4097- b-sa-$np.nsr
EOF
  check "np $np: lib_check over six tables" 0 run "$np" NETSCHED_MPI_CONFIG="lib-$np.conf" \
    NETSCHED_MPI_VERBOSE=1 -- ./lib_check -s 8,100,1000,4096,65536 -c world,dup -i 2
  same "np $np"
  for algo in a-bruck a-faraj g-rdb g-ring b-binomial b-sa; do
    expect "np $np: $algo taken on MPI_COMM_WORLD" "$tmp/err" \
      "on MPI_COMM_WORLD \\($np ranks\\): takes $algo-$np.nsr"
  done
  expect "np $np: 64 KiB alltoall falls through" "$tmp/err" \
    "MPI_Alltoall on MPI_COMM_WORLD \\($np ranks\\): falls through to the MPI library: 65536 bytes per block is in no alltoall table's size range"
done

# ---- every algorithm through the library: one table per algorithm, each
# on a size of its own (16 B, 17 B, ...), one run per collective ----
for np in 7 8; do
  chain="gen:chain:1,$np"
  (( np % 2 == 0 )) && chain="gen:chain:2,$((np / 2))"
  for coll in alltoall allgather bcast; do
    items=() sizes=()
    for algo in $("$ns" plan --list | awk -F'[/ ]' -v c="$coll" '$1 == c { print $2 }'); do
      f="every-$np-$coll-$algo.nsr"
      # The algorithms for rings (ar, rowcol) on gen:ring:P; those whose
      # planner applies to neither are left out.
      "$ns" generate -T "$chain" -c "$coll" -a "$algo" -o "$f" >/dev/null 2>&1 ||
        "$ns" generate -T "gen:ring:$np" -c "$coll" -a "$algo" -o "$f" >/dev/null 2>&1 || continue
      size=$((16 + ${#items[@]}))
      items+=("$coll:$size-$size:$f")
      sizes+=("$size")
    done
    check "np $np: every $coll algorithm (${#items[@]} tables)" 0 run "$np" \
      NETSCHED_MPI_SCHEDULES="$(IFS=,; echo "${items[*]}")" NETSCHED_MPI_VERBOSE=1 -- \
      ./lib_check -k "$coll" -s "$(IFS=,; echo "${sizes[*]}")"
    same "np $np: every $coll algorithm"
    check "np $np: each of the ${#items[@]} $coll tables taken" 0 \
      test "$(grep -c "on MPI_COMM_WORLD ($np ranks): takes every-$np-$coll-" "$tmp/err")" -eq "${#items[@]}"
  done
done

# ---- guards on 6 ranks; tables for 6 machines and for 3 ----
gen a6.nsr -T gen:chain:2,3 -a faraj
gen g6.nsr -T gen:chain:2,3 -c allgather -a ring
gen b6.nsr -T gen:chain:2,3 -c bcast -a binomial
gen a3.nsr -T gen:chain:1,3 -a faraj
six="alltoall:*:a6.nsr,allgather:*:g6.nsr,bcast:*:b6.nsr"

check "derived datatypes and MPI_IN_PLACE" 0 run 6 NETSCHED_MPI_SCHEDULES="$six" \
  NETSCHED_MPI_VERBOSE=1 -- ./lib_check -s 0,4,64,4096 -t byte,int,vector -p -c world,low,parity,inter
same "derived datatypes and MPI_IN_PLACE"
expect "vector datatype taken (packed)" "$tmp/err" "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\): takes a6.nsr"
expect "guard: count 0" "$tmp/err" \
  "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\): falls through to the MPI library: count 0 \\(nothing to move\\)"
expect "guard: communicator size (split)" "$tmp/err" \
  "MPI_Alltoall on world ranks 0-2 \\(3 ranks\\): falls through to the MPI library: 4 bytes per block: a6.nsr is for 6 machines, the communicator has 3 ranks"
expect "guard: communicator size (parity split)" "$tmp/err" \
  "MPI_Allgather on world ranks 0,2,4 \\(3 ranks\\): falls through to the MPI library: 4 bytes per block: g6.nsr is for 6 machines, the communicator has 3 ranks"
expect "guard: bcast root" "$tmp/err" \
  "MPI_Bcast on MPI_COMM_WORLD \\(6 ranks\\): falls through to the MPI library: root 5 plays no broadcast table's root machine for 4 bytes"
expect "guard: inter-communicator" "$tmp/err" \
  "MPI_Alltoall on an inter-communicator \\(3 ranks\\): falls through to the MPI library: 4 bytes per block: an inter-communicator"

check "membership: a table for world ranks 0-2" 0 run 6 NETSCHED_MPI_SCHEDULES="alltoall:*:a3.nsr" \
  NETSCHED_MPI_VERBOSE=1 -- ./lib_check -s 64 -k alltoall -c world,low,parity
same "membership"
expect "membership: the low half takes it" "$tmp/err" "MPI_Alltoall on world ranks 0-2 \\(3 ranks\\): takes a3.nsr"
expect "membership: the high half falls through" "$tmp/err" \
  "MPI_Alltoall on world ranks 3-5 \\(3 ranks\\): falls through to the MPI library: 64 bytes per block: rank 0 \\(world rank 3\\) plays none of a3.nsr's machines under rankmap order"
expect "membership: the even ranks fall through" "$tmp/err" \
  "MPI_Alltoall on world ranks 0,2,4 \\(3 ranks\\): falls through to the MPI library: 64 bytes per block: rank 2 \\(world rank 4\\) plays none of a3.nsr's machines"
expect "a table for another size is said without VERBOSE... (with it here)" "$tmp/err" \
  "NETSCHED_MPI_SCHEDULES: item 1: does not fit MPI_COMM_WORLD: a3.nsr is for 3 machines, the communicator has 6 ranks"

check "another size, not verbose" 0 run 6 NETSCHED_MPI_SCHEDULES="alltoall:*:a3.nsr" -- ./lib_check -s 64 -k alltoall
same "another size"
expect "a table for another size: one message" "$tmp/err" \
  "^netsched-mpi: NETSCHED_MPI_SCHEDULES: item 1: does not fit MPI_COMM_WORLD: a3.nsr is for 3 machines, the communicator has 6 ranks \\(MPI_Alltoall there uses the MPI library's own\\)$"
check "another size: exactly one line" 0 test "$(wc -l <"$tmp/err")" -eq 1

# ---- rank mapping: a file ----
printf '# world rank, machine\n0 n5\n1 n4\n2 n3\n3 n2\n4 n1\n5 n0\n' >reversed.map
check "rank-map file (reversed)" 0 run 6 NETSCHED_MPI_SCHEDULES="$six" NETSCHED_MPI_RANKMAP=file:reversed.map \
  NETSCHED_MPI_VERBOSE=1 -- ./lib_check -s 8,4096
same "rank-map file"
expect "rank-map file: taken" "$tmp/err" "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\): takes a6.nsr"
expect "rank-map file: bcast root is machine n0 = world rank 5" "$tmp/err" \
  "MPI_Bcast on MPI_COMM_WORLD \\(6 ranks\\): falls through to the MPI library: root 0 plays no broadcast table's root machine"
printf '0 n0\n1 n1\n2 n1\n3 n3\n4 n4\n5 n5\n' >dup.map
printf 'schedule alltoall * a6.nsr\nrankmap file dup.map\n' >dup.conf
check "rank-map file: a machine twice" 0 run 6 NETSCHED_MPI_CONFIG=dup.conf -- ./lib_check -s 64 -k alltoall
same "rank-map duplicate"
expect "rank-map duplicate: FILE:LINE" "$tmp/err" \
  "^netsched-mpi: \\./dup\\.map:3: machine 'n1' listed again \\(first at line 2\\) \\(MPI_Alltoall, MPI_Allgather and MPI_Bcast use the MPI library's own\\)$"
check "rank-map duplicate: one line" 0 test "$(wc -l <"$tmp/err")" -eq 1
printf '0 n0\n9 n1\n' >big.map
check "rank-map file: a rank beyond the world" 0 run 6 NETSCHED_MPI_SCHEDULES="$six" NETSCHED_MPI_RANKMAP=file:big.map -- ./lib_check -s 64 -k alltoall
expect "rank-map rank beyond: FILE:LINE" "$tmp/err" "big\\.map:2: rank 9 is not a rank of MPI_COMM_WORLD \\(6 ranks\\)"
check "rank mapping by processor name: no rank runs on n0..n5" 0 run 6 NETSCHED_MPI_SCHEDULES="$six" \
  NETSCHED_MPI_RANKMAP=name NETSCHED_MPI_VERBOSE=1 -- ./lib_check -s 64 -k alltoall
same "rankmap name"
expect "rankmap name: refusal" "$tmp/err" \
  "does not fit MPI_COMM_WORLD: rank 0 \\(world rank 0\\) plays none of a6.nsr's machines under rankmap name"

# ---- bad configurations: one message each, a correct result, no hang ----
check "missing table file" 0 run 4 NETSCHED_MPI_SCHEDULES="alltoall:*:nosuch.nsr" -- ./lib_check -s 64
same "missing table file"
expect "missing table file: named" "$tmp/err" \
  "^netsched-mpi: NETSCHED_MPI_SCHEDULES: item 1: nosuch\\.nsr: .* \\(MPI_Alltoall uses the MPI library's own\\)$"
check "missing table file: one line" 0 test "$(wc -l <"$tmp/err")" -eq 1
printf 'schedule alltoall 1-4K a6.nsr\nschedule allgather 1-x g6.nsr\nverbose 2\nbogus line\n' >bad.conf
check "malformed configuration" 0 run 6 NETSCHED_MPI_CONFIG=bad.conf -- ./lib_check -s 64
same "malformed configuration"
expect "bad range: FILE:LINE" "$tmp/err" \
  "^netsched-mpi: bad\\.conf:2: size range '1-x' is not MIN-MAX, MIN- or \\* .*\\(MPI_Allgather uses the MPI library's own\\)$"
expect "bad verbose: FILE:LINE" "$tmp/err" "^netsched-mpi: bad\\.conf:3: expected 'verbose 0' or 'verbose 1'$"
expect "unknown keyword: FILE:LINE" "$tmp/err" "^netsched-mpi: bad\\.conf:4: unknown keyword 'bogus'"
check "malformed configuration: three lines" 0 test "$(wc -l <"$tmp/err")" -eq 3
check "a table of another collective" 0 run 6 NETSCHED_MPI_SCHEDULES="bcast:*:a6.nsr" -- ./lib_check -s 64
same "another collective"
expect "another collective: named" "$tmp/err" "item 1: a6\\.nsr is a table for alltoall, named for bcast \\(MPI_Bcast uses"
printf 'not a table\n' >junk.nsr
check "a file that is no table" 0 run 4 NETSCHED_MPI_SCHEDULES="alltoall:*:junk.nsr" -- ./lib_check -s 64
same "junk table"
expect "junk table: named" "$tmp/err" "^netsched-mpi: NETSCHED_MPI_SCHEDULES: item 1: junk\\.nsr"
check "on-error abort stops the job" 2 run 6 NETSCHED_MPI_CONFIG=bad.conf NETSCHED_MPI_ON_ERROR=abort -- ./lib_check -s 64
expect "on-error abort: said" "$tmp/err" "world rank 0: on-error abort: stopping the job"
# A table missing on some ranks only (a node without the file): every rank
# falls through, the rank that lacks it says so, rank 0 names it.
# (mpirun's -x reaches the first program of an MPMD line only: each
# program gets its environment from env.)
check "a table missing on ranks 1-5 only" 0 env -u NETSCHED_MPI_SCHEDULES timeout 300 \
  mpirun --allow-run-as-root --oversubscribe \
  -np 1 env LD_PRELOAD="$preload" NETSCHED_MPI_VERBOSE=1 NETSCHED_MPI_SCHEDULES="alltoall:*:a6.nsr" \
    ./lib_check -s 64 -k alltoall : \
  -np 5 env LD_PRELOAD="$preload" NETSCHED_MPI_VERBOSE=1 NETSCHED_MPI_SCHEDULES="alltoall:*:elsewhere/a6.nsr" \
    ./lib_check -s 64 -k alltoall
same "missing on some ranks"
expect "missing on some ranks: the rank says it" "$tmp/err" "^netsched-mpi: world rank 1: NETSCHED_MPI_SCHEDULES: item 1: elsewhere/a6\\.nsr"
expect "missing on some ranks: rank 0 names the rank" "$tmp/err" \
  "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\): falls through to the MPI library: 64 bytes per block: world rank 1 could not read"
check "different configurations on different ranks" 0 env -u NETSCHED_MPI_SCHEDULES timeout 300 \
  mpirun --allow-run-as-root --oversubscribe \
  -np 3 env LD_PRELOAD="$preload" NETSCHED_MPI_SCHEDULES="alltoall:1-100:a6.nsr" ./lib_check -s 64 -k alltoall : \
  -np 3 env LD_PRELOAD="$preload" NETSCHED_MPI_SCHEDULES="alltoall:1-10:a6.nsr" ./lib_check -s 64 -k alltoall
same "different configurations"
expect "different configurations: said without VERBOSE" "$tmp/err" \
  "falls through to the MPI library: 64 bytes per block: world ranks 0 and 3 read different configurations"

# ---- no configuration: the library is inert ----
check "no configuration" 0 run 4 -- ./lib_check -s 8,4096 -c world,parity -p
same "no configuration"
check "no configuration: nothing said" 0 test ! -s "$tmp/err"

# ---- linked instead of preloaded ----
check "linked: -lnetsched-mpi" 0 env -u NETSCHED_MPI_SCHEDULES timeout 300 mpirun --allow-run-as-root \
  --oversubscribe -np 6 -x ASAN_OPTIONS -x NETSCHED_MPI_SCHEDULES="$six" -x NETSCHED_MPI_VERBOSE=1 \
  ./lib_check_linked -s 8,4096 -t byte,vector
same "linked"
expect "linked: taken" "$tmp/err" "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\): takes a6.nsr"

# ---- SMPI: the library's sources compiled into the program by smpicc ----
if command -v smpicc >/dev/null && command -v smpirun >/dev/null; then
  if smpicc -O1 -I"$src" "$src"/mpi/lib/*.c "$src/mpi/runtime/ns_routine.c" "$driver" \
       -o lib_check_smpi 2>smpicc.err; then
    "$ns" topo convert gen:chain:2,3 --to simgrid -o six.xml >/dev/null
    printf 'n%d\n' 0 1 2 3 4 5 >six.hosts
    check "SMPI: lib_check on 6 simulated hosts" 0 env NETSCHED_MPI_SCHEDULES="$six" NETSCHED_MPI_VERBOSE=1 \
      timeout 300 smpirun -np 6 -platform six.xml -hostfile six.hosts --cfg=smpi/simulate-computation:no \
      --log=root.thres:warning ./lib_check_smpi -s 8,4096 -t byte,vector -p -c world,low
    same "SMPI"
    expect "SMPI: alltoall taken" "$tmp/err" "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\): takes a6.nsr"
    expect "SMPI: bcast taken" "$tmp/err" "MPI_Bcast on MPI_COMM_WORLD \\(6 ranks\\): takes b6.nsr"
  else
    echo "not ok - smpicc"; sed 's/^/#   /' smpicc.err | head -5; failures=$((failures + 1))
  fi
else
  echo "ok - SMPI # SKIP smpicc/smpirun not installed"
fi

# ---- MPICH: the library built by mpicc.mpich, preloaded under mpirun.mpich ----
if command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null; then
  if mpicc.mpich -O1 -shared -fPIC -fvisibility=hidden -I"$src" "$src"/mpi/lib/*.c \
       "$src/mpi/runtime/ns_routine.c" -o libnetsched-mpi-mpich.so -lpthread 2>mpich.err &&
     mpicc.mpich -O1 "$driver" -o lib_check_mpich 2>>mpich.err; then
    check "MPICH: lib_check on 6 ranks" 0 env ASAN_OPTIONS= NETSCHED_MPI_SCHEDULES="$six" NETSCHED_MPI_VERBOSE=1 \
      LD_PRELOAD="$tmp/libnetsched-mpi-mpich.so" timeout 300 mpirun.mpich -np 6 ./lib_check_mpich \
      -s 8,4096 -t byte,vector -p -c world,low
    same "MPICH"
    expect "MPICH: alltoall taken" "$tmp/err" "MPI_Alltoall on MPI_COMM_WORLD \\(6 ranks\\): takes a6.nsr"
  else
    echo "not ok - mpicc.mpich"; sed 's/^/#   /' mpich.err | head -5; failures=$((failures + 1))
  fi
else
  echo "ok - MPICH # SKIP mpicc.mpich not installed"
fi

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
