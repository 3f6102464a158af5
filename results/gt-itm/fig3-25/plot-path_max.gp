# netsched sweep: path_max against machines, means with 95% confidence intervals.
# Data in plot-path_max.dat, one block per series.
set title 'Faraj Fig. 3.25: LR1 and LR3 ring path lengths on spanning trees of GT-ITM graphs' noenhanced
set xlabel 'machines' noenhanced
set ylabel 'longest machine-to-machine path (switches crossed)' noenhanced
set key below noenhanced
set grid
set offsets graph 0.03, graph 0.03, graph 0.05, 0
set terminal svg size 1000,550
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'plot-path_max.svg'
plot 'plot-path_max.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 title 'gtitm tree=bfs', \
     'plot-path_max.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 title 'gtitm tree=dfs', \
     'plot-path_max.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 title 'gtitm tree=kruskal'
set terminal pngcairo size 1000,550
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'plot-path_max.png'
plot 'plot-path_max.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 title 'gtitm tree=bfs', \
     'plot-path_max.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 title 'gtitm tree=dfs', \
     'plot-path_max.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 title 'gtitm tree=kruskal'
