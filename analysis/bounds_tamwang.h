/* netsched — Tam & Wang's cost models and bounds for the complete exchange
 * on hierarchical Ethernet ("Contention-aware communication schedule for
 * high-speed communication").
 *
 * With k items of b bytes per message (k = msize / b), gap g per item,
 * latency L and software overheads O_s, O_r, U_r (§2.3, eq. 1):
 *   eq. 2  synchronous shuffle  T_sync = k(p−1)g + T_w,
 *          T_w = O_s + L − g + O_r + U_r
 *   eq. 6  generalized pairwise T_gpw = k(p−1)g + (p−1)·T_w
 *          (rounds·(kg + T_w) with p rounds for odd p, Algorithm 3)
 *   eq. 3  ν = (p − d1)·d1 / (p − 1) packets per step into each uplink port
 *   eq. 4  W_g = ⌊B_L / ν⌋ (sched/planners/alltoall/tamwang.h: the floor of the paper's worked
 *          examples; generalised there to any topology's buffer regions)
 *   eq. 7  best cross-switch time = cross-switch volume / U, U the measured
 *          effective capacity of an uplink over both directions (103 MB/s,
 *          §4.2); an uplink carries (p − d1)·d1 messages up and as many
 *          down, so the best time is 2(p − d1)·d1·msize / U and the best
 *          per-machine bandwidth (p − 1)·msize over that time:
 *              U·(p − 1) / (2(p − d1)·d1)
 *          — 12.07 (8x2), 9.25 (8x3), 10.96 (6x4), 8.32 MB/s (8x4).
 * Bandwidths here are in bytes per second (the paper's MB/s = 10^6 B/s).
 */
#ifndef NETSCHED_BOUNDS_TAMWANG_H
#define NETSCHED_BOUNDS_TAMWANG_H

#include "platforms/model/topology.h"
#include "sched/ir/sync.h"
#include "sched/planners/alltoall/tamwang.h"
#include <json-glib/json-glib.h>
#include <stdio.h>

/* §4.2: the peak aggregate bandwidth measured across the IBM 8275-326's GE
 * uplinks (Figure 6), bytes per second. */
#define NS_TW_UPLINK_MEASURED 103e6

/* Eq. 1's parameters, seconds. */
typedef struct {
  double o_s, o_r, u_r;   /* send, kernel receive and user receive overheads */
  double g;               /* gap: time between two items at the slower end */
  double l;               /* latency of one item, end to end */
} NsTwModel;

double ns_tw_t_w(const NsTwModel *m);                            /* O_s + L − g + O_r + U_r */
double ns_tw_sync_time(const NsTwModel *m, double k, int p);     /* eq. 2 */
double ns_tw_gpe_time(const NsTwModel *m, double k, int p);      /* eq. 6 */
/* Eq. 3: ν = (p − d1)·d1 / (p − 1). */
double ns_tw_nu(int p, int d1);
/* Eq. 4 on a two-level hierarchy with B_L = `buffer` at the uplink ports
 * (`control` control packets per data packet: 1 for the paper's GBN). */
int ns_tw_window_eq4(int buffer, int p, int d1, int control);
/* Eq. 7: best per-machine bandwidth (B/s) for an uplink capacity `uplink`
 * (B/s, both directions together); 0 when d1 = p (no uplink). */
double ns_tw_node_bandwidth(double uplink, int p, int d1);
/* Eq. 7: best time for messages of msize bytes, 2(p − d1)·d1·msize / U. */
double ns_tw_cross_switch_time(double uplink, uint64_t msize, int p, int d1);

typedef struct {
  int p;
  NsTwWindow window;        /* W_g from the topology's buffers (eq. 4 generalised) */
  int window_gbn;           /* the same region with one control packet per data packet */
  gboolean hierarchy;       /* the machines sit d1 to a switch (eq. 5, eq. 7 apply) */
  int d1, d2;
  uint64_t msize, item;     /* bytes per message and per item */
  double k;                 /* items per message, msize / item (eq. 1) */
  NsTwModel model;          /* g = item over the slowest machine link, L = one item
                               stored and forwarded over the longest route plus its
                               latency, no software overheads (the replay has none) */
  double t_sync, t_gpe;     /* eq. 2, eq. 6, s */
  double uplink;            /* U, B/s */
  double cross_time;        /* eq. 7, s (hierarchies with d2 > 1), else 0 */
  double node_bandwidth;    /* eq. 7, B/s, else 0 */
} NsTwBound;

/*
 * ns_tw_bound — Tam & Wang's figures for an all-to-all of msize-byte
 * messages on `topo`: W_g from its switch buffers, the eq. 2 and eq. 6
 * times from its links, and on a d1-per-switch hierarchy the eq. 7 bound for
 * an effective uplink capacity `uplink` (B/s, NS_TW_UPLINK_MEASURED for the
 * paper's). `item` 0 means the window's NS_SYNC_WINDOW_ITEM. Returns FALSE, with nothing to
 * print, when no switch of the topology declares a buffer size (found in
 * O(|V|)). Time O(|M|² · route length).
 */
gboolean ns_tw_bound(const NsTopology *topo, uint64_t msize, uint64_t item, double uplink,
                     NsTwBound *out);
/* The figures as lines for `netsched bound`. */
void ns_tw_bound_print(FILE *f, const NsTopology *topo, const NsTwBound *b);
/* The figures as a member "tam_wang" of the JSON object being built. */
void ns_tw_bound_json(JsonBuilder *j, const NsTopology *topo, const NsTwBound *b);

#endif
