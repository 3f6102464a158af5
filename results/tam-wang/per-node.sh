#!/usr/bin/env bash
# Per-machine bandwidth (Tam & Wang's Figures 5b, 7b-10b) from the scenario's
# compare.csv files: per-node MB/s = (p-1)·msize / completion = aggregate
# throughput / (8·p), MB = 10^6 bytes as in the paper. Writes
# per-node-bandwidth.csv and, with gnuplot, per-node-bandwidth.svg/.png.
#   results/tam-wang/per-node.sh [MODEL]      (default: ideal)
set -euo pipefail
cd "$(dirname "$0")"
model=${1:-ideal}
case "$model" in ideal|tcp|smpi|packet) ;; *) echo "unknown model '$model'" >&2; exit 2 ;; esac
configs=(16x1 8x2 8x3 6x4 8x4)
# eq. 7 with U = 103 MB/s: U(p-1) / (2(p-d1)d1); none on one switch
declare -A eq7=([16x1]="" [8x2]=12.07 [8x3]=9.25 [6x4]=10.96 [8x4]=8.32)
out=per-node-bandwidth${model/ideal/}.csv
[ "$model" = ideal ] || out=per-node-bandwidth-$model.csv
echo "configuration,label,algorithm,msize_bytes,per_node_MBps,eq7_MBps" > "$out.tmp"
for c in "${configs[@]}"; do
  csv=$c-$model/compare.csv
  [ "$model" = ideal ] || csv=$model/$csv  # scenarios/tam-wang-packet.ini writes into packet/
  [ -f "$csv" ] || { echo "missing $csv (run the scenario first)" >&2; continue; }
  a=${c%x*} b=${c#*x}
  awk -F, -v conf="$c" -v p=$((a * b)) -v eq7="${eq7[$c]}" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["status"] == "ok" {
      printf "%s,%s,%s,%s,%.4f,%s\n", conf, $col["label"], $col["algorithm"],
             $col["msize_bytes"], $col["throughput_mbps"] / (8 * p), eq7
    }' "$csv" >> "$out.tmp"
done
{ head -n 1 "$out.tmp"; tail -n +2 "$out.tmp" | sort -t, -k1,1 -k2,2 -k4,4n; } > "$out"  # retried rows come last in a CSV
rm -f "$out.tmp"
echo "wrote $out"
command -v gnuplot > /dev/null || exit 0
base=${out%.csv}
{
  echo 'set datafile separator ","'
  present=0
  for c in "${configs[@]}"; do grep -q "^$c," "$out" && present=$((present + 1)); done
  if [ "$present" -le 3 ]; then layout="1,$present"; else layout="2,3"; fi
  echo "set multiplot layout $layout title \"Per-machine bandwidth ($model model): Tam and Wang, Figures 5b, 7b-10b\""
  echo 'set logscale x 2; set xlabel "message size (KiB)"; set ylabel "MB/s per machine"'
  echo 'set key bottom right font ",9"; set yrange [0:13]'
  for c in "${configs[@]}"; do
    grep -q "^$c," "$out" || continue # a configuration this model did not run
    echo "set title \"$c\""
    line="plot for [l in \"shuffle-ca shuffle gpe gpe-ca mpich spread\"] \"$out\""
    line+=" using (strcol(1) eq \"$c\" && strcol(2) eq l ? \$4/1024 : 1/0):5 with linespoints title l"
    [ -n "${eq7[$c]}" ] && line+=", ${eq7[$c]} with lines dashtype 2 lc rgb \"black\" title \"eq. 7 best\""
    echo "$line"
  done
  echo 'unset multiplot'
} > "$base.gp"
gnuplot -e 'set terminal svg size 1500,900 dynamic font ",11"' -e "set output '$base.svg'" "$base.gp"
gnuplot -e 'set terminal pngcairo size 1500,900 font ",10"' -e "set output '$base.png'" "$base.gp"
echo "wrote $base.gp, $base.svg, $base.png"
