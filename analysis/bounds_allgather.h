/* netsched — bounds of the all-gather (all-to-all broadcast) on a tree.
 *
 * After the dissertation §3.3.1 and §3.3.1.1:
 *   - every machine must receive (P−1)·msize bytes, so no algorithm beats
 *     (P−1)·msize/B, whatever the topology (§3.3.1). With links of
 *     different speeds B is the slowest machine link (each machine receives
 *     everything through its own link);
 *   - a contention-free logical ring whose longest hop traverses d switches
 *     takes about (P−1)·msize/B + (d−1)(P−1)·pkt/B on store-and-forward
 *     switches (pkt = packet size, each extra switch on the slowest hop
 *     adds one packet time per iteration) and (P−1)·msize/B on cut-through
 *     switches (§3.3.1.1, Problems 1 and 2);
 *   - a contention-free ring with d ≤ 2 exists iff every switch has at
 *     least as many directly attached machines as directly attached
 *     switches (Theorem 3); on a single switch d = 1.
 * The LR1/LR2/LR3 path lengths come from the ring builders of
 * sched/planners/allgather/allgather_ring_common_internal.h.
 */
#ifndef NETSCHED_BOUNDS_ALLGATHER_H
#define NETSCHED_BOUNDS_ALLGATHER_H

#include "platforms/model/topology.h"
#include "platforms/routing/tree.h"
#include <stdint.h>

/* Default packet size for the store-and-forward term: an Ethernet frame's
 * payload. */
#define NS_DEFAULT_PACKET 1500

/* Slowest machine link (bit/s): the B of the bounds. O(P). */
double ns_allgather_bandwidth(const NsTopology *topo);

/* (P−1)·msize·8/B in seconds: the lower bound of any all-gather. */
double ns_allgather_lower_bound(const NsTopology *topo, uint64_t msize);

/* The ring estimate (P−1)·msize·8/B + (d−1)(P−1)·pkt·8/B for a
 * contention-free ring of maximum path length d; the second term only when
 * some switch is store-and-forward. Seconds. */
double ns_allgather_ring_time(const NsTopology *topo, uint64_t msize, int d, uint64_t pkt);

/* Maximum path lengths (switches) of the rings of Algorithms 1, 2, 3;
 * −1 on a fabric other than a switch tree (lr3 with NS_ERROR_UNSUPPORTED).
 * lr2: −1 when Theorem 3's condition fails. lr3: −1 with the error of
 * ns_ring_lr3() when the exact programme refuses the topology. */
int ns_allgather_lr1_path(const NsTopology *topo);
int ns_allgather_lr2_path(const NsTopology *topo);
int ns_allgather_lr3_path(const NsTopology *topo, GError **error);

/* Everything above in one go. */
typedef struct {
  int n_machines;
  double bandwidth;           /* bit/s */
  gboolean store_and_forward; /* some switch stores and forwards */
  double time_bound;          /* s: (P−1)·msize/B */
  NsTwoHop two_hop;
  int lr1_path, lr2_path, lr3_path;     /* −1: not applicable / refused */
  double lr1_time, lr2_time, lr3_time;  /* s: ring estimates, −1 with the path */
} NsAllgatherBound;

/* Fills `out`; FALSE (with `out` filled but lr3 −1) only when LR3 refused
 * the topology. */
gboolean ns_allgather_bound(const NsTopology *topo, uint64_t msize, uint64_t pkt,
                            NsAllgatherBound *out, GError **error);

/* The all-gather figures of `bound -c allgather` on any topology: on a
 * switch tree ns_allgather_bound's; elsewhere the bound only (rings −1)
 * and FALSE with NS_ERROR_UNSUPPORTED, the logical rings needing the
 * unique paths of tree routing. */
gboolean ns_allgather_bounds(const NsTopology *topo, uint64_t msize, uint64_t pkt,
                             NsAllgatherBound *out, GError **error);

#endif
