#!/usr/bin/env python3
"""Summarises results/liu-gang/sim/*/compare.csv (netsched compare, ideal
model): for every algorithm, topology and message size the simulated time
against the lower bound, and against the bound plus the schedule's startup
terms S = sum over phases of the largest route latency of the phase (links
of 10 us, gen's default; a transfer's route latency is its hop count times
that). For ar and at2 the analytic time of Liu Gang et al.'s model with
t_s = the phase's route latency and m*t_w = msize*8/bandwidth is
S + (Lemma 2 / Lemma 4 transmission) - the same S plus the bound on these
sizes - and is compared with the simulated time.
Usage: summary.py NETSCHED  (prints Markdown)."""
import csv, glob, json, os, subprocess, sys

LINK_LATENCY = 10e-6
here = os.path.dirname(os.path.abspath(__file__))
ns = sys.argv[1]

def dims_of(topo):
    shape = topo.split(':')
    if shape[1] == 'ring':
        return [int(shape[2])]
    return [int(x) for x in shape[2].split('x')]

def hops(dims, a, b):
    h = 0
    for n in dims:
        d = abs(a % n - b % n)
        h += min(d, n - d)
        a //= n
        b //= n
    return h

def startup(topo, algo):
    out = subprocess.run([ns, 'plan', '-T', topo, '-a', algo], capture_output=True, text=True)
    if out.returncode != 0:
        return None, None
    s = json.loads(out.stdout)
    dims = dims_of(topo)
    own = {t: len(r) - 1 for t, r in s.get('routes', [])}
    total, t = 0.0, 0
    for phase in s['phases']:
        worst = 0
        for tr in phase:
            worst = max(worst, own.get(t, hops(dims, tr[0], tr[1])))
            t += 1
        total += worst * LINK_LATENCY
    return total, len(s['phases'])

rows = []
for f in sorted(glob.glob(os.path.join(here, 'sim', '*', 'compare.csv'))):
    with open(f) as fh:
        rows += list(csv.DictReader(fh))
cache = {}
print('| topology | algorithm | phases | S (us) | msize | simulated (s) | bound (s) | sim/bound | sim/(bound+S) | status |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for r in rows:
    key = (r['topology'], r['algorithm'])
    if key not in cache:
        cache[key] = startup(*key)
    S, phases = cache[key]
    if r['status'] != 'ok' or S is None:
        print(f"| {r['topology'][4:]} | {r['algorithm']} | {phases or '-'} | - | {int(r['msize_bytes'])//1024}KiB | - | - | - | - | {r['status'][:60]} |")
        continue
    t, b = float(r['completion_s']), float(r['bound_s'])
    print(f"| {r['topology'][4:]} | {r['algorithm']} | {phases} | {S*1e6:.0f} | {int(r['msize_bytes'])//1024}KiB | "
          f"{t:.6f} | {b:.6f} | {t/b:.4f} | {t/(b+S):.4f} | ok |")
