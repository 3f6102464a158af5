# netsched design: designs side by side; data in alltoall-packet.dat
set terminal svg size 1120,720
set output 'alltoall-packet.svg'
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9
set grid ytics
set xtics rotate by -30 noenhanced
set multiplot layout 2,1 margins 0.07, 0.80, 0.14, 0.90 spacing 0.07, 0.16 title 'alltoall across designs (packet model)' noenhanced
set title '64KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
set key at screen 0.995, screen 0.88 right top vertical noenhanced
plot 'alltoall-packet.dat' index 0 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 0 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '64KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-packet.dat' index 0 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
unset multiplot
set terminal pngcairo size 1120,720
set output 'alltoall-packet.png'
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9
set grid ytics
set xtics rotate by -30 noenhanced
set multiplot layout 2,1 margins 0.07, 0.80, 0.14, 0.90 spacing 0.07, 0.16 title 'alltoall across designs (packet model)' noenhanced
set title '64KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:*]
set key at screen 0.995, screen 0.88 right top vertical noenhanced
plot 'alltoall-packet.dat' index 0 using 2:xtic(1) title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 0 using 3 title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using 4 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using 5 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using 6 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1
set title '64KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:*]
unset key
plot 'alltoall-packet.dat' index 0 using 8:xtic(1) title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using 9 title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using 10 title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using 11 title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, 1 with lines dashtype 2 lc 'black' title 'bound'
unset multiplot
