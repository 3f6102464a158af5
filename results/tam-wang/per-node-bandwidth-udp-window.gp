set datafile separator ","
set multiplot layout 2,3 title "Per-machine bandwidth, ns3 model: the paper's algorithms over udp-window, MPICH over tcp-persistent"
set logscale x 2; set xlabel "message size (KiB)"; set ylabel "MB/s per machine"
unset key; set yrange [0:13]
set title "16x1"
plot for [r in "shuffle-ca:udp-window:sent-received shuffle-ca:udp-window:unacked shuffle:udp-window:sent-received gpe:udp-window:unacked gpe-ca:udp-window:unacked spread:udp-window:unacked mpich:tcp-persistent: spread:tcp-persistent:"] "udp-window.csv" using (strcol(1) eq "16x1" && strcol(2).":".strcol(3).":".strcol(5) eq r ? $6/1024 : 1/0):9 with linespoints title r, 12.5 with lines dashtype 2 lc rgb "black" title "eq. 7 best"
set title "8x2"
plot for [r in "shuffle-ca:udp-window:sent-received shuffle-ca:udp-window:unacked shuffle:udp-window:sent-received gpe:udp-window:unacked gpe-ca:udp-window:unacked spread:udp-window:unacked mpich:tcp-persistent: spread:tcp-persistent:"] "udp-window.csv" using (strcol(1) eq "8x2" && strcol(2).":".strcol(3).":".strcol(5) eq r ? $6/1024 : 1/0):9 with linespoints title r, 12.07 with lines dashtype 2 lc rgb "black" title "eq. 7 best"
set title "8x3"
plot for [r in "shuffle-ca:udp-window:sent-received shuffle-ca:udp-window:unacked shuffle:udp-window:sent-received gpe:udp-window:unacked gpe-ca:udp-window:unacked spread:udp-window:unacked mpich:tcp-persistent: spread:tcp-persistent:"] "udp-window.csv" using (strcol(1) eq "8x3" && strcol(2).":".strcol(3).":".strcol(5) eq r ? $6/1024 : 1/0):9 with linespoints title r, 9.25 with lines dashtype 2 lc rgb "black" title "eq. 7 best"
set title "6x4"
plot for [r in "shuffle-ca:udp-window:sent-received shuffle-ca:udp-window:unacked shuffle:udp-window:sent-received gpe:udp-window:unacked gpe-ca:udp-window:unacked spread:udp-window:unacked mpich:tcp-persistent: spread:tcp-persistent:"] "udp-window.csv" using (strcol(1) eq "6x4" && strcol(2).":".strcol(3).":".strcol(5) eq r ? $6/1024 : 1/0):9 with linespoints title r, 10.96 with lines dashtype 2 lc rgb "black" title "eq. 7 best"
set title "8x4"
plot for [r in "shuffle-ca:udp-window:sent-received shuffle-ca:udp-window:unacked shuffle:udp-window:sent-received gpe:udp-window:unacked gpe-ca:udp-window:unacked spread:udp-window:unacked mpich:tcp-persistent: spread:tcp-persistent:"] "udp-window.csv" using (strcol(1) eq "8x4" && strcol(2).":".strcol(3).":".strcol(5) eq r ? $6/1024 : 1/0):9 with linespoints title r, 8.32 with lines dashtype 2 lc rgb "black" title "eq. 7 best"
set key center center font ",11"; unset border; unset tics; unset xlabel; unset ylabel
unset title; unset logscale x; set xrange [0:1]; set yrange [0:1]
plot for [r in "shuffle-ca:udp-window:sent-received shuffle-ca:udp-window:unacked shuffle:udp-window:sent-received gpe:udp-window:unacked gpe-ca:udp-window:unacked spread:udp-window:unacked mpich:tcp-persistent: spread:tcp-persistent:"] NaN with linespoints title (r[strlen(r):] eq ":" ? r[1:strlen(r)-1] : r), NaN with lines dashtype 2 lc rgb "black" title "eq. 7 best"
unset multiplot
