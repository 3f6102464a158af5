# netsched compare: throughput against message size.
# Data in compare.dat, one block per algorithm (see its comments).
set title 'allreduce on faraj-c.topo (smpi model)' noenhanced
set xlabel 'message size' noenhanced
set ylabel 'aggregate throughput (Mbit/s)' noenhanced
set logscale x 2
set yrange [0:*]
set offsets graph 0.04, graph 0.04, 0, 0
set key outside right noenhanced
set grid
set xtics ('4B' 4, '16B' 16, '64B' 64, '256B' 256, '' 488 1, '' 512 1, '1KiB' 1024, '' 2048 1, '4KiB' 4096, '' 8192 1, '16KiB' 16384, '' 32768 1, '64KiB' 65536, '' 131072 1)
set terminal svg size 900,500
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'compare.svg'
plot 'compare.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 dt 1 title 'mpich', \
     'compare.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 dt 2 title 'reduce-bcast', \
     'compare.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 dt 3 title 'rdb', \
     'compare.dat' index 3 using 1:2:3:4 with yerrorlines pt 4 dt 4 title 'rabenseifner', \
     'compare.dat' index 4 using 1:2:3:4 with yerrorlines pt 5 dt 5 title 'ring', \
     'compare.dat' index 5 using 1:2:3:4 with yerrorlines pt 6 dt 1 title 'rab1-ring', \
     'compare.dat' index 6 using 1:2:3:4 with yerrorlines pt 7 dt 2 title 'rab1-rdb', \
     'compare.dat' index 7 using 1:2:3:4 with yerrorlines pt 8 dt 3 title 'rab1-bruck', \
     'compare.dat' index 8 using 1:2:3:4 with yerrorlines pt 9 dt 4 title 'rab1-2dmesh', \
     'compare.dat' index 9 using 1:2:3:4 with yerrorlines pt 10 dt 5 title 'rab1-neighbor', \
     'compare.dat' index 10 using 1:2:3:4 with yerrorlines pt 11 dt 1 title 'rab1-lr1', \
     'compare.dat' index 11 using 1:2:3:4 with yerrorlines pt 12 dt 2 title 'rab1-lr2', \
     'compare.dat' index 12 using 1:2:3:4 with yerrorlines pt 13 dt 3 title 'rab1-lr3', \
     'compare.dat' index 13 using 1:2:3:4 with yerrorlines pt 1 dt 4 title 'rab2-ring-ring', \
     'compare.dat' index 14 using 1:2:3:4 with yerrorlines pt 2 dt 5 title 'rab2-ring-lr1', \
     'compare.dat' index 15 using 1:2:3:4 with yerrorlines pt 3 dt 1 title 'rab2-ring-lr3', \
     'compare.dat' index 16 using 1:2:3:4 with yerrorlines pt 4 dt 2 title 'rab2-pair-rdb', \
     'compare.dat' index 17 using 1:2:3:4 with yerrorlines pt 5 dt 3 title 'rab2-faraj-lr3', \
     'compare.dat' index 18 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
set terminal pngcairo size 900,500
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'compare.png'
plot 'compare.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 dt 1 title 'mpich', \
     'compare.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 dt 2 title 'reduce-bcast', \
     'compare.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 dt 3 title 'rdb', \
     'compare.dat' index 3 using 1:2:3:4 with yerrorlines pt 4 dt 4 title 'rabenseifner', \
     'compare.dat' index 4 using 1:2:3:4 with yerrorlines pt 5 dt 5 title 'ring', \
     'compare.dat' index 5 using 1:2:3:4 with yerrorlines pt 6 dt 1 title 'rab1-ring', \
     'compare.dat' index 6 using 1:2:3:4 with yerrorlines pt 7 dt 2 title 'rab1-rdb', \
     'compare.dat' index 7 using 1:2:3:4 with yerrorlines pt 8 dt 3 title 'rab1-bruck', \
     'compare.dat' index 8 using 1:2:3:4 with yerrorlines pt 9 dt 4 title 'rab1-2dmesh', \
     'compare.dat' index 9 using 1:2:3:4 with yerrorlines pt 10 dt 5 title 'rab1-neighbor', \
     'compare.dat' index 10 using 1:2:3:4 with yerrorlines pt 11 dt 1 title 'rab1-lr1', \
     'compare.dat' index 11 using 1:2:3:4 with yerrorlines pt 12 dt 2 title 'rab1-lr2', \
     'compare.dat' index 12 using 1:2:3:4 with yerrorlines pt 13 dt 3 title 'rab1-lr3', \
     'compare.dat' index 13 using 1:2:3:4 with yerrorlines pt 1 dt 4 title 'rab2-ring-ring', \
     'compare.dat' index 14 using 1:2:3:4 with yerrorlines pt 2 dt 5 title 'rab2-ring-lr1', \
     'compare.dat' index 15 using 1:2:3:4 with yerrorlines pt 3 dt 1 title 'rab2-ring-lr3', \
     'compare.dat' index 16 using 1:2:3:4 with yerrorlines pt 4 dt 2 title 'rab2-pair-rdb', \
     'compare.dat' index 17 using 1:2:3:4 with yerrorlines pt 5 dt 3 title 'rab2-faraj-lr3', \
     'compare.dat' index 18 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
