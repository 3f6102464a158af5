# netsched compare: throughput against message size.
# Data in compare.dat, one block per algorithm (see its comments).
set title 'alltoall on faraj-b.topo (smpi model)' noenhanced
set xlabel 'message size' noenhanced
set ylabel 'aggregate throughput (Mbit/s)' noenhanced
set logscale x 2
set yrange [0:*]
set offsets graph 0.04, graph 0.04, 0, 0
set key outside right noenhanced
set grid
set xtics ('1B' 1, '8B' 8, '64B' 64, '' 256 1, '512B' 512, '' 768 1, '' 1024 1, '' 1536 1, '' 2048 1, '3KiB' 3072, '' 4096 1, '' 6144 1, '' 8192 1, '' 12288 1, '16KiB' 16384, '' 24576 1, '' 32768 1, '' 49152 1, '' 65536 1, '96KiB' 98304, '' 131072 1, '' 196608 1, '' 262144 1, '' 393216 1)
set terminal svg size 900,500
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'compare.svg'
plot 'compare.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 dt 1 title 'simple', \
     'compare.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 dt 2 title 'mpich', \
     'compare.dat' index 2 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
set terminal pngcairo size 900,500
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'compare.png'
plot 'compare.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 dt 1 title 'simple', \
     'compare.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 dt 2 title 'mpich', \
     'compare.dat' index 2 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
