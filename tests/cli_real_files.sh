#!/usr/bin/env bash
# Real files as sites and other tools write them (issue 17, items 3, 4, 9,
# 10, 12; issue 18 item 11): Slurm's man-page example, leaf-only and
# leaf/spine topology.conf files, Topology Zoo GraphML, SimGrid platforms.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
data="$src/tests/data/topo"

# Slurm: the README's example file, with and without a link speed.
check "README topology.conf" 0 "$ns" plan -T "$topo/topology.conf" -f slurm:1Gbps -a faraj -o "$tmp/s.json"
expect "speed announced" "$tmp/err" "^warning: .*topology.conf: no LinkSpeed in the file: every link gets 1Gbps \(-f slurm:1Gbps\)$"
check "show 1Gbps links" 0 "$ns" topo show "$topo/topology.conf" -f slurm:1Gbps
expect "links at 1Gbps" "$tmp/out" "^links +1Gbps, latency 10us$"
# The root s3 is declared last: all 18 machines are below it.
expect "root counts every machine" "$tmp/out" "^s3 \[18 machines below\]$"
expect "leaf counts" "$tmp/out" "^├── s0 \[6 machines below\]$"
check "show default speed" 0 "$ns" topo show "$topo/topology.conf"
expect "default announced" "$tmp/err" "no link speed given: every link gets the default 100Mbps"

# Leaf switches only: refused with the way out, joined by an assumed core on request.
check "leaf-only refused" 2 "$ns" topo show "$data/slurm-leaf-only.conf" -f slurm:1Gbps
expect "leaf-only hint" "$tmp/err" "slurm-leaf-only.conf: the switches are not connected: 3 top-level switches \(rack1, rack2, rack3\).*core=SPEED"
check "leaf-only with core" 0 "$ns" topo show "$data/slurm-leaf-only.conf" -f slurm:1Gbps:core=10Gbps
expect "core stated" "$tmp/err" "assumed a core switch 'core' joining the 3 top-level switches \(rack1, rack2, rack3\) with 10Gbps links"
expect "core is the root" "$tmp/out" "^core \[12 machines below\]$"
check "bad core speed" 2 "$ns" topo show "$data/slurm-leaf-only.conf" -f slurm:1Gbps:core=fast
expect "bad core message" "$tmp/err" "^netsched: format 'slurm:1Gbps:core=fast': 'core=fast': "

# slurmibtopology.sh's leaf/spine: a graph, every leaf under both spines.
check "leaf/spine read" 0 "$ns" topo show "$data/slurm-leafspine.conf" -f slurm:100Gbps
expect "leaf/spine routing" "$tmp/out" "^routing +ecmp"
expect "leaf/spine size" "$tmp/out" "^size +16 machines, 6 switches, 24 links$"
check "leaf/spine verify" 0 "$ns" verify -a faraj -T "$data/slurm-leafspine.conf" -f slurm:100Gbps --spanning bfs -q

# A cycle in Switches= is refused with its line (issue 18 item 11).
printf 'SwitchName=s0 Nodes=n[0-1] Switches=s1\nSwitchName=s1 Nodes=n[2-3] Switches=s0\n' >"$tmp/cycle.conf"
check "switch cycle refused" 2 "$ns" topo show "$tmp/cycle.conf"
expect "cycle named" "$tmp/err" "cycle.conf:2: cycle in Switches=: s0 -> s1 -> s0"
printf 'SwitchName=s0 Nodes=n[0-3]\nSwitchName=s1 Nodes=n[3-5]\n' >"$tmp/node2.conf"
check "node under two switches" 2 "$ns" topo show "$tmp/node2.conf"
expect "node hint" "$tmp/err" "node2.conf:2: node 'n3' is under two switches: 's0' \(line 1\) and 's1' \(a machine has one link"

# Topology Zoo GraphML (no `kind`): switches with machines attached.
check "zoo in pieces refused" 2 "$ns" topo show "$data/zoo-style.graphml"
expect "zoo hint" "$tmp/err" "the graph is not connected: 2 components, the largest with 4 of 6 nodes; -f graphml:largest-component reads that one alone"
check "zoo largest component" 0 "$ns" topo show "$data/zoo-style.graphml" -f graphml:largest-component:machines-per-switch=2:bandwidth=1Gbps
expect "zoo size" "$tmp/out" "^size +8 machines, 4 switches, 13 links$"
expect "zoo speeds" "$tmp/out" "^links +155Mbps \.\. 10Gbps"
expect "zoo attach stated" "$tmp/err" "every node is a switch with 2 machines \(machines-per-switch=2\), on 1Gbps links"
check "zoo plan" 0 "$ns" plan -T "$data/zoo-style.graphml" -f graphml:largest-component -a faraj --spanning bfs -o "$tmp/z.json"
check "zoo bad option" 2 "$ns" topo show "$data/zoo-style.graphml" -f graphml:machines-per-switch=0
expect "zoo bad option message" "$tmp/err" "^netsched: format 'graphml:machines-per-switch=0': 'machines-per-switch=0': expected a whole number of machines from 1 to 1024$"

# SimGrid platforms (*.xml with <platform>): clusters and flat zones.
check "simgrid fat tree" 0 "$ns" topo show "$data/simgrid-fattree.xml"
expect "fat tree routing" "$tmp/out" "^routing +dmodk on a 2-level fat tree"
expect "fat tree size" "$tmp/out" "^size +16 machines, 6 switches, 24 links$"
check "simgrid torus bound" 0 "$ns" bound -T "$data/simgrid-torus.xml" --msize 64KiB
check "simgrid dragonfly" 0 "$ns" topo show "$data/simgrid-dragonfly.xml"
expect "dragonfly routes" "$tmp/out" "^routing +explicit: 1260 listed routes"
check "simgrid flat" 0 "$ns" topo convert "$data/simgrid-flat.xml"
expect "implied router" "$tmp/out" "^route alpha r0 x0 gamma$"
check "simgrid forced format" 0 "$ns" topo show -f simgrid "$data/simgrid-torus.xml"
check "dragonfly generator" 0 "$ns" verify -a faraj --spanning bfs -T gen:dragonfly:3,2,3,2 -q
check "dragonfly too many groups" 2 "$ns" topo show gen:dragonfly:4,1,1,2
expect "dragonfly message" "$tmp/err" "dragonfly: 4 groups need 4 routers in each group"

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
