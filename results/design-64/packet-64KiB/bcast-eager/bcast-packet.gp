# netsched design: designs side by side; data in bcast-packet.dat
set terminal svg size 1220,800
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'bcast-packet.svg'
set datafile missing '?'
set style fill pattern border -1
set boxwidth 0.9 absolute
set grid ytics
set style textbox opaque noborder
set xtics rotate by -30 noenhanced scale 0
set multiplot layout 2,1 margins 0.09, 0.80, 0.14, 0.88 spacing 0.07, 0.16 title 'bcast across designs (packet model, packet-level)'."\n".'fastest verified 5.94-7.75x the bound; best contention-free 5.94-7.75x the bound' noenhanced
set title '64KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:14.3454]
set xrange [-1:29]
set key at screen 0.995, screen 0.86 right top vertical noenhanced
half = 6.40421
plot 'bcast-packet.dat' index 0 using ($0*6+2.0):(0):xtic(1) with points ps 0 notitle, '' index 0 using ($0*6+0):2 with boxes title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 0 using ($0*6+1):3 with boxes title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using ($0*6+1):(column(3) > half ? column(3) : -1):12 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+1):(column(3) > half ? -1 : column(3)):12 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+2):4 with boxes title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using ($0*6+2):(column(4) > half ? column(4) : -1):13 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+2):(column(4) > half ? -1 : column(4)):13 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+3):5 with boxes title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using ($0*6+3):(column(5) > half ? column(5) : -1):14 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+3):(column(5) > half ? -1 : column(5)):14 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+4):6 with boxes title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, '' index 0 using ($0*6+4):(column(6) > half ? column(6) : -1):15 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+4):(column(6) > half ? -1 : column(6)):15 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle
set title '64KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:27.3617]
set xrange [-1:24]
unset key
half = 12.2151
plot 'bcast-packet.dat' index 0 using ($0*5+1.5):(0):xtic(1) with points ps 0 notitle, '' index 0 using ($0*5+0):8 with boxes title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using ($0*5+0):(column(8) > half ? column(8) : -1):12 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+0):(column(8) > half ? -1 : column(8)):12 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+1):9 with boxes title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using ($0*5+1):(column(9) > half ? column(9) : -1):13 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+1):(column(9) > half ? -1 : column(9)):13 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+2):10 with boxes title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using ($0*5+2):(column(10) > half ? column(10) : -1):14 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+2):(column(10) > half ? -1 : column(10)):14 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+3):11 with boxes title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, '' index 0 using ($0*5+3):(column(11) > half ? column(11) : -1):15 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+3):(column(11) > half ? -1 : column(11)):15 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, 1 with lines dashtype 2 lc 'black' title 'bound'
unset multiplot
set terminal pngcairo size 1220,800
set output (exists('netsched_output_dir') ? netsched_output_dir : '').'bcast-packet.png'
set datafile missing '?'
set style fill pattern border -1
set boxwidth 0.9 absolute
set grid ytics
set style textbox opaque noborder
set xtics rotate by -30 noenhanced scale 0
set multiplot layout 2,1 margins 0.09, 0.80, 0.14, 0.88 spacing 0.07, 0.16 title 'bcast across designs (packet model, packet-level)'."\n".'fastest verified 5.94-7.75x the bound; best contention-free 5.94-7.75x the bound' noenhanced
set title '64KiB' noenhanced
set ylabel 'completion time (ms)'
set yrange [0:14.3454]
set xrange [-1:29]
set key at screen 0.995, screen 0.86 right top vertical noenhanced
half = 6.40421
plot 'bcast-packet.dat' index 0 using ($0*6+2.0):(0):xtic(1) with points ps 0 notitle, '' index 0 using ($0*6+0):2 with boxes title 'bound' lc rgb '#999999' fill pattern 3 border -1, '' index 0 using ($0*6+1):3 with boxes title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using ($0*6+1):(column(3) > half ? column(3) : -1):12 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+1):(column(3) > half ? -1 : column(3)):12 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+2):4 with boxes title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using ($0*6+2):(column(4) > half ? column(4) : -1):13 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+2):(column(4) > half ? -1 : column(4)):13 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+3):5 with boxes title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using ($0*6+3):(column(5) > half ? column(5) : -1):14 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+3):(column(5) > half ? -1 : column(5)):14 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+4):6 with boxes title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, '' index 0 using ($0*6+4):(column(6) > half ? column(6) : -1):15 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*6+4):(column(6) > half ? -1 : column(6)):15 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle
set title '64KiB' noenhanced
set ylabel 'time / bound'
set yrange [0:27.3617]
set xrange [-1:24]
unset key
half = 12.2151
plot 'bcast-packet.dat' index 0 using ($0*5+1.5):(0):xtic(1) with points ps 0 notitle, '' index 0 using ($0*5+0):8 with boxes title 'fastest verified' lc rgb '#e7298a' fill pattern 4 border -1, '' index 0 using ($0*5+0):(column(8) > half ? column(8) : -1):12 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+0):(column(8) > half ? -1 : column(8)):12 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+1):9 with boxes title 'best contention-free' lc rgb '#1b9e77' fill pattern 5 border -1, '' index 0 using ($0*5+1):(column(9) > half ? column(9) : -1):13 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+1):(column(9) > half ? -1 : column(9)):13 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+2):10 with boxes title 'MPICH default' lc rgb '#d95f02' fill pattern 6 border -1, '' index 0 using ($0*5+2):(column(10) > half ? column(10) : -1):14 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+2):(column(10) > half ? -1 : column(10)):14 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+3):11 with boxes title 'Open MPI default' lc rgb '#7570b3' fill pattern 7 border -1, '' index 0 using ($0*5+3):(column(11) > half ? column(11) : -1):15 with labels boxed rotate by 90 right offset 0,-0.5 font ',8' noenhanced notitle, '' index 0 using ($0*5+3):(column(11) > half ? -1 : column(11)):15 with labels rotate by 90 left offset 0,0.5 font ',8' noenhanced notitle, 1 with lines dashtype 2 lc 'black' title 'bound'
unset multiplot
