# netsched sweep: alg4_height against machines, means with 95% confidence intervals.
# Data in plot-alg4_height.dat, one block per series.
set title 'Faraj Fig. 3.29: Algorithm 5 tree heights against a complete binary tree' noenhanced
set xlabel 'machines' noenhanced
set ylabel 'Algorithm 4 tree height (levels)' noenhanced
set key below noenhanced
set grid
set offsets graph 0.03, graph 0.03, graph 0.05, 0
set terminal svg size 1000,550
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'plot-alg4_height.svg'
plot 'plot-alg4_height.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 title 'kruskal ratio=8', \
     'plot-alg4_height.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 title 'kruskal ratio=16'
set terminal pngcairo size 1000,550
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'plot-alg4_height.png'
plot 'plot-alg4_height.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 title 'kruskal ratio=8', \
     'plot-alg4_height.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 title 'kruskal ratio=16'
