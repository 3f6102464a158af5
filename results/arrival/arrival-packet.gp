# netsched arrival study: data in arrival-packet.dat (one block per algorithm)
set key outside right noenhanced
set grid
set xlabel 'worst-case imbalance factor ω/T (δ̄/T = ω/T / 4)' noenhanced
set xtics (0, 1, 2, 4, 8, 16)
set multiplot layout 1,2 title 'MPI_Alltoall, 64 KiB, 32 machines on one 100 Mbit/s switch (packet model): average per-node time ē' noenhanced
set ylabel 'ē (ms, log scale; bars: fastest, slowest pattern)' noenhanced
set logscale y
set key off
plot 'arrival-packet.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 dt 1 title 'simple', \
     'arrival-packet.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 dt 2 title 'spread', \
     'arrival-packet.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 dt 3 title 'ring', \
     'arrival-packet.dat' index 3 using 1:2:3:4 with yerrorlines pt 4 dt 4 title 'pair', \
     'arrival-packet.dat' index 4 using 1:2:3:4 with yerrorlines pt 5 dt 5 title 'pair-light-barrier', \
     'arrival-packet.dat' index 5 using 1:2:3:4 with yerrorlines pt 6 dt 1 title 'pair-mpi-barrier'
set ylabel 'slowdown: ē / own balanced ē' noenhanced
unset logscale y
set key outside right
plot 'arrival-packet.dat' index 0 using 1:6 with linespoints pt 1 dt 1 title 'simple', \
     'arrival-packet.dat' index 1 using 1:6 with linespoints pt 2 dt 2 title 'spread', \
     'arrival-packet.dat' index 2 using 1:6 with linespoints pt 3 dt 3 title 'ring', \
     'arrival-packet.dat' index 3 using 1:6 with linespoints pt 4 dt 4 title 'pair', \
     'arrival-packet.dat' index 4 using 1:6 with linespoints pt 5 dt 5 title 'pair-light-barrier', \
     'arrival-packet.dat' index 5 using 1:6 with linespoints pt 6 dt 1 title 'pair-mpi-barrier'
unset multiplot
