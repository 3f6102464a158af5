# netsched design: designs side by side; data in alltoall-tcp.dat
set terminal svg size 2480,720
set output 'alltoall-tcp.svg'
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9
set grid ytics
set xtics rotate by -30 noenhanced
set multiplot layout 2,6 margins 0.07, 0.80, 0.14, 0.90 spacing 0.07, 0.16 title 'alltoall across designs (tcp model, fluid: contention-free schedules tie)' noenhanced
set title '8KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 0 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 0 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '16KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 1 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 1 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 1 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 1 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 1 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '32KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 2 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 2 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 2 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 2 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 2 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '64KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 3 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 3 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 3 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 3 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 3 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '128KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 4 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 4 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 4 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 4 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 4 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '256KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
set key at screen 0.995, screen 0.88 right top vertical noenhanced
plot 'alltoall-tcp.dat' index 5 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 5 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 5 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 5 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 5 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '8KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 0 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '16KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 1 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 1 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 1 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 1 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '32KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 2 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 2 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 2 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 2 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '64KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 3 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 3 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 3 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 3 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '128KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 4 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 4 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 4 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 4 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '256KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 5 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 5 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 5 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 5 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
unset multiplot
set terminal pngcairo size 2480,720
set output 'alltoall-tcp.png'
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9
set grid ytics
set xtics rotate by -30 noenhanced
set multiplot layout 2,6 margins 0.07, 0.80, 0.14, 0.90 spacing 0.07, 0.16 title 'alltoall across designs (tcp model, fluid: contention-free schedules tie)' noenhanced
set title '8KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 0 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 0 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '16KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 1 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 1 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 1 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 1 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 1 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '32KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 2 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 2 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 2 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 2 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 2 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '64KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 3 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 3 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 3 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 3 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 3 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '128KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 4 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 4 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 4 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 4 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 4 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '256KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
set key at screen 0.995, screen 0.88 right top vertical noenhanced
plot 'alltoall-tcp.dat' index 5 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 5 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 5 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 5 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 5 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '8KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 0 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '16KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 1 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 1 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 1 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 1 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '32KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 2 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 2 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 2 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 2 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '64KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 3 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 3 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 3 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 3 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '128KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 4 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 4 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 4 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 4 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
set title '256KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-tcp.dat' index 5 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 5 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 5 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 5 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
unset multiplot
