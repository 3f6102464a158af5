#!/usr/bin/env bash
# End-to-end tests of alltoallv and allgatherv: --pattern on plan, verify
# and bound (files and generators), the pattern file's errors as
# FILE:LINE: messages with exit 2, the bound's text and JSON.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"

fig=$topo/faraj-fig1.topo
cat >"$tmp/is.pat" <<'PAT'
# 6 machines, two pairs silent
netsched-pattern 1 alltoallv 6
0     64KiB 0     1KiB  2KiB  3KiB
1KiB  0     1KiB  1KiB  1KiB  1KiB
2KiB  2KiB  0     2KiB  2KiB  0
1MiB  1KiB  1KiB  0     1KiB  1KiB
1KiB  1KiB  1KiB  1KiB  0     1KiB
1KiB  1KiB  1KiB  1KiB  1KiB  0
PAT
# complete everywhere; contention-free (exit 0) only where claimed
for a in simple:1 spread:1 ring:1 greedy:0 a2a-based:0 mpich:1 ompi:1; do
  check "verify alltoallv/${a%:*}" "${a#*:}" "$ns" verify -T "$fig" -c alltoallv -a "${a%:*}" \
    --pattern "$tmp/is.pat"
  expect "${a%:*}: 28 messages" "$tmp/out" "^execution .* 28 transfers, 28 chunk moves$"
  expect "${a%:*}: complete" "$tmp/out" "^  complete +ok$"
done
check "greedy contention-free" 0 "$ns" verify -T "$fig" -c alltoallv -a greedy --pattern nas-is:2000,3
expect "greedy contention-free ok" "$tmp/out" "^  contention-free +ok$"
for a in simple:1 ring:0 lr:0 rdb:1 bruck:1 gather-bcast:1 neighbor:1 mpich:1 ompi:1; do
  check "verify allgatherv/${a%:*}" "${a#*:}" "$ns" verify -T "$fig" -c allgatherv -a "${a%:*}" \
    --pattern random:4KiB,0.5,9
  expect "allgatherv/${a%:*}: complete" "$tmp/out" "^  complete +ok$"
done
check "plan --table" 0 "$ns" plan --table -T "$fig" -c alltoallv -a ring --pattern "$tmp/is.pat"
expect "ring phase 1" "$tmp/out" "^phase    1: n1->n3 n2->n4 n3->n5 n4->n0 n5->n1$"

# no pattern, a pattern where none belongs, the pattern's errors
check "no pattern" 2 "$ns" plan -T "$fig" -c alltoallv -a ring
expect "no pattern said" "$tmp/err" "alltoallv/ring needs a size pattern \(--pattern FILE or a generator such as uniform:64KiB\)"
check "pattern on alltoall" 2 "$ns" plan -T "$fig" -c alltoall -a ring --pattern uniform:1KiB
expect "pattern on alltoall said" "$tmp/err" "--pattern: only alltoallv and allgatherv take a size pattern \(not alltoall\)"
printf 'netsched-pattern 1 alltoallv 6\n0 1KiB\n' >"$tmp/short.pat"
check "row too short" 2 "$ns" plan -T "$fig" -c alltoallv -a ring --pattern "$tmp/short.pat"
expect "row too short said" "$tmp/err" "short.pat:2: row 0 has 2 sizes, expected 6$"
printf 'netsched-pattern 1 allgatherv 6\n1KiB\n-1KiB\n' >"$tmp/neg.pat"
check "negative size" 2 "$ns" verify -T "$fig" -c allgatherv -a ring --pattern "$tmp/neg.pat"
expect "negative size said" "$tmp/err" "neg.pat:3: size '-1KiB' is negative$"
printf 'netsched-pattern 1 allgatherv 4\n1KiB\n1KiB\n1KiB\n1KiB\n' >"$tmp/four.pat"
check "wrong machine count" 2 "$ns" plan -T "$fig" -c allgatherv -a ring --pattern "$tmp/four.pat"
expect "wrong machine count said" "$tmp/err" "four.pat: the pattern has 4 machines, the topology 6$"
check "bad generator" 2 "$ns" plan -T "$fig" -c alltoallv -a ring --pattern random:1KiB,2,1
expect "bad generator said" "$tmp/err" "--pattern random:1KiB,2,1: SKEW '2' is not a number from 0 to 1$"
check "missing file" 2 "$ns" plan -T "$fig" -c alltoallv -a ring --pattern "$tmp/none.pat"
expect "missing file said" "$tmp/err" "none.pat: cannot read"

# the bound: uniform alltoallv on Figure 1 is the all-to-all's, 9 messages over s0->s1
check "bound alltoallv" 0 "$ns" bound -T "$fig" -c alltoallv --pattern uniform:64KiB
expect "bound alltoallv line" "$tmp/out" "^alltoallv bound    0\.047186 s = 576KiB through link s0->s1 at 100Mbps$"
check "bound allgatherv json" 0 "$ns" bound -T "$fig" -c allgatherv --pattern uniform:64KiB --json
expect "bound json time" "$tmp/out" '"time_bound_s" : 0\.02621(44|439)'
expect "bound json binding" "$tmp/out" '"binding" : "n0.s receiving port \(1-port\)"'
expect "bound json msize" "$tmp/out" '"msize_bytes" : 65536'
check "bound without pattern" 2 "$ns" bound -T "$fig" -c alltoallv --json
expect "bound without pattern json" "$tmp/out" '"exit_status" : 2'
expect "bound without pattern said" "$tmp/err" "alltoallv needs a size pattern"
check "bound bad file" 2 "$ns" bound -T "$fig" -c alltoallv --pattern "$tmp/short.pat"
expect "bound bad file said" "$tmp/err" "short.pat:2: row 0 has 2 sizes, expected 6$"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
