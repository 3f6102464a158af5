#!/usr/bin/env bash
# The all-port torus all-gather and the bounds of the port model (issue
# #22): allgather/torus within 5 % of the all-port bound on 8x8 and 16x16
# under the ideal model (deterministic: 16 and 64 phases of one block a
# link, 10 us latency each); `bound` and `topo show` give the all-port
# all-gather bound, the same number as the design study's; one-port
# fabrics print as before; the broadcast's T(msize) labelled a bound or an
# estimate.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"

# --- bound -c allgather on the issue's 8x8 torus (100 Mbit/s links) -----
# 63 blocks of 256 KiB through 4 ports: whole blocks ceil(63/4) = 16 block
# times = 16 * 262144 * 8 / 1e8 = 0.33554432 s; fluid 63/4 = 15.75 block
# times = 0.33030144 s; one-port 63 = 1.32120576 s.
check "bound allgather 8x8" 0 "$ns" bound -T gen:torus:8x8 -c allgather -m 256KiB
expect "all-port bound, whole blocks" "$tmp/out" \
  "^allgather bound    0\.335544 s for msize 256KiB per machine, ceil\(\(P-1\)/ports\) blocks a port: receiving of n0 \(all-port\): 16 messages a link at 0\.1 Gbit/s$"
expect "fluid bound" "$tmp/out" "^fluid              0\.330301 s = \(P-1\) msize / \(ports B\): blocks split across a machine's ports$"
expect "one-port figure beside" "$tmp/out" "^one-port           1\.321206 s = \(P-1\) msize / B: the bound of 1-port machines, not of these$"
check "bound allgather 8x8 --json" 0 "$ns" bound -T gen:torus:8x8 -c allgather -m 256KiB --json
expect "json time bound" "$tmp/out" '"time_bound_s" : 0\.3355443200+1?,$'
expect "json fluid" "$tmp/out" '"fluid_time_bound_s" : 0\.33030144,$'
expect "json one-port" "$tmp/out" '"one_port_time_bound_s" : 1\.32120576$'
expect "json ports" "$tmp/out" '"ports" : 4,$'
expect "json binds" "$tmp/out" '"bottleneck_kind" : "port-receive",$'
expect "json load" "$tmp/out" '"bottleneck_load" : 16,$'
# 3-D: 63 blocks through 6 ports, ceil = 11.
check "bound allgather 4x4x4" 0 "$ns" bound -T gen:torus:4x4x4 -c allgather -m 256KiB
expect "4x4x4: 11 blocks a port" "$tmp/out" "^allgather bound    0\.230687 s .*: receiving of n0 \(all-port\): 11 messages"

# One-port machines: as before, (P-1) msize / B alone.
check "bound allgather ports=one" 0 "$ns" bound -T gen:torus:8x8:ports=one -c allgather -m 256KiB
expect "one-port unchanged" "$tmp/out" "^allgather bound    1\.321206 s = \(P-1\) msize / B for msize 256KiB per machine$"
check "no fluid line on one-port" 1 grep -q "^fluid" "$tmp/out"
check "bound allgather tree --json" 0 "$ns" bound -T "$topo/faraj-fig3-19.topo" -c allgather --json
check "no port members on one-port" 1 grep -q '"ports"' "$tmp/out"

# The design study's bound (results/design-64: the 8x8 torus at 1 Gbit/s,
# 64 KiB) is bound's: the same number.
check "bound as the design study" 0 "$ns" bound -T gen:torus:8x8:bandwidth=1Gbps -c allgather -m 64KiB --json
got=$(awk -F' : ' '/"time_bound_s"/ { sub(/,$/, "", $2); print $2 }' "$tmp/out")
design=$(awk -F, '$1 == "allgather" && $2 == 65536 && $4 == "torus" { print $5 }' \
  "$src/results/design-64/summary.csv")
check "design-64 has the torus all-gather" 0 test -n "$design"
check "bound $got = design's bound_s $design" 0 \
  awk -v a="$got" -v b="$design" 'BEGIN { d = a - b; exit !(d < 1e-12 && d > -1e-12) }'

# topo show: the all-gather line on all-port fabrics only.
check "topo show 8x8" 0 "$ns" topo show gen:torus:8x8
expect "topo show all-gather bound" "$tmp/out" \
  "^allgather  bottleneck receiving of n0 \(all-port\): 16 messages a link at 0\.1 Gbit/s; \(P-1\)/ports = 15\.75 with blocks split across 4 ports$"
check "topo show ports=one" 0 "$ns" topo show gen:torus:8x8:ports=one
check "no all-gather line on one-port" 1 grep -q "^allgather  bottleneck" "$tmp/out"

# --- the planner under the ideal model: ratio to the fluid bound ---------
ratio() { # completion in $tmp/out over the fluid bound $1
  awk -v b="$1" '$1 == "completion" { printf "%.4f\n", $2 / b }' "$tmp/out"
}
check "simulate torus 8x8 ideal" 0 "$ns" simulate -T gen:torus:8x8 -c allgather -a torus -m 256KiB -M ideal
expect "8x8: 16 x (block time + 10us)" "$tmp/out" "^completion   0\.335704 s$"
expect "8x8: bound is the all-port one" "$tmp/out" "^bound        0\.335544 s   ratio 1\.0005$"
r=$(ratio 0.33030144)
echo "# 8x8 torus all-gather: ${r}x the fluid all-port bound"
check "8x8 within 5 % of (P-1) msize/(4B) ($r)" 0 awk -v r="$r" 'BEGIN { exit !(r <= 1.05) }'
check "simulate torus 16x16 ideal" 0 "$ns" simulate -T gen:torus:16x16 -c allgather -a torus -m 256KiB -M ideal
expect "16x16: 64 x (block time + 10us)" "$tmp/out" "^completion   1\.342817 s$"
r=$(ratio 1.3369344) # 255 * 262144 * 8 / 4e8
echo "# 16x16 torus all-gather: ${r}x the fluid all-port bound"
check "16x16 within 5 % of (P-1) msize/(4B) ($r)" 0 awk -v r="$r" 'BEGIN { exit !(r <= 1.05) }'

# Plan, verify, refuse.
check "plan torus 4x4x4" 0 "$ns" plan -T gen:torus:4x4x4 -c allgather -a torus -m 1KiB -o "$tmp/t.json"
check "verify torus 4x4x4" 0 "$ns" verify "$tmp/t.json" -T gen:torus:4x4x4
expect "11 phases, optimal" "$tmp/out" "optimal +ok — 11 phases, bound 11"
check "mesh refused" 2 "$ns" plan -T gen:mesh:4x4 -c allgather -a torus
expect "mesh refusal says why" "$tmp/err" "torus needs a torus or ring of machines \(gen:torus:AxB\[xC\], gen:ring:P\); gen:mesh:4x4 is not one$"
check "one-port torus refused" 2 "$ns" plan -T gen:torus:4x4:ports=one -c allgather -a torus
expect "one-port refusal says why" "$tmp/err" "torus sends on all 4 directions of a machine at once; machine n0 has 1-port"
check "plan --list names torus" 0 "$ns" plan --list
expect "list: allgather/torus" "$tmp/out" "^allgather/torus +all-port torus: one broadcast tree translated"
expect "list: its source" "$tmp/out" "^ +\[Soch & Tvrdik, time-optimal gossip in 2-D tori"

# --- bcast: T(msize) a bound for one message, an estimate with segments --
check "bound bcast 8x8" 0 "$ns" bound -T gen:torus:8x8 -c bcast -m 256KiB
expect "unsegmented: T(msize) a bound" "$tmp/out" \
  "^lower bound        0\.021052 s = T\(msize\) from the root to the farthest machine \(one message on one route: a bound under all-port too\)$"
# 32 segments of 8 KiB through the root's 4 ports: 8 segment times,
# 8 * 8192 * 8 / 1e8 = 0.00524288 s.
check "bound bcast 8x8 segmented" 0 "$ns" bound -T gen:torus:8x8 -c bcast -m 256KiB -s 8KiB --json
expect "segmented: the ports' bound" "$tmp/out" '"lower_bound_s" : 0\.0052428800000000001,$'
expect "segmented: T(msize) no bound" "$tmp/out" '"t_msize_is_bound" : false$'
check "bound bcast fig c unchanged" 0 "$ns" bound -T "$topo/faraj-c.topo" -c bcast -m 1MiB -s 64KiB
expect "one-port bcast line as before" "$tmp/out" "^lower bound        0\.083936 s = T\(msize\) from the root to the farthest machine$"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
