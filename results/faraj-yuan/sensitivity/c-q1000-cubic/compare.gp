# netsched compare: throughput against message size
set datafile separator ','
set title "alltoall on faraj-c.topo (packet model)" noenhanced
set xlabel 'message size (bytes)'
set ylabel 'aggregate throughput (Mbit/s)'
set logscale x 2
set key outside right noenhanced
set grid
set xtics ("256KiB" 262144)
set terminal svg size 900,500
set output 'compare.svg'
plot \
  'compare.csv' using (strcol(1) eq "faraj:sender-all" && strcol(13) eq "ok" ? $3 : NaN):10 with linespoints title 'faraj:sender-all', \
  'compare.csv' using (strcol(1) eq "mpich" && strcol(13) eq "ok" ? $3 : NaN):10 with linespoints title 'mpich', \
  'compare.csv' using (strcol(1) eq "simple" && strcol(13) eq "ok" ? $3 : NaN):10 with linespoints title 'simple', \
  'compare.csv' using (strcol(1) eq "faraj:sender-all" && $11 > 0 ? $3 : NaN):11 with lines dashtype 2 lc 'black' title 'bound'
set terminal png size 900,500
set output 'compare.png'
plot \
  'compare.csv' using (strcol(1) eq "faraj:sender-all" && strcol(13) eq "ok" ? $3 : NaN):10 with linespoints title 'faraj:sender-all', \
  'compare.csv' using (strcol(1) eq "mpich" && strcol(13) eq "ok" ? $3 : NaN):10 with linespoints title 'mpich', \
  'compare.csv' using (strcol(1) eq "simple" && strcol(13) eq "ok" ? $3 : NaN):10 with linespoints title 'simple', \
  'compare.csv' using (strcol(1) eq "faraj:sender-all" && $11 > 0 ? $3 : NaN):11 with lines dashtype 2 lc 'black' title 'bound'
