/* netsched — theoretical bounds of the all-to-all on any topology.
 *
 * All-to-all personalized communication (AAPC), after Faraj & Yuan
 * "Message Scheduling for All-to-All Personalized Communication on Ethernet
 * Switched Clusters", §3 and §4.1, the dissertation §3.1, and Liu Gang et
 * al. §II for tori:
 *   - the best-case completion time is the transmission lower bound of
 *     sched/bound/lower_bound.h: on a tree the bottleneck link's |M_u|·|M_v|
 *     messages over its bandwidth (that load is the minimum number of
 *     contention-free phases), on a torus Lemma 1, on a fat tree its ports
 *     or an oversubscribed block, with different link speeds bytes over
 *     capacity;
 *   - peak aggregate throughput |M|(|M|−1)·msize / that time;
 *   - on a tree the root is a switch on a bottleneck link with every
 *     subtree holding at most |M|/2 machines (Lemma 1);
 *   - the path length of a message is the number of nodes it crosses
 *     between its ends — the switches on a switched network, the routing
 *     machines on a direct one.
 */
#ifndef NETSCHED_BOUNDS_H
#define NETSCHED_BOUNDS_H

#include "platforms/model/topology.h"
#include "platforms/routing/tree.h"
#include "sched/bound/lower_bound.h"
#include <stdint.h>

typedef struct {
  NsLowerBound bound;       /* what binds for the routing in use (sched/bound/lower_bound.h):
                               the figures below (load .. throughput_bound) are its */
  NsLowerBound cut;         /* the bound over any routing (the cut bound) */
  uint64_t load;            /* messages per link of the bottleneck when its links have
                               one speed (on a tree: |M_u|·|M_v|, the optimal phases) */
  int n_bottlenecks;        /* links reaching the bound (tree and bridge cuts) */
  int bottleneck_link;      /* a link of the bottleneck, or -1 (ports, bisections) */
  int root;                 /* tree: node id of the root switch (Lemma 1); else -1 */
  int m_u, m_v;             /* tree: machines on the two sides of bottleneck_link */
  double time_bound;        /* s: best-case completion time for msize */
  double throughput_bound;  /* bit/s: peak aggregate throughput */
  int path_min, path_max;   /* path lengths (nodes crossed) over machine pairs */
  double path_mean;
  gboolean path_sampled;    /* the path figures come from a sample of pairs */
  /* Routed all-to-all messages per directed link (every link, both
   * directions), when computed (ns_a2a_routed_loads; not past
   * NS_ROUTED_LOAD_MAX_WORK): the largest, the mean and percentiles
   * (type 7, analysis/stats.h). */
  gboolean routed_computed;
  double routed_max, routed_mean, routed_p50, routed_p90, routed_p99;
} NsA2ABound;

/* Computes the AAPC bounds for messages of `msize` bytes: both bounds, the
 * routed load distribution and the path lengths. On a tree O(|V| +
 * |M|·depth) — path statistics from subtree counts; on rings, meshes and
 * tori O(|M|·dims) from closed forms; elsewhere O(|M|·|V|) from the tree of
 * routes towards each machine (ns_a2a_routed_loads); past
 * NS_ROUTED_LOAD_MAX_WORK the routed figures are skipped (routed_computed
 * FALSE, the bound is the cut bound) and the path lengths come from the
 * routes of 2^22 seeded random pairs (path_sampled). */
void ns_a2a_bound(const NsTopology *topo, uint64_t msize, NsA2ABound *out);

#endif
