#!/usr/bin/env bash
# Eager sends by default (issue #23, "Eager and rendezvous"; docs/simulator.md,
# docs/generate.md): `simulate -M smpi` of faraj with sender-all syncs on
# Faraj–Yuan topology (c), at its default threshold (64 KiB, SMPI's
# smpi/send-is-detached-thresh), takes at 4, 16 and 32 KiB the time the
# same schedule takes as MPI code sending with plain MPI_Isend under
# smpirun, within 2 %: the generated routine compiled with MPI_Issend
# turned into MPI_Isend. The routine `generate` writes by default sends
# so below 64 KiB (the same time as the plain MPI_Isend code) and with
# MPI_Issend at 64 KiB, where it matches the default prediction within
# 1 % as before. With --eager-threshold 0 the replay is the rendezvous one
# of before, byte for byte (its figures printed by `simulate` before eager
# sends existed).
source "$(dirname "$0")/cli-common.bash"
require_smpi
# Plain MPI_Isend for every data send: the synchronous mode of phased
# routines renamed away.
smpicc -O1 -DMPI_Issend=MPI_Isend -I"$src" "$src/tests/mpi/routine_time.c" \
  "$src/mpi/runtime/ns_routine.c" -o "$tmp/routine_isend" >"$tmp/cc.log" 2>&1 ||
  { echo "not ok - smpicc"; cat "$tmp/cc.log"; exit 1; }
# The runtime as it is: the send mode the table says.
smpicc -O1 -I"$src" "$src/tests/mpi/routine_time.c" "$src/mpi/runtime/ns_routine.c" \
  -o "$tmp/routine_time" >"$tmp/cc.log" 2>&1 || { echo "not ok - smpicc"; cat "$tmp/cc.log"; exit 1; }

t=$topo/faraj-c.topo
"$ns" plan -T "$t" -a faraj -o "$tmp/s.json" >/dev/null 2>"$tmp/plan.err" || { echo "not ok - plan"; exit 1; }
"$ns" topo convert "$t" --to simgrid -o "$tmp/platform.xml" >/dev/null || { echo "not ok - topo convert"; exit 1; }
"$ns" generate -T "$t" -a faraj --sync sender-all -o "$tmp/routine.nsr" >/dev/null ||
  { echo "not ok - generate"; exit 1; }
grep '"machines"' "$tmp/s.json" | grep -o '"[^"]*"' | tail -n +2 | tr -d '"' >"$tmp/hosts"
np=$(wc -l <"$tmp/hosts")

completion() { # completion SIZE [OPTION...]: simulate's completion_s
  local size=$1
  shift
  "$ns" simulate -T "$t" -a faraj -S sender-all -M smpi -m "${size}B" "$@" --json |
    awk -F': ' '/"completion_s"/ { gsub(",", "", $2); print $2 }'
}
measured() { # measured PROGRAM SIZE: the routine's time under smpirun
  (cd "$tmp" && smpirun -np "$np" -platform platform.xml -hostfile hosts \
     "./$1" routine.nsr "$2" --cfg=smpi/simulate-computation:no \
     --log=root.thres:warning 2>/dev/null |
   awk '/^rank/ { if (s == "" || $4 < s) s = $4; if ($6 > e) e = $6 } END { if (s != "") printf "%.9f", e - s }')
}

for size in 4096 16384 32768; do
  isend=$(measured routine_isend "$size")
  ours=$(completion "$size")
  close_to "faraj sender-all ${size}B: MPI_Isend code under smpirun against simulate's default" \
    "$isend" "$ours" 0.02
  close_to "faraj sender-all ${size}B: the default routine sends as plain MPI_Isend code" \
    "$isend" "$(measured routine_time "$size")" 0.0001
done
# At the threshold: MPI_Issend, the rendezvous replayed, as before.
close_to "faraj sender-all 65536B: the default routine against simulate's default" \
  "$(measured routine_time 65536)" "$(completion 65536)" 0.01

# --eager-threshold 0: the rendezvous replay, the figures of before.
for want in "4096 0.16969901133535703" "16384 0.68818694432033667" "32768 1.3368290117361734"; do
  set -- $want
  got=$(completion "$1" --eager-threshold 0)
  if [[ $got == "$2" ]]; then
    echo "ok - --eager-threshold 0 at $1 B: $got s, as before"
    passed=$((passed + 1))
  else
    echo "not ok - --eager-threshold 0 at $1 B: '$got' s, expected $2 s"
    failures=$((failures + 1))
  fi
done

# Bad values: option: what is wrong, exit 2.
check "--eager-threshold bad" 2 "$ns" simulate -T "$t" -a faraj -M smpi --eager-threshold 12parsecs
expect "--eager-threshold bad message" "$tmp/err" "--eager-threshold '12parsecs'"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
