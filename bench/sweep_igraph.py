#!/usr/bin/env python3
# sweep_igraph.py — the path statistics of a netsched sweep row (path_min,
# path_mean, path_max, path_hist: docs/sweeps.md, "Rows"), computed with
# python-igraph on the GraphML files netsched wrote for the same topologies.
# Run by bench/sweep_vs_igraph.sh; prints "igraph-rate LOAD_AND_STATS STATS"
# (topologies per second of CPU time) and exits 1 when a histogram differs
# from netsched's.
#
#   sweep_igraph.py ROWS.jsonl DIR     (DIR/<task>.graphml for every row)
#
# The statistics as netsched computes them (analysis/sweep_metrics.c): every
# machine is a leaf on a switch; a pair of machines on switches at distance
# d crosses d + 1 switches; the histogram counts the P(P-1) ordered pairs.
# igraph does the searches (one breadth-first search per host switch, in C,
# on the switch graph); Python only weighs the distances by the machine
# counts, which is the cheapest way python-igraph offers.
import json
import os
import sys
import time

import igraph


def statistics(g):
    kind = g.vs["kind"]
    switches = [v for v in range(g.vcount()) if kind[v] == "switch"]
    index = {v: i for i, v in enumerate(switches)}
    count = [0] * len(switches)
    for v in range(g.vcount()):
        if kind[v] == "machine":
            count[index[g.neighbors(v)[0]]] += 1
    sub = g.induced_subgraph(switches)
    hosts = [i for i, c in enumerate(count) if c > 0]
    weight = [count[i] for i in hosts]
    hist = {}
    for row, ca in zip(sub.distances(source=hosts, target=hosts), weight):
        for d, cb in zip(row, weight):
            hist[d + 1] = hist.get(d + 1, 0) + ca * cb
    same = sum(c * c - c * (c - 1) for c in weight)  # a machine is no pair with itself
    hist[1] -= same
    out = [0] * (max(hist) + 1)
    for h, c in hist.items():
        out[h] = c
    return out


def main():
    rows_path, directory = sys.argv[1], sys.argv[2]
    rows = [json.loads(line) for line in open(rows_path, encoding="utf-8")][1:]
    files = [os.path.join(directory, "%d.graphml" % r["task"]) for r in rows]
    cpu0 = time.process_time()
    graphs = [igraph.Graph.Read_GraphML(f) for f in files]
    cpu1 = time.process_time()
    hists = [statistics(g) for g in graphs]
    cpu2 = time.process_time()
    differ = 0
    for r, h in zip(rows, hists):
        pairs = sum(h)
        mean = sum(i * c for i, c in enumerate(h)) / pairs
        lo = min(i for i, c in enumerate(h) if c > 0)
        if (h != [int(c) for c in r["path_hist"]] or lo != r["path_min"]
                or len(h) - 1 != r["path_max"] or abs(mean - r["path_mean"]) > 1e-9 * mean):
            differ += 1
            print("task %d (%s): igraph %s, netsched %s" % (r["task"], r["topology"], h,
                                                           r["path_hist"]), file=sys.stderr)
    n = len(rows)
    print("igraph-rate %.6g %.6g" % (n / (cpu2 - cpu0), n / (cpu2 - cpu1)))
    if differ:
        print("%d of %d histograms differ from netsched's" % (differ, n), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
