# netsched compare: throughput against message size.
# Data in compare.dat, one block per algorithm (see its comments).
set title 'alltoall on faraj-a.topo (smpi model)' noenhanced
set xlabel 'message size' noenhanced
set ylabel 'aggregate throughput (Mbit/s)' noenhanced
set logscale x 2
set yrange [0:*]
set offsets graph 0.04, graph 0.04, 0, 0
set key outside right noenhanced
set grid
set xtics ('8B' 8, '256B' 256, '1536B' 1536, '' 3072 1, '6KiB' 6144, '' 12288 1, '24KiB' 24576, '' 49152 1, '96KiB' 98304, '' 196608 1, '384KiB' 393216)
set terminal svg size 900,500
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'compare.svg'
plot 'compare.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 dt 1 title 'simple', \
     'compare.dat' index 1 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
set terminal pngcairo size 900,500
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'compare.png'
plot 'compare.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 dt 1 title 'simple', \
     'compare.dat' index 1 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
