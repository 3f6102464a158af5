#!/usr/bin/env bash
# netsched generate --decision (docs/mpi-rules.md): decision tables as an
# Open MPI 4.1 coll/tuned dynamic-rules file and an MPICH 4.0
# collective-selection file, with the exact text, the refusals, and the
# libraries themselves reading them. Open MPI 4.1.4 (Debian's) prints
# nothing about a rules file outside a debug build, so the algorithm it
# took is read from its pml monitoring (rank 0's messages of one call,
# tests/mpi/rules_check.c) at sizes on both sides of every threshold. MPICH
# 4.0.2 says nothing either: its file is shown read and thresholds taken as
# written by swapping one algorithm for one that ignores the send buffer.
source "$(dirname "$0")/cli-common.bash"
data="$src/tests/data/decision"
cd "$tmp" || exit 1

# ---- refusals: option: what is wrong, exit 2 ----
check "--decision without --output-format" 2 "$ns" generate -D "$data/alltoall-4.json" -o r.txt
expect "names the formats" "$tmp/err" \
  "^netsched generate: --decision needs --output-format ompi-rules or mpich-csel$"
check "--decision with a routine format" 2 "$ns" generate -D "$data/alltoall-4.json" -F table -o r.txt
expect "says which formats" "$tmp/err" \
  "^netsched generate: --decision writes --output-format ompi-rules or mpich-csel, not 'table'$"
check "--decision with -a" 2 "$ns" generate -D "$data/alltoall-4.json" -a ring -F ompi-rules -o r.txt
expect "decision files alone" "$tmp/err" "give no topology, algorithm or schedule"
check "a missing decision file" 2 "$ns" generate -D nosuch.json -F ompi-rules -o r.txt
expect "names the file" "$tmp/err" "nosuch.json"
printf '{ "format": "netsched-decision", "version": 1, "collective": "alltoall", "machines": 4,\n  "rows": [ { "from_bytes": 8, "algorithm": "ring" } ] }\n' >late.json
check "a table not starting at 0" 2 "$ns" generate -D late.json -F ompi-rules -o r.txt
expect "file:line" "$tmp/err" "late.json.*the first row must start at 0 bytes"
check "netsched's own algorithm: Open MPI" 2 "$ns" generate -D "$data/faraj-4.json" -F ompi-rules -o r.txt
expect "names the row and the way out" "$tmp/err" \
  "^netsched: alltoall table for 4 machines, row from 8KiB: Open MPI 4.1 has no algorithm that runs faraj on 4 machines; run netsched's routine instead \(netsched generate -a faraj, preloaded with libnetsched-mpi: docs/mpi-library.md\)$"
check "netsched's own algorithm: MPICH" 2 "$ns" generate -D "$data/faraj-4.json" -F mpich-csel -o r.txt
expect "MPICH named" "$tmp/err" "MPICH 4.0 has no algorithm that runs faraj on 4 machines"
check "an MPICH-only algorithm for Open MPI" 2 "$ns" generate -D "$data/alltoall-8-mpich.json" -F ompi-rules -o r.txt
expect "spread on 8 machines" "$tmp/err" "row from 1KiB: Open MPI 4.1 has no algorithm that runs spread on 8 machines"
check "MPICH's pairwise is pair only for a power of two" 2 "$ns" generate -D "$data/alltoall-4.json" -F mpich-csel -o r.txt
expect "ring on 4 machines" "$tmp/err" "row from 256B: MPICH 4.0 has no algorithm that runs ring on 4 machines"
printf '{ "format": "netsched-decision", "version": 1, "collective": "alltoall", "machines": 4,\n  "rows": [ { "from_bytes": 0, "algorithm": "bruck", "params": "segment=4096" } ] }\n' >seg.json
check "a parameter the library cannot take" 2 "$ns" generate -D seg.json -F ompi-rules -o r.txt
expect "says which" "$tmp/err" "^netsched: alltoall table for 4 machines, row from 0B: Open MPI 4.1's modified_bruck cannot take a segment size \('segment=4096'\)$"
check "two tables of one collective and size" 2 "$ns" generate -D "$data/alltoall-4.json" -D "$data/alltoall-4.json" -F ompi-rules -o r.txt
expect "one per size" "$tmp/err" "^netsched: two alltoall tables for 4 machines: give one per collective and communicator size$"
check "nothing written on refusal" 1 test -e r.txt

# ---- the Open MPI file: exact text ----
check "Open MPI rules" 0 "$ns" generate -D "$data/alltoall-4.json" -D "$data/alltoall-8.json" \
  -D "$data/allgather-4.json" -D "$data/bcast-4-ompi.json" -F ompi-rules -o rules.txt
expect "says what it wrote" "$tmp/out" \
  "^rules.txt: Open MPI 4.1 coll/tuned dynamic rules for alltoall \(4 machines, 2 rows\), alltoall \(8 machines, 3 rows\), allgather \(4 machines, 2 rows\), bcast \(4 machines, 3 rows\)$"
expect "the mpirun line, absolute path" "$tmp/out" \
  "^mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename $tmp/rules.txt \.\.\.$"
grep -v '^#' rules.txt >rules.body
cat >rules.want <<'WANT'
3 # collectives
3 # collective id: alltoall
2 # communicator sizes
4 # communicator size, tuned on gen:star:4
2 # message sizes
0 3 0 0 # from 0B blocks: modified_bruck (netsched bruck), 1.5e-05 s against ring's 2.5e-05 s
1024 2 0 0 # from 256B blocks: pairwise (netsched ring), 4e-05 s against bruck's 6e-05 s
8 # communicator size
3 # message sizes
0 3 0 0 # from 0B blocks: modified_bruck (netsched bruck)
8192 1 0 0 # from 1KiB blocks: linear (netsched basic-linear)
524288 2 0 0 # from 64KiB blocks: pairwise (netsched ring)
0 # collective id: allgather
1 # communicator sizes
4 # communicator size
2 # message sizes
0 4 0 0 # from 0B blocks: ring (netsched ring)
1024 3 0 0 # from 256B blocks: recursive_doubling (netsched rdb)
7 # collective id: bcast
1 # communicator sizes
4 # communicator size
3 # message sizes
0 6 0 0 # from 0B messages: binomial (netsched bmtree)
1024 3 0 8192 # from 1KiB messages: pipeline (netsched linear segment=8192)
65536 7 0 0 # from 64KiB messages: knomial (netsched knomial arity=4)
WANT
check "the classic grammar, rule for rule" 0 diff rules.want rules.body
check "a path with a blank is quoted" 0 "$ns" generate -D "$data/allgather-4.json" -F ompi-rules -o "my rules.txt"
expect "single-quoted" "$tmp/out" "coll_tuned_dynamic_rules_filename '$tmp/my rules.txt' \.\.\.$"

# ---- the MPICH file: exact branches, every other collective MPICH's own ----
check "MPICH selection" 0 "$ns" generate -D "$data/alltoall-8-mpich.json" -D "$data/allgather-4.json" \
  -D "$data/bcast-4.json" -F mpich-csel -o csel.json
expect "the environment line" "$tmp/out" \
  "^MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=$tmp/csel.json mpirun.mpich \.\.\.$"
if command -v python3 >/dev/null; then
  python3 - csel.json >csel.out <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(len(j), "collectives")
for c in ("alltoall", "allgather", "bcast"):
    print(c, json.dumps(j["collective=" + c], separators=(",", ":")))
PY
  cat >csel.want <<'WANT'
44 collectives
alltoall {"comm_type=intra":{"is_sendbuf_inplace=yes":{"algorithm=MPIR_Alltoall_intra_pairwise_sendrecv_replace":{}},"is_sendbuf_inplace=no":{"comm_size=any":{"avg_msg_size<=1023":{"algorithm=MPIR_Alltoall_intra_brucks":{}},"avg_msg_size<=65535":{"algorithm=MPIR_Alltoall_intra_scattered":{}},"avg_msg_size=any":{"algorithm=MPIR_Alltoall_intra_pairwise":{}}}}},"comm_type=inter":{"algorithm=MPIR_Alltoall_inter_pairwise_exchange":{}}}
allgather {"comm_type=intra":{"comm_size=any":{"total_msg_size<=1023":{"algorithm=MPIR_Allgather_intra_ring":{}},"total_msg_size=any":{"algorithm=MPIR_Allgather_intra_recursive_doubling":{}}}},"comm_type=inter":{"algorithm=MPIR_Allgather_inter_local_gather_remote_bcast":{}}}
bcast {"comm_type=intra":{"comm_size=any":{"avg_msg_size<=1023":{"algorithm=MPIR_Bcast_intra_binomial":{}},"avg_msg_size=any":{"algorithm=MPIR_Bcast_intra_scatter_ring_allgather":{}}}},"comm_type=inter":{"algorithm=MPIR_Bcast_inter_remote_send_local_bcast":{}}}
WANT
  check "MPICH branches as written" 0 diff csel.want csel.out
fi

# ---- Open MPI reads the file: the rule's algorithm on both sides of each threshold ----
if ! command -v mpicc.openmpi >/dev/null || ! command -v mpirun >/dev/null; then
  echo "ok - Open MPI # SKIP mpicc.openmpi/mpirun not installed"
else
  mpicc.openmpi -O1 -Wall -Wextra -Werror "$src/tests/mpi/rules_check.c" -o rules_check_ompi ||
    { echo "not ok - mpicc.openmpi"; failures=$((failures + 1)); }
  # sends RULES COLL BYTES: rank 0's messages in one call, "peer:count ...",
  # from Open MPI's pml monitoring ("I" lines: internal, i.e. collective,
  # traffic); every rank must also have received the right bytes.
  sends() {
    rm -f mon.*.prof
    timeout 300 mpirun --allow-run-as-root --oversubscribe -np 4 \
      --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$1" \
      --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
      --mca pml_monitoring_filename "$tmp/mon" ./rules_check_ompi "$2" "$3" >run.out 2>run.err
    [[ $(grep -c " correct$" run.out) == 4 ]] || echo "not all ranks correct: $(cat run.out run.err)"
    awk -F'\t' '$1 == "I" { split($5, m, " "); printf "%s%s:%s", sep, $3, m[1]; sep = " " }
                END { print "" }' mon.0.prof
  }
  taken() { # taken NAME RULES COLL BYTES WANT
    local got
    got=$(sends "$2" "$3" "$4")
    if [[ $got == "$5" ]]; then
      echo "ok - $1"; passed=$((passed + 1))
    else
      echo "not ok - $1: rank 0 sent '$got', expected '$5'"; failures=$((failures + 1))
    fi
  }
  # alltoall on 4: bruck below 256 B a block (1024 B in all, Open MPI's
  # unit), pairwise from there; Bruck sends to 1 and 2, pairwise to all.
  taken "alltoall 255 B: modified_bruck (rule 0)" rules.txt alltoall 255 "1:1 2:1"
  taken "alltoall 256 B: pairwise (rule 1024)" rules.txt alltoall 256 "1:1 2:1 3:1"
  # allgather on 4: ring (3 messages to the right) then recursive doubling.
  taken "allgather 255 B: ring" rules.txt allgather 255 "1:3"
  taken "allgather 256 B: recursive_doubling" rules.txt allgather 256 "1:1 2:1"
  # bcast on 4, by the whole message: binomial, pipeline (one segment down
  # the chain), knomial of radix 4 (the root sends to all three).
  taken "bcast 1023 B: binomial" rules.txt bcast 1023 "1:1 2:1"
  taken "bcast 1024 B: pipeline" rules.txt bcast 1024 "1:1"
  taken "bcast 65536 B: knomial" rules.txt bcast 65536 "1:1 2:1 3:1"
  # Malformed: the first rule not at 0 bytes. Open MPI prints nothing and
  # falls back to its fixed decision (linear_sync below 8 KiB on 4: to all).
  sed 's/^0 3 0 0 # from 0B blocks: modified_bruck (netsched bruck), /16 3 0 0 # /' rules.txt >bad.txt
  taken "a malformed file: Open MPI's fixed decision instead" bad.txt alltoall 255 "1:1 2:1 3:1"
  check "and says nothing about it" 1 grep -qi "rule" run.err
fi

# ---- MPICH reads the file ----
if ! command -v mpicc.mpich >/dev/null || ! command -v mpirun.mpich >/dev/null; then
  echo "ok - MPICH # SKIP mpicc.mpich/mpirun.mpich not installed"
else
  mpicc.mpich -O1 -Wall -Wextra -Werror "$src/tests/mpi/rules_check.c" -o rules_check_mpich ||
    { echo "not ok - mpicc.mpich"; failures=$((failures + 1)); }
  "$ns" generate -D "$data/alltoall-4-mpich.json" -D "$data/allgather-4.json" -D "$data/bcast-4.json" \
    -F mpich-csel -o csel4.json >/dev/null
  mpich() { # mpich FILE COLL BYTES: the ranks' verdicts, "correct x4" or what they said
    MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$1" timeout 300 mpirun.mpich -np 4 \
      ./rules_check_mpich "$2" "$3" >run.out 2>run.err
    echo "exit $?, $(grep -c " correct$" run.out) correct, $(grep -c " WRONG$" run.out) wrong"
  }
  for c in "alltoall 255" "alltoall 256" "alltoall 4095" "alltoall 4096" "allgather 255" \
           "allgather 256" "bcast 1023" "bcast 1024"; do
    # shellcheck disable=SC2086
    got=$(mpich csel4.json $c)
    [[ $got == "exit 0, 4 correct, 0 wrong" ]] && { echo "ok - MPICH runs $c B with the file"; passed=$((passed + 1)); } ||
      { echo "not ok - MPICH $c: $got"; sed 's/^/#   /' run.err | head -3; failures=$((failures + 1)); }
  done
  # The file is the one MPICH follows, threshold for threshold: the
  # scattered branch (256 B to 4095 B a peer) swapped for the in-place
  # algorithm, which ignores the send buffer, makes exactly those sizes
  # wrong.
  sed 's/MPIR_Alltoall_intra_scattered/MPIR_Alltoall_intra_pairwise_sendrecv_replace/' csel4.json >swap.json
  check "swap made" 0 grep -q sendrecv_replace swap.json
  for c in "255 exit 0, 4 correct, 0 wrong" "256 exit 0, 0 correct, 4 wrong" \
           "4095 exit 0, 0 correct, 4 wrong" "4096 exit 0, 4 correct, 0 wrong"; do
    got=$(mpich swap.json alltoall "${c%% *}")
    [[ $got == "${c#* }" ]] && { echo "ok - MPICH alltoall ${c%% *} B takes the file's branch"; passed=$((passed + 1)); } ||
      { echo "not ok - MPICH alltoall ${c%% *}: $got, expected ${c#* }"; failures=$((failures + 1)); }
  done
  # A file MPICH cannot read stops the job at MPI_Init, with an assertion.
  printf '{ "collective=alltoall": ' >broken.json
  check "a broken file stops the job" 1 test "$(mpich broken.json alltoall 8)" == "exit 0, 4 correct, 0 wrong"
  expect "MPICH's assertion" run.err "Assertion failed in file src/mpi/coll/src/csel.c"
fi

# ---- tune --for: a tuning among the library's own algorithms ends with
# the library's file, the same bytes generate --decision writes from the
# tuning's decision.json ----
if [[ ${NETSCHED_SIMULATOR:-1} == 1 ]]; then
  for lib in ompi mpich; do
    file=$([[ $lib == ompi ]] && echo ompi-rules.conf || echo mpich-csel.json)
    fmt=$([[ $lib == ompi ]] && echo ompi-rules || echo mpich-csel)
    check "tune --for $lib" 0 "$ns" tune -T gen:tree:2,4 --for "$lib" --sizes 64B,16KiB -o "tune-$lib"
    expect "tune --for $lib prints the line" "$tmp/out" "$file"
    check "tune --for $lib writes $file" 0 test -s "tune-$lib/$file"
    check "generate from its decision.json" 0 "$ns" generate -D "tune-$lib/decision.json" -F "$fmt" -o "gen-$lib"
    check "the same $file" 0 cmp "tune-$lib/$file" "gen-$lib"
  done
  expect "only Open MPI's algorithms measured" tune-ompi/measurements.csv ",bruck,"
  check "no netsched-only candidate for Open MPI" 1 grep -q ",faraj," tune-ompi/measurements.csv
  check "tune --for with -a" 2 "$ns" tune -T gen:tree:2,4 --for ompi -a ring -o tune-x
  expect "one of the two" "$tmp/err" "give -a or --for, not both"
  check "tune --for an unknown library" 2 "$ns" tune -T gen:tree:2,4 --for lam -o tune-x
  expect "names the libraries" "$tmp/err" "--for takes ompi or mpich, not 'lam'"
fi

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
