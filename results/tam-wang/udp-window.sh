#!/usr/bin/env bash
# Tam & Wang §4 under the ns3 model: the paper's own algorithms over its
# user-level protocol (--transport udp-window: MTU items, the global window
# W_g, per-item acknowledgements), MPICH's over TCP (--transport
# tcp-persistent, one connection per machine pair), on the five hierarchies
# at 4, 16 and 64 KiB. The shuffles' window counts Algorithm 2's η (items
# sent − received, --window-count sent-received, the default under the
# window scheme), and for comparison unacknowledged items (unacked, the
# only count before); the other algorithms' counts unacknowledged items
# (the default without the window scheme). One run per row: the ns3 model
# is deterministic.
# Writes udp-window.csv and, with gnuplot, per-node-bandwidth-udp-window.svg/.png.
#   results/tam-wang/udp-window.sh [NETSCHED]     (default: build/netsched)
# README.md ("ns3 model") discusses the results.
set -euo pipefail
cd "$(dirname "$0")"
ns=$(realpath "${1:-../../build/netsched}")
[ -x "$ns" ] || { echo "no netsched at $ns (build it, or give its path)" >&2; exit 2; }
configs=(16x1 8x2 8x3 6x4 8x4)
# eq. 7 with U = 103 MB/s: U(p-1) / (2(p-d1)d1); on one switch the link (12.5)
declare -A eq7=([16x1]=12.5 [8x2]=12.07 [8x3]=9.25 [6x4]=10.96 [8x4]=8.32)
# W_g as the paper ran it (§4.2-4.4: eq. 4 halved for Go-Back-N's control
# packets); 16x1, where the paper gives none: 5, udp-window's default
# (eq. 4's 43 loses items by the hundred, README)
declare -A window=([16x1]=5 [8x2]=5 [8x3]=4 [6x4]=5 [8x4]=3)
sizes=(4096 16384 65536)
# algorithm:transport:what the window counts
runs=(shuffle-ca:udp-window:sent-received shuffle-ca:udp-window:unacked
      shuffle:udp-window:sent-received gpe:udp-window:unacked gpe-ca:udp-window:unacked
      spread:udp-window:unacked mpich:tcp-persistent: spread:tcp-persistent:)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=udp-window.csv
echo "configuration,algorithm,transport,window,window_count,msize_bytes,completion_s,bound_s,per_node_MBps,eq7_MBps,fraction_eq7,packets,packet_drops,cpu_s" > "$out.tmp"
for c in "${configs[@]}"; do
  a=${c%x*} b=${c#*x}
  spec=gen:hierarchy:$c
  [ "$b" -gt 1 ] && spec+=:uplink=412Mbps
  # The ns3 model builds output-queued switches only: the same buffers at
  # the output ports (README: input buffering is not modelled).
  "$ns" topo convert "$spec" --to native | sed 's/ buffering=[a-z]*//' > "$work/$c.topo"
  for s in "${sizes[@]}"; do
    for r in "${runs[@]}"; do
      IFS=: read -r alg tr count <<< "$r"
      w=${window[$c]}
      [ "$tr" = udp-window ] || w=
      /usr/bin/time -f '%U %S' -o "$work/time" \
        "$ns" simulate -T "$work/$c.topo" -c alltoall -a "$alg" -m "${s}B" -M ns3 \
        --transport "$tr" ${w:+--window "$w"} ${count:+--window-count "$count"} --eager-threshold 64KiB --json > "$work/out.json" 2> "$work/err" ||
        { echo "$c $alg $tr $count $s: $(tail -n 1 "$work/err")" >&2; continue; }
      cpu=$(awk '{ print $1 + $2 }' "$work/time")
      python3 - "$work/out.json" "$c" "$alg" "$tr" "${w:-}" "${count:-}" "$s" "$((a * b))" "${eq7[$c]}" "$cpu" >> "$out.tmp" <<'PY'
import json, sys
path, conf, alg, tr, w, count, size, p, eq7, cpu = sys.argv[1:]
r = json.load(open(path))
mbps = (int(p) - 1) * int(size) / r["completion_s"] / 1e6  # MB = 10^6 B, as the paper
print(f'{conf},{alg},{tr},{w},{count},{size},{r["completion_s"]:.9f},{r["bound_s"]:.9f},{mbps:.4f},'
      f'{eq7},{mbps / float(eq7):.4f},{r["packets"]},{r["packet_drops"]},{cpu}')
PY
      echo "$c $alg $tr $count ${s}B: $(tail -n 1 "$out.tmp")"
    done
  done
done
# one series after another, so that gnuplot draws each as a line
{ head -n 1 "$out.tmp"; tail -n +2 "$out.tmp" | sort -t, -k1,1 -k2,3 -k5,5 -k6,6n; } > "$out"
rm -f "$out.tmp"
echo "wrote $out"
command -v gnuplot > /dev/null || exit 0
base=per-node-bandwidth-udp-window
{
  echo 'set datafile separator ","'
  echo 'set multiplot layout 2,3 title "Per-machine bandwidth, ns3 model: the paper'"'"'s algorithms over udp-window, MPICH over tcp-persistent"'
  echo 'set logscale x 2; set xlabel "message size (KiB)"; set ylabel "MB/s per machine"'
  echo 'unset key; set yrange [0:13]'
  for c in "${configs[@]}"; do
    echo "set title \"$c\""
    line="plot for [r in \"${runs[*]}\"] \"$out\""
    line+=" using (strcol(1) eq \"$c\" && strcol(2).\":\".strcol(3).\":\".strcol(5) eq r ? \$6/1024 : 1/0):9 with linespoints title r"
    line+=", ${eq7[$c]} with lines dashtype 2 lc rgb \"black\" title \"eq. 7 best\""
    echo "$line"
  done
  # the legend once, in the sixth place of the grid: the same series in
  # the same order (so the same colours), drawn as nothing
  echo 'set key center center font ",11"; unset border; unset tics; unset xlabel; unset ylabel'
  echo 'unset title; unset logscale x; set xrange [0:1]; set yrange [0:1]'
  echo "plot for [r in \"${runs[*]}\"] NaN with linespoints title (r[strlen(r):] eq \":\" ? r[1:strlen(r)-1] : r), NaN with lines dashtype 2 lc rgb \"black\" title \"eq. 7 best\""
  echo 'unset multiplot'
} > "$base.gp"
gnuplot -e 'set terminal svg size 1500,900 dynamic font ",11"' -e "set output '$base.svg'" "$base.gp"
gnuplot -e 'set terminal pngcairo size 1500,900 font ",10"' -e "set output '$base.png'" "$base.gp"
echo "wrote $base.gp, $base.svg, $base.png"
