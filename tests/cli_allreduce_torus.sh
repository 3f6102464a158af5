#!/usr/bin/env bash
# The dimension-wise all-port torus allreduce, allreduce/torus-dim (issue
# #22), against the all-port allreduce bound of `bound -c allreduce`
# (2(P-1)/P of the vector through a machine's ports) under the ideal model,
# beside allreduce/torus: within 1 % of the fluid bound on the square tori
# 8x8, 16x16 and 4x4x4; on a torus of unequal sizes the shorter
# dimensions' parts idle and torus is the one to take (docs/algorithms.md,
# "torus-dim"). 16 MiB, 100 Mbit/s and 10 us links: deterministic.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"

ratio() { # completion in $tmp/out over the fluid bound $1
  awk -v b="$1" '$1 == "completion" { printf "%.4f\n", $2 / b }' "$tmp/out"
}

# --- the bound: 2*63/64 of 16 MiB through 4 ports of 0.1 Gbit/s ---------
check "bound allreduce 8x8 16MiB" 0 "$ns" bound -T gen:torus:8x8 -c allreduce -m 16MiB
expect "fluid all-port bound" "$tmp/out" "^fluid bound        0\.660603 s"

# --- square tori: within 1 % of it, and faster than torus ---------------
check "simulate torus-dim 8x8" 0 "$ns" simulate -T gen:torus:8x8 -c allreduce -a torus-dim -m 16MiB -M ideal
expect "8x8: 28 phases at the bound plus latencies" "$tmp/out" "^completion   0\.661342 s$"
r=$(ratio 0.660603)
echo "# 8x8 torus-dim allreduce: ${r}x the all-port bound"
check "8x8 within 1 % ($r)" 0 awk -v r="$r" 'BEGIN { exit !(r <= 1.01) }'
check "simulate torus 8x8" 0 "$ns" simulate -T gen:torus:8x8 -c allreduce -a torus -m 16MiB -M ideal
expect "8x8: torus takes 32 phases of n/P" "$tmp/out" "^completion   0\.671867 s$"
check "simulate torus-dim 16x16" 0 "$ns" simulate -T gen:torus:16x16 -c allreduce -a torus-dim -m 16MiB -M ideal
expect "16x16 completion" "$tmp/out" "^completion   0\.669531 s$"
r=$(ratio 0.668467) # 2 * 255/256 * 16 MiB * 8 / 4e8
echo "# 16x16 torus-dim allreduce: ${r}x the all-port bound"
check "16x16 within 1 % ($r)" 0 awk -v r="$r" 'BEGIN { exit !(r <= 1.01) }'
check "simulate torus-dim 4x4x4" 0 "$ns" simulate -T gen:torus:4x4x4 -c allreduce -a torus-dim -m 16MiB -M ideal
expect "4x4x4 completion" "$tmp/out" "^completion   0\.441039 s$"
r=$(ratio 0.440402) # through 6 ports
echo "# 4x4x4 torus-dim allreduce: ${r}x the all-port bound"
check "4x4x4 within 1 % ($r)" 0 awk -v r="$r" 'BEGIN { exit !(r <= 1.01) }'

# --- unequal sizes: 4x8, the documented loss ------------------------------
check "simulate torus-dim 4x8" 0 "$ns" simulate -T gen:torus:4x8 -c allreduce -a torus-dim -m 16MiB -M ideal
expect "4x8: 1.52x the bound" "$tmp/out" "^completion   0\.986306 s$"
check "simulate torus 4x8" 0 "$ns" simulate -T gen:torus:4x8 -c allreduce -a torus -m 16MiB -M ideal
expect "4x8: torus 1.03x" "$tmp/out" "^completion   0\.671700 s$"

# --- plan, verify, refuse ---------------------------------------------------
check "plan torus-dim 8x8" 0 "$ns" plan -T gen:torus:8x8 -c allreduce -a torus-dim -m 1MiB -o "$tmp/t.json"
check "verify torus-dim 8x8" 0 "$ns" verify "$tmp/t.json" -T gen:torus:8x8
expect "28 phases, contention-free" "$tmp/out" "execution  phased: 28 phases, 7168 transfers"
expect "contention-free" "$tmp/out" "contention-free  ok"
expect "at the bound: 126 blocks a link" "$tmp/out" "optimal          ok .*126 messages a link"
check "mesh refused" 2 "$ns" plan -T gen:mesh:4x4 -c allreduce -a torus-dim -m 1KiB -o "$tmp/m.json"
expect "mesh refusal says why" "$tmp/err" "torus-dim needs a torus or ring of machines \(gen:torus:AxB\[xC\], gen:ring:P\); gen:mesh:4x4 is not one$"
check "one-port refused" 2 "$ns" plan -T gen:torus:4x4:ports=one -c allreduce -a torus-dim -m 1KiB -o "$tmp/m.json"
expect "one-port refusal says why" "$tmp/err" "torus-dim sends on all 4 directions of a machine at once; machine n0 has 1-port"
check "63 bytes refused" 2 "$ns" plan -T gen:torus:4x4 -c allreduce -a torus-dim -m 63B -o "$tmp/m.json"
expect "a byte a segment" "$tmp/err" "allreduce/torus-dim cuts the vector into 64 blocks and needs at least 64 bytes \(got 63\)$"
check "plan --list names torus-dim" 0 "$ns" plan --list
expect "list: allreduce/torus-dim" "$tmp/out" "^allreduce/torus-dim +all-port torus, dimension-wise"
expect "list: its sources" "$tmp/out" "^ +\[Jain & Sabharwal \(ICS 2010\)"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
