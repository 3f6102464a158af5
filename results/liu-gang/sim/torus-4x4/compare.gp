# netsched compare: throughput against message size.
# Data in compare.dat, one block per algorithm (see its comments).
set title 'alltoall on gen:torus:4x4 (ideal model)' noenhanced
set xlabel 'message size' noenhanced
set ylabel 'aggregate throughput (Mbit/s)' noenhanced
set logscale x 2
set yrange [0:*]
set offsets graph 0.04, graph 0.04, 0, 0
set key outside right noenhanced
set grid
set xtics ('64KiB' 65536, '128KiB' 131072, '256KiB' 262144, '512KiB' 524288, '1MiB' 1048576)
set terminal svg size 900,500
set output 'compare.svg'
plot 'compare.dat' index 0 using 1:2 with linespoints pt 1 title 'shift', \
     'compare.dat' index 1 using 1:2 with linespoints pt 2 title 'rowcol', \
     'compare.dat' index 2 using 1:2 with linespoints pt 3 title 'submesh', \
     'compare.dat' index 3 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
set terminal pngcairo size 900,500
set output 'compare.png'
plot 'compare.dat' index 0 using 1:2 with linespoints pt 1 title 'shift', \
     'compare.dat' index 1 using 1:2 with linespoints pt 2 title 'rowcol', \
     'compare.dat' index 2 using 1:2 with linespoints pt 3 title 'submesh', \
     'compare.dat' index 3 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
