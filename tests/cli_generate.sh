#!/usr/bin/env bash
# netsched generate: options, refusals, determinism, outputs, and the
# runtime's loader on damaged and forged tables (docs/generate.md,
# docs/security.md "Routine generator").
source "$(dirname "$0")/cli-common.bash"

check "generate --help" 0 "$ns" generate --help
expect "--help names the sync schemes and the forms" "$tmp/out" "table\|c"
check "listed among the commands" 0 "$ns" --list-commands
expect "generate listed" "$tmp/out" "^generate	"

# ---- refusals: option: what is wrong, exit 2 ----
check "neither -a nor a schedule" 2 "$ns" generate -o "$tmp/x.nsr"
expect "says what to give" "$tmp/err" "give --algorithm to plan a schedule, or --schedule FILE"
check "-a and a schedule" 2 "$ns" generate -T gen:star:4 -a faraj --schedule "$tmp/none.json"
expect "not both" "$tmp/err" "give --algorithm or a schedule file, not both"
check "unknown --output-format" 2 "$ns" generate -T gen:star:4 -a faraj -F xml -o "$tmp/x.nsr"
expect "names the formats" "$tmp/err" "^netsched generate: --output-format takes table or c, not 'xml'$"
check "a table to stdout" 2 "$ns" generate -T gen:star:4 -a faraj -F table
expect "binary needs -o" "$tmp/err" "a routine table is binary: write it to a file with -o"
check "--name not an identifier" 2 "$ns" generate -T gen:star:4 -a faraj --name '9x;' -o "$tmp/x.c"
expect "names the rule" "$tmp/err" "--name must be a C identifier part .*not '9x;'"
check "unknown --sync" 2 "$ns" generate -T gen:star:4 -a faraj -S bogus -o "$tmp/x.nsr"
expect "lists the schemes" "$tmp/err" "unknown sync scheme 'bogus' \(known: none, dummy"
check "the window on a phased schedule" 2 "$ns" generate -T gen:star:4 -a faraj -S window:4 -o "$tmp/x.nsr"
expect "only posted schedules, said so" "$tmp/err" \
  "^netsched: sync scheme window:4 gates the sends of posted schedules; alltoall/faraj is phased"
check "--sync-size below 4 bytes" 2 "$ns" generate -T gen:star:4 -a faraj --sync-size 2B -o "$tmp/x.nsr"
expect "names the range" "$tmp/err" "sync message size 2 B: .* give 4 to 65536 bytes"
check "nothing written on refusal" 1 test -e "$tmp/x.nsr"

# A schedule that does not verify is not generated (exit 1), unless asked.
"$ns" plan -T gen:star:4 -a faraj -o "$tmp/s.json" 2>/dev/null
sed 's/\[\[0,1,\[0,1\]\]/[[0,1,[0,2]]/' "$tmp/s.json" >"$tmp/bad.json"
check "an invalid schedule is refused" 1 "$ns" generate -T gen:star:4 --schedule "$tmp/bad.json" -o "$tmp/bad.nsr"
expect "says it does not verify" "$tmp/err" \
  "^netsched: alltoall/faraj does not verify, so its routine would not compute the collective: complete: message n0->n1 never reaches n1 \(1 finding\)"
check "--allow-invalid generates it" 0 "$ns" generate -T gen:star:4 --schedule "$tmp/bad.json" --allow-invalid -o "$tmp/bad.nsr"

# ---- outputs ----
check "table from -a" 0 "$ns" generate -T gen:star:4 -a faraj -o "$tmp/a.nsr"
expect "one summary line" "$tmp/out" \
  "^$tmp/a.nsr: alltoall/faraj, 4 machines, sync sender-all, [0-9]+-byte table, schedule [0-9a-f]{16}$"
check "table from the same schedule read back" 0 "$ns" generate -T gen:star:4 --schedule "$tmp/s.json" -o "$tmp/b.nsr"
check "planned and read: the same bytes" 0 cmp "$tmp/a.nsr" "$tmp/b.nsr"
check "generated twice: the same bytes" 0 "$ns" generate -T gen:star:4 -a faraj -o "$tmp/b.nsr"
check "deterministic" 0 cmp "$tmp/a.nsr" "$tmp/b.nsr"
check "another sync scheme, another table" 0 "$ns" generate -T gen:star:4 -a faraj -S none -o "$tmp/b.nsr"
check "differs" 1 cmp -s "$tmp/a.nsr" "$tmp/b.nsr"
check "the table starts with its magic" 0 grep -q "^NSRTABLE" "$tmp/a.nsr"
check "--output-format and --format (the topology's) apart" 0 \
  "$ns" generate -T "$topo/faraj-a.topo" --format native -a faraj --output-format table -o "$tmp/fa.nsr"
check "C to stdout" 0 "$ns" generate -T gen:star:4 -a faraj
expect "C entry point" "$tmp/out" "^int netsched_faraj_alltoall\(const void \*sendbuf, void \*recvbuf, size_t block_bytes, MPI_Comm comm\)$"
expect "C phases commented" "$tmp/out" "^  /\* phase 2: to n3; from n1 \*/$"
expect "send mode: eager below 64 KiB by default (issue #23)" "$tmp/out" \
  "^ \*   send mode        MPI_Isend below 65536 B \(eager\), MPI_Issend at or above$"
check "C, --eager-threshold 0" 0 "$ns" generate -T gen:star:4 -a faraj --eager-threshold 0
expect "send mode: rendezvous at every size" "$tmp/out" \
  "^ \*   send mode        MPI_Issend \(phased: rendezvous at every size, as replayed with --eager-threshold 0\)$"
check "C, --eager-threshold 16KiB" 0 "$ns" generate -T gen:star:4 -a faraj --eager-threshold 16KiB
expect "send mode: the threshold given" "$tmp/out" "^ \*   send mode        MPI_Isend below 16384 B \(eager\)"
check "C, posted" 0 "$ns" generate -T gen:star:4 -a simple
expect "send mode: posted" "$tmp/out" "^ \*   send mode        MPI_Isend \(posted\)$"
check "another threshold, another table" 0 "$ns" generate -T gen:star:4 -a faraj --eager-threshold 0 -o "$tmp/r.nsr"
check "differs from the default's" 1 cmp -s "$tmp/a.nsr" "$tmp/r.nsr"
check "--eager-threshold bad" 2 "$ns" generate -T gen:star:4 -a faraj --eager-threshold 12parsecs
expect "--eager-threshold bad message" "$tmp/err" "--eager-threshold '12parsecs'"
check "bcast C with its root" 0 "$ns" generate -T gen:star:5 -c bcast -a binomial -r n3 --name b
expect "bcast entry point" "$tmp/out" "^int netsched_b_bcast\(void \*buffer, size_t bytes, MPI_Comm comm\)$"
expect "bcast root said" "$tmp/out" "broadcasts .bytes. from rank 3 \(schedule machine 3\)"
# A comment end in the command line cannot end the header comment early.
mkdir "$tmp/d*"
check "C with */ in the command" 0 "$ns" generate -T gen:star:4 -a faraj -o "$tmp/d*/x.c"
check "the comment end is broken up" 1 grep -q 'd\*/x\.c' "$tmp/d*/x.c"
expect "and the path still readable" "$tmp/d*/x.c" "made by +netsched generate -T gen:star:4 -a faraj -o '.*/d\* /x\.c'"
ln -s "$tmp/victim" "$tmp/link.nsr"
check "-o through a link" 0 "$ns" generate -T gen:star:4 -a faraj -o "$tmp/link.nsr"
check "the link was replaced, not followed" 1 test -e "$tmp/victim"

# ---- the loader (plain C; built with the sanitizers when mpicc exists) ----
if command -v mpicc >/dev/null; then
  mpicc -std=c17 -Wall -Wextra -Werror -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -I"$src" "$src/tests/mpi/routine_load.c" "$src/mpi/runtime/ns_routine.c" -o "$tmp/load" 2>"$tmp/cc.log"
  export ASAN_OPTIONS=detect_leaks=1
  check "loads its own table" 0 "$tmp/load" "$tmp/a.nsr"
  expect "what it holds" "$tmp/out" "^ok alltoall/faraj p=4 sync sender-all root -1 machine0 n0$"
  head -c -1 "$tmp/a.nsr" >"$tmp/t.nsr"
  check "a truncated table" 1 "$tmp/load" "$tmp/t.nsr"
  expect "truncated, said so" "$tmp/out" "^$tmp/t.nsr: length does not match the header \(truncated or extended\)$"
  { cat "$tmp/a.nsr"; printf x; } >"$tmp/t.nsr"
  check "an extended table" 1 "$tmp/load" "$tmp/t.nsr"
  { head -c 40 "$tmp/a.nsr"; printf Z; tail -c +42 "$tmp/a.nsr"; } >"$tmp/t.nsr"
  check "a damaged table" 1 "$tmp/load" "$tmp/t.nsr"
  expect "digest mismatch" "$tmp/out" "^$tmp/t.nsr: digest mismatch \(the table was altered or damaged\)$"
  { printf NSRTABLX; tail -c +9 "$tmp/a.nsr"; } >"$tmp/t.nsr"
  check "not a table" 1 "$tmp/load" "$tmp/t.nsr"
  expect "no magic" "$tmp/out" "no NSRTABLE magic"
  { printf NSRTABLE; printf '\003'; tail -c +10 "$tmp/a.nsr"; } >"$tmp/t.nsr"
  check "a later version" 1 "$tmp/load" "$tmp/t.nsr"
  expect "version named" "$tmp/out" "routine table version not supported \(this runtime reads versions 1 and 2\)$"
  # A version 1 table (before the eager threshold, issue #23): the same
  # table without that field, its length and digest made again, still loads.
  python3 - "$tmp/a.nsr" "$tmp/v1.nsr" <<'PY'
import sys
def varint(d, i):
    v = s = 0
    while True:
        b = d[i]; i += 1; v |= (b & 0x7f) << s; s += 7
        if not b & 0x80:
            return v, i
def put(v):
    out = bytearray()
    while True:
        b = v & 0x7f; v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)
d = open(sys.argv[1], 'rb').read()
version, i = varint(d, 8)
n, i = varint(d, i)
body, j = d[i:i + n], 0
for _ in range(8):  # collective .. item_bytes
    _, j = varint(body, j)
_, k = varint(body, j)  # the eager threshold
body = body[:j] + body[k:]
t = d[:8] + put(1) + put(len(body)) + body
h = 0xcbf29ce484222325
for c in t:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
open(sys.argv[2], 'wb').write(t + h.to_bytes(8, 'little'))
PY
  check "a version 1 table loads" 0 "$tmp/load" "$tmp/v1.nsr"
  expect "what it holds, version 1" "$tmp/out" "^ok alltoall/faraj p=4 sync sender-all root -1 machine0 n0$"
  check "a missing file" 1 "$tmp/load" "$tmp/none.nsr"
  expect "errno said" "$tmp/out" "^$tmp/none.nsr: No such file or directory$"
  # Forged tables (every byte mutated, the digest recomputed) are checked
  # field by field: rejected with a reason or loaded, never a crash.
  "$ns" generate -T gen:star:4 -a bruck -o "$tmp/bruck.nsr" >/dev/null
  "$ns" generate -T gen:star:5 -a ring-light-barrier -o "$tmp/light.nsr" >/dev/null
  "$ns" generate -T gen:star:5 -c bcast -a binomial -S receiver-all -o "$tmp/bcast.nsr" >/dev/null
  for t in bruck light bcast; do
    check "every one-byte forgery of $t: a reason or a table, no crash" 0 "$tmp/load" --mutate "$tmp/$t.nsr"
    cp "$tmp/out" "$tmp/mutate.$t"
  done
  cat "$tmp/mutate."* >"$tmp/mutate.all"
  for reason in "peer out of range" "a machine sends to itself" "scratch slot out of range" \
                "a receive into the send buffer" "sends and receives do not pair up" \
                "a send awaits more or fewer sync messages than are sent to it" \
                'a "ready" names no send to this machine'; do
    expect "a forgery caught: $reason" "$tmp/mutate.all" "routine table: $reason$"
  done
fi
echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
