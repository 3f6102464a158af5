# netsched tune: time against message size per candidate; the
# chosen envelope; dashed lines at the switch points.
set title 'tuned alltoall on faraj-c.topo (replay, smpi model)' noenhanced
set xlabel 'message size (bytes)' noenhanced
set ylabel 'time (s)' noenhanced
set logscale xy
set format x '%g'
set format y '%g'
set key outside right noenhanced
set grid
set arrow from 258, graph 0 to 258, graph 1 nohead dt 2 lc 'gray40'
set label '258: bruck' at 258, graph 0.98 rotate by 90 right font ',8' noenhanced
set arrow from 587, graph 0 to 587, graph 1 nohead dt 2 lc 'gray40'
set label '587: simple' at 587, graph 0.98 rotate by 90 right font ',8' noenhanced
set terminal svg size 1000,560
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'tune.svg'
plot 'tune.dat' index 0 using 1:2 with linespoints pt 1 dt 1 title 'simple', \
     'tune.dat' index 1 using 1:2 with linespoints pt 2 dt 2 title 'spread', \
     'tune.dat' index 2 using 1:2 with linespoints pt 3 dt 3 title 'ring', \
     'tune.dat' index 3 using 1:2 with linespoints pt 4 dt 4 title 'ring-light-barrier', \
     'tune.dat' index 4 using 1:2 with linespoints pt 5 dt 5 title 'ring-mpi-barrier', \
     'tune.dat' index 5 using 1:2 with linespoints pt 6 dt 1 title 'ring-n-barrier', \
     'tune.dat' index 6 using 1:2 with linespoints pt 7 dt 2 title 'pair', \
     'tune.dat' index 7 using 1:2 with linespoints pt 8 dt 3 title 'pair-light-barrier', \
     'tune.dat' index 8 using 1:2 with linespoints pt 9 dt 4 title 'pair-mpi-barrier', \
     'tune.dat' index 9 using 1:2 with linespoints pt 10 dt 5 title 'pair-n-barrier', \
     'tune.dat' index 10 using 1:2 with linespoints pt 11 dt 1 title 'bruck', \
     'tune.dat' index 11 using 1:2 with linespoints pt 12 dt 2 title 'rdb', \
     'tune.dat' index 12 using 1:2 with linespoints pt 13 dt 3 title '2dmesh', \
     'tune.dat' index 13 using 1:2 with linespoints pt 1 dt 4 title '3dmesh', \
     'tune.dat' index 14 using 1:2 with linespoints pt 2 dt 5 title 'faraj', \
     'tune.dat' index 15 using 1:2 with lines lw 4 lc rgb '#80000000' title 'chosen'
set terminal pngcairo size 1000,560
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'tune.png'
plot 'tune.dat' index 0 using 1:2 with linespoints pt 1 dt 1 title 'simple', \
     'tune.dat' index 1 using 1:2 with linespoints pt 2 dt 2 title 'spread', \
     'tune.dat' index 2 using 1:2 with linespoints pt 3 dt 3 title 'ring', \
     'tune.dat' index 3 using 1:2 with linespoints pt 4 dt 4 title 'ring-light-barrier', \
     'tune.dat' index 4 using 1:2 with linespoints pt 5 dt 5 title 'ring-mpi-barrier', \
     'tune.dat' index 5 using 1:2 with linespoints pt 6 dt 1 title 'ring-n-barrier', \
     'tune.dat' index 6 using 1:2 with linespoints pt 7 dt 2 title 'pair', \
     'tune.dat' index 7 using 1:2 with linespoints pt 8 dt 3 title 'pair-light-barrier', \
     'tune.dat' index 8 using 1:2 with linespoints pt 9 dt 4 title 'pair-mpi-barrier', \
     'tune.dat' index 9 using 1:2 with linespoints pt 10 dt 5 title 'pair-n-barrier', \
     'tune.dat' index 10 using 1:2 with linespoints pt 11 dt 1 title 'bruck', \
     'tune.dat' index 11 using 1:2 with linespoints pt 12 dt 2 title 'rdb', \
     'tune.dat' index 12 using 1:2 with linespoints pt 13 dt 3 title '2dmesh', \
     'tune.dat' index 13 using 1:2 with linespoints pt 1 dt 4 title '3dmesh', \
     'tune.dat' index 14 using 1:2 with linespoints pt 2 dt 5 title 'faraj', \
     'tune.dat' index 15 using 1:2 with lines lw 4 lc rgb '#80000000' title 'chosen'
