set terminal svg size 1000,800 noenhanced
set output 'fig6.svg'
set multiplot layout 2,2
set logscale xy
set key top left
set xlabel 'message size (bytes)'
set ylabel 'completion time (ms)'
set title '16x16 torus (Paragon: t_s 75us, t_w 0.011us/B, rho 0.014us/B)'
plot 'fig6.dat' index 0 using 1:2 with linespoints title '[5] Tseng et al. (diagonal propagation)', 'fig6.dat' index 0 using 1:3 with linespoints title '[6] Suh & Yalamanchili', 'fig6.dat' index 0 using 1:4 with linespoints title '[10] Suh & Shin', 'fig6.dat' index 0 using 1:5 with linespoints title 'proposed (AT2)'
set title '32x32 torus (Paragon: t_s 75us, t_w 0.011us/B, rho 0.014us/B)'
plot 'fig6.dat' index 1 using 1:2 with linespoints title '[5] Tseng et al. (diagonal propagation)', 'fig6.dat' index 1 using 1:3 with linespoints title '[6] Suh & Yalamanchili', 'fig6.dat' index 1 using 1:4 with linespoints title '[10] Suh & Shin', 'fig6.dat' index 1 using 1:5 with linespoints title 'proposed (AT2)'
set title '64x64 torus (Paragon: t_s 75us, t_w 0.011us/B, rho 0.014us/B)'
plot 'fig6.dat' index 2 using 1:2 with linespoints title '[5] Tseng et al. (diagonal propagation)', 'fig6.dat' index 2 using 1:3 with linespoints title '[6] Suh & Yalamanchili', 'fig6.dat' index 2 using 1:4 with linespoints title '[10] Suh & Shin', 'fig6.dat' index 2 using 1:5 with linespoints title 'proposed (AT2)'
set title '128x128 torus (Paragon: t_s 75us, t_w 0.011us/B, rho 0.014us/B)'
plot 'fig6.dat' index 3 using 1:2 with linespoints title '[5] Tseng et al. (diagonal propagation)', 'fig6.dat' index 3 using 1:3 with linespoints title '[6] Suh & Yalamanchili', 'fig6.dat' index 3 using 1:4 with linespoints title '[10] Suh & Shin', 'fig6.dat' index 3 using 1:5 with linespoints title 'proposed (AT2)'
unset multiplot
