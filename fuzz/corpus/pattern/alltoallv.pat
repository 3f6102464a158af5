# two machines
netsched-pattern 1 alltoallv 3
0 64KiB 1KiB
2B 0 1MB # row 1
8b 16KiB 0
