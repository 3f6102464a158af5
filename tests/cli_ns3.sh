#!/usr/bin/env bash
# The ns3 model (sim/ns3/, netsched-ns3; docs/simulator.md, "The ns3
# model"): a message alone on a path takes the latency plus its bytes and
# TCP/IP's headers over the bandwidth; a contention-free all-to-all lands
# within 10 % of the fluid prediction with store-and-forward switches;
# udp-window's stop and wait is exact, so is its exchange under Tam &
# Wang's η (sent − received), a machine that sends W more than it receives
# under that η is a named deadlock, its windowed all-to-all is within 5 %
# of the fluid prediction, and lost items are sent again under either count; routes ns-3 cannot follow and switches it cannot build are refused; a
# child that crashes, is killed, hangs, is missing or gets a malformed
# description is a clear error, never a time. Skipped without ns-3.
source "$(dirname "${BASH_SOURCE[0]}")/cli-common.bash"
cd "$tmp" || exit 1
child="$(dirname "$ns")/netsched-ns3"
if [[ ! -x $child ]]; then
  echo "cli_ns3: netsched was built without ns-3 (libns3-dev) # SKIP"
  exit 77
fi
completion() { awk '/^completion/ { print $2 }' "$tmp/out"; }

cat > two.topo <<'TOPO'
machine a
machine b
switch s
link a s bandwidth=1Gbps latency=10us
link b s bandwidth=1Gbps latency=10us
TOPO
# Alone on a -> s -> b: 2 latencies, every byte with 54 B of headers per
# MTU − 52 B of data (IP 20, TCP 20 + timestamps 12, PPP 2), and one packet
# stored and forwarded by the switch.
alone() { # alone SIZE_BYTES MTU
  awk -v s="$1" -v m="$2" 'BEGIN { printf "%.9f", 2e-5 + s * (m + 2) / (m - 52) * 8 / 1e9 + (m + 2) * 8 / 1e9 }'
}
check "64 KiB alone" 0 "$ns" simulate -T two.topo -c bcast -a linear-cf -m 64KiB -M ns3
close_to "64 KiB: latency + bytes with headers / bandwidth" "$(completion)" "$(alone 65536 1500)" 0.005
check "1 MiB alone" 0 "$ns" simulate -T two.topo -c bcast -a linear-cf -m 1MiB -M ns3
close_to "1 MiB: latency + bytes with headers / bandwidth" "$(completion)" "$(alone 1048576 1500)" 0.005
expect "packets counted" "$tmp/out" '^packets      [0-9]+ queued over all hops, 0 dropped'
check "JSON" 0 "$ns" simulate -T two.topo -c bcast -a linear-cf -m 1MiB -M ns3 --json
expect "has the packets" "$tmp/out" '"packets" : [0-9]+,'
expect "and packets per wall second" "$tmp/out" '"packets_per_wall_s" : [0-9.e+]+'
# One connection per machine pair, both directions on it (as Open MPI's TCP
# transport): two machines exchanging 64 KiB open one connection (3
# handshake packets, not 6) and the acknowledgements ride on the data;
# a connection per direction queued 286 packets.
check "an exchange on one connection" 0 "$ns" simulate -T two.topo -a simple -m 64KiB -M ns3
expect "276 packets" "$tmp/out" '^packets      276 queued over all hops, 0 dropped'
check "1 MiB alone, jumbo frames" 0 "$ns" simulate -T two.topo -c bcast -a linear-cf -m 1MiB -M ns3 --mtu 9000
close_to "jumbo: 54 B per 8948 B" "$(completion)" "$(alone 1048576 9000)" 0.005

# Drops are counted where a full switch port drops them: a trimmed switch's
# full device queue drops (switch_forwarding.h); under NETSCHED_NS3_STOCK=1,
# with no queue disc, the traffic-control layer drops what meets a stopped
# (full) device queue. Seven senders into every port of a switch with
# 2-packet queues must lose packets.
check "incast on 2-packet queues" 0 "$ns" simulate -T gen:star:8 -a simple -m 64KiB -M ns3 --queue 2 --json
expect "reports its drops" "$tmp/out" '"packet_drops" : [1-9][0-9]*,'

# A contention-free all-to-all against the fluid model with store-and-forward
# switches: TCP/IP's headers alone are 3.7 % (1502 / 1448); sync messages
# and acknowledgements add the rest.
check "faraj on (a), ns3" 0 "$ns" simulate -T "$topo/faraj-a.topo" -a faraj -S sender-all -m 64KiB -M ns3
packet=$(completion)
check "faraj on (a), fluid" 0 "$ns" simulate -T "$topo/faraj-a.topo" -a faraj -S sender-all -m 64KiB --store-forward 1500B
fluid=$(completion)
close_to "contention-free all-to-all within 10 % of the fluid prediction" "$packet" "$fluid" 0.10
check "and above it by at least the headers" 0 awk -v a="$packet" -v b="$fluid" 'BEGIN { exit !(a > b * 1502 / 1448) }'

# A direct network: machines route, and a connection may leave a machine by
# any of its links (TCP then sends from that link's address).
check "ring on a 4x4 torus" 0 "$ns" simulate -T gen:torus:4x4 -a ring -m 4KiB -M ns3
expect "completes" "$tmp/out" '^completion   0\.0[0-9]+ s$'

# The child's own routing table, connection index and trimmed switches
# (host_routing.h, tcp_index.h, switch_forwarding.h) give exactly what
# ns-3's static routing, endpoint scan and IP forwarding at the switches
# give (NETSCHED_NS3_STOCK=1): every transfer's start and end, the packets
# and the drops. Trees of one and of several levels, a fat tree, a torus
# (machines forward), and full ports: Tam & Wang's 8x2 with its declared
# 45-packet buffers under all-posted traffic, 2-packet ports under
# tcp-persistent and 4-packet ports under udp-window.
"$ns" topo convert gen:hierarchy:8x2:uplink=412Mbps --to native | sed 's/ buffering=[a-z]*//' > h8x2.topo
same_as_stock() { # same_as_stock NAME SIMULATE_ARGS..
  local name=$1
  shift
  check "trimmed: $name" 0 "$ns" simulate "$@" -M ns3 --json --json-transfers
  grep -v '"wall_s"\|per_wall' "$tmp/out" > trimmed.json
  check "stock ns-3: $name" 0 env NETSCHED_NS3_STOCK=1 "$ns" simulate "$@" -M ns3 --json --json-transfers
  grep -v '"wall_s"\|per_wall' "$tmp/out" > stock.json
  check "the same results: $name" 0 cmp trimmed.json stock.json
}
for spec in "$topo/faraj-a.topo" gen:torus:4x4 gen:fattree:4,2 gen:fattree:4,3; do
  same_as_stock "$spec" -T "$spec" -a simple -m 16KiB
done
same_as_stock "8x2, all posted" -T h8x2.topo -a simple -m 16KiB
expect "drops at the full ports" trimmed.json '"packet_drops" : 1391,'
same_as_stock "star, 2-packet ports" -T gen:star:8 -a simple -m 16KiB --queue 2
expect "drops at the full ports" trimmed.json '"packet_drops" : [1-9][0-9]*,'
same_as_stock "udp-window, 4-packet ports" -T gen:star:4 -c alltoall -a spread -m 64KiB --transport udp-window --window 8 --queue 4
expect "drops at the full ports" trimmed.json '"packet_drops" : [1-9][0-9]*,'

# ns-3's schedulers order events of one time stamp by when they were
# scheduled, so each gives the same run: map (the default, the fastest)
# against heap and calendar, with drops (8x2 all posted).
check "scheduler map" 0 "$ns" simulate -T h8x2.topo -a simple -m 16KiB -M ns3 --json --json-transfers --ns3-scheduler map
grep -v '"wall_s"\|per_wall' "$tmp/out" > map.json
expect "drops at the full ports" map.json '"packet_drops" : 1391,'
for sched in heap calendar; do
  check "scheduler $sched" 0 "$ns" simulate -T h8x2.topo -a simple -m 16KiB -M ns3 --json --json-transfers --ns3-scheduler "$sched"
  grep -v '"wall_s"\|per_wall' "$tmp/out" > other.json
  check "the same results: map and $sched" 0 cmp map.json other.json
done

# Refusals: routing by source (s-mod-k) through one switch to one
# destination, a cut-through fabric, the window scheme.
"$ns" topo convert gen:fattree:4,2 --to native | sed 's/^routing .*/routing smodk/' > smodk.topo
check "s-mod-k refused" 2 "$ns" simulate -T smodk.topo -a simple -m 4KiB -M ns3
expect "not destination-based" "$tmp/err" '^netsched: ns3 model: the routes are not destination-based: at .*, traffic to n[0-9]+ leaves by link [0-9]+ from n[0-9]+ but by link [0-9]+ from n[0-9]+; ns-3.s static routing forwards by destination only$'
check "cut-through refused" 2 "$ns" simulate -T gen:quadrics:16 -a simple -m 4KiB -M ns3
expect "names the switch" "$tmp/err" "switch '.*' has cut-through forwarding: the ns3 model builds store-and-forward switches with output queues only"
check "window scheme refused over TCP" 2 "$ns" simulate -T two.topo -a simple -S window:4 -m 4KiB -M ns3
expect "says what" "$tmp/err" '^netsched: the window scheme \(window:W\) runs under --transport udp-window, not tcp-persistent$'

# udp-window, Tam & Wang's user-level protocol (§3.2): items of MTU − 28
# (IP, UDP) − 16 (the item's header) = 1456 bytes of data, each one datagram
# with 46 bytes of headers (PPP's 2 too), each acknowledged by a 46-byte
# datagram. With W = 1 (stop and wait) every item but the last waits a round
# trip for its acknowledgement, so the time is exact.
udp_stop_and_wait() { # udp_stop_and_wait SIZE_BYTES
  awk -v S="$1" 'BEGIN { lat = 1e-5; bw = 1e9; d = 1456; k = int((S + d - 1) / d); t = 0
    for (i = 1; i <= k; i++) {
      di = i < k ? d : S - (k - 1) * d
      t += 2 * (di + 46) * 8 / bw + 2 * lat              # the item, two hops
      if (i < k) t += 2 * 46 * 8 / bw + 2 * lat          # its acknowledgement back
    }
    printf "%.9f", t }'
}
json_completion() { sed -n 's/^  "completion_s" : \([0-9.e-]*\),$/\1/p' "$tmp/out"; }
check "udp-window, 64 KiB alone, W = 1" 0 "$ns" simulate -T two.topo -c bcast -a linear-cf -m 64KiB -M ns3 --transport udp-window --window 1 --json
close_to "stop and wait: 45 round trips and one way" "$(json_completion)" "$(udp_stop_and_wait 65536)" 0.000001
# 46 items and 45 acknowledgements over two hops; the run stops when the
# last item is delivered, its acknowledgement queued at b.
expect "packets: 46 items, 46 acknowledgements" "$tmp/out" '"packets" : 183,'
expect "none lost" "$tmp/out" '"packet_drops" : 0,'
check "udp-window, 64 KiB alone, W = 64" 0 "$ns" simulate -T two.topo -c bcast -a linear-cf -m 64KiB -M ns3 --transport udp-window --window 64 --json
close_to "a window above the round trip: latencies + bytes with headers + one frame forwarded" \
  "$(json_completion)" "$(awk 'BEGIN { printf "%.9f", 2e-5 + 65536 * 1502 / 1456 * 8 / 1e9 + 1502 * 8 / 1e9 }')" 0.001
# What the window counts (--window-count). Two machines exchange 64 KiB
# under the window scheme with W = 1 (window:1). Tam & Wang's η (items
# sent − items received, Algorithm 2; the default under window:W) reopens
# as soon as the other's item arrives: each machine sends the
# acknowledgement, then its next item, so a period is an acknowledgement,
# an item over two hops and two latencies (0.368 + 2 × 12.016 + 20 µs).
# Items 0..44 carry 1456 bytes, item 45 the last 16.
udp_exchange_sent_received() {
  awk 'BEGIN { lat = 1e-5; bw = 1e9; item = 1502 * 8 / bw; ack = 46 * 8 / bw; last = 62 * 8 / bw
    printf "%.9f", 45 * (ack + 2 * item + 2 * lat) + 2 * last + 2 * lat }'
}
check "window:1 exchange, eta = sent - received" 0 "$ns" simulate -T two.topo -c alltoall -a simple -S window:1 -m 64KiB -M ns3 --transport udp-window --json
close_to "each item waits for the other's, not for its acknowledgement" "$(json_completion)" "$(udp_exchange_sent_received)" 0.000001
check "window:1 exchange, explicit sent-received" 0 "$ns" simulate -T two.topo -c alltoall -a simple -S window:1 -m 64KiB -M ns3 --transport udp-window --window-count sent-received --json
close_to "is the default under the window scheme" "$(json_completion)" "$(udp_exchange_sent_received)" 0.000001
# Counting unacknowledged items, the same exchange is stop and wait again:
# every item waits for its acknowledgement (the 64 KiB alone above).
check "window:1 exchange, unacked" 0 "$ns" simulate -T two.topo -c alltoall -a simple -S window:1 -m 64KiB -M ns3 --transport udp-window --window-count unacked --json
close_to "every item waits a round trip" "$(json_completion)" "$(udp_stop_and_wait 65536)" 0.000001
# A machine that sends W items more than it receives never reopens the
# paper's window: a broadcast's root under --window-count sent-received is
# a deadlock that names the machine and its counts; the default for a
# schedule without the window scheme (unacked) completes it (above).
check "sent-received, a root that only sends" 2 "$ns" simulate -T two.topo -c bcast -a linear-cf -m 64KiB -M ns3 --transport udp-window --window 4 --window-count sent-received
expect "says why" "$tmp/err" '^netsched: ns3 model: deadlock at 0\.[0-9]+ s simulated: 2 of 2 machines never finished, 0 of 1 transfers completed: udp-window: a has sent 4 items and received 0, so its window \(W = 4, counting sent - received as Tam & Wang.s eta\) never reopens; --window-count unacked completes any schedule$'
# A contention-free all-to-all (faraj + sender-all on (a)) with a window
# above the round trip: within 5 % of the fluid prediction and above it by
# at least the headers (1502 / 1456: +3.2 %).
check "faraj on (a), udp-window" 0 "$ns" simulate -T "$topo/faraj-a.topo" -a faraj -S sender-all -m 64KiB -M ns3 --transport udp-window --window 64
udp=$(completion)
check "faraj on (a), fluid" 0 "$ns" simulate -T "$topo/faraj-a.topo" -a faraj -S sender-all -m 64KiB --store-forward 1500B
fluid=$(completion)
close_to "udp-window all-to-all within 5 % of the fluid prediction" "$udp" "$fluid" 0.05
check "and above it by at least the headers" 0 awk -v a="$udp" -v b="$fluid" 'BEGIN { exit !(a > b * 1502 / 1456) }'
# Loss: switch ports of 4 packets under 4 × 8 items in flight drop items;
# they are sent again and every message arrives.
cat > four.topo <<'TOPO'
machine a
machine b
machine c
machine d
switch s
link a s bandwidth=1Gbps latency=10us
link b s bandwidth=1Gbps latency=10us
link c s bandwidth=1Gbps latency=10us
link d s bandwidth=1Gbps latency=10us
TOPO
check "udp-window, lost items" 0 "$ns" simulate -T four.topo -c alltoall -a spread -m 64KiB -M ns3 --transport udp-window --window 8 --queue 4
expect "items were dropped" "$tmp/out" '^packets      [0-9]+ queued over all hops, [1-9][0-9]* dropped'
expect "every message arrived" "$tmp/out" '^messages     12 data, 0 sync/barrier, 0 dummy$'
expect "every machine finished" "$tmp/out" '^finish       machines end between'
# Lost items under the paper's count: items dropped at 4-packet ports are
# sent again (acknowledgements still drive retransmission) and every
# message arrives.
check "sent-received, lost items" 0 "$ns" simulate -T four.topo -c alltoall -a simple -S window:8 -m 64KiB -M ns3 --transport udp-window --queue 4
expect "items were dropped" "$tmp/out" '^packets      [0-9]+ queued over all hops, [1-9][0-9]* dropped'
expect "every message arrived" "$tmp/out" '^messages     12 data, 0 sync/barrier, 0 dummy$'
expect "every machine finished" "$tmp/out" '^finish       machines end between'
# Drops before a full device queue (ns-3's traffic-control layer, no queue
# disc) are counted too: TCP's losses at a 2-packet switch port (0 before).
check "tcp-persistent, lost segments" 0 "$ns" simulate -T four.topo -c alltoall -a spread -m 64KiB -M ns3 --queue 2
expect "are counted" "$tmp/out" '^packets      [0-9]+ queued over all hops, [1-9][0-9]* dropped'
# The window scheme runs under udp-window, with the schedule's own W_g
# (the shuffle on Tam & Wang's 8x2, output-queued here).
check "shuffle-ca under udp-window" 0 "$ns" simulate -T h8x2.topo -c alltoall -a shuffle-ca -m 4KiB -M ns3 --transport udp-window
expect "completes" "$tmp/out" '^messages     240 data'

# Options.
check "unknown transport" 2 "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3 --transport quic
expect "lists the transports" "$tmp/err" "^netsched: --transport: unknown transport 'quic' \(tcp-persistent, udp-window\)$"
check "window of 0" 2 "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3 --transport udp-window --window 0
expect "says the range" "$tmp/err" 'simulate: --window takes 1 to 1048576 items and --retransmit-timeout \(0, 60\] seconds'
check "unknown window count" 2 "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3 --transport udp-window --window-count acked
expect "lists the counts" "$tmp/err" "^netsched: --window-count: unknown count 'acked' \(auto, sent-received, unacked\)$"
check "retransmit timeout of 0" 2 "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3 --transport udp-window --retransmit-timeout 0
expect "says the range" "$tmp/err" 'simulate: --window takes 1 to 1048576 items and --retransmit-timeout \(0, 60\] seconds'
check "unknown TCP variant" 2 "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3 --tcp Foo
expect "from ns-3's names" "$tmp/err" '^netsched: ns3 model: --tcp Foo: ns-3 has no TCP variant ns3::TcpFoo$'
check "MTU too small" 2 "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3 --mtu 100
check "NewReno runs" 0 "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3 --tcp NewReno --init-cwnd 4 --min-rto 1 --no-delayed-ack --ns3-scheduler calendar

# Containment: the child crashes, is killed, hangs, is missing.
printf '#!/bin/sh\nkill -SEGV $$\n' > crash.sh
printf '#!/bin/sh\nkill -KILL $$\n' > killed.sh
printf '#!/bin/sh\nexec sleep 60\n' > hang.sh
chmod +x crash.sh killed.sh hang.sh
check "a crash" 2 env NETSCHED_NS3="$tmp/crash.sh" "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3
expect "is an error, not a time" "$tmp/err" '^netsched: ns3 model: netsched-ns3 died of signal 11 \(Segmentation fault\)$'
check "no time printed" 1 grep -q completion "$tmp/out"
check "a killed child" 2 env NETSCHED_NS3="$tmp/killed.sh" "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3
expect "says so" "$tmp/err" '^netsched: ns3 model: netsched-ns3 died of signal 9 \(Killed\)$'
check "a hanging child" 2 env NETSCHED_NS3="$tmp/hang.sh" "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3 --wall-limit 1
expect "stopped at the limit" "$tmp/err" 'simulation stopped after the wall-time limit of 1 s'
check "no child left" 1 pgrep -f "$tmp/hang.sh"
check "a missing child" 2 env NETSCHED_NS3="$tmp/missing" "$ns" simulate -T two.topo -a simple -m 4KiB -M ns3
expect "names it" "$tmp/err" "^netsched: ns3 model: cannot run $tmp/missing: No such file or directory$"

# The child's own input: a malformed description, a program that is not one.
printf 'netsched-ns3-net 1\nnodes two\n' > bad.net
check "malformed description" 2 "$child" --dump-routes 3 3<bad.net
expect "file:line: what" "$tmp/err" "^netsched-ns3: network description:2: expected 'nodes N' with N at most [0-9]+$"
check "not a program" 3 "$child" 3 4 5 3<bad.net 4<bad.net 5<bad.net
expect "a short blob" "$tmp/err" '^netsched-ns3: program blob too short$'

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
