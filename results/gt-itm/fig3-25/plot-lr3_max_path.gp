# netsched sweep: lr3_max_path against machines, means with 95% confidence intervals.
# Data in plot-lr3_max_path.dat, one block per series.
set title 'Faraj Fig. 3.25: LR1 and LR3 ring path lengths on spanning trees of GT-ITM graphs' noenhanced
set xlabel 'machines' noenhanced
set ylabel 'LR3 longest ring hop (switches crossed)' noenhanced
set key below noenhanced
set grid
set offsets graph 0.03, graph 0.03, graph 0.05, 0
set terminal svg size 1000,550
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'plot-lr3_max_path.svg'
plot 'plot-lr3_max_path.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 title 'gtitm tree=bfs', \
     'plot-lr3_max_path.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 title 'gtitm tree=dfs', \
     'plot-lr3_max_path.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 title 'gtitm tree=kruskal'
set terminal pngcairo size 1000,550
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'plot-lr3_max_path.png'
plot 'plot-lr3_max_path.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 title 'gtitm tree=bfs', \
     'plot-lr3_max_path.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 title 'gtitm tree=dfs', \
     'plot-lr3_max_path.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 title 'gtitm tree=kruskal'
