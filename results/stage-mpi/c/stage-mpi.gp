set title 'MPI_Alltoall on topology (c) 32 machines, 4 switches (chain) (replay, smpi model)' noenhanced
set xlabel 'message size (bytes per destination)'
set ylabel 'time (s)'
set logscale xy
set key top left
set grid
set terminal pngcairo size 900,520
set output 'stage-mpi.png'
plot 'stage-mpi.dat' using 1:2 with linespoints title 'LAM (simple)', \
     'stage-mpi.dat' using 1:3 with linespoints title 'MPICH = MPICH-LAM', \
     'stage-mpi.dat' using 1:4 with linespoints lw 2 title 'TUNED'
set terminal svg size 900,520
set output 'stage-mpi.svg'
replot
