set datafile separator ","
set multiplot layout 2,3 title "Per-machine bandwidth (ideal model): Tam and Wang, Figures 5b, 7b-10b"
set logscale x 2; set xlabel "message size (KiB)"; set ylabel "MB/s per machine"
set key bottom right font ",9"; set yrange [0:13]
set title "16x1"
plot for [l in "shuffle-ca shuffle gpe gpe-ca mpich spread"] "per-node-bandwidth.csv" using (strcol(1) eq "16x1" && strcol(2) eq l ? $4/1024 : 1/0):5 with linespoints title l
set title "8x2"
plot for [l in "shuffle-ca shuffle gpe gpe-ca mpich spread"] "per-node-bandwidth.csv" using (strcol(1) eq "8x2" && strcol(2) eq l ? $4/1024 : 1/0):5 with linespoints title l, 12.07 with lines dashtype 2 lc rgb "black" title "eq. 7 best"
set title "8x3"
plot for [l in "shuffle-ca shuffle gpe gpe-ca mpich spread"] "per-node-bandwidth.csv" using (strcol(1) eq "8x3" && strcol(2) eq l ? $4/1024 : 1/0):5 with linespoints title l, 9.25 with lines dashtype 2 lc rgb "black" title "eq. 7 best"
set title "6x4"
plot for [l in "shuffle-ca shuffle gpe gpe-ca mpich spread"] "per-node-bandwidth.csv" using (strcol(1) eq "6x4" && strcol(2) eq l ? $4/1024 : 1/0):5 with linespoints title l, 10.96 with lines dashtype 2 lc rgb "black" title "eq. 7 best"
set title "8x4"
plot for [l in "shuffle-ca shuffle gpe gpe-ca mpich spread"] "per-node-bandwidth.csv" using (strcol(1) eq "8x4" && strcol(2) eq l ? $4/1024 : 1/0):5 with linespoints title l, 8.32 with lines dashtype 2 lc rgb "black" title "eq. 7 best"
unset multiplot
