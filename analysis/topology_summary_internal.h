/* netsched — what `topo show` reports of a topology, any fabric, computed
 * once for its text and its JSON (cli/topo_show.c prints them): the
 * all-to-all bound and path lengths, link speed and latency ranges, port
 * models, the routing in words, on fabrics of several ports the
 * all-gather's port-model bound, the reductions' bounds (docs/verify.md,
 * "Bounds of the reductions"), and on trees the 2-hop condition
 * (Theorem 3) and the LR1/LR2/LR3 rings' path lengths. */
#ifndef NETSCHED_TOPOLOGY_SUMMARY_H
#define NETSCHED_TOPOLOGY_SUMMARY_H

#include "analysis/bounds.h"
#include "analysis/bounds_allgather.h"

typedef struct {
  NsA2ABound a2a;                /* bottleneck, root (trees), path lengths */
  double bw_min, bw_max, lat_min, lat_max;
  int ports_one, ports_all, ports_k;
  char *routing;                 /* the routing rule in words */
  char *bottleneck;              /* what binds the all-to-all (the routing in use) */
  char *cut;                     /* what binds it over any routing */
  gboolean tree;
  NsTwoHop two_hop;              /* trees: Theorem 3 */
  int lr1, lr2, lr3;             /* trees: ring path lengths, -1 n/a */
  int max_ports;                 /* the most ports of a machine (1: one-port fabric) */
  NsLowerBound allgather;        /* max_ports > 1: the all-gather's bound, 1-byte blocks */
  char *allgather_bottleneck;    /* max_ports > 1: what binds it, else NULL */
  double allgather_fluid;        /* max_ports > 1: blocks split across ports, s per byte */
  char *lr3_error;
  NsLowerBound reduce;           /* a reduce to the first machine, fluid, 1 byte (s per byte) */
  NsLowerBound allreduce;        /* an all-reduce, the same */
  char *reduce_bottleneck, *allreduce_bottleneck; /* what binds them */
} NsTopologySummary;

/* Fills `s` (released with ns_topology_summary_clear). Time: the
 * all-to-all bound, O(|L| + |M|), and on trees the rings' (LR3's
 * programme). A ring that cannot be built is `lr3_error`, not a failure. */
void ns_topology_summarize(const NsTopology *t, NsTopologySummary *s);
void ns_topology_summary_clear(NsTopologySummary *s);

#endif
