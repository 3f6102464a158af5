# netsched compare: throughput against message size.
# Data in compare.dat, one block per algorithm (see its comments).
set title 'alltoall on 8x2 (ideal model)' noenhanced
set xlabel 'message size' noenhanced
set ylabel 'aggregate throughput (Mbit/s)' noenhanced
set logscale x 2
set yrange [0:*]
set offsets graph 0.04, graph 0.04, 0, 0
set key outside right noenhanced
set grid
set xtics ('1KiB' 1024, '' 2048 1, '4KiB' 4096, '' 8192 1, '16KiB' 16384, '' 32768 1, '64KiB' 65536, '' 131072 1, '256KiB' 262144, '' 524288 1, '1MiB' 1048576, '' 1228800 1)
set terminal svg size 900,500
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'compare.svg'
plot 'compare.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 dt 1 title 'shuffle-ca', \
     'compare.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 dt 2 title 'shuffle', \
     'compare.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 dt 3 title 'gpe', \
     'compare.dat' index 3 using 1:2:3:4 with yerrorlines pt 4 dt 4 title 'gpe-ca', \
     'compare.dat' index 4 using 1:2:3:4 with yerrorlines pt 5 dt 5 title 'mpich', \
     'compare.dat' index 5 using 1:2:3:4 with yerrorlines pt 6 dt 1 title 'spread', \
     'compare.dat' index 6 using 1:2:3:4 with yerrorlines pt 7 dt 2 title 'ompi', \
     'compare.dat' index 7 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
set terminal pngcairo size 900,500
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'compare.png'
plot 'compare.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 dt 1 title 'shuffle-ca', \
     'compare.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 dt 2 title 'shuffle', \
     'compare.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 dt 3 title 'gpe', \
     'compare.dat' index 3 using 1:2:3:4 with yerrorlines pt 4 dt 4 title 'gpe-ca', \
     'compare.dat' index 4 using 1:2:3:4 with yerrorlines pt 5 dt 5 title 'mpich', \
     'compare.dat' index 5 using 1:2:3:4 with yerrorlines pt 6 dt 1 title 'spread', \
     'compare.dat' index 6 using 1:2:3:4 with yerrorlines pt 7 dt 2 title 'ompi', \
     'compare.dat' index 7 using 1:2 with lines dashtype 2 lc 'black' title 'bound'
