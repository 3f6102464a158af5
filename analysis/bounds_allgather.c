/* netsched — all-gather bounds and ring path lengths. See bounds_allgather.h. */
#include "analysis/bounds_allgather.h"
#include "platforms/model/error.h"
#include "platforms/routing/tree.h"
#include "sched/planners/allgather/allgather_ring_common_internal.h"

/**
 * \function ns_allgather_bandwidth
 * \brief The slowest machine link: the B of the all-gather bounds.
 *
 * \param topo A finalized topology.
 * \return Bit/s.
 * \errors none.
 * \complexity O(P).
 * \source dissertation §3.3 (all-gather: Theorem 3, Algorithms 1-3).
 */
double ns_allgather_bandwidth(const NsTopology *topo)
{
  double b = G_MAXDOUBLE;
  for (int m = 0; m < ns_topology_n_machines(topo); m++) {
    int v = ns_topology_machine_node(topo, m);
    b = MIN(b, ns_topology_link(topo, ns_topology_incident(topo, v)[0])->bandwidth);
  }
  return b;
}

/**
 * \function ns_allgather_lower_bound
 * \brief The lower bound of any all-gather: (P−1)·msize·8/B.
 *
 * \param topo A finalized topology.
 * \param msize Bytes of a block.
 * \return Seconds.
 * \errors none.
 * \complexity O(P).
 * \source dissertation §3.3 (all-gather: Theorem 3, Algorithms 1-3).
 */
double ns_allgather_lower_bound(const NsTopology *topo, uint64_t msize)
{
  int p = ns_topology_n_machines(topo);
  return (double)(p - 1) * (double)msize * 8.0 / ns_allgather_bandwidth(topo);
}

static gboolean any_store_and_forward(const NsTopology *topo)
{
  for (int v = 0; v < ns_topology_n_nodes(topo); v++) {
    const NsNode *n = ns_topology_node(topo, v);
    if (n->kind == NS_NODE_SWITCH && n->forwarding == NS_FORWARD_STORE_AND_FORWARD)
      return TRUE;
  }
  return FALSE;
}

/**
 * \function ns_allgather_ring_time
 * \brief The estimate of a contention-free ring of maximum path length d.
 *
 * \param topo A finalized topology.
 * \param msize Bytes of a block.
 * \param d The ring's maximum path length (switches).
 * \param pkt Packet size for the store-and-forward term.
 * \return Seconds: (P−1)·msize·8/B + (d−1)(P−1)·pkt·8/B, the second term only when some switch
 *        stores and forwards.
 * \errors none.
 * \complexity O(|V|).
 * \source dissertation §3.3 (all-gather: Theorem 3, Algorithms 1-3).
 */
double ns_allgather_ring_time(const NsTopology *topo, uint64_t msize, int d, uint64_t pkt)
{
  int p = ns_topology_n_machines(topo);
  double t = ns_allgather_lower_bound(topo, msize);
  if (d > 1 && any_store_and_forward(topo))
    t += (double)(d - 1) * (p - 1) * (double)pkt * 8.0 / ns_allgather_bandwidth(topo);
  return t;
}

/**
 * \function ns_allgather_lr1_path
 * \brief The maximum path length of Algorithm 1's ring (LR1).
 *
 * \param topo A finalized topology.
 * \return Switches, or −1 on a fabric other than a switch tree.
 * \errors none.
 * \complexity that of the ring's construction, O(P·depth).
 * \source dissertation §3.3, Algorithm 1.
 */
int ns_allgather_lr1_path(const NsTopology *topo)
{
  if (ns_topology_routing(topo) != NS_ROUTING_TREE)
    return -1; /* the rings are built on switch trees */
  int *ring = g_new(int, ns_topology_n_machines(topo));
  ns_ring_lr1(topo, ring);
  int d = ns_ring_max_path_length(topo, ring);
  g_free(ring);
  return d;
}

/**
 * \function ns_allgather_lr2_path
 * \brief The maximum path length of Algorithm 2's ring (LR2).
 *
 * \param topo A finalized topology.
 * \return Switches, or −1 on another fabric or when Theorem 3's condition fails.
 * \errors none.
 * \complexity O(P·depth).
 * \source dissertation §3.3, Algorithm 2, Theorem 3.
 */
int ns_allgather_lr2_path(const NsTopology *topo)
{
  if (ns_topology_routing(topo) != NS_ROUTING_TREE)
    return -1;
  int *ring = g_new(int, ns_topology_n_machines(topo));
  int d = ns_ring_lr2(topo, ring, NULL) ? ns_ring_max_path_length(topo, ring) : -1;
  g_free(ring);
  return d;
}

/**
 * \function ns_allgather_lr3_path
 * \brief The maximum path length of Algorithm 3's optimal ring (LR3).
 *
 * \param topo A finalized topology.
 * \param error Set on failure (see errors).
 * \return Switches, or −1.
 * \errors NS_ERROR_UNSUPPORTED on a fabric other than a switch tree, or the error of
 *        ns_ring_lr3() when the exact programme refuses the topology.
 * \complexity that of LR3's dynamic programme.
 * \source dissertation §3.3, Algorithm 3.
 */
int ns_allgather_lr3_path(const NsTopology *topo, GError **error)
{
  if (ns_topology_routing(topo) != NS_ROUTING_TREE) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0, "LR3 needs a switch tree");
    return -1;
  }
  int *ring = g_new(int, ns_topology_n_machines(topo)), d = -1;
  if (!ns_ring_lr3(topo, ring, &d, error))
    d = -1;
  g_free(ring);
  return d;
}

/**
 * \function ns_allgather_bound
 * \brief Every all-gather bound and ring estimate of a topology in one go.
 *
 * \param topo A finalized topology.
 * \param msize Bytes of a block.
 * \param pkt Packet size for the store-and-forward term.
 * \param out Filled (lr3 −1 when LR3 refused).
 * \param error Set on failure (see errors).
 * \return FALSE only when LR3 refused the topology.
 * \errors those of ns_allgather_lr3_path().
 * \complexity that of the three rings.
 * \source dissertation §3.3 (all-gather: Theorem 3, Algorithms 1-3).
 */
gboolean ns_allgather_bound(const NsTopology *topo, uint64_t msize, uint64_t pkt,
                            NsAllgatherBound *out, GError **error)
{
  *out = (NsAllgatherBound){ 0 };
  out->n_machines = ns_topology_n_machines(topo);
  out->bandwidth = ns_allgather_bandwidth(topo);
  out->store_and_forward = any_store_and_forward(topo);
  out->time_bound = ns_allgather_lower_bound(topo, msize);
  ns_allgather_two_hop(topo, &out->two_hop);
  out->lr1_path = ns_allgather_lr1_path(topo);
  out->lr2_path = out->two_hop.holds ? ns_allgather_lr2_path(topo) : -1;
  out->lr3_path = ns_allgather_lr3_path(topo, error);
  const int *paths[3] = { &out->lr1_path, &out->lr2_path, &out->lr3_path };
  double *times[3] = { &out->lr1_time, &out->lr2_time, &out->lr3_time };
  for (int i = 0; i < 3; i++)
    *times[i] = *paths[i] < 0 ? -1 : ns_allgather_ring_time(topo, msize, *paths[i], pkt);
  return out->lr3_path >= 0;
}

/**
 * \function ns_allgather_bounds
 * \brief The all-gather bound and ring estimates on any topology.
 *
 * On a switch tree the figures of ns_allgather_bound(); on any other
 * fabric the bound (P−1)·msize/B alone, the rings marked −1.
 *
 * \param topo A finalized topology.
 * \param msize Bytes per machine.
 * \param pkt Packet bytes for the store-and-forward estimates.
 * \param out Filled in every case.
 * \param error Where a refusal of the rings goes (may be NULL).
 * \return FALSE when the rings do not apply (not a tree) or LR3 refused the tree.
 * \errors NS_ERROR_UNSUPPORTED: not a switch tree ("logical rings need a tree
 *         topology (--spanning METHOD)"), or LR3's refusal.
 * \complexity that of ns_allgather_bound() on trees, O(|V| + |E|) otherwise.
 * \source dissertation §3.3.1.1 (the bound), §3.3.2 (the rings).
 */
gboolean ns_allgather_bounds(const NsTopology *topo, uint64_t msize, uint64_t pkt,
                             NsAllgatherBound *out, GError **error)
{
  *out = (NsAllgatherBound){ .n_machines = ns_topology_n_machines(topo), .lr1_path = -1,
                             .lr2_path = -1, .lr3_path = -1 };
  if (ns_topology_routing(topo) == NS_ROUTING_TREE)
    return ns_allgather_bound(topo, msize, pkt, out, error);
  out->bandwidth = ns_allgather_bandwidth(topo);
  out->time_bound = ns_allgather_lower_bound(topo, msize);
  out->lr1_time = out->lr2_time = out->lr3_time = -1;
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "logical rings need a tree topology (--spanning METHOD)");
  return FALSE;
}
