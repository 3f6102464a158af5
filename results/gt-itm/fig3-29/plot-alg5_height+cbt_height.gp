# netsched sweep: alg5_height+cbt_height against machines, means with 95% confidence intervals.
# Data in plot-alg5_height+cbt_height.dat, one block per series.
set title 'Faraj Fig. 3.29: Algorithm 5 tree heights against a complete binary tree' noenhanced
set xlabel 'machines' noenhanced
set ylabel 'Algorithm 5 tree height (levels); complete binary tree height (levels)' noenhanced
set key below noenhanced
set grid
set offsets graph 0.03, graph 0.03, graph 0.05, 0
set terminal svg size 1000,550
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'plot-alg5_height+cbt_height.svg'
plot 'plot-alg5_height+cbt_height.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 title 'alg5_height, kruskal ratio=8', \
     'plot-alg5_height+cbt_height.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 title 'alg5_height, kruskal ratio=16', \
     'plot-alg5_height+cbt_height.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 title 'cbt_height, kruskal ratio=8', \
     'plot-alg5_height+cbt_height.dat' index 3 using 1:2:3:4 with yerrorlines pt 4 title 'cbt_height, kruskal ratio=16'
set terminal pngcairo size 1000,550
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'plot-alg5_height+cbt_height.png'
plot 'plot-alg5_height+cbt_height.dat' index 0 using 1:2:3:4 with yerrorlines pt 1 title 'alg5_height, kruskal ratio=8', \
     'plot-alg5_height+cbt_height.dat' index 1 using 1:2:3:4 with yerrorlines pt 2 title 'alg5_height, kruskal ratio=16', \
     'plot-alg5_height+cbt_height.dat' index 2 using 1:2:3:4 with yerrorlines pt 3 title 'cbt_height, kruskal ratio=8', \
     'plot-alg5_height+cbt_height.dat' index 3 using 1:2:3:4 with yerrorlines pt 4 title 'cbt_height, kruskal ratio=16'
