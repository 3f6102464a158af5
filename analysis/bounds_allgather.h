/* netsched — bounds of the all-gather (all-to-all broadcast).
 *
 * After the dissertation §3.3.1 and §3.3.1.1 (one-port machines):
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
 * Machines with several ports (all-port tori, k-port machines: Liu Gang
 * et al. §II) receive their P−1 blocks through all their ports at once:
 *   - fluid, blocks split across ports: (P−1)·msize/(Σ of the ports'
 *     bandwidths) = (P−1)·msize/(ports·B) with equal links — the receive
 *     side of Liu Gang et al.'s port argument (§II) applied to the
 *     all-gather's P−1 incoming blocks (Bermond, Kodate & Pérennes'
 *     ⌈(P−1)/Δ⌉ rounds with packets);
 *   - whole blocks, as a schedule moves them (the IR's all-gather chunk is
 *     the block): ⌈(P−1)/ports⌉·msize/B, or a cut (a grid's bisection, a
 *     bridge) when larger — sched/bound's ns_lower_bound, the bound the
 *     verifier's `optimal` check and the design study use. This is the
 *     all-gather bound of such fabrics (time_bound); on one-port fabrics
 *     the bound stays (P−1)·msize/B.
 * The LR1/LR2/LR3 path lengths come from the ring builders of
 * sched/planners/allgather/allgather_ring_common_internal.h.
 */
#ifndef NETSCHED_BOUNDS_ALLGATHER_H
#define NETSCHED_BOUNDS_ALLGATHER_H

#include "platforms/model/topology.h"
#include "platforms/routing/tree.h"
#include "sched/bound/lower_bound.h"
#include <stdint.h>

/* Default packet size for the store-and-forward term: an Ethernet frame's
 * payload. */
#define NS_DEFAULT_PACKET 1500

/* Slowest machine link (bit/s): the B of the bounds. O(P). */
double ns_allgather_bandwidth(const NsTopology *topo);

/* The lower bound of any all-gather, in seconds, for the machines' port
 * model: (P−1)·msize·8/B when every machine is 1-port; otherwise the
 * whole-block port and cut bound of ns_lower_bound (⌈(P−1)/ports⌉·msize·8/B
 * on an all-port torus, the bisection when larger). */
double ns_allgather_lower_bound(const NsTopology *topo, uint64_t msize);

/* The most ports of any machine (ns_topology_machine_ports): 1 when every
 * machine is 1-port. The all-gather's and the broadcast's bounds change
 * with it. O(P). */
int ns_bounds_max_ports(const NsTopology *topo);

/* (P−1)·msize·8 over the summed bandwidth of a machine's ports (its
 * fastest `ports` links), the largest over the machines: the bound when
 * blocks may be split across ports ((P−1)·msize/(ports·B) with equal
 * links). Seconds. O(|V| + |E|). */
double ns_allgather_fluid_bound(const NsTopology *topo, uint64_t msize);

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
  double time_bound;          /* s: the port model's bound (ns_allgather_lower_bound):
                                 (P−1)·msize/B on one-port fabrics */
  int max_ports;              /* the most ports of a machine; 1: one-port fabric */
  NsLowerBound port_model;    /* max_ports > 1: what binds time_bound (whole blocks) */
  double fluid_bound;         /* s: blocks split across ports (ns_allgather_fluid_bound) */
  double one_port_bound;      /* s: (P−1)·msize/B, the one-port figure */
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
