netsched-pattern 1 allgatherv 4
1KiB
0
3GiB
12kB
