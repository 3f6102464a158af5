# summarize-ns3.py: Faraj & Yuan Figures 6-8, ns3 tcp-persistent (median, error bars: fastest and slowest seed) against the paper
set datafile separator ','
set logscale xy 2
set xlabel 'message size (KiB)'
set ylabel 'completion time (ms)'
set xrange [28:300]
set xtics (32, 64, 128, 256)
set key top left font ',8'
set grid
set multiplot layout 1,3 title 'Faraj & Yuan Figures 6-8: ns3 tcp-persistent, 3 seeds of start jitter, against the paper' noenhanced
set title 'topology (a)'
plot 'summary.csv' using (strcol(1) eq 'a' && strcol(2) eq 'simple' ? $4/1024 : 1/0):($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc 1 pt 1 title 'LAM ns3', \
     'paper.dat' using (strcol(1) eq 'a' ? $2 : 1/0):3 with linespoints dt 2 lc 1 pt 5 title 'LAM paper', \
     'summary.csv' using (strcol(1) eq 'a' && strcol(2) eq 'mpich' ? $4/1024 : 1/0):($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc 2 pt 2 title 'MPICH ns3', \
     'paper.dat' using (strcol(1) eq 'a' ? $2 : 1/0):4 with linespoints dt 2 lc 2 pt 6 title 'MPICH paper', \
     'summary.csv' using (strcol(1) eq 'a' && strcol(2) eq 'faraj:sender-all' ? $4/1024 : 1/0):($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc 3 pt 3 title 'faraj ns3', \
     'paper.dat' using (strcol(1) eq 'a' ? $2 : 1/0):5 with linespoints dt 2 lc 3 pt 7 title 'faraj paper'
set title 'topology (b)'
plot 'summary.csv' using (strcol(1) eq 'b' && strcol(2) eq 'simple' ? $4/1024 : 1/0):($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc 1 pt 1 title 'LAM ns3', \
     'paper.dat' using (strcol(1) eq 'b' ? $2 : 1/0):3 with linespoints dt 2 lc 1 pt 5 title 'LAM paper', \
     'summary.csv' using (strcol(1) eq 'b' && strcol(2) eq 'mpich' ? $4/1024 : 1/0):($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc 2 pt 2 title 'MPICH ns3', \
     'paper.dat' using (strcol(1) eq 'b' ? $2 : 1/0):4 with linespoints dt 2 lc 2 pt 6 title 'MPICH paper', \
     'summary.csv' using (strcol(1) eq 'b' && strcol(2) eq 'faraj:sender-all' ? $4/1024 : 1/0):($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc 3 pt 3 title 'faraj ns3', \
     'paper.dat' using (strcol(1) eq 'b' ? $2 : 1/0):5 with linespoints dt 2 lc 3 pt 7 title 'faraj paper'
set title 'topology (c)'
plot 'summary.csv' using (strcol(1) eq 'c' && strcol(2) eq 'simple' ? $4/1024 : 1/0):($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc 1 pt 1 title 'LAM ns3', \
     'paper.dat' using (strcol(1) eq 'c' ? $2 : 1/0):3 with linespoints dt 2 lc 1 pt 5 title 'LAM paper', \
     'summary.csv' using (strcol(1) eq 'c' && strcol(2) eq 'mpich' ? $4/1024 : 1/0):($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc 2 pt 2 title 'MPICH ns3', \
     'paper.dat' using (strcol(1) eq 'c' ? $2 : 1/0):4 with linespoints dt 2 lc 2 pt 6 title 'MPICH paper', \
     'summary.csv' using (strcol(1) eq 'c' && strcol(2) eq 'faraj:sender-all' ? $4/1024 : 1/0):($7*1e3):($6*1e3):($8*1e3) with yerrorlines lc 3 pt 3 title 'faraj ns3', \
     'paper.dat' using (strcol(1) eq 'c' ? $2 : 1/0):5 with linespoints dt 2 lc 3 pt 7 title 'faraj paper'
unset multiplot
